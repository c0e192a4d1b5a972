import { todayInParis } from "~/domain/dates";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { DatabaseHandle, DB } from "../../db";
import { buildFile, createAccount, type CreatedAccount } from "../../db/factories";
import { openTestDatabase } from "../../../../tests/support/test-database";
import { newId } from "../../ids";
import type { DistanceResult, GeoAddress, Geodata } from "../../providers/geodata/port";
import { SandboxMessenger } from "../../providers/messaging/sandbox";
import { createAllowanceDraft, getAllowanceDraft } from "./drafts";
import {
  ALLOWANCES_PAGE_SIZE,
  allowanceGroups,
  allowanceTypesFor,
  cancelAllowance,
  capStatus,
  createAllowance,
  getAllowance,
  listAllowances,
  simulateAllowance,
  type AllowanceDeps,
  type AllowanceProblems,
  type DistanceInput,
  type SubscriptionInput,
} from "./requests";
import { payDueAllowancePayouts } from "./payouts";
import { listAllowancesAwaitingReview, reviewAllowance } from "./review";
import { defaultNotificationPreferences, saveNotificationPreferences } from "../notification-preferences";
import type { AllowanceType } from "~/domain/allowances";
import { problem } from "~/domain/problems";

/**
 * The allowance platform on a real database (SQLite, and PostgreSQL with TEST_DATABASE_URL), on a fixed
 * clock: today is Friday 20 November 2026 (Paris) whatever the machine's date.
 */
const TODAY = "2026-11-20";
const NOW = new Date("2026-11-20T10:00:00Z");
const GOOD_IBAN = "FR76 3000 6000 0112 3456 7890 189";

let handle: DatabaseHandle;
let db: DB;
let messenger: SandboxMessenger;
let deps: AllowanceDeps;

/**
 * A Geodata made for the test: the known postcodes sit on a line, the distance is the gap between them
 * (69003 → 69006: 3 622 m one way, so a 7,24 km round trip). Every call is recorded.
 */
const POSITIONS: Record<string, number> = { "69003": 0, "69006": 3622, "69100": 5000, "75002": 465_000 };
const calls: { home: GeoAddress; work: GeoAddress }[] = [];
const geodata: Geodata = {
  name: "offline",
  locate(address) {
    if (address.country !== "FR") return Promise.resolve({ kind: "unsupportedCountry" });
    const at = POSITIONS[address.zipcode];
    return Promise.resolve(
      at === undefined
        ? { kind: "unknownPostcode" }
        : { kind: "found", point: { lat: 45 + at / 111_000, lon: 4.85 }, label: address.city },
    );
  },
  distance(home, work): Promise<DistanceResult> {
    calls.push({ home, work });
    for (const [field, address] of [
      ["home_address", home],
      ["work_address", work],
    ] as const) {
      if (address.country !== "FR") return Promise.resolve({ kind: "notLocated", field, reason: "unsupportedCountry" });
      if (POSITIONS[address.zipcode] === undefined)
        return Promise.resolve({ kind: "notLocated", field, reason: "unknownPostcode" });
    }
    return Promise.resolve({
      kind: "measured",
      oneWayMeters: Math.abs(POSITIONS[work.zipcode]! - POSITIONS[home.zipcode]!),
      source: "estimate",
    });
  },
};

beforeAll(async () => {
  handle = await openTestDatabase();
  db = handle.db;
  messenger = new SandboxMessenger(db);
  deps = { db, geodata, messenger };
}, 60_000);
afterAll(() => handle.close());

const EVERY_TYPE = { any: true, carpooling: true, bicycle: true, subscription: true };

let counter = 0;
async function account(
  allowances: Record<string, boolean | string[]> = EVERY_TYPE,
  otherFunders: string[] = [],
): Promise<CreatedAccount> {
  counter += 1;
  return createAccount(db, {
    email: `allowances-${counter}-${newId("e")}@example.com`,
    passwordHash: "unused",
    funder: "CSE Acme",
    otherFunders: otherFunders.map((name) => ({ name })),
    features: { allowances },
  });
}

async function groupIdOf(a: CreatedAccount, name: string): Promise<string> {
  const row = await db
    .selectFrom("memberships as m")
    .innerJoin("groups as g", "g.id", "m.group_id")
    .select("g.id")
    .where("m.user_id", "=", a.userId)
    .where("g.name", "=", name)
    .executeTakeFirstOrThrow();
  return row.id;
}

async function setPolicy(groupId: string, policy: { rate?: number; cap?: number; share?: number }) {
  await db
    .updateTable("groups")
    .set({
      ...(policy.rate !== undefined ? { mobility_rate_per_km: policy.rate } : {}),
      ...(policy.cap !== undefined ? { mobility_yearly_cap: policy.cap } : {}),
      ...(policy.share !== undefined ? { subscription_share_percent: policy.share } : {}),
    })
    .where("id", "=", groupId)
    .execute();
}

async function file(userId: string): Promise<string> {
  const row = buildFile({ user_id: userId });
  await db.insertInto("files").values(row).execute();
  return row.id;
}

const HOME: GeoAddress = { line1: "8 rue des Lilas", zipcode: "69003", city: "Lyon", country: "FR" };
const WORK: GeoAddress = { line1: "3 avenue Foch", zipcode: "69006", city: "Lyon", country: "FR" };

function carpooling(a: CreatedAccount, overrides: Partial<DistanceInput> = {}): DistanceInput {
  return {
    type: "carpooling",
    groupId: a.groupId,
    home: HOME,
    work: WORK,
    daysAtOffice: 3,
    iban: GOOD_IBAN,
    startAt: "2026-09-01",
    endsAt: "2026-11-20",
    travelRole: "driver",
    declaredOneWayMeters: null,
    ...overrides,
  };
}

async function subscription(a: CreatedAccount, overrides: Partial<SubscriptionInput> = {}): Promise<SubscriptionInput> {
  return {
    type: "subscription",
    groupId: a.groupId,
    startAt: "2026-11-01",
    endsAt: "2026-12-31",
    amount: 8650,
    iban: GOOD_IBAN,
    mediaId: await file(a.userId),
    secondMediaId: await file(a.userId),
    ...overrides,
  };
}

async function confirm(a: CreatedAccount, input: DistanceInput | SubscriptionInput, draftId?: string) {
  const id = draftId ?? (await createAllowanceDraft(db, a.userId, input.type)).id;
  return createAllowance(deps, a.userId, { ...input, draftId: id, swornStatement: true }, TODAY, NOW);
}

async function created(a: CreatedAccount, input: DistanceInput | SubscriptionInput): Promise<string> {
  const result = await confirm(a, input);
  if (result.kind !== "created") throw new Error(`not created: ${JSON.stringify(result)}`);
  return result.allowanceId;
}

const allowanceRows = (userId: string) =>
  db.selectFrom("allowances").selectAll().where("user_id", "=", userId).orderBy("created_at").execute();

async function outboxFor(email: string) {
  return db.selectFrom("outbox").select(["subject", "body"]).where("recipient", "=", email).execute();
}

describe("types and groups follow the features", () => {
  test("true: every group of the employee, ordered by name; a list: those groups only", async () => {
    const a = await account({ any: true, carpooling: true, bicycle: [], subscription: false }, ["Acme France"]);
    expect(await allowanceTypesFor(db, a.userId)).toEqual(["carpooling"]);
    expect((await allowanceGroups(db, a.userId, "carpooling")).map((g) => g.name)).toEqual(["Acme France", "CSE Acme"]);
    const cse = await groupIdOf(a, "CSE Acme");
    await db
      .updateTable("users")
      .set({ features: JSON.stringify({ allowances: { any: true, carpooling: [cse], subscription: true } }) })
      .where("id", "=", a.userId)
      .execute();
    expect(await allowanceTypesFor(db, a.userId)).toEqual(["carpooling", "subscription"]);
    const groups = await allowanceGroups(db, a.userId, "carpooling");
    expect(groups).toEqual([
      {
        id: cse,
        name: "CSE Acme",
        address: { line1: "12 rue de la Paix", zipcode: "75002", city: "Paris", country: "FR" },
        ratePerKm: 25,
        yearlyCap: 60000,
        subscriptionShare: 50,
      },
    ]);
  });

  test("a list naming only other people's groups allows nothing; no features, nothing", async () => {
    const other = await account();
    const a = await account({ any: true, bicycle: [other.groupId] });
    expect(await allowanceTypesFor(db, a.userId)).toEqual([]);
    expect(await allowanceGroups(db, a.userId, "bicycle")).toEqual([]);
    const none = await account({ any: false });
    expect(await allowanceTypesFor(db, none.userId)).toEqual([]);
    expect(await allowanceTypesFor(db, "usr_nobody")).toEqual([]);
  });
});

describe("the simulation", () => {
  test("carpooling: the provider's distance, the group's rate, the cap left, the months", async () => {
    const a = await account();
    calls.length = 0;
    const result = await simulateAllowance(deps, a.userId, carpooling(a), TODAY);
    expect(calls).toHaveLength(1);
    expect(result).toMatchObject({
      kind: "simulated",
      simulation: {
        type: "carpooling",
        group: { id: a.groupId, name: "CSE Acme", ratePerKm: 25 },
        estimateMeters: 3622,
        declaredMeters: null,
        source: "estimate",
        result: {
          distanceRoundtrip: "7.24",
          allowanceBeforeCap: 543, // 7,24 km × 3 days × 0,25 €
          allowance: 543,
          numberOfMonths: 3,
          perMonth: 181,
          capRemainingBefore: 60000,
          capped: false,
        },
      },
    });
  });

  test("a declared one-way distance replaces the estimate (both kept); under 1 m or not whole metres it is refused", async () => {
    const a = await account();
    const result = await simulateAllowance(deps, a.userId, carpooling(a, { declaredOneWayMeters: 5000 }), TODAY);
    expect(result).toMatchObject({
      kind: "simulated",
      simulation: {
        estimateMeters: 3622,
        declaredMeters: 5000,
        result: { distanceRoundtrip: "10.00", allowance: 750 },
      },
    });
    for (const declared of [0, -5, 12.5]) {
      expect(await simulateAllowance(deps, a.userId, carpooling(a, { declaredOneWayMeters: declared }), TODAY)).toEqual(
        { kind: "invalid", problems: [problem("distance", "distanceInvalid")] },
      );
    }
  });

  test("the declared distance's bound by mode (decision 0049): 50 km by bicycle, 200 km carpooling; none is stored above", async () => {
    const a = await account();
    const bicycle = (declared: number) =>
      carpooling(a, { type: "bicycle", travelRole: null, declaredOneWayMeters: declared });
    const refused = (type: string) => ({
      kind: "invalid",
      problems: [problem("distance", type === "bicycle" ? "distanceTooLongBicycle" : "distanceTooLongCarpooling")],
    });
    for (const [input, accepted] of [
      [bicycle(49_999), true],
      [bicycle(50_000), true],
      [bicycle(50_001), false],
      [bicycle(511_630), false],
      [carpooling(a, { declaredOneWayMeters: 199_999 }), true],
      [carpooling(a, { declaredOneWayMeters: 200_000 }), true],
      [carpooling(a, { declaredOneWayMeters: 200_001 }), false],
    ] as const) {
      const result = await simulateAllowance(deps, a.userId, input, TODAY);
      if (accepted) expect(result, JSON.stringify(input.declaredOneWayMeters)).toMatchObject({ kind: "simulated" });
      else expect(result, JSON.stringify(input.declaredOneWayMeters)).toEqual(refused(input.type));
    }
    // The confirmation checks it again: nothing is written.
    expect(await confirm(a, bicycle(50_001))).toEqual(refused("bicycle"));
    expect(await confirm(a, carpooling(a, { declaredOneWayMeters: 200_001 }))).toEqual(refused("carpooling"));
    expect(await allowanceRows(a.userId)).toEqual([]);
  });

  test("every bad input is refused on its field", async () => {
    const a = await account();
    const other = await account();
    const cases: [Partial<DistanceInput>, AllowanceProblems][] = [
      [{ groupId: other.groupId }, [problem("group_id", "groupNotAllowed")]],
      [{ groupId: "grp_unknown" }, [problem("group_id", "groupNotAllowed")]],
      [{ endsAt: "2026-11-21" }, [problem("ends_at", "endAfterToday")]],
      [{ startAt: "2025-12-01" }, [problem("start_at", "startDateInvalid")]],
      [{ startAt: "2026-02-30" }, [problem("start_at", "startDateInvalid")]],
      [{ startAt: "", endsAt: "" }, [problem("start_at", "startRequired"), problem("ends_at", "endRequired")]],
      [{ endsAt: "2026-08-31" }, [problem("ends_at", "endBeforeStart")]],
      [{ startAt: "2026-11-15", endsAt: "2026-11-15" }, [problem("days_at_office", "noWorkingDay")]],
      [{ daysAtOffice: 0 }, [problem("days_at_office", "daysAtOfficeRange")]],
      // Sunday 1 to Saturday 7 November: 6 days without the Sunday.
      [
        { startAt: "2026-11-01", endsAt: "2026-11-07", daysAtOffice: 7 },
        [problem("days_at_office", "daysAtOfficeRange")],
      ],
      [{ daysAtOffice: 2.5 }, [problem("days_at_office", "daysAtOfficeRange")]],
      [{ travelRole: null }, [problem("travel_role", "travelRoleRequired")]],
      [{ travelRole: "pilot" as never }, [problem("travel_role", "travelRoleRequired")]],
      [{ iban: "FR76 3000 6000 0112 3456 7890 188" }, [problem("iban", "ibanChecksum")]],
      [{ iban: "" }, [problem("iban", "ibanRequired")]],
      [{ home: { ...HOME, zipcode: "99999" } }, [problem("home_address", "unknownPostcode")]],
      [{ work: { ...WORK, country: "BE" } }, [problem("work_address", "unsupportedCountry")]],
      [{ home: { ...HOME, line1: "rue des Lilas" } }, [problem("home_address", "addStreetNumber")]],
      [{ home: { ...HOME, line1: `8 ${"x".repeat(60)}` } }, [problem("home_address", "maxLength50")]],
    ];
    for (const [overrides, problems] of cases) {
      expect(
        await simulateAllowance(deps, a.userId, carpooling(a, overrides), TODAY),
        JSON.stringify(overrides),
      ).toEqual({ kind: "invalid", problems });
    }
    // The days at the office are checked against the period's maximum: 6 of 6 pass.
    expect(
      (
        await simulateAllowance(
          deps,
          a.userId,
          carpooling(a, { startAt: "2026-11-01", endsAt: "2026-11-07", daysAtOffice: 6 }),
          TODAY,
        )
      ).kind,
    ).toBe("simulated");
  });

  test("bicycle: no travel role needed; a type not allowed is refused whole", async () => {
    const a = await account({ any: true, bicycle: true });
    const bicycle = { ...carpooling(a), type: "bicycle" as const, travelRole: null };
    expect((await simulateAllowance(deps, a.userId, bicycle, TODAY)).kind).toBe("simulated");
    expect(await simulateAllowance(deps, a.userId, carpooling(a), TODAY)).toEqual({
      kind: "invalid",
      problems: [problem("type", "typeNotAllowed")],
    });
    expect(
      await simulateAllowance(
        deps,
        a.userId,
        { ...carpooling(a), type: "taxi" as AllowanceType } as DistanceInput,
        TODAY,
      ),
    ).toEqual({ kind: "invalid", problems: [problem("type", "typeNotAllowed")] });
  });

  test("subscription: the group's share (75 % until 2026), rounded to the cent, over the months", async () => {
    const a = await account();
    await setPolicy(a.groupId, { share: 75 });
    const result = await simulateAllowance(deps, a.userId, await subscription(a), TODAY);
    expect(result).toMatchObject({
      kind: "simulated",
      simulation: {
        type: "subscription",
        group: { id: a.groupId, subscriptionShare: 75 },
        result: { percentage: 75, allowance: 6488, perMonth: 3244, numberOfMonths: 2, shareLowered: false },
      },
    });
  });

  test("subscription: amount, both documents (the user's own), end within the year", async () => {
    const a = await account();
    const other = await account();
    const theirs = await file(other.userId);
    const mine = await file(a.userId);
    const cases: [Partial<SubscriptionInput>, AllowanceProblems][] = [
      [{ amount: 0 }, [problem("amount", "amountInvalid")]],
      [{ amount: -100 }, [problem("amount", "amountInvalid")]],
      [{ amount: 12.5 }, [problem("amount", "amountInvalid")]],
      [{ amount: "12" as never }, [problem("amount", "amountInvalid")]],
      [{ amount: 100_000_001 }, [problem("amount", "subscriptionAmountTooBig")]],
      [{ mediaId: null }, [problem("media", "mediaRequired")]],
      [{ secondMediaId: null }, [problem("second_media", "secondMediaRequired")]],
      [{ mediaId: theirs }, [problem("media", "mediaRequired")]],
      [{ secondMediaId: theirs }, [problem("second_media", "secondMediaRequired")]],
      [{ mediaId: mine, secondMediaId: mine }, [problem("second_media", "secondMediaRequired")]],
      [{ endsAt: "2027-01-31" }, [problem("ends_at", "endDateLastDayOfYearInvalid")]],
      [{ groupId: other.groupId }, [problem("group_id", "groupNotAllowed")]],
    ];
    for (const [overrides, problems] of cases) {
      expect(
        await simulateAllowance(deps, a.userId, await subscription(a, overrides), TODAY),
        JSON.stringify(overrides),
      ).toEqual({ kind: "invalid", problems });
    }
  });
});

describe("the subscription price's bound (decision 0049): 1 000 € per month of the period", () => {
  const TOO_BIG = { kind: "invalid", problems: [problem("amount", "subscriptionAmountTooBig")] };

  test("November and December: 2 000 € (just below, at, just above); a single month: 1 000 €", async () => {
    const a = await account();
    for (const amount of [199_999, 200_000])
      expect(
        await simulateAllowance(deps, a.userId, await subscription(a, { amount }), TODAY),
        String(amount),
      ).toMatchObject({ kind: "simulated" });
    expect(await simulateAllowance(deps, a.userId, await subscription(a, { amount: 200_001 }), TODAY)).toEqual(TOO_BIG);
    const december = { startAt: "2026-12-01", endsAt: "2026-12-31" };
    expect(
      await simulateAllowance(deps, a.userId, await subscription(a, { ...december, amount: 100_000 }), TODAY),
    ).toMatchObject({ kind: "simulated" });
    expect(
      await simulateAllowance(deps, a.userId, await subscription(a, { ...december, amount: 100_001 }), TODAY),
    ).toEqual(TOO_BIG);
  });

  test("the probe's 999 999,99 € is refused at confirmation and nothing is stored; a wrong period still bounds it", async () => {
    const a = await account();
    expect(await confirm(a, await subscription(a, { amount: 99_999_999 }))).toEqual(TOO_BIG);
    expect(await allowanceRows(a.userId)).toEqual([]);
    // With the end after 31 December, the bound is the longest period's (12 000 €).
    const late = { endsAt: "2027-01-31" };
    expect(
      await simulateAllowance(deps, a.userId, await subscription(a, { ...late, amount: 1_200_001 }), TODAY),
    ).toEqual({
      kind: "invalid",
      problems: [problem("ends_at", "endDateLastDayOfYearInvalid"), problem("amount", "subscriptionAmountTooBig")],
    });
    expect(await simulateAllowance(deps, a.userId, await subscription(a, { ...late, amount: 500_000 }), TODAY)).toEqual(
      {
        kind: "invalid",
        problems: [problem("ends_at", "endDateLastDayOfYearInvalid")],
      },
    );
    // An honest price of the same period goes through.
    expect(await confirm(a, await subscription(a, { amount: 8640 }))).toMatchObject({ kind: "created" });
  });
});

describe("the yearly caps", () => {
  test("allowances sent, approved or paid count in the year of their start; refused and cancelled do not", async () => {
    const a = await account({ any: true, carpooling: true, bicycle: true, subscription: true }, ["Acme France"]);
    const acme = await groupIdOf(a, "Acme France");
    await created(a, carpooling(a, { declaredOneWayMeters: 20_000, daysAtOffice: 30 })); // 40 km × 30 × 0,25 € = 300 €
    await created(a, {
      ...carpooling(a, { groupId: acme, declaredOneWayMeters: 10_000, daysAtOffice: 20 }),
      type: "bicycle",
      travelRole: null,
    }); // 100 €
    expect(await capStatus(db, a.userId, a.groupId, 2026)).toEqual({
      remaining: 20000, // 600 € − 300 € − 100 € (the per-employee cap binds before the group's)
      groupCap: 60000,
      usedWithGroup: 30000,
      usedAllGroups: 40000,
      transportShares: 0,
    });
    expect((await capStatus(db, a.userId, acme, 2026)).remaining).toBe(20000);
    expect((await capStatus(db, a.userId, a.groupId, 2025)).remaining).toBe(60000);
    // Both were made at NOW: the carpooling one by its type, not by an order of equal times.
    const first = (await allowanceRows(a.userId)).find((r) => r.type === "carpooling");
    expect((await capStatus(db, a.userId, a.groupId, 2026, { exceptAllowanceId: first!.id })).remaining).toBe(50000);
    await reviewAllowance(db, first!.id, { kind: "refuse", reason: "Justificatif manquant" }, { now: NOW });
    expect((await capStatus(db, a.userId, a.groupId, 2026)).remaining).toBe(50000);
    // Another person's group has no cap for this employee.
    const other = await account();
    expect((await capStatus(db, a.userId, other.groupId, 2026)).remaining).toBe(0);
  });

  test("an allowance passing the cap is reduced to what is left, and says so; none left refuses it", async () => {
    const a = await account();
    await setPolicy(a.groupId, { cap: 40000 });
    await created(a, carpooling(a, { declaredOneWayMeters: 20_000, daysAtOffice: 30 })); // 300 €
    const sim = await simulateAllowance(
      deps,
      a.userId,
      carpooling(a, { declaredOneWayMeters: 20_000, daysAtOffice: 30 }),
      TODAY,
    );
    expect(sim).toMatchObject({
      kind: "simulated",
      simulation: {
        result: {
          allowanceBeforeCap: 30000,
          allowance: 10000,
          capped: true,
          capRemainingBefore: 10000,
          capRemainingAfter: 0,
        },
      },
    });
    const id = await created(a, carpooling(a, { declaredOneWayMeters: 20_000, daysAtOffice: 30 }));
    expect(await getAllowance(db, a.userId, id)).toMatchObject({
      amount: 10000,
      amountBeforeCap: 30000,
      capRemainingBefore: 10000,
    });
    expect(await confirm(a, carpooling(a))).toEqual({
      kind: "invalid",
      problems: [problem("amount", "capReached")],
    });
    expect(await allowanceRows(a.userId)).toHaveLength(2);
  });

  test("public-transport shares and the forfait stay within 900 € together", async () => {
    const a = await account();
    await setPolicy(a.groupId, { share: 75 });
    // 600 € subscription at 75 %: 450 € of transport share.
    await created(a, await subscription(a, { amount: 60000, startAt: "2026-01-01", endsAt: "2026-12-31" }));
    expect(await capStatus(db, a.userId, a.groupId, 2026)).toMatchObject({ transportShares: 45000, remaining: 45000 });
    await created(a, carpooling(a, { declaredOneWayMeters: 20_000, daysAtOffice: 40 })); // 400 € asked
    expect(await capStatus(db, a.userId, a.groupId, 2026)).toMatchObject({ usedAllGroups: 40000, remaining: 5000 });
  });
});

describe("the confirmation", () => {
  test("creates the allowance from the server's figures, signed today, with a notification and an e-mail", async () => {
    const a = await account();
    const draft = await createAllowanceDraft(db, a.userId, "carpooling");
    // The browser posts its own amount: never read.
    const posted = { ...carpooling(a), amount: 999_999, allowance: 999_999, monthlyAmount: 1 } as DistanceInput;
    const result = await createAllowance(
      deps,
      a.userId,
      { ...posted, draftId: draft.id, swornStatement: true },
      TODAY,
      NOW,
    );
    expect(result.kind).toBe("created");
    if (result.kind !== "created") return;
    const [row] = await allowanceRows(a.userId);
    expect(row).toMatchObject({
      id: result.allowanceId,
      group_id: a.groupId,
      type: "carpooling",
      status: "sent",
      amount: 543,
      monthly_amount: 181,
      number_of_months: 3,
      iban: "FR7630006000011234567890189",
      iban_last_four: "0189",
      days_at_office: 3,
      start_at: "2026-09-01",
      ends_at: "2026-11-20",
      travel_role: "driver",
      home_address: "8 rue des Lilas 69003 Lyon FR",
      work_address: "3 avenue Foch 69006 Lyon FR",
      rate_per_km: 25,
      distance_estimate_m: 3622,
      distance_declared_m: null,
      distance_source: "estimate",
      amount_before_cap: 543,
      cap_remaining_before: 60000,
      signed_at: TODAY,
      draft_id: draft.id,
      created_at: NOW.toISOString(),
    });
    const linked = await getAllowanceDraft(db, a.userId, draft.id);
    expect(linked).toMatchObject({ kind: "found", draft: { submitted: true, allowanceId: result.allowanceId } });
    const notes = await db.selectFrom("notifications").selectAll().where("user_id", "=", a.userId).execute();
    expect(notes.map((n) => [n.type, n.data_id])).toEqual([["allowance_created_notification", result.allowanceId]]);
    const mails = await outboxFor(a.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Votre demande d’indemnité est envoyée");
    expect(mails[0]!.body).toContain("Covoiturage");
    expect(mails[0]!.body).toMatch(/5,43\s€/);
    expect(mails[0]!.body).toContain("du 01/09/2026 au 20/11/2026");
  });

  test("no e-mail when the employee turned the expenseRequests e-mails off", async () => {
    const a = await account();
    const preferences = defaultNotificationPreferences();
    preferences.expenseRequests.mail = false;
    await saveNotificationPreferences(db, a.userId, preferences);
    await created(a, carpooling(a));
    expect(await outboxFor(a.email)).toEqual([]);
    expect(await db.selectFrom("notifications").select("id").where("user_id", "=", a.userId).execute()).toHaveLength(1);
  });

  test("a subscription keeps its price, share and both documents", async () => {
    const a = await account();
    await setPolicy(a.groupId, { share: 75 });
    const input = await subscription(a);
    const id = await created(a, input);
    expect(await getAllowance(db, a.userId, id)).toMatchObject({
      type: "subscription",
      groupName: "CSE Acme",
      status: "sent",
      amount: 6488,
      monthlyAmount: 3244,
      numberOfMonths: 2,
      subscriptionAmount: 8650,
      percentage: 75,
      ibanLastFour: "0189",
      media: [
        { id: input.mediaId, label: "Justificatif" },
        { id: input.secondMediaId, label: "Attestation" },
      ],
      travelRole: null,
      distanceRoundtrip: null,
      isCancellable: true,
    });
  });

  test("the sworn statement is required; field errors come back together", async () => {
    const a = await account();
    const draft = await createAllowanceDraft(db, a.userId, "carpooling");
    const result = await createAllowance(
      deps,
      a.userId,
      { ...carpooling(a, { iban: "nope" }), draftId: draft.id, swornStatement: false },
      TODAY,
      NOW,
    );
    expect(result).toEqual({
      kind: "invalid",
      problems: [problem("iban", "ibanLength"), problem("sworn_statement", "swornStatementRequired")],
    });
    expect(await allowanceRows(a.userId)).toEqual([]);
    // The draft stays open for a corrected confirmation.
    expect((await confirm(a, carpooling(a), draft.id)).kind).toBe("created");
  });

  test("a replayed confirmation creates nothing more and names the allowance", async () => {
    const a = await account();
    const draft = await createAllowanceDraft(db, a.userId, "carpooling");
    const first = await confirm(a, carpooling(a), draft.id);
    expect(first.kind).toBe("created");
    const again = await confirm(a, carpooling(a), draft.id);
    expect(again).toEqual({ kind: "alreadySubmitted", allowanceId: (first as { allowanceId: string }).allowanceId });
    expect(await allowanceRows(a.userId)).toHaveLength(1);
  });

  test("two concurrent confirmations of one draft: one allowance", async () => {
    const a = await account();
    const draft = await createAllowanceDraft(db, a.userId, "carpooling");
    const results = await Promise.all([confirm(a, carpooling(a), draft.id), confirm(a, carpooling(a), draft.id)]);
    expect(results.map((r) => r.kind).sort()).toEqual(["alreadySubmitted", "created"]);
    expect(await allowanceRows(a.userId)).toHaveLength(1);
    expect(await db.selectFrom("notifications").select("id").where("user_id", "=", a.userId).execute()).toHaveLength(1);
  });

  test("a confirmation of the same draft winning while this one is checked: already_submitted, not a cap error", async () => {
    const a = await account();
    await setPolicy(a.groupId, { cap: 10000 });
    const draft = await createAllowanceDraft(db, a.userId, "carpooling");
    const big = carpooling(a, { declaredOneWayMeters: 20_000, daysAtOffice: 30 }); // 300 € asked, 100 € left
    let winner: Awaited<ReturnType<typeof confirm>> | null = null;
    // While this confirmation measures the distance, the other one (same draft) completes and takes the cap.
    const racing: Geodata = {
      ...geodata,
      async distance(home, work) {
        winner ??= await confirm(a, big, draft.id);
        return geodata.distance(home, work);
      },
    };
    const result = await createAllowance(
      { ...deps, geodata: racing },
      a.userId,
      { ...big, draftId: draft.id, swornStatement: true },
      TODAY,
      NOW,
    );
    expect(winner).toMatchObject({ kind: "created" });
    expect(result).toEqual({
      kind: "alreadySubmitted",
      allowanceId: (winner as { allowanceId: string } | null)?.allowanceId,
    });
    expect(await allowanceRows(a.userId)).toHaveLength(1);
  });

  test("two concurrent confirmations that together pass the cap: the second gets what is left, never more", async () => {
    const a = await account();
    await setPolicy(a.groupId, { cap: 40000 });
    // Each asks 300 €; the group pays 400 € a year.
    const big = carpooling(a, { declaredOneWayMeters: 20_000, daysAtOffice: 30 });
    const results = await Promise.all([confirm(a, big), confirm(a, big), confirm(a, big)]);
    expect(results.map((r) => r.kind).sort()).toEqual(["created", "created", "invalid"]);
    expect(results.find((r) => r.kind === "invalid")).toEqual({
      kind: "invalid",
      problems: [problem("amount", "capReached")],
    });
    const rows = await allowanceRows(a.userId);
    expect(rows.map((r) => r.amount).sort((x, y) => x - y)).toEqual([10000, 30000]);
  });

  test("another user's draft, group or files are refused; a draft of another type too", async () => {
    const a = await account();
    const b = await account();
    const theirs = await createAllowanceDraft(db, b.userId, "carpooling");
    expect(await confirm(a, carpooling(a), theirs.id)).toEqual({
      kind: "invalid",
      problems: [problem("draft", "draftNotFound")],
    });
    const bicycleDraft = await createAllowanceDraft(db, a.userId, "bicycle");
    expect((await confirm(a, carpooling(a), bicycleDraft.id)).kind).toBe("invalid");
    expect(await confirm(a, carpooling(a, { groupId: b.groupId }))).toEqual({
      kind: "invalid",
      problems: [problem("group_id", "groupNotAllowed")],
    });
    expect(await confirm(a, await subscription(a, { mediaId: await file(b.userId) }))).toEqual({
      kind: "invalid",
      problems: [problem("media", "mediaRequired")],
    });
    expect(await allowanceRows(a.userId)).toEqual([]);
    expect(await allowanceRows(b.userId)).toEqual([]);
    expect((await getAllowanceDraft(db, b.userId, theirs.id)).kind).toBe("found");
  });
});

describe("unusual distances (issue 31 §2, decision 0055): confirmed with a reason, flagged to the funder", () => {
  const PARIS: GeoAddress = { line1: "10 rue de la Paix", zipcode: "75002", city: "Paris", country: "FR" };
  const lyonParis = (a: CreatedAccount, overrides: Partial<DistanceInput> = {}): DistanceInput =>
    carpooling(a, { type: "bicycle", travelRole: null, work: PARIS, ...overrides });
  const REASON = "Je dors à Paris trois nuits par semaine et je roule le reste.";

  test("a Lyon–Paris bicycle commute without the confirmation is refused on both fields and nothing is written", async () => {
    const a = await account();
    const draft = await createAllowanceDraft(db, a.userId, "bicycle");
    // The simulation shows the distance: it is not refused there, only at the signature.
    expect(await simulateAllowance(deps, a.userId, lyonParis(a), TODAY)).toMatchObject({
      kind: "simulated",
      simulation: { estimateMeters: 465_000 },
    });
    const missing = {
      kind: "invalid",
      problems: [
        problem("distance_confirmed", "distanceConfirmationRequired"),
        problem("distance_reason", "distanceReasonRequired"),
      ],
    };
    expect(await confirm(a, lyonParis(a), draft.id)).toEqual(missing);
    expect(
      await confirm(a, lyonParis(a, { distanceConfirmation: { confirmed: true, reason: "  \n " } }), draft.id),
    ).toEqual({
      kind: "invalid",
      problems: [problem("distance_reason", "distanceReasonRequired")],
    });
    expect(
      await confirm(a, lyonParis(a, { distanceConfirmation: { confirmed: false, reason: REASON } }), draft.id),
    ).toEqual({
      kind: "invalid",
      problems: [problem("distance_confirmed", "distanceConfirmationRequired")],
    });
    const tooLong = { confirmed: true, reason: "x".repeat(2_000) };
    expect(await confirm(a, lyonParis(a, { distanceConfirmation: tooLong }), draft.id)).toEqual({
      kind: "invalid",
      problems: [problem("distance_reason", "distanceReasonTooLong")],
    });
    // Nothing half-way: no allowance, the draft still open.
    expect(await allowanceRows(a.userId)).toEqual([]);
    expect(await getAllowanceDraft(db, a.userId, draft.id)).toMatchObject({
      kind: "found",
      draft: { submitted: false },
    });
  });

  test("confirmed with its reason, it is signed, flagged with the trimmed reason, and the funder's review shows both", async () => {
    const a = await account();
    const id = await created(a, lyonParis(a, { distanceConfirmation: { confirmed: true, reason: `  ${REASON}  ` } }));
    const [row] = await allowanceRows(a.userId);
    expect(row).toMatchObject({
      id,
      type: "bicycle",
      distance_estimate_m: 465_000,
      plausibility_flag: 1,
      plausibility_reason: REASON,
    });
    const awaiting = (await listAllowancesAwaitingReview(db, 1_000)).find((r) => r.id === id);
    expect(awaiting).toMatchObject({ estimateMeters: 465_000, declaredMeters: null, plausibility: { reason: REASON } });
    // The employee's list says it was confirmed and flagged.
    expect((await getAllowance(db, a.userId, id))?.unusual).toEqual({ meters: 465_000, usualMeters: 25_000 });
  });

  test("a usual distance asks nothing and is not flagged, whatever is posted; carpooling's bound is 150 km", async () => {
    const a = await account();
    const usual = await created(a, carpooling(a, { distanceConfirmation: { confirmed: true, reason: REASON } }));
    const [row] = await allowanceRows(a.userId);
    expect(row).toMatchObject({ id: usual, plausibility_flag: 0, plausibility_reason: null });
    expect((await listAllowancesAwaitingReview(db, 1_000)).find((r) => r.id === usual)?.plausibility).toBeNull();
    expect((await getAllowance(db, a.userId, usual))?.unusual).toBeNull();
    // Carpooling Lyon–Paris (465 km) is above 150 km: asked too.
    expect(await confirm(a, carpooling(a, { work: PARIS }))).toMatchObject({
      kind: "invalid",
      problems: [
        problem("distance_confirmed", "distanceConfirmationRequired"),
        problem("distance_reason", "distanceReasonRequired"),
      ],
    });
  });

  test("a declared distance above 25 km by bicycle is asked for too, though the estimate is short", async () => {
    const a = await account();
    const declared = carpooling(a, { type: "bicycle", travelRole: null, declaredOneWayMeters: 30_000 });
    expect(await confirm(a, declared)).toMatchObject({ kind: "invalid" });
    expect(await confirm(a, { ...declared, declaredOneWayMeters: 25_000 })).toMatchObject({ kind: "created" });
  });
});

describe("the list, and cancelling", () => {
  test("newest first, 10 a page, with the payouts; another person's allowance is not found", async () => {
    const a = await account();
    const ids: string[] = [];
    for (let i = 0; i < ALLOWANCES_PAGE_SIZE + 1; i += 1) {
      const draft = await createAllowanceDraft(db, a.userId, "carpooling");
      const result = await createAllowance(
        deps,
        a.userId,
        { ...carpooling(a, { daysAtOffice: 1 }), draftId: draft.id, swornStatement: true },
        TODAY,
        new Date(NOW.getTime() + i * 1000),
      );
      ids.push((result as { allowanceId: string }).allowanceId);
    }
    const first = await listAllowances(db, a.userId, { page: 1 });
    expect(first.hasMore).toBe(true);
    expect(first.items.map((i) => i.id)).toEqual(ids.slice().reverse().slice(0, 10));
    const second = await listAllowances(db, a.userId, { page: 2 });
    expect(second.hasMore).toBe(false);
    expect(second.items).toHaveLength(11);
    expect(first.items[0]).toMatchObject({
      type: "carpooling",
      groupName: "CSE Acme",
      status: "sent",
      startAt: "2026-09-01",
      endsAt: "2026-11-20",
      amount: 181,
      travelRole: "driver",
      daysAtOffice: 1,
      distanceRoundtrip: "7.24",
      ratePerKm: 25,
      signedAt: TODAY,
      refusalReason: null,
      isCancellable: true,
      media: [],
      payouts: [],
    });
    const b = await account();
    expect(await listAllowances(db, b.userId, { page: 1 })).toEqual({ items: [], hasMore: false });
    expect(await getAllowance(db, b.userId, ids[0]!)).toBeNull();
    expect(await cancelAllowance(db, b.userId, ids[0]!)).toEqual({ kind: "notFound" });
    expect((await getAllowance(db, a.userId, ids[0]!))!.status).toBe("sent");
  });

  test("a sent allowance can be cancelled once; then it no longer counts towards the cap", async () => {
    const a = await account();
    const id = await created(a, carpooling(a, { declaredOneWayMeters: 20_000, daysAtOffice: 30 }));
    expect((await capStatus(db, a.userId, a.groupId, 2026)).remaining).toBe(30000);
    expect(await cancelAllowance(db, a.userId, id, { messenger, now: NOW })).toEqual({ kind: "cancelled" });
    expect(await cancelAllowance(db, a.userId, id, { messenger, now: NOW })).toEqual({ kind: "notCancellable" });
    expect(await getAllowance(db, a.userId, id)).toMatchObject({ status: "cancelled", isCancellable: false });
    expect((await capStatus(db, a.userId, a.groupId, 2026)).remaining).toBe(60000);
    expect((await outboxFor(a.email)).map((m) => m.subject)).toEqual([
      "Votre demande d’indemnité est envoyée",
      "Votre demande d’indemnité est annulée",
    ]);
    expect(await reviewAllowance(db, id, { kind: "approve" }, { now: NOW })).toEqual({ kind: "notReviewable" });
  });
});

describe("the funder's review and the monthly payouts", () => {
  test("approve: one payout per month adding up to the amount; due ones are paid, then the allowance", async () => {
    const a = await account();
    const id = await created(a, carpooling(a)); // 5,43 € over September, October, November
    expect((await listAllowancesAwaitingReview(db)).map((r) => r.id)).toContain(id);
    const approved = await reviewAllowance(db, id, { kind: "approve" }, { now: NOW, messenger });
    expect(approved).toEqual({
      kind: "approved",
      payouts: [
        { month: "2026-09", amount: 181, scheduledFor: "2026-12-01" },
        { month: "2026-10", amount: 181, scheduledFor: "2026-12-01" },
        { month: "2026-11", amount: 181, scheduledFor: "2026-12-01" },
      ],
    });
    expect((await listAllowancesAwaitingReview(db)).map((r) => r.id)).not.toContain(id);
    expect(await reviewAllowance(db, id, { kind: "approve" }, { now: NOW })).toEqual({ kind: "notReviewable" });
    expect(await cancelAllowance(db, a.userId, id)).toEqual({ kind: "notCancellable" });
    const item = await getAllowance(db, a.userId, id);
    expect(item).toMatchObject({ status: "approved", isCancellable: false });
    expect(item!.payouts).toEqual([
      { month: "2026-09", amount: 181, scheduledFor: "2026-12-01", status: "scheduled", paidOn: null },
      { month: "2026-10", amount: 181, scheduledFor: "2026-12-01", status: "scheduled", paidOn: null },
      { month: "2026-11", amount: 181, scheduledFor: "2026-12-01", status: "scheduled", paidOn: null },
    ]);
    const payoutIban = await db.selectFrom("allowance_payouts").select("iban").where("allowance_id", "=", id).execute();
    expect(payoutIban.map((p) => p.iban)).toEqual(Array(3).fill("FR7630006000011234567890189"));

    expect((await payDueAllowancePayouts(db, "2026-11-30", { now: NOW, messenger })).paid).toEqual([]);
    const paid = await payDueAllowancePayouts(db, "2026-12-01", { now: NOW, messenger });
    expect(paid.finished).toContain(id);
    const paidItem = await getAllowance(db, a.userId, id);
    expect(paidItem!.status).toBe("paid");
    // Each payout says the Paris day it left (issue 30 §5), not only the day it was planned for.
    expect(paidItem!.payouts.map((p) => [p.status, p.paidOn])).toEqual(Array(3).fill(["paid", todayInParis(NOW)]));
    expect((await payDueAllowancePayouts(db, "2026-12-01", { now: NOW, messenger })).paid).toEqual([]);
    const notes = await db
      .selectFrom("notifications")
      .select("type")
      .where("user_id", "=", a.userId)
      .orderBy("created_at")
      .orderBy("type")
      .execute();
    expect(notes.map((n) => n.type).sort()).toEqual([
      "allowance_approved_notification",
      "allowance_created_notification",
      "allowance_finished_notification",
    ]);
    expect((await outboxFor(a.email)).map((m) => m.subject)).toEqual([
      "Votre demande d’indemnité est envoyée",
      "Votre demande d’indemnité est validée",
      "Votre indemnité est entièrement versée",
    ]);
    // Paid allowances still count towards the cap.
    expect((await capStatus(db, a.userId, a.groupId, 2026)).usedWithGroup).toBe(543);
  });

  test("a long period is paid month by month: the allowance is paid only when its last month is", async () => {
    const a = await account();
    await setPolicy(a.groupId, { share: 50 });
    const id = await created(a, await subscription(a, { amount: 1000, startAt: "2026-11-01", endsAt: "2026-12-31" }));
    const approved = await reviewAllowance(db, id, { kind: "approve" }, { now: NOW });
    expect(approved).toMatchObject({
      payouts: [
        { month: "2026-11", amount: 250, scheduledFor: "2026-12-01" },
        { month: "2026-12", amount: 250, scheduledFor: "2027-01-04" },
      ],
    });
    await payDueAllowancePayouts(db, "2026-12-15", { now: NOW });
    expect(await getAllowance(db, a.userId, id)).toMatchObject({
      status: "approved",
      payouts: [
        { month: "2026-11", status: "paid" },
        { month: "2026-12", status: "scheduled" },
      ],
    });
    await payDueAllowancePayouts(db, "2027-01-04", { now: NOW });
    expect((await getAllowance(db, a.userId, id))!.status).toBe("paid");
  });

  test("refuse: a reason is required and shown in the list; nothing is paid", async () => {
    const a = await account();
    const id = await created(a, carpooling(a));
    expect(await reviewAllowance(db, id, { kind: "refuse", reason: "   " }, { now: NOW })).toEqual({
      kind: "reasonRequired",
    });
    expect(
      await reviewAllowance(db, id, { kind: "refuse", reason: " Période déjà indemnisée " }, { now: NOW, messenger }),
    ).toEqual({
      kind: "refused",
    });
    expect(await getAllowance(db, a.userId, id)).toMatchObject({
      status: "refused",
      refusalReason: "Période déjà indemnisée",
      payouts: [],
      isCancellable: false,
    });
    const mails = await outboxFor(a.email);
    expect(mails.at(-1)!.subject).toBe("Votre demande d’indemnité est refusée");
    expect(mails.at(-1)!.body).toContain("Motif : Période déjà indemnisée");
    expect(await reviewAllowance(db, "alw_unknown", { kind: "approve" })).toEqual({ kind: "notFound" });
  });
});
