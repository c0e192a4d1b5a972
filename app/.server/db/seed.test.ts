import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DECLINE_CODES, MEAL_DAILY_CAP, type DeclineCode } from "../../domain/authorisation";
import { isFrenchPublicHoliday } from "../../domain/calendar";
import { ibanProblem } from "../../domain/iban";
import { parisDayAfter, todayInParis } from "../../domain/dates";
import { verifyPassword } from "../passwords";
import { capStatus } from "../services/allowances/requests";
import { listAllowancesAwaitingReview } from "../services/allowances/review";
import { SandboxMessenger } from "../providers/messaging/sandbox";
import { hashSecret } from "../tokens";
import type { DatabaseHandle, DB } from "./index";
import { DEMO_EMAILS, DEMO_PASSWORD, isDatabaseEmpty, seedDemo, seedMarieCopy } from "./seed";
import { dayFits, MARIE_PAYMENTS, planPayments } from "./seed-payments";
import { openTestDatabase } from "../../../tests/support/test-database";

// The facts of shared/DEMO.md that screens and end-to-end tests rely on.

const now = new Date("2026-03-10T09:30:00.000Z");
const DAY = 86_400_000;
const dayFromNow = (days: number) => parisDayAfter(now, days);

let handle: DatabaseHandle;
let db: DB;
let emptyBefore: boolean;

beforeAll(async () => {
  handle = await openTestDatabase();
  db = handle.db;
  emptyBefore = await isDatabaseEmpty(db);
  await seedDemo(db, new SandboxMessenger(db), { now, baseUrl: "http://localhost:3000" });
});
afterAll(() => handle.close());

async function userId(email: string): Promise<string> {
  const row = await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
  return row.id;
}

async function cardByLastFour(lastFour: string) {
  return db.selectFrom("cards").selectAll().where("last_four", "=", lastFour).executeTakeFirstOrThrow();
}

async function walletByName(ownerId: string, name: string) {
  return db
    .selectFrom("wallets")
    .selectAll()
    .where("user_id", "=", ownerId)
    .where("name", "=", name)
    .executeTakeFirstOrThrow();
}

/** "physical_card@Acme France" for each available licence, sorted, to compare as a whole. */
async function availableLicences(ownerId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("licences")
    .innerJoin("groups", "groups.id", "licences.group_id")
    .select(["licences.license_type", "licences.metadata", "groups.name"])
    .where("licences.user_id", "=", ownerId)
    .where("licences.used_at", "is", null)
    .execute();
  return rows.map((r) => `${r.license_type}@${r.name}`).sort();
}

test("the database is empty before seeding and not after", async () => {
  expect(emptyBefore).toBe(true);
  expect(await isDatabaseEmpty(db)).toBe(false);
});

test("every account exists, lower-case, with the shared demo password", async () => {
  const users = await db.selectFrom("users").selectAll().orderBy("email").execute();
  expect(users.map((u) => u.email).sort()).toEqual(Object.values(DEMO_EMAILS).sort());
  const marie = users.find((u) => u.email === DEMO_EMAILS.marie)!;
  expect(await verifyPassword(DEMO_PASSWORD, marie.password_hash!)).toBe(true);
  // One hash, reused: hashing is slow.
  const hashes = new Set(users.filter((u) => u.password_hash).map((u) => u.password_hash));
  expect(hashes.size).toBe(1);
});

describe("marie", () => {
  test("profile: MFA by e-mail, every feature, overflow up to 50 €, both groups", async () => {
    const marie = await db
      .selectFrom("users")
      .selectAll()
      .where("email", "=", DEMO_EMAILS.marie)
      .executeTakeFirstOrThrow();
    expect(marie).toMatchObject({
      first_name: "Marie",
      last_name: "Martin",
      mfa_enabled: 1,
      mfa_preferred: "EMAIL",
      balance_overflow_authorized: 5000,
    });
    expect(marie.terms_confirmed_at).not.toBeNull();
    const features = JSON.parse(marie.features);
    expect(features.integrations["decathlon-integrations"]).toBe(true);
    expect(features.allowances).toMatchObject({ any: true, carpooling: true, bicycle: true, subscription: true });
    expect(features.expenseRequests["fuel-expenses"]).toBe(true);
    const groups = await db.selectFrom("memberships").select("group_id").where("user_id", "=", marie.id).execute();
    expect(groups).toHaveLength(2);
  });

  test("three cards with their types, groups and delivery", async () => {
    const id = await userId(DEMO_EMAILS.marie);
    const cards = await db
      .selectFrom("cards")
      .innerJoin("groups", "groups.id", "cards.group_id")
      .select([
        "cards.last_four",
        "cards.type",
        "cards.shipping_status",
        "cards.shipping_eta",
        "cards.pin_can_update",
        "groups.name",
      ])
      .where("cards.user_id", "=", id)
      .orderBy("cards.created_at")
      .execute();
    // Oldest first: /cards opens 4242.
    expect(cards.map((c) => [c.last_four, c.type, c.name])).toEqual([
      ["4242", "physical", "Acme France"],
      ["5556", "virtual", "Acme France"],
      ["1881", "physical", "CSE Acme"],
    ]);
    const [main, virtual, cse] = cards;
    expect(main).toMatchObject({ shipping_status: "delivered", pin_can_update: 1 });
    expect(virtual?.shipping_status).toBeNull();
    expect(cse).toMatchObject({ shipping_status: "shipped", shipping_eta: dayFromNow(5) });
  });

  test("4242 has 12 approved, 3 declined and 2 frozen authorizations", async () => {
    const card = await cardByLastFour("4242");
    const rows = await db.selectFrom("card_authorizations").selectAll().where("card_id", "=", card.id).execute();
    const approved = rows.filter((r) => r.has_card_transactions === 1 && r.status_name === "closed");
    const declined = rows.filter((r) => r.has_card_transactions === 0 && r.status_name === "closed");
    const frozen = rows.filter((r) => r.frozen === 1 && r.status_name === "pending");
    expect([approved.length, declined.length, frozen.length, rows.length]).toEqual([12, 3, 2, 17]);
    expect(declined.every((r) => r.status_reason)).toBe(true);
    expect(new Set(rows.map((r) => r.transaction_at)).size).toBe(rows.length);

    const overflowed = approved.filter((r) => r.overflow_amount > 0);
    expect(overflowed).toHaveLength(1);
    const intents = await db
      .selectFrom("payment_intents")
      .selectAll()
      .where("authorization_id", "=", overflowed[0]!.id)
      .execute();
    expect(intents.map((i) => i.latest_status)).toEqual(["payment_failed"]);
    expect(approved.filter((r) => r.can_switch_payment_methods === 1)).toHaveLength(1);

    // Marie's other cards have no authorizations, so her totals are 4242's.
    const all = await db
      .selectFrom("card_authorizations")
      .innerJoin("cards", "cards.id", "card_authorizations.card_id")
      .select("card_authorizations.id")
      .where("cards.user_id", "=", card.user_id)
      .execute();
    expect(all).toHaveLength(17);
  });

  test("every payment on 4242 is the engine's: splits add up, holds are held, declines carry the engine's codes", async () => {
    const card = await cardByLastFour("4242");
    const rows = await db.selectFrom("card_authorizations").selectAll().where("card_id", "=", card.id).execute();
    const movements = await db
      .selectFrom("wallet_transactions")
      .select(["authorization_id", "amount", "status", "main_comment", "wallet_id", "created_at"])
      .where(
        "authorization_id",
        "in",
        rows.map((r) => r.id),
      )
      .execute();
    const paid = (id: string, status: string) =>
      movements
        .filter((m) => m.authorization_id === id && m.status === status && m.main_comment === "withdraw")
        .reduce((sum, m) => sum + -m.amount, 0);
    for (const r of rows) {
      // Every request the engine records carries its category code, currency and entry mode.
      expect(r.merchant_category_code, r.merchant_name).toMatch(/^\d{4}$/);
      expect([r.currency, r.entry_mode === null]).toEqual(["EUR", false]);
      if (r.has_card_transactions === 1) {
        // Captured: the wallets paid the amount less the overflow, the holds became `captured`.
        expect(paid(r.id, "processed"), r.merchant_name).toBe(r.amount - r.overflow_amount);
        expect(paid(r.id, "frozen")).toBe(0);
        expect(paid(r.id, "captured"), r.merchant_name).toBe(r.amount - r.overflow_amount);
      } else if (r.frozen === 1) {
        expect(paid(r.id, "frozen"), r.merchant_name).toBe(r.amount - r.overflow_amount);
        expect(paid(r.id, "processed")).toBe(0);
      } else {
        expect(DECLINE_CODES).toContain(r.status_reason as DeclineCode);
        expect(movements.filter((m) => m.authorization_id === r.id)).toEqual([]);
      }
    }
    const byMerchant = (name: string) => rows.find((r) => r.merchant_name === name)!;
    // The declines of DEMO.md, by the rules: a Sunday lunch, a cash machine, a purchase no wallet could pay.
    const declines = rows
      .filter((r) => r.status_name === "closed" && r.has_card_transactions === 0)
      .sort((a, b) => b.transaction_at.localeCompare(a.transaction_at))
      .map((r) => [r.merchant_name, r.status_reason]);
    expect(declines).toEqual([
      ["Le Bouchon des Canuts", "meal_sunday"],
      ["Distributeur Bellecour", "merchant_not_allowed"],
      ["Électro Shop Confluence", "insufficient_funds"],
    ]);
    const sunday = byMerchant("Le Bouchon des Canuts");
    expect(dayFits("sunday", todayInParis(new Date(sunday.transaction_at)))).toBe(true);
    // The overflow: 25,00 € of titres-restaurant, 18,50 € from the saved card (its charge failed).
    const overflowed = byMerchant("Le Comptoir Lyonnais");
    expect([overflowed.amount, overflowed.overflow_amount, paid(overflowed.id, "processed")]).toEqual([
      4350, 1850, 2500,
    ]);
    expect(byMerchant("Le Bistrot des Halles")).toMatchObject({
      can_switch_payment_methods: 1,
      scopes: JSON.stringify(["meal", "gift"]),
    });

    // Titres-restaurant: only on working days, never more than 25 € a day, every day before the seed's day.
    const meal = await walletByName(card.user_id, "Titres-restaurant");
    const perDay = new Map<string, number>();
    for (const m of movements.filter((m) => m.wallet_id === meal.id && m.status !== "captured")) {
      const day = todayInParis(new Date(m.created_at));
      expect(dayFits("meal", day), day).toBe(true);
      expect(day < todayInParis(now)).toBe(true);
      perDay.set(day, (perDay.get(day) ?? 0) - m.amount);
    }
    expect(Math.max(...perDay.values())).toBeLessThanOrEqual(MEAL_DAILY_CAP);
  });

  test("linked wallets in priority order", async () => {
    const linked = async (lastFour: string) => {
      const card = await cardByLastFour(lastFour);
      const rows = await db
        .selectFrom("card_wallets")
        .innerJoin("wallets", "wallets.id", "card_wallets.wallet_id")
        .select("wallets.name")
        .where("card_wallets.card_id", "=", card.id)
        .orderBy("card_wallets.position")
        .execute();
      return rows.map((r) => r.name);
    };
    expect(await linked("4242")).toEqual(["Titres-restaurant", "Mobilité", "Cadeaux de Noël"]);
    expect(await linked("5556")).toEqual(["Titres-restaurant"]);
  });

  test("wallets: meal balance and transactions, gift balances, mobility limit, unlimited culture", async () => {
    const id = await userId(DEMO_EMAILS.marie);
    const meal = await walletByName(id, "Titres-restaurant");
    expect(meal).toMatchObject({ wallet_type: "meal", daily_spending_limit: 2500, source_name: "Acme France" });
    const mealBalances = await db
      .selectFrom("wallet_balances")
      .select("balance")
      .where("wallet_id", "=", meal.id)
      .execute();
    expect(mealBalances.map((b) => b.balance)).toEqual([15240]);
    const mealTx = await db.selectFrom("wallet_transactions").selectAll().where("wallet_id", "=", meal.id).execute();
    expect(mealTx.filter((t) => t.status === "processed").length).toBeGreaterThanOrEqual(9);
    expect(mealTx.filter((t) => t.status === "frozen")).toHaveLength(1);

    const gift = await walletByName(id, "Cadeaux de Noël");
    expect(gift).toMatchObject({ wallet_type: "gift", subtype: "employee_christmas" });
    const giftBalances = await db
      .selectFrom("wallet_balances")
      .select(["balance", "end_date"])
      .where("wallet_id", "=", gift.id)
      .orderBy("end_date")
      .execute();
    expect(giftBalances).toEqual([
      { balance: 12000, end_date: dayFromNow(20) },
      { balance: 8000, end_date: dayFromNow(200) },
    ]);

    const mobility = await walletByName(id, "Mobilité");
    expect(mobility.auto_extend_deposit).toBe(1);
    const limit = await db
      .selectFrom("credit_limits")
      .selectAll()
      .where("wallet_id", "=", mobility.id)
      .executeTakeFirstOrThrow();
    expect(limit).toMatchObject({ initial_amount: 60000, remaining_amount: 42000 });
    expect(limit.credit_ended_at.slice(0, 4)).toBe("2026");
    const frozen = await db
      .selectFrom("wallet_transactions")
      .select("amount")
      .where("wallet_id", "=", mobility.id)
      .where("status", "=", "frozen")
      .execute();
    expect(frozen).toEqual([{ amount: -1200 }]);

    expect((await walletByName(id, "Culture")).unlimited).toBe(1);
  });

  test("exactly one default saved credit card", async () => {
    const id = await userId(DEMO_EMAILS.marie);
    const cards = await db.selectFrom("credit_cards").selectAll().where("user_id", "=", id).orderBy("last4").execute();
    expect(cards.map((c) => [c.brand, c.last4, c.is_default])).toEqual([
      ["visa", "4444", 1],
      ["mastercard", "5454", 0],
    ]);
    const defaults = await db.selectFrom("credit_cards").select("id").where("is_default", "=", 1).execute();
    expect(defaults).toHaveLength(1);
  });

  test("available licences: a virtual card, a physical card and a mobility wallet", async () => {
    const id = await userId(DEMO_EMAILS.marie);
    expect(await availableLicences(id)).toEqual([
      "physical_card@CSE Acme",
      "virtual_card@Acme France",
      "wallet_activation@Acme France",
    ]);
    const wallet = await db
      .selectFrom("licences")
      .select("metadata")
      .where("user_id", "=", id)
      .where("license_type", "=", "wallet_activation")
      .where("used_at", "is", null)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(wallet.metadata)).toEqual({ front: { types: [{ technical_name: "mobility" }] } });
  });

  test("20 notifications, 16 unread, with the routed types", async () => {
    const id = await userId(DEMO_EMAILS.marie);
    const rows = await db.selectFrom("notifications").selectAll().where("user_id", "=", id).execute();
    expect(rows).toHaveLength(20);
    expect(rows.filter((r) => r.read_at === null)).toHaveLength(16);
    const types = new Set(rows.map((r) => r.type));
    for (const type of [
      "card_created_to_user_notification",
      "wallet_expire_in_notification",
      "wallet_reload_notification",
    ]) {
      expect(types).toContain(type);
    }
  });

  test("expense requests and the carpooling allowance", async () => {
    const id = await userId(DEMO_EMAILS.marie);
    const requests = await db.selectFrom("expense_requests").selectAll().where("user_id", "=", id).execute();
    expect(requests.map((r) => [r.status, r.is_rectifiable, r.is_cancellable]).sort()).toEqual([
      ["paid", 0, 0],
      ["sent", 0, 1],
      ["to_correct", 1, 0],
    ]);
    const allowances = await db.selectFrom("allowances").selectAll().where("user_id", "=", id).execute();
    expect(allowances.map((a) => [a.type, a.status])).toEqual([["carpooling", "sent"]]);
  });

  test("marie's carpooling allowance: a past period of this year, its figures by the rules, counted in her cap", async () => {
    const id = await userId(DEMO_EMAILS.marie);
    const allowance = await db
      .selectFrom("allowances as a")
      .innerJoin("groups as g", "g.id", "a.group_id")
      .selectAll("a")
      .select("g.name as group_name")
      .where("a.user_id", "=", id)
      .executeTakeFirstOrThrow();
    // Signed 12 days before 10 March 2026, over the 8 weeks before: 48 days without Sundays, 24 at the office.
    expect(allowance).toMatchObject({
      group_name: "CSE Acme",
      travel_role: "driver",
      start_at: "2026-01-02",
      ends_at: "2026-02-26",
      signed_at: "2026-02-26",
      days_at_office: 24,
      home_address: "8 rue des Lilas 69003 Lyon FR",
      work_address: "3 avenue Foch 69006 Lyon FR",
      iban: "FR7630006000011234567890189",
      iban_last_four: "0189",
      rate_per_km: 25,
      distance_estimate_m: 3300,
      distance_source: "estimate",
      // 6,60 km × 24 days × 0,25 € = 39,60 €, over January and February.
      amount: 3960,
      amount_before_cap: 3960,
      cap_remaining_before: 60000,
      monthly_amount: 1980,
      number_of_months: 2,
    });
    expect(ibanProblem(allowance.iban!)).toBeNull();
    const cap = await capStatus(db, id, allowance.group_id, 2026);
    expect(cap).toMatchObject({ usedWithGroup: 3960, remaining: 56040 });
    expect(await listAllowancesAwaitingReview(db)).toEqual([expect.objectContaining({ id: allowance.id })]);
  });

  test("early January: marie's allowance still lies in the current year", async () => {
    const early = await openTestDatabase();
    try {
      await seedDemo(early.db, new SandboxMessenger(early.db), {
        now: new Date("2027-01-03T09:00:00.000Z"),
        baseUrl: "http://localhost:3000",
      });
      const row = await early.db
        .selectFrom("allowances")
        .select(["start_at", "ends_at", "signed_at", "days_at_office", "amount"])
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ start_at: "2027-01-01", ends_at: "2027-01-03", signed_at: "2027-01-03" });
      // Friday 1 and Saturday 2 January (Sunday 3 is not a day at the office).
      expect(row.days_at_office).toBe(2);
      expect(row.amount).toBeGreaterThan(0);
    } finally {
      await early.close();
    }
  });

  test("the two requests in progress hold their amounts on the Culture wallet, paid to a valid IBAN", async () => {
    const id = await userId(DEMO_EMAILS.marie);
    const culture = await walletByName(id, "Culture");
    const held = await db
      .selectFrom("wallet_reservations")
      .innerJoin("expense_requests", "expense_requests.id", "wallet_reservations.expense_request_id")
      .select(["wallet_reservations.wallet_id", "wallet_reservations.amount", "expense_requests.status"])
      .where("wallet_reservations.status", "=", "held")
      .where("expense_requests.user_id", "=", id)
      .orderBy("wallet_reservations.amount")
      .execute();
    expect(held).toEqual([
      { wallet_id: culture.id, amount: 4590, status: "to_correct" },
      { wallet_id: culture.id, amount: 12000, status: "sent" },
    ]);
    const requests = await db
      .selectFrom("expense_requests")
      .select(["iban", "iban_last_four"])
      .where("user_id", "=", id)
      .execute();
    for (const r of requests) {
      expect(ibanProblem(r.iban ?? "")).toBeNull();
      expect(r.iban_last_four).toBe(r.iban!.slice(-4));
    }
  });
});

test("lucas is a newcomer with two card licences", async () => {
  const lucas = await db
    .selectFrom("users")
    .selectAll()
    .where("email", "=", DEMO_EMAILS.lucas)
    .executeTakeFirstOrThrow();
  expect([lucas.first_name, lucas.last_name, lucas.phone, lucas.mfa_enabled]).toEqual([null, null, null, 0]);
  expect(await db.selectFrom("cards").select("id").where("user_id", "=", lucas.id).execute()).toHaveLength(0);
  expect(await availableLicences(lucas.id)).toEqual(["physical_card@Acme France", "virtual_card@Acme France"]);
});

test("claire manages groups, has one virtual card with one wallet, and nothing else", async () => {
  const claire = await db
    .selectFrom("users")
    .selectAll()
    .where("email", "=", DEMO_EMAILS.claire)
    .executeTakeFirstOrThrow();
  expect(JSON.parse(claire.permissions)).toEqual(["manageGroups", "bypassMFA"]);
  expect(claire.mfa_enabled).toBe(0);
  expect(JSON.parse(claire.features)).toEqual({
    integrations: {},
    allowances: { any: false },
    expenseRequests: { any: false },
  });
  const card = await cardByLastFour("7777");
  expect(card).toMatchObject({ user_id: claire.id, type: "virtual" });
  const links = await db.selectFrom("card_wallets").select("wallet_id").where("card_id", "=", card.id).execute();
  const wallets = await db.selectFrom("wallets").select("id").where("user_id", "=", claire.id).execute();
  expect(wallets).toHaveLength(1);
  expect(links.map((l) => l.wallet_id)).toEqual([wallets[0]!.id]);
  expect(await availableLicences(claire.id)).toEqual([]);
  expect(await db.selectFrom("notifications").select("id").where("user_id", "=", claire.id).execute()).toHaveLength(0);
});

test("paul has a pending phone change and a frozen card still being prepared", async () => {
  const id = await userId(DEMO_EMAILS.paul);
  const changes = await db
    .selectFrom("pending_changes")
    .select(["field_name", "new_value"])
    .where("user_id", "=", id)
    .execute();
  expect(changes).toEqual([{ field_name: "phone", new_value: "+33700000001" }]);
  const card = await cardByLastFour("3005");
  expect(card).toMatchObject({ user_id: id, type: "physical", frozen: 1, shipping_status: "submitted" });
  expect(await db.selectFrom("wallets").select("id").where("user_id", "=", id).execute()).toHaveLength(0);
  // No second factor and no bypass; the code for his new number is in the outbox.
  const paul = await db
    .selectFrom("users")
    .select(["mfa_enabled", "permissions"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  expect([paul.mfa_enabled, JSON.parse(paul.permissions)]).toEqual([0, []]);
  const sms = await db
    .selectFrom("outbox")
    .selectAll()
    .where("recipient", "=", "+33700000001")
    .executeTakeFirstOrThrow();
  expect([sms.channel, /\b\d{6}\b/.test(sms.body)]).toEqual(["sms", true]);
});

test("sophie must replace her temporary password at first sign-in", async () => {
  const sophie = await db
    .selectFrom("users")
    .selectAll()
    .where("email", "=", DEMO_EMAILS.sophie)
    .executeTakeFirstOrThrow();
  expect([sophie.status, sophie.password_change_required, sophie.first_name]).toEqual(["active", 1, null]);
});

test("nina is invited and her activation e-mail is in the outbox", async () => {
  const nina = await db.selectFrom("users").selectAll().where("email", "=", DEMO_EMAILS.nina).executeTakeFirstOrThrow();
  expect([nina.status, nina.password_hash]).toEqual(["invited", null]);
  const mail = await db
    .selectFrom("outbox")
    .selectAll()
    .where("recipient", "=", DEMO_EMAILS.nina)
    .executeTakeFirstOrThrow();
  const match = /http:\/\/localhost:3000\/activate\/([\w-]+)\?email=nina\.roux%40example\.com/.exec(mail.body);
  expect(match).not.toBeNull();
  const token = await db
    .selectFrom("action_tokens")
    .selectAll()
    .where("user_id", "=", nina.id)
    .where("purpose", "=", "activation")
    .executeTakeFirstOrThrow();
  expect(token.token_hash).toBe(hashSecret(match![1]!));
  expect(new Date(token.expires_at).getTime() - now.getTime()).toBe(7 * DAY);
});

test("catalogue: 20+ partners with 2 disabled, expense types with meal disabled and last", async () => {
  const partners = await db.selectFrom("partners").selectAll().execute();
  expect(partners.length).toBeGreaterThanOrEqual(20);
  const disabled = partners.filter((p) => p.enabled === 0);
  expect(disabled).toHaveLength(2);
  expect(disabled.every((p) => p.disabled_reason)).toBe(true);

  const types = await db.selectFrom("expense_types").selectAll().orderBy("position").execute();
  expect(types.map((t) => t.technical_name).sort()).toEqual([
    "culture",
    "fuel_expenses",
    "gift",
    "holidays",
    "meal",
    "mobility",
    "sport",
  ]);
  expect(types.at(-1)).toMatchObject({ technical_name: "meal", front_disabled: 1 });
  expect(types.every((t) => t.name_fr && t.name_en && t.name_nl)).toBe(true);
});

describe("the same demo whatever the day the seed runs", () => {
  const days = {
    sunday: "2026-03-08T10:00:00.000Z",
    monday: "2026-03-09T06:30:00.000Z",
    "Whit Monday (public holiday)": "2026-05-25T09:00:00.000Z",
    "Easter Monday after a Sunday (two days off)": "2026-04-06T08:00:00.000Z",
    "New Year's Day (history in last year)": "2027-01-01T11:00:00.000Z",
    "just after midnight in Paris on a Monday": "2026-03-08T23:10:00.000Z",
  };

  test("the planner puts each payment on a day its rule accepts, before today, newest first", () => {
    for (const [name, at] of Object.entries(days)) {
      const seedNow = new Date(at);
      const plan = planPayments(MARIE_PAYMENTS, seedNow);
      const today = todayInParis(seedNow);
      for (const [i, p] of plan.entries()) {
        expect(dayFits(p.rule, p.day), `${name}: ${p.merchant}`).toBe(true);
        expect(p.day < today).toBe(true);
        expect(todayInParis(p.at)).toBe(p.day);
        if (i > 0) expect(p.at.getTime(), `${name}: ${p.merchant}`).toBeLessThan(plan[i - 1]!.at.getTime());
        if (p.rule === "meal") expect(isFrenchPublicHoliday(p.day)).toBe(false);
      }
      // The frozen payments stay within the 7 days before an approval expires.
      const held = plan.filter((p) => p.expect.kind === "held");
      for (const p of held) expect(seedNow.getTime() - p.at.getTime()).toBeLessThan(7 * DAY);
    }
  });

  test.each(Object.entries(days))("seeded on %s: the counts, reasons and balances of DEMO.md", async (_, at) => {
    const other = await openTestDatabase();
    try {
      const seedNow = new Date(at);
      await seedDemo(other.db, new SandboxMessenger(other.db), { now: seedNow, baseUrl: "http://localhost:3000" });
      const card = await other.db
        .selectFrom("cards")
        .selectAll()
        .where("last_four", "=", "4242")
        .executeTakeFirstOrThrow();
      const rows = await other.db
        .selectFrom("card_authorizations")
        .selectAll()
        .where("card_id", "=", card.id)
        .execute();
      const approved = rows.filter((r) => r.has_card_transactions === 1 && r.status_name === "closed");
      const declined = rows.filter((r) => r.has_card_transactions === 0 && r.status_name === "closed");
      const frozen = rows.filter((r) => r.frozen === 1 && r.status_name === "pending");
      expect([approved.length, declined.length, frozen.length]).toEqual([12, 3, 2]);
      expect(declined.map((r) => r.status_reason as DeclineCode).sort()).toEqual([
        "insufficient_funds",
        "meal_sunday",
        "merchant_not_allowed",
      ]);
      expect(approved.filter((r) => r.overflow_amount > 0).map((r) => r.overflow_amount)).toEqual([1850]);

      const wallet = (name: string) =>
        other.db
          .selectFrom("wallets")
          .select("id")
          .where("user_id", "=", card.user_id)
          .where("name", "=", name)
          .executeTakeFirstOrThrow();
      const balances = async (name: string) =>
        (
          await other.db
            .selectFrom("wallet_balances")
            .select("balance")
            .where("wallet_id", "=", (await wallet(name)).id)
            .orderBy("end_date")
            .execute()
        ).map((b) => b.balance);
      expect(await balances("Titres-restaurant")).toEqual([15240]);
      expect(await balances("Cadeaux de Noël")).toEqual([12000, 8000]);
      const year = todayInParis(seedNow).slice(0, 4);
      const limit = await other.db
        .selectFrom("credit_limits")
        .select(["initial_amount", "remaining_amount"])
        .where("wallet_id", "=", (await wallet("Mobilité")).id)
        .where("credit_ended_at", "like", `${year}-%`)
        .executeTakeFirstOrThrow();
      expect(limit).toEqual({ initial_amount: 60000, remaining_amount: 42000 });
    } finally {
      await other.close();
    }
  });
});

// Last in this file: the copy adds a second "4242" and the others look cards up by their last four.
test("a copy of marie (the journeys' own): her world under another e-mail, the demo's marie unchanged", async () => {
  const marie = await userId(DEMO_EMAILS.marie);
  const count = async (
    table: "cards" | "wallets" | "notifications" | "expense_requests" | "allowances",
    user: string,
  ) => (await db.selectFrom(table).select("id").where("user_id", "=", user).execute()).length;
  const before = await count("notifications", marie);
  const copy = await seedMarieCopy(db, { email: "marie-copy@example.com", passwordHash: "x", now });
  expect(copy).not.toBe(marie);
  for (const table of ["cards", "wallets", "notifications", "expense_requests", "allowances"] as const)
    expect(await count(table, copy), table).toBe(await count(table, marie));
  expect(await count("notifications", marie)).toBe(before);
  const unread = await db
    .selectFrom("notifications")
    .select("id")
    .where("user_id", "=", copy)
    .where("read_at", "is", null)
    .execute();
  expect(unread).toHaveLength(16);
  // Her notifications lead to her own cards and wallets, not to marie's.
  const targets = await db
    .selectFrom("notifications as n")
    .innerJoin("cards as c", "c.id", "n.data_id")
    .select("c.user_id")
    .where("n.user_id", "=", copy)
    .execute();
  expect(targets.length).toBeGreaterThan(0);
  expect(targets.every((t) => t.user_id === copy)).toBe(true);
  const groups = await db.selectFrom("memberships").select("group_id").where("user_id", "=", copy).execute();
  const marieGroups = await db.selectFrom("memberships").select("group_id").where("user_id", "=", marie).execute();
  expect(groups.map((g) => g.group_id).sort()).toEqual(marieGroups.map((g) => g.group_id).sort());
});
