import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { DatabaseHandle, DB } from "../../db";
import { buildFile, createAccount, createRefund, type CreatedAccount } from "../../db/factories";
import { openDemoDatabase } from "../../../../tests/support/test-database";
import { newId } from "../../ids";
import type { SandboxMessenger } from "../../providers/messaging/sandbox";
import { payDuePayouts } from "./payouts";
import {
  BUILT_IN_MOBILITY,
  cancelRefund,
  eligibleWallets,
  listRefunds,
  listExpenseTypes,
  loadRefundForEdit,
  submitRefund,
  type RefundInput,
} from "./requests";
import { reviewRefund } from "./review";
import { saveNotificationPreferences, defaultNotificationPreferences } from "../notification-preferences";
import { getWalletDetail } from "../wallets";
import { addWorkingDays } from "~/domain/calendar";
import { todayInParis } from "~/domain/dates";
import { EXPENSE_REQUESTS_PAGE_SIZE, type RefundField, type RefundProblem } from "~/domain/refunds";

/** The refund platform on a real database (SQLite, and PostgreSQL with TEST_DATABASE_URL). */
let handle: DatabaseHandle;
let db: DB;
let messenger: SandboxMessenger;
const types: Record<string, string> = {};
const partners: Record<string, string> = {};

const REFUNDS = { any: true, "fuel-expenses": false };
const GOOD_IBAN = "FR76 3000 6000 0112 3456 7890 189";

beforeAll(async () => {
  const demo = await openDemoDatabase();
  handle = demo.handle;
  db = handle.db;
  messenger = demo.messenger;
  for (const t of await db.selectFrom("expense_types").select(["id", "technical_name"]).execute())
    types[t.technical_name] = t.id;
  for (const p of await db.selectFrom("partners").select(["id", "name_fr"]).execute()) partners[p.name_fr] = p.id;
}, 60_000);
afterAll(() => handle.close());

let counter = 0;
async function account(
  wallets: { name: string; type: string; balance?: number }[] = [
    { name: "Cadeaux", type: "gift", balance: 10000 },
    { name: "Culture", type: "culture", balance: 5000 },
    { name: "Repas", type: "meal", balance: 8000 },
    { name: "Sport", type: "sport" },
  ],
  features: object = { expenseRequests: REFUNDS },
): Promise<CreatedAccount> {
  counter += 1;
  return createAccount(db, {
    email: `refunds-${counter}-${newId("e")}@example.com`,
    passwordHash: "unused",
    wallets,
    features,
  });
}

async function file(userId: string, sha256 = newId("sha")): Promise<string> {
  const row = buildFile({ user_id: userId, sha256 });
  await db.insertInto("files").values(row).execute();
  return row.id;
}

async function draft(userId: string, requestId: string | null = null): Promise<string> {
  const id = newId("drf");
  const now = new Date().toISOString();
  await db
    .insertInto("expense_request_drafts")
    .values({
      id,
      user_id: userId,
      request_id: requestId,
      type_id: null,
      mobility_group: null,
      mobility_subtype: null,
      media_id: null,
      second_media_id: null,
      partner_id: null,
      ticket_date: null,
      amount: null,
      iban: null,
      payment_methods: null,
      reading: null,
      step_reached: 3,
      created_at: now,
      updated_at: now,
      submitted_at: null,
    })
    .execute();
  return id;
}

const yesterday = () => addDays(todayInParis(), -1);
function addDays(day: string, days: number): string {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** A valid gift request of 60 € split 40 € + 20 €… on the account's gift wallet only (one wallet). */
async function validInput(a: CreatedAccount, overrides: Partial<RefundInput> = {}): Promise<RefundInput> {
  return {
    draftId: await draft(a.userId, overrides.requestId ?? null),
    requestId: null,
    typeId: types.gift!,
    partnerId: partners["Boutique Cadeaux Presqu'île"]!,
    ticketDate: yesterday(),
    amount: 6000,
    iban: GOOD_IBAN,
    paymentMethods: [{ walletId: a.wallets.Cadeaux!, amount: 6000 }],
    mediaId: await file(a.userId),
    secondMediaId: null,
    swornStatement: true,
    swornName: null,
    ...overrides,
  };
}

async function counts(userId: string) {
  const requests = await db.selectFrom("expense_requests").select("id").where("user_id", "=", userId).execute();
  const held = await db
    .selectFrom("wallet_reservations")
    .innerJoin("wallets", "wallets.id", "wallet_reservations.wallet_id")
    .select("wallet_reservations.id")
    .where("wallets.user_id", "=", userId)
    .where("wallet_reservations.status", "=", "held")
    .execute();
  return { requests: requests.length, held: held.length };
}

async function outboxFor(email: string) {
  return db
    .selectFrom("outbox")
    .select(["subject", "body"])
    .where("recipient", "=", email)
    .orderBy("created_at")
    .execute();
}

describe("types and wallets", () => {
  test("types: meal disabled and last, fuel expenses only with their feature, none without the refund feature", async () => {
    const a = await account();
    const list = await listExpenseTypes(db, a.userId, "fr");
    expect(list.at(-1)).toMatchObject({ technicalName: "meal", disabled: true });
    expect(list.filter((t) => t.disabled).map((t) => t.technicalName)).toEqual(["meal"]);
    expect(list.map((t) => t.technicalName)).not.toContain("fuel_expenses");
    const fuel = await account([], { expenseRequests: { any: true, "fuel-expenses": true } });
    expect((await listExpenseTypes(db, fuel.userId, "fr")).map((t) => t.technicalName)).toContain("fuel_expenses");
    const none = await account([], {});
    expect(await listExpenseTypes(db, none.userId, "fr")).toEqual([]);
  });

  test("the mobility type is added when allowances are on and the catalogue has none", async () => {
    const a = await account([], { expenseRequests: REFUNDS, allowances: { any: true } });
    const mobilityId = types.mobility!;
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable("expense_types")
        .set({ technical_name: "mobility_hidden" })
        .where("id", "=", mobilityId)
        .execute();
      const list = await listExpenseTypes(trx, a.userId, "en");
      expect(list.find((t) => t.technicalName === "mobility")).toEqual({
        id: BUILT_IN_MOBILITY.id,
        technicalName: "mobility",
        name: "Mobility",
        disabled: false,
        stored: false,
      });
      await trx.updateTable("expense_types").set({ technical_name: "mobility" }).where("id", "=", mobilityId).execute();
    });
  });

  test("eligible wallets: only the expense type's, never meal, none empty, less what other requests hold", async () => {
    const a = await account();
    expect((await eligibleWallets(db, a.userId, "gift")).map((w) => [w.name, w.available])).toEqual([
      ["Cadeaux", 10000],
    ]);
    expect(await eligibleWallets(db, a.userId, "meal")).toEqual([]);
    // The sport wallet holds nothing: not offered.
    expect(await eligibleWallets(db, a.userId, "sport")).toEqual([]);
    const held = await createRefund(db, { user_id: a.userId, type_id: types.gift!, amount: 2500 }, [
      { walletId: a.wallets.Cadeaux!, amount: 2500 },
    ]);
    expect((await eligibleWallets(db, a.userId, "gift"))[0]!.available).toBe(7500);
    // Editing that request: its own reservation counts as available again.
    expect((await eligibleWallets(db, a.userId, "gift", { exceptRequestId: held.id }))[0]!.available).toBe(10000);
    // Another user's request id gives nothing back.
    const b = await account();
    expect((await eligibleWallets(db, b.userId, "gift", { exceptRequestId: held.id }))[0]!.available).toBe(10000);
  });
});

describe("sending a request", () => {
  test("created: sent, cancellable, split stored, amounts held, listed in progress, notified by e-mail", async () => {
    const a = await account();
    const input = await validInput(a, {
      amount: 7000,
      paymentMethods: [{ walletId: a.wallets.Cadeaux!, amount: 7000 }],
    });
    const result = await submitRefund(db, messenger, a.userId, input);
    expect(result.kind).toBe("created");
    if (result.kind !== "created") return;
    const row = await db
      .selectFrom("expense_requests")
      .selectAll()
      .where("id", "=", result.requestId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      status: "sent",
      is_cancellable: 1,
      is_rectifiable: 0,
      iban: "FR7630006000011234567890189",
      iban_last_four: "0189",
      amount: 7000,
      amount_to_refund: 7000,
    });
    const reservations = await db
      .selectFrom("wallet_reservations")
      .selectAll()
      .where("expense_request_id", "=", row.id)
      .execute();
    expect(reservations.map((r) => [r.wallet_id, r.amount, r.status])).toEqual([[a.wallets.Cadeaux, 7000, "held"]]);
    const wallet = (await getWalletDetail(db, a.userId, a.wallets.Cadeaux!))!;
    expect(wallet.reserved).toBe(7000);
    expect(wallet.available).toBe(3000);
    expect(wallet.total).toBe(10000);

    const list = await listRefunds(db, a.userId, { tab: "in-progress", page: 1, locale: "fr" });
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({
      id: row.id,
      partnerName: "Boutique Cadeaux Presqu'île",
      typeName: "Cadeaux",
      status: "sent",
      isCancellable: true,
      media: [{ id: input.mediaId, number: 1, label: "Justificatif 1" }],
    });
    expect((await listRefunds(db, a.userId, { tab: "finished", page: 1, locale: "fr" })).items).toEqual([]);
    const notification = await db
      .selectFrom("notifications")
      .selectAll()
      .where("data_id", "=", row.id)
      .executeTakeFirstOrThrow();
    expect(notification.type).toBe("expense_request_created_notification");
    const mails = await outboxFor(a.email);
    expect(mails.map((m) => m.subject)).toEqual(["Votre demande de remboursement est envoyée"]);
    expect(mails[0]!.body).toContain("70,00");
  });

  test("a split over two wallets of the right type; the second receipt is kept", async () => {
    const a = await account([
      { name: "Cadeaux", type: "gift", balance: 3000 },
      { name: "Cadeaux CSE", type: "gift", balance: 3000 },
    ]);
    const input = await validInput(a, {
      amount: 5000,
      paymentMethods: [
        { walletId: a.wallets.Cadeaux!, amount: 3000 },
        { walletId: a.wallets["Cadeaux CSE"]!, amount: 2000 },
      ],
      secondMediaId: await file(a.userId),
    });
    const result = await submitRefund(db, messenger, a.userId, input);
    expect(result.kind).toBe("created");
    const [item] = (await listRefunds(db, a.userId, { tab: "in-progress", page: 1, locale: "fr" })).items;
    expect(item!.media.map((m) => m.label)).toEqual(["Justificatif 1", "Justificatif 2"]);
    expect((await counts(a.userId)).held).toBe(2);
  });

  test("the amount's bound (decision 0049): 5 000 € — just below and at are sent, just above is refused and nothing held", async () => {
    const a = await account([{ name: "Cadeaux", type: "gift", balance: 200_000_000 }]);
    const asking = (amount: number) =>
      validInput(a, { amount, paymentMethods: [{ walletId: a.wallets.Cadeaux!, amount }] });
    expect((await submitRefund(db, messenger, a.userId, await asking(499_999))).kind).toBe("created");
    expect((await submitRefund(db, messenger, a.userId, await asking(500_000))).kind).toBe("created");
    expect(await counts(a.userId)).toEqual({ requests: 2, held: 2 });
    for (const amount of [500_001, 99_999_999]) {
      const refused = await submitRefund(db, messenger, a.userId, await asking(amount));
      expect(refused, String(amount)).toEqual({
        kind: "invalid",
        problems: [{ field: "amount", code: "amountTooBig" }],
      });
    }
    expect(await counts(a.userId)).toEqual({ requests: 2, held: 2 });
  });

  const bad: [
    string,
    (a: CreatedAccount, other: CreatedAccount) => Promise<Partial<RefundInput>>,
    RefundField,
    RefundProblem,
  ][] = [
    ["amount 0", async () => ({ amount: 0 }), "amount", "amountPositive"],
    ["a negative amount", async () => ({ amount: -500 }), "amount", "amountPositive"],
    ["1e12", async () => ({ amount: 1e12 }), "amount", "amountTooBig"],
    ["not whole cents", async () => ({ amount: 12.5 }), "amount", "amountInvalid"],
    ["text as the amount", async () => ({ amount: "12" as unknown as number }), "amount", "amountInvalid"],
    ["a future date", async () => ({ ticketDate: addDays(todayInParis(), 1) }), "ticket_date", "ticketDateFuture"],
    ["an impossible date", async () => ({ ticketDate: "2026-02-30" }), "ticket_date", "ticketDateInvalid"],
    ["a date that is not one", async () => ({ ticketDate: "hier" }), "ticket_date", "ticketDateInvalid"],
    [
      "a total that differs",
      async (a) => ({ paymentMethods: [{ walletId: a.wallets.Cadeaux!, amount: 5000 }] }),
      "payment_methods",
      "paymentMethodsTotal",
    ],
    [
      "more than the wallet can give",
      async (a) => ({ amount: 12000, paymentMethods: [{ walletId: a.wallets.Cadeaux!, amount: 12000 }] }),
      "payment_methods.0.amount",
      "paymentMethodOverAvailable",
    ],
    [
      "a zero part",
      async (a) => ({ paymentMethods: [{ walletId: a.wallets.Cadeaux!, amount: 0 }] }),
      "payment_methods.0.amount",
      "paymentMethodAmountPositive",
    ],
    [
      "a negative part",
      async (a) => ({ paymentMethods: [{ walletId: a.wallets.Cadeaux!, amount: -6000 }] }),
      "payment_methods.0.amount",
      "paymentMethodAmountPositive",
    ],
    [
      "the same wallet twice",
      async (a) => ({
        paymentMethods: [
          { walletId: a.wallets.Cadeaux!, amount: 3000 },
          { walletId: a.wallets.Cadeaux!, amount: 3000 },
        ],
      }),
      "payment_methods.1.amount",
      "walletNotEligible",
    ],
    [
      "another user's wallet",
      async (_a, other) => ({ paymentMethods: [{ walletId: other.wallets.Cadeaux!, amount: 6000 }] }),
      "payment_methods",
      "walletNotEligible",
    ],
    [
      "a wallet of another type (meal)",
      async (a) => ({ paymentMethods: [{ walletId: a.wallets.Repas!, amount: 6000 }] }),
      "payment_methods",
      "walletNotEligible",
    ],
    ["no wallet", async () => ({ paymentMethods: [] }), "payment_methods", "paymentMethodsRequired"],
    ["an IBAN with a wrong checksum", async () => ({ iban: "FR7630006000011234567890188" }), "iban", "ibanChecksum"],
    ["an IBAN too short", async () => ({ iban: "FR763000600001123456789018" }), "iban", "ibanLength"],
    ["a non-SEPA IBAN", async () => ({ iban: "BR1800360305000010009795493C1" }), "iban", "ibanNotSepa"],
    ["no IBAN on a new request", async () => ({ iban: null }), "iban", "ibanRequired"],
    ["an unticked statement", async () => ({ swornStatement: false }), "sworn_statement", "swornStatementRequired"],
    ["no partner", async () => ({ partnerId: "" }), "partner_id", "partnerRequired"],
    ["a disabled partner", async () => ({ partnerId: partners["Cinéma Le Royal"]! }), "partner_id", "partnerDisabled"],
    ["the disabled meal type", async () => ({ typeId: types.meal! }), "type", "typeRequired"],
    ["another user's receipt", async (_a, other) => ({ mediaId: await file(other.userId) }), "media", "mediaNotFound"],
    ["an unknown receipt", async () => ({ mediaId: "file_nope" }), "media", "mediaNotFound"],
  ];
  test.each(bad)("refused: %s — its code on the field, nothing stored or held", async (_name, make, field, code) => {
    const a = await account();
    const other = await account();
    const before = await counts(a.userId);
    const input = await validInput(a, await make(a, other));
    const result = await submitRefund(db, messenger, a.userId, input);
    expect(result.kind).toBe("invalid");
    if (result.kind !== "invalid") return;
    expect(result.problems).toContainEqual({ field, code });
    expect(await counts(a.userId)).toEqual(before);
    // The draft was not used up: the employee corrects and sends again.
    const draftRow = await db
      .selectFrom("expense_request_drafts")
      .select("submitted_at")
      .where("id", "=", input.draftId)
      .executeTakeFirstOrThrow();
    expect(draftRow.submitted_at).toBeNull();
  });

  test("the sworn name for holidays and mobility must be the account's, accents and case aside", async () => {
    const a = await account([{ name: "Vacances", type: "holidays", balance: 50000 }]);
    const holidays = (over: Partial<RefundInput>) =>
      validInput(a, {
        typeId: types.holidays!,
        partnerId: partners["Gîtes du Vercors"]!,
        amount: 20000,
        paymentMethods: [{ walletId: a.wallets.Vacances!, amount: 20000 }],
        ...over,
      });
    const wrong = await submitRefund(db, messenger, a.userId, await holidays({ swornName: "Marie Martin" }));
    expect(wrong).toEqual({ kind: "invalid", problems: [{ field: "sworn_name", code: "swornNameMismatch" }] });
    const missing = await submitRefund(db, messenger, a.userId, await holidays({ swornName: "  " }));
    expect(missing).toEqual({ kind: "invalid", problems: [{ field: "sworn_name", code: "swornNameRequired" }] });
    // The factory's account is "Alex Essai".
    const right = await submitRefund(db, messenger, a.userId, await holidays({ swornName: " ÂLEX  essai " }));
    expect(right.kind).toBe("created");
    if (right.kind !== "created") return;
    const row = await db
      .selectFrom("expense_requests")
      .select("sworn_name")
      .where("id", "=", right.requestId)
      .executeTakeFirstOrThrow();
    expect(row.sworn_name).toBe("ÂLEX  essai");
  });

  test("a receipt already on another live request (same SHA-256) is refused on media; usable again once that one is cancelled", async () => {
    const a = await account();
    const first = await submitRefund(
      db,
      messenger,
      a.userId,
      await validInput(a, {
        amount: 1000,
        paymentMethods: [{ walletId: a.wallets.Cadeaux!, amount: 1000 }],
        mediaId: await file(a.userId, "same-bytes"),
      }),
    );
    expect(first.kind).toBe("created");
    const again = await validInput(a, {
      amount: 1000,
      paymentMethods: [{ walletId: a.wallets.Cadeaux!, amount: 1000 }],
      mediaId: await file(a.userId, "same-bytes"),
    });
    expect(await submitRefund(db, messenger, a.userId, again)).toEqual({
      kind: "invalid",
      problems: [{ field: "media", code: "mediaDuplicate" }],
    });
    // The same bytes in another person's account are no duplicate of theirs.
    const b = await account();
    const theirs = await validInput(b, {
      amount: 1000,
      paymentMethods: [{ walletId: b.wallets.Cadeaux!, amount: 1000 }],
      mediaId: await file(b.userId, "same-bytes"),
    });
    expect((await submitRefund(db, messenger, b.userId, theirs)).kind).toBe("created");
    if (first.kind !== "created") return;
    expect(await cancelRefund(db, messenger, a.userId, first.requestId)).toEqual({ kind: "cancelled" });
    expect((await submitRefund(db, messenger, a.userId, again)).kind).toBe("created");
  });

  test("two concurrent sends of one draft: one stored and held, the other already_submitted", async () => {
    const a = await account();
    const input = await validInput(a);
    const results = await Promise.all([
      submitRefund(db, messenger, a.userId, input),
      submitRefund(db, messenger, a.userId, input),
    ]);
    expect(results.map((r) => r.kind).sort()).toEqual(["alreadySubmitted", "created"]);
    expect(await counts(a.userId)).toEqual({ requests: 1, held: 1 });
    expect(await submitRefund(db, messenger, a.userId, input)).toEqual({ kind: "alreadySubmitted" });
  });

  test("two requests sent at once that together exceed a wallet: one stored, the other refused on its amount", async () => {
    const a = await account();
    const one = await validInput(a, { amount: 7000, paymentMethods: [{ walletId: a.wallets.Cadeaux!, amount: 7000 }] });
    const two = await validInput(a, { amount: 6000, paymentMethods: [{ walletId: a.wallets.Cadeaux!, amount: 6000 }] });
    const results = await Promise.all([
      submitRefund(db, messenger, a.userId, one),
      submitRefund(db, messenger, a.userId, two),
    ]);
    expect(results.map((r) => r.kind).sort()).toEqual(["created", "invalid"]);
    const refused = results.find((r) => r.kind === "invalid");
    expect(refused).toEqual({
      kind: "invalid",
      problems: [{ field: "payment_methods.0.amount", code: "paymentMethodOverAvailable" }],
    });
    expect(await counts(a.userId)).toEqual({ requests: 1, held: 1 });
    expect((await getWalletDetail(db, a.userId, a.wallets.Cadeaux!))!.available).toBeGreaterThanOrEqual(0);
  });

  test("another user's draft or request id: notFound, nothing stored", async () => {
    const a = await account();
    const b = await account();
    const input = await validInput(a);
    expect(await submitRefund(db, messenger, b.userId, input)).toEqual({ kind: "notFound" });
    const theirs = await createRefund(db, {
      user_id: a.userId,
      type_id: types.gift!,
      amount: 1000,
      status: "to_correct",
      is_rectifiable: 1,
      is_cancellable: 0,
    });
    const edit = await validInput(b, { requestId: theirs.id });
    expect(await submitRefund(db, messenger, b.userId, edit)).toEqual({ kind: "notFound" });
    expect(await loadRefundForEdit(db, b.userId, theirs.id)).toEqual({ kind: "notFound" });
    expect((await counts(b.userId)).requests).toBe(0);
  });
});

describe("cancelling", () => {
  test("releases the held amounts; a second cancel, a finished request or someone else's are refused", async () => {
    const a = await account();
    const request = await createRefund(db, { user_id: a.userId, type_id: types.gift!, amount: 4000 }, [
      { walletId: a.wallets.Cadeaux!, amount: 4000 },
    ]);
    expect((await getWalletDetail(db, a.userId, a.wallets.Cadeaux!))!.reserved).toBe(4000);
    const b = await account();
    expect(await cancelRefund(db, messenger, b.userId, request.id)).toEqual({ kind: "notFound" });
    expect(await cancelRefund(db, messenger, a.userId, request.id)).toEqual({ kind: "cancelled" });
    const wallet = (await getWalletDetail(db, a.userId, a.wallets.Cadeaux!))!;
    expect(wallet.reserved).toBe(0);
    expect(wallet.available).toBe(10000);
    expect(await cancelRefund(db, messenger, a.userId, request.id)).toEqual({ kind: "notCancellable" });
    const finished = await listRefunds(db, a.userId, { tab: "finished", page: 1, locale: "fr" });
    expect(finished.items.map((i) => [i.id, i.status, i.isCancellable])).toEqual([[request.id, "cancelled", false]]);
    const paid = await createRefund(db, {
      user_id: a.userId,
      type_id: types.gift!,
      amount: 1000,
      status: "paid",
      is_cancellable: 0,
    });
    expect(await cancelRefund(db, messenger, a.userId, paid.id)).toEqual({ kind: "notCancellable" });
    expect(await cancelRefund(db, messenger, a.userId, "exr_unknown")).toEqual({ kind: "notFound" });
  });
});

describe("the funder's review", () => {
  async function sent(a: CreatedAccount, amount = 6000) {
    const result = await submitRefund(
      db,
      messenger,
      a.userId,
      await validInput(a, { amount, paymentMethods: [{ walletId: a.wallets.Cadeaux!, amount }] }),
    );
    if (result.kind !== "created") throw new Error(`not created: ${JSON.stringify(result)}`);
    return result.requestId;
  }

  test("approve: the wallet is debited, a payout is scheduled 7 working days later, shown on the request; paid when due", async () => {
    const a = await account();
    const id = await sent(a);
    const now = new Date("2026-11-20T10:00:00Z"); // a Friday
    const result = await reviewRefund(db, messenger, id, { kind: "approve" }, { now });
    expect(result).toEqual({ kind: "approved", payoutDate: "2026-12-01" });
    expect(addWorkingDays("2026-11-20", 7)).toBe("2026-12-01");
    const row = await db.selectFrom("expense_requests").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "approved", payout_date: "2026-12-01", is_cancellable: 0, is_rectifiable: 0 });
    const reservations = await db
      .selectFrom("wallet_reservations")
      .select("status")
      .where("expense_request_id", "=", id)
      .execute();
    expect(reservations.map((r) => r.status)).toEqual(["captured"]);
    const wallet = (await getWalletDetail(db, a.userId, a.wallets.Cadeaux!))!;
    expect(wallet.reserved).toBe(0);
    expect(wallet.total).toBe(4000);
    expect(wallet.available).toBe(4000);
    const debit = await db
      .selectFrom("wallet_transactions")
      .selectAll()
      .where("wallet_id", "=", a.wallets.Cadeaux!)
      .where("main_comment", "=", "expense_request")
      .execute();
    expect(debit.map((d) => d.amount)).toEqual([-6000]);
    const payout = await db
      .selectFrom("payouts")
      .selectAll()
      .where("expense_request_id", "=", id)
      .executeTakeFirstOrThrow();
    expect(payout).toMatchObject({
      amount: 6000,
      iban: "FR7630006000011234567890189",
      scheduled_for: "2026-12-01",
      status: "scheduled",
    });
    const [item] = (await listRefunds(db, a.userId, { tab: "in-progress", page: 1, locale: "fr" })).items;
    // The transfer's day and amount come from the payout: due on the 1st, 60,00 €.
    expect(item).toMatchObject({
      status: "approved",
      payout: { day: "2026-12-01", paid: false, amount: 6000 },
      isCancellable: false,
    });
    expect(await cancelRefund(db, messenger, a.userId, id)).toEqual({ kind: "notCancellable" });
    expect(await reviewRefund(db, messenger, id, { kind: "approve" })).toEqual({ kind: "notReviewable" });
    expect((await outboxFor(a.email)).map((m) => m.subject)).toContain("Votre demande de remboursement est validée");
    expect((await outboxFor(a.email)).at(-1)!.body).toContain("01/12/2026");

    expect((await payDuePayouts(db, messenger, "2026-11-30")).paid).not.toContain(id);
    // Paid the next morning, Paris time (23:30 UTC on the 1st is already the 2nd in Paris).
    const paidAt = new Date("2026-12-01T23:30:00Z");
    expect((await payDuePayouts(db, messenger, "2026-12-01", { now: paidAt })).paid).toContain(id);
    expect((await payDuePayouts(db, messenger, "2026-12-01")).paid).not.toContain(id);
    const finished = await listRefunds(db, a.userId, { tab: "finished", page: 1, locale: "fr" });
    expect(finished.items.map((i) => [i.id, i.status])).toEqual([[id, "paid"]]);
    // "Versé le": the day the payout left, not the day it was due.
    expect(finished.items[0]!.payout).toEqual({ day: "2026-12-02", paid: true, amount: 6000 });
    expect(
      (await db.selectFrom("payouts").select("status").where("expense_request_id", "=", id).executeTakeFirstOrThrow())
        .status,
    ).toBe("paid");
  });

  test("refuse: a reason is needed; the amounts are released and the reason shown", async () => {
    const a = await account();
    const id = await sent(a);
    expect(await reviewRefund(db, messenger, id, { kind: "refuse", reason: "  " })).toEqual({
      kind: "reasonRequired",
    });
    expect(await reviewRefund(db, messenger, id, { kind: "refuse", reason: "Achat hors catalogue" })).toEqual({
      kind: "refused",
    });
    expect((await getWalletDetail(db, a.userId, a.wallets.Cadeaux!))!.available).toBe(10000);
    const [item] = (await listRefunds(db, a.userId, { tab: "finished", page: 1, locale: "fr" })).items;
    expect(item).toMatchObject({ status: "refused", refusalReason: "Achat hors catalogue" });
    expect(await reviewRefund(db, messenger, id, { kind: "approve" })).toEqual({ kind: "notReviewable" });
    expect(await reviewRefund(db, messenger, "exr_nope", { kind: "approve" })).toEqual({ kind: "notFound" });
  });

  test("ask for a correction: correctable, then sent again with the IBAN kept and the reservations replaced", async () => {
    const a = await account();
    const id = await sent(a, 6000);
    expect(await reviewRefund(db, messenger, id, { kind: "askCorrection", reason: "Ticket illisible" })).toEqual({
      kind: "toCorrect",
    });
    const [item] = (await listRefunds(db, a.userId, { tab: "in-progress", page: 1, locale: "fr" })).items;
    expect(item).toMatchObject({
      status: "to_correct",
      correctionReason: "Ticket illisible",
      isRectifiable: true,
      isCancellable: false,
    });
    // Still held while the employee corrects.
    expect((await getWalletDetail(db, a.userId, a.wallets.Cadeaux!))!.reserved).toBe(6000);
    const loaded = await loadRefundForEdit(db, a.userId, id);
    expect(loaded.kind).toBe("found");
    if (loaded.kind !== "found") return;
    expect(loaded.request).toMatchObject({
      amount: 6000,
      ibanLastFour: "0189",
      paymentMethods: [{ walletId: a.wallets.Cadeaux, amount: 6000 }],
    });
    // The whole wallet is available to the correction: its own 60 € count again.
    expect((await eligibleWallets(db, a.userId, "gift", { exceptRequestId: id }))[0]!.available).toBe(10000);

    const corrected = await validInput(a, {
      requestId: id,
      amount: 9000,
      iban: "0189", // masked: keep the one on file
      paymentMethods: [{ walletId: a.wallets.Cadeaux!, amount: 9000 }],
      mediaId: loaded.request.mediaId!,
    });
    expect(await submitRefund(db, messenger, a.userId, corrected)).toEqual({ kind: "updated", requestId: id });
    const row = await db.selectFrom("expense_requests").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      status: "sent",
      is_rectifiable: 0,
      is_cancellable: 1,
      amount: 9000,
      iban_last_four: "0189",
      correction_reason: null,
    });
    const reservations = await db
      .selectFrom("wallet_reservations")
      .select(["amount", "status"])
      .where("expense_request_id", "=", id)
      .orderBy("created_at")
      .execute();
    expect(reservations.filter((r) => r.status === "held").map((r) => r.amount)).toEqual([9000]);
    expect(reservations.filter((r) => r.status === "released").map((r) => r.amount)).toEqual([6000]);
    expect(await loadRefundForEdit(db, a.userId, id)).toEqual({ kind: "notRectifiable" });
    // Correcting a request that is no longer correctable.
    const late = await validInput(a, { requestId: id, iban: null });
    expect(await submitRefund(db, messenger, a.userId, late)).toEqual({ kind: "notRectifiable" });
  });

  test("no e-mail when the employee turned refund e-mails off; the notification is kept", async () => {
    const a = await account();
    const preferences = defaultNotificationPreferences();
    preferences.expenseRequests.mail = false;
    await saveNotificationPreferences(db, a.userId, preferences);
    const id = await sent(a);
    await reviewRefund(db, messenger, id, { kind: "refuse", reason: "Doublon" });
    expect(await outboxFor(a.email)).toEqual([]);
    const notifications = await db
      .selectFrom("notifications")
      .select("type")
      .where("data_id", "=", id)
      .orderBy("created_at")
      .execute();
    expect(notifications.map((n) => n.type).sort()).toEqual([
      "expense_request_created_notification",
      "expense_request_refused_notification",
    ]);
  });
});

test("the list pages by 10, newest first, only the user's own", async () => {
  const a = await account();
  const b = await account();
  const base = Date.parse("2026-10-01T10:00:00Z");
  for (let i = 0; i < EXPENSE_REQUESTS_PAGE_SIZE + 1; i++) {
    await createRefund(db, {
      user_id: a.userId,
      type_id: types.gift!,
      amount: 100 + i,
      created_at: new Date(base + i * 60_000).toISOString(),
    });
  }
  const first = await listRefunds(db, a.userId, { tab: "in-progress", page: 1, locale: "fr" });
  expect(first.items).toHaveLength(10);
  expect(first.hasMore).toBe(true);
  expect(first.items[0]!.amount).toBe(110);
  const second = await listRefunds(db, a.userId, { tab: "in-progress", page: 2, locale: "fr" });
  expect(second.items).toHaveLength(11);
  expect(second.hasMore).toBe(false);
  expect((await listRefunds(db, b.userId, { tab: "in-progress", page: 1, locale: "fr" })).items).toEqual([]);
});

test("finished requests carry what explains their amounts: receipt, refunded, fees, the payout's day and amount", async () => {
  const a = await account();
  const b = await account();
  const base = { type_id: types.holidays!, partner_id: partners["Gîtes du Vercors"]! };
  const at = (minutes: number) => new Date(Date.UTC(2026, 9, 1, 8, minutes)).toISOString();
  // Paid in part (300,00 € of a 350,00 € receipt), with fees, and its payout left on 29 October in Paris.
  const partial = await createRefund(db, {
    ...base,
    user_id: a.userId,
    amount: 35000,
    amount_to_refund: 30000,
    fees: 150,
    status: "paid",
    is_cancellable: 0,
    payout_date: "2026-10-28",
    created_at: at(3),
  });
  await db
    .insertInto("payouts")
    .values({
      id: newId("pay"),
      user_id: a.userId,
      expense_request_id: partial.id,
      amount: 30000,
      iban: partial.iban!,
      scheduled_for: "2026-10-28",
      status: "paid",
      paid_at: "2026-10-28T23:15:00Z",
      created_at: at(4),
    })
    .execute();
  // Paid without a payouts row (recorded before them): the request's own day, no transfer amount known.
  const legacy = await createRefund(db, {
    ...base,
    user_id: a.userId,
    amount: 2000,
    status: "paid",
    is_cancellable: 0,
    payout_date: "2026-10-02",
    created_at: at(2),
  });
  // Refused: no payout, whatever day a bad row carries.
  const refused = await createRefund(db, {
    ...base,
    user_id: a.userId,
    amount: 1000,
    status: "refused",
    is_cancellable: 0,
    payout_date: "2026-10-05",
    created_at: at(1),
  });
  // Someone else's paid request with its payout: never in a's list.
  const foreign = await createRefund(db, {
    ...base,
    user_id: b.userId,
    amount: 500,
    status: "paid",
    created_at: at(5),
  });

  const { items } = await listRefunds(db, a.userId, { tab: "finished", page: 1, locale: "fr" });
  expect(items.map((i) => i.id)).toEqual([partial.id, legacy.id, refused.id]);
  expect(items[0]).toMatchObject({
    amount: 35000,
    amountToRefund: 30000,
    fees: 150,
    ibanLastFour: "0189",
    payout: { day: "2026-10-29", paid: true, amount: 30000 },
  });
  expect(items[1]!.payout).toEqual({ day: "2026-10-02", paid: true, amount: null });
  expect(items[2]!.payout).toBeNull();
  expect((await listRefunds(db, b.userId, { tab: "finished", page: 1, locale: "fr" })).items.map((i) => i.id)).toEqual([
    foreign.id,
  ]);
});
