import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { DatabaseHandle } from "../db";
import type { AccountSpec } from "../db/factories";
import { openTestDatabase } from "../../../tests/support/test-database";
import { approvedPayment, BOOKSHOP, paymentPerson, TUESDAY } from "../../../tests/support/payment-test-kit";
import { capture, refundFromMerchant, reverse } from "./authorisation-lifecycle";
import type { AuthoriseRequest } from "./authorisations";
import { getCardDetail } from "./cards";
import { getSwitchableTransaction, SWITCH_CREDIT, switchPaymentMethods } from "./payment-methods";
import { loadTransactionsForCard } from "./transactions";
import { getWalletDetail, listWallets, listWalletTransactions, walletPage, walletPartsOf } from "./wallets";

/** What a wallet's page says of the meal day (null: not a meal wallet, or not this person's). */
const mealDayOfWallet = async (db: DatabaseHandle["db"], userId: string, walletId: string, now: Date) =>
  (await walletPage(db, userId, walletId, { processed: 7, frozen: 5 }, now)).page?.mealDay ?? null;

/**
 * The payment-method switch moves the money (decision 0038), and the screens read the engine's records
 * (issue 17 §2): SQLite by default, PostgreSQL with TEST_DATABASE_URL.
 */

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openTestDatabase();
});
afterAll(() => handle.close());
const deps = () => ({ db: handle.db });

const person = (spec: Partial<AccountSpec> = {}) => paymentPerson(handle.db, spec);
const approve = (cardId: string, fields: Partial<AuthoriseRequest> = {}) => approvedPayment(handle.db, cardId, fields);

/** An approved payment, captured, that the issuer lets the person switch. */
async function capturedSwitchable(cardId: string, fields: Partial<AuthoriseRequest> = {}) {
  const id = await approve(cardId, fields);
  const captured = await capture(deps(), id, fields.amount ?? 1250);
  if (captured.kind !== "captured") throw new Error(`expected a capture, got ${JSON.stringify(captured)}`);
  await handle.db
    .updateTable("card_authorizations")
    .set({ can_switch_payment_methods: 1 })
    .where("id", "=", id)
    .execute();
  return id;
}

const available = async (userId: string, name: string) =>
  (await listWallets(handle.db, userId, TUESDAY)).find((w) => w.name === name)!.available;
const parts = async (id: string) =>
  ((await walletPartsOf(handle.db, [id])).get(id) ?? []).map((p) => [p.walletName, p.amount]);
const authRow = (id: string) =>
  handle.db.selectFrom("card_authorizations").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const switchRows = (id: string) =>
  handle.db.selectFrom("payment_method_switches").selectAll().where("authorization_id", "=", id).execute();
const movementCount = async (id: string) =>
  (await handle.db.selectFrom("wallet_transactions").select("id").where("authorization_id", "=", id).execute()).length;

describe("switching a captured payment's payment methods", () => {
  test("each wallet gets its part back and the chosen wallets pay; the wallet histories say so; a refund follows", async () => {
    const p = await person();
    const card = p.cards["4242"]!;
    const meal = p.wallets["Titres-restaurant"]!;
    const gift = p.wallets["Cadeaux"]!;
    const id = await capturedSwitchable(card);
    expect(await parts(id)).toEqual([["Titres-restaurant", 1250]]);
    expect(await available(p.userId, "Titres-restaurant")).toBe(8750);

    // What Titres-restaurant paid comes back to it first: it may take the whole payment again.
    const offered = (await getSwitchableTransaction(handle.db, p.userId, card, id))!;
    expect(offered.wallets.map((w) => [w.name, w.selectable])).toEqual([
      ["Titres-restaurant", 1250],
      ["Cadeaux", 1250],
    ]);

    expect(await switchPaymentMethods(handle.db, p.userId, card, id, { [meal]: "5", [gift]: "7,50" }, TUESDAY)).toEqual(
      { kind: "ok", overflowToRefund: 0 },
    );
    expect(await available(p.userId, "Titres-restaurant")).toBe(9500);
    expect(await available(p.userId, "Cadeaux")).toBe(4250);
    expect(await parts(id)).toEqual([
      ["Titres-restaurant", 500],
      ["Cadeaux", 750],
    ]);
    expect(await authRow(id)).toMatchObject({ can_switch_payment_methods: 0, overflow_amount: 0, amount: 1250 });
    expect((await switchRows(id)).map((r) => [r.wallet_id, r.amount]).sort()).toEqual(
      [
        [meal, 500],
        [gift, 750],
      ].sort(),
    );

    // The wallet page lists the payment, the switch's credit and the new payment.
    const history = (await listWalletTransactions(handle.db, p.userId, meal, { processed: 10, frozen: 5 }))!;
    expect(history.processed.slice(0, 3).map((t) => [t.amount, t.label])).toEqual(
      expect.arrayContaining([
        [1250, { kind: "comment", key: SWITCH_CREDIT }],
        [-500, { kind: "merchant", name: "Le Petit Café" }],
        [-1250, { kind: "merchant", name: "Le Petit Café" }],
      ]),
    );

    // A merchant refund after the switch gives back what each wallet paid now (the last wallet first).
    expect(await refundFromMerchant(deps(), id, 1000, "R1", TUESDAY)).toMatchObject({
      kind: "refunded",
      wallets: [
        { walletId: gift, amount: 750 },
        { walletId: meal, amount: 250 },
      ],
      overflow: 0,
    });
    expect(await available(p.userId, "Cadeaux")).toBe(5000);
    expect(await available(p.userId, "Titres-restaurant")).toBe(9750);
  });

  test("another person's id, a held payment or one not switchable: notFound, nothing written", async () => {
    const p = await person();
    const other = await person();
    const card = p.cards["4242"]!;
    const gift = p.wallets["Cadeaux"]!;
    const id = await capturedSwitchable(card);
    const before = await movementCount(id);
    expect(await getSwitchableTransaction(handle.db, other.userId, card, id)).toBeNull();
    expect(await switchPaymentMethods(handle.db, other.userId, card, id, { [gift]: "12,50" })).toEqual({
      kind: "notFound",
    });
    // Their own card id with this payment: still not theirs.
    expect(await switchPaymentMethods(handle.db, other.userId, other.cards["4242"]!, id, { [gift]: "12,50" })).toEqual({
      kind: "notFound",
    });
    // A held (not captured) payment is not switched (decision 0038), even when the issuer allows it.
    const held = await approve(card);
    await handle.db
      .updateTable("card_authorizations")
      .set({ can_switch_payment_methods: 1 })
      .where("id", "=", held)
      .execute();
    expect(await switchPaymentMethods(handle.db, p.userId, card, held, { [gift]: "12,50" })).toEqual({
      kind: "notFound",
    });
    expect(await movementCount(id)).toBe(before);
    expect(await switchRows(id)).toEqual([]);
    expect(await authRow(id)).toMatchObject({ can_switch_payment_methods: 1 });
    expect(await available(p.userId, "Cadeaux")).toBe(5000);
  });

  test("two submits at once: the money moves once", async () => {
    const p = await person();
    const card = p.cards["4242"]!;
    const gift = p.wallets["Cadeaux"]!;
    const id = await capturedSwitchable(card);
    const results = await Promise.all(
      [1, 2, 3].map(() => switchPaymentMethods(handle.db, p.userId, card, id, { [gift]: "12,50" }, TUESDAY)),
    );
    expect(results.filter((r) => r.kind === "ok")).toHaveLength(1);
    expect(results.filter((r) => r.kind === "notFound")).toHaveLength(2);
    expect(await available(p.userId, "Cadeaux")).toBe(3750);
    expect(await available(p.userId, "Titres-restaurant")).toBe(10000);
    expect(await switchRows(id)).toHaveLength(1);
  });

  test("a wallet emptied by a payment meanwhile: a form error, nothing written, never below zero", async () => {
    const p = await person({
      wallets: [
        { name: "Titres-restaurant", type: "meal", balance: 10000 },
        { name: "Cadeaux", type: "gift", balance: 2000 },
      ],
    });
    const card = p.cards["4242"]!;
    const gift = p.wallets["Cadeaux"]!;
    const id = await capturedSwitchable(card);
    // The form offered 12,50 € from Cadeaux; then a gift-shop payment takes 15 € of its 20 €.
    expect(
      (await getSwitchableTransaction(handle.db, p.userId, card, id))!.wallets.find((w) => w.id === gift),
    ).toMatchObject({ selectable: 1250 });
    await approve(card, { amount: 1500, merchant: { ...BOOKSHOP, name: "Boutique", categoryCode: "5947" } });
    const before = await movementCount(id);
    expect(await switchPaymentMethods(handle.db, p.userId, card, id, { [gift]: "12,50" }, TUESDAY)).toEqual({
      kind: "invalid",
      errors: { [gift]: "tooMuch" },
      total: null,
    });
    expect(await movementCount(id)).toBe(before);
    expect(await switchRows(id)).toEqual([]);
    expect(await authRow(id)).toMatchObject({ can_switch_payment_methods: 1 });
    expect(await available(p.userId, "Cadeaux")).toBe(500);

    // At the same instant as a payment: whichever comes second sees the first; Cadeaux never goes below zero.
    const [switched] = await Promise.all([
      switchPaymentMethods(handle.db, p.userId, card, id, { [gift]: "5" }, TUESDAY),
      approve(card, { amount: 400, merchant: { ...BOOKSHOP, name: "Boutique", categoryCode: "5947" } }).catch(
        () => null,
      ),
    ]);
    expect(["ok", "invalid"]).toContain(switched.kind);
    expect(await available(p.userId, "Cadeaux")).toBeGreaterThanOrEqual(0);
  });

  test("an overflow already charged is returned for the processor to refund; one not charged is cancelled", async () => {
    const p = await person({
      wallets: [
        { name: "Culture", type: "culture", balance: 1000 },
        { name: "Cadeaux", type: "gift", balance: 10000 },
      ],
      cards: [{ type: "physical", lastFour: "4242", wallets: ["Culture"] }],
      creditCards: [{ brand: "visa", last4: "1111", isDefault: true }],
      overflowLimit: 5000,
    });
    const card = p.cards["4242"]!;
    // 40 € at the bookshop: 10 € from Culture, 30 € from the saved card, charged.
    const id = await approve(card, { amount: 4000, merchant: BOOKSHOP });
    await handle.db
      .updateTable("payment_intents")
      .set({ latest_status: "succeeded" })
      .where("authorization_id", "=", id)
      .execute();
    await capture(deps(), id, 4000);
    await handle.db
      .updateTable("card_authorizations")
      .set({ can_switch_payment_methods: 1 })
      .where("id", "=", id)
      .execute();
    await handle.db
      .insertInto("card_wallets")
      .values({ card_id: card, wallet_id: p.wallets["Cadeaux"]!, position: 1 })
      .execute();
    expect(
      await switchPaymentMethods(handle.db, p.userId, card, id, { [p.wallets["Cadeaux"]!]: "40" }, TUESDAY),
    ).toEqual({ kind: "ok", overflowToRefund: 3000 });
    expect(await available(p.userId, "Culture")).toBe(1000);
    expect(await available(p.userId, "Cadeaux")).toBe(6000);
    expect(await authRow(id)).toMatchObject({ overflow_amount: 0 });

    // Not charged yet (or failed): cancelled, nothing to refund, no retry offered.
    // Paid by Culture and the saved card again: Cadeaux off the card for the payment.
    await handle.db.deleteFrom("card_wallets").where("wallet_id", "=", p.wallets["Cadeaux"]!).execute();
    const second = await approve(card, { amount: 3000, merchant: BOOKSHOP });
    await handle.db
      .insertInto("card_wallets")
      .values({ card_id: card, wallet_id: p.wallets["Cadeaux"]!, position: 1 })
      .execute();
    expect(second).toBeTruthy();
    await capture(deps(), second, 3000);
    await handle.db
      .updateTable("payment_intents")
      .set({ latest_status: "payment_failed" })
      .where("authorization_id", "=", second)
      .execute();
    await handle.db
      .updateTable("card_authorizations")
      .set({ can_switch_payment_methods: 1 })
      .where("id", "=", second)
      .execute();
    expect(
      await switchPaymentMethods(handle.db, p.userId, card, second, { [p.wallets["Cadeaux"]!]: "30" }, TUESDAY),
    ).toEqual({ kind: "ok", overflowToRefund: 0 });
    const intents = await handle.db
      .selectFrom("payment_intents")
      .select("latest_status")
      .where("authorization_id", "=", second)
      .execute();
    expect(intents.map((i) => i.latest_status)).toEqual(["canceled"]);
  });
});

describe("the switch applies the engine's rules on the payment's day (decision 0035)", () => {
  /** Sunday 22 November 2026, 12:30 in Paris. */
  const SUNDAY = new Date("2026-11-22T11:30:00Z");
  const offered = async (userId: string, card: string, id: string) =>
    (await getSwitchableTransaction(handle.db, userId, card, id))!.wallets.map((w) => [w.name, w.selectable]);

  test("a Sunday restaurant payment cannot move onto titres-restaurant, unless the funder allows its Sunday workers", async () => {
    const p = await person();
    const card = p.cards["4242"]!;
    const meal = p.wallets["Titres-restaurant"]!;
    const gift = p.wallets["Cadeaux"]!;
    // On a Sunday the engine has Cadeaux pay it.
    const id = await capturedSwitchable(card, { at: SUNDAY });
    expect(await parts(id)).toEqual([["Cadeaux", 1250]]);
    // Titres-restaurant holds 100 € but is not offered; the switch refuses it, nothing written.
    expect(await offered(p.userId, card, id)).toEqual([["Cadeaux", 1250]]);
    const before = await movementCount(id);
    expect(await switchPaymentMethods(handle.db, p.userId, card, id, { [meal]: "12,50" }, TUESDAY)).toEqual({
      kind: "invalid",
      errors: { form: "empty" },
      total: 0,
    });
    expect(await movementCount(id)).toBe(before);
    expect(await authRow(id)).toMatchObject({ can_switch_payment_methods: 1 });
    expect(await available(p.userId, "Titres-restaurant")).toBe(10000);

    await handle.db.updateTable("groups").set({ meal_sunday_workers: 1 }).where("id", "=", p.groupId).execute();
    expect(await offered(p.userId, card, id)).toEqual([
      ["Titres-restaurant", 1250],
      ["Cadeaux", 1250],
    ]);
    expect(await switchPaymentMethods(handle.db, p.userId, card, id, { [meal]: "12,50", [gift]: "" }, TUESDAY)).toEqual(
      { kind: "ok", overflowToRefund: 0 },
    );
    expect(await parts(id)).toEqual([["Titres-restaurant", 1250]]);
  });

  test("a weekday payment moves onto titres-restaurant at most what the day's 25 € leave, its own part apart", async () => {
    const p = await person();
    const card = p.cards["4242"]!;
    const meal = p.wallets["Titres-restaurant"]!;
    const gift = p.wallets["Cadeaux"]!;
    // Lunch, 15 € from Titres-restaurant; then dinner, 20 €: 10 € left of the day's 25 €, Cadeaux the rest.
    await capturedSwitchable(card, { amount: 1500 });
    const id = await capturedSwitchable(card, { amount: 2000 });
    expect(await parts(id)).toEqual([
      ["Titres-restaurant", 1000],
      ["Cadeaux", 1000],
    ]);
    // The dinner's own 10 € do not count against it: Titres-restaurant may still give 10 €, not 0 and not 20.
    expect(await offered(p.userId, card, id)).toEqual([
      ["Titres-restaurant", 1000],
      ["Cadeaux", 2000],
    ]);
    const before = await movementCount(id);
    expect(
      await switchPaymentMethods(handle.db, p.userId, card, id, { [meal]: "10,01", [gift]: "9,99" }, TUESDAY),
    ).toEqual({ kind: "invalid", errors: { [meal]: "tooMuch" }, total: null });
    expect(await movementCount(id)).toBe(before);
    expect(await available(p.userId, "Titres-restaurant")).toBe(7500);

    expect(await switchPaymentMethods(handle.db, p.userId, card, id, { [meal]: "5", [gift]: "15" }, TUESDAY)).toEqual({
      kind: "ok",
      overflowToRefund: 0,
    });
    expect(await parts(id)).toEqual([
      ["Titres-restaurant", 500],
      ["Cadeaux", 1500],
    ]);
    expect(await available(p.userId, "Titres-restaurant")).toBe(8000);
  });

  test("two titres-restaurant wallets share the day's 25 €", async () => {
    const p = await person({
      wallets: [
        { name: "Titres-restaurant", type: "meal", balance: 10000 },
        { name: "Titres-restaurant 2", type: "meal", balance: 10000 },
        { name: "Cadeaux", type: "gift", balance: 5000 },
      ],
    });
    const card = p.cards["4242"]!;
    const [meal, meal2, gift] = ["Titres-restaurant", "Titres-restaurant 2", "Cadeaux"].map((n) => p.wallets[n]!);
    const id = await capturedSwitchable(card, { amount: 3000 });
    expect(await parts(id)).toEqual([
      ["Titres-restaurant", 2500],
      ["Cadeaux", 500],
    ]);
    expect(await offered(p.userId, card, id)).toEqual([
      ["Titres-restaurant", 2500],
      ["Titres-restaurant 2", 2500],
      ["Cadeaux", 3000],
    ]);
    // Each alone within 25 €, together 30 €: the second is too much.
    expect(
      await switchPaymentMethods(handle.db, p.userId, card, id, { [meal!]: "15", [meal2!]: "15" }, TUESDAY),
    ).toEqual({ kind: "invalid", errors: { [meal2!]: "tooMuch" }, total: null });
    expect(
      await switchPaymentMethods(
        handle.db,
        p.userId,
        card,
        id,
        { [meal!]: "15", [meal2!]: "10", [gift!]: "5" },
        TUESDAY,
      ),
    ).toEqual({ kind: "ok", overflowToRefund: 0 });
  });

  test("a wallet's per-payment limit, daily limit and today zero on the payment's day", async () => {
    const p = await person();
    const card = p.cards["4242"]!;
    const meal = p.wallets["Titres-restaurant"]!;
    const gift = p.wallets["Cadeaux"]!;
    const id = await capturedSwitchable(card);
    await handle.db.updateTable("wallets").set({ limit_per_transaction: 800 }).where("id", "=", gift).execute();
    expect(await offered(p.userId, card, id)).toEqual([
      ["Titres-restaurant", 1250],
      ["Cadeaux", 800],
    ]);
    const before = await movementCount(id);
    expect(await switchPaymentMethods(handle.db, p.userId, card, id, { [gift]: "12,50" }, TUESDAY)).toEqual({
      kind: "invalid",
      errors: { [gift]: "tooMuch" },
      total: null,
    });
    expect(await movementCount(id)).toBe(before);
    expect(await available(p.userId, "Cadeaux")).toBe(5000);

    // A daily limit less what Cadeaux paid that day (a bookshop, 3 €): 5 € left.
    await handle.db
      .updateTable("wallets")
      .set({ limit_per_transaction: null, daily_spending_limit: 800 })
      .where("id", "=", gift)
      .execute();
    await approve(card, { amount: 300, merchant: { ...BOOKSHOP, categoryCode: "5947" } });
    expect(await offered(p.userId, card, id)).toEqual([
      ["Titres-restaurant", 1250],
      ["Cadeaux", 500],
    ]);
    // The form offered 5 €; another 3 € at the bookshop meanwhile: the lock finds 2 € left, nothing written.
    await approve(card, { amount: 300, merchant: { ...BOOKSHOP, categoryCode: "5947" } });
    expect(await switchPaymentMethods(handle.db, p.userId, card, id, { [meal]: "7,50", [gift]: "5" }, TUESDAY)).toEqual(
      { kind: "invalid", errors: { [gift]: "tooMuch" }, total: null },
    );
    expect(await movementCount(id)).toBe(before);
    // "Today zero" set on the payment's day: not offered.
    await handle.db.updateTable("wallets").set({ zero_limit_day: "2026-11-24" }).where("id", "=", gift).execute();
    expect(await offered(p.userId, card, id)).toEqual([["Titres-restaurant", 1250]]);

    expect(await switchPaymentMethods(handle.db, p.userId, card, id, { [meal]: "4,50", [gift]: "8" }, TUESDAY)).toEqual(
      { kind: "invalid", errors: { form: "total" }, total: 450 },
    );
    expect(await switchPaymentMethods(handle.db, p.userId, card, id, { [meal]: "12,50" }, TUESDAY)).toEqual({
      kind: "ok",
      overflowToRefund: 0,
    });
    // Another person's ids still answer notFound.
    const other = await person();
    expect(await getSwitchableTransaction(handle.db, other.userId, card, id)).toBeNull();
  });
});

describe("the screens read the engine's records", () => {
  test("held, captured and reversed payments: the card's reserved amounts, its tabs, the wallet lists and balances agree", async () => {
    const p = await person();
    const card = p.cards["4242"]!;
    const meal = p.wallets["Titres-restaurant"]!;
    const gift = p.wallets["Cadeaux"]!;
    // 30 €: 25 € from Titres-restaurant, 5 € from Cadeaux (held).
    const held = await approve(card, { amount: 3000 });
    const toReverse = await approve(card, {
      amount: 800,
      merchant: { ...BOOKSHOP, name: "Cadeaux Shop", categoryCode: "5947" },
      at: new Date(TUESDAY.getTime() + 60_000),
    });

    const panel = async () =>
      (await loadTransactionsForCard(handle.db, p.userId, card, { tab: "approved", limit: 7, frozenLimit: 5 }))!;
    let detail = (await getCardDetail(handle.db, p.userId, card))!;
    expect(detail.balances).toMatchObject({ reserved: 3800, available: 10000 + 5000 - 3800, total: 15000 });
    const frozen = (await panel()).frozen.items;
    expect(frozen.map((i) => [i.merchantName, i.walletParts])).toEqual([
      ["Cadeaux Shop", [{ walletName: "Cadeaux", amount: 800 }]],
      [
        "Le Petit Café",
        [
          { walletName: "Titres-restaurant", amount: 2500 },
          { walletName: "Cadeaux", amount: 500 },
        ],
      ],
    ]);
    const giftHistory = async () =>
      (await listWalletTransactions(handle.db, p.userId, gift, { processed: 10, frozen: 5 }))!;
    expect((await giftHistory()).frozen.map((t) => t.amount).sort()).toEqual([500, 800]);
    expect((await getWalletDetail(handle.db, p.userId, gift, TUESDAY))!).toMatchObject({
      available: 3700,
      frozen: 1300,
    });

    // Captured: the approved tab with its split, the processed payments, no more reserved.
    await capture(deps(), held, 3000);
    // Reversed: the declined tab (status reversed), released, nothing listed on the wallets.
    await reverse(deps(), toReverse);
    detail = (await getCardDetail(handle.db, p.userId, card))!;
    expect(detail.balances).toMatchObject({ reserved: 0, available: 12000, total: 12000 });
    const after = await panel();
    expect(after.frozen.items).toEqual([]);
    expect(after.items.map((i) => [i.merchantName, i.status, i.walletParts])).toEqual([
      [
        "Le Petit Café",
        "approved",
        [
          { walletName: "Titres-restaurant", amount: 2500 },
          { walletName: "Cadeaux", amount: 500 },
        ],
      ],
    ]);
    const declined = (await loadTransactionsForCard(handle.db, p.userId, card, {
      tab: "declined",
      limit: 7,
      frozenLimit: 5,
    }))!;
    expect(declined.items.map((i) => [i.merchantName, i.status, i.statusReason, i.walletParts])).toEqual([
      ["Cadeaux Shop", "reversed", "reversed", []],
    ]);
    const gifts = await giftHistory();
    expect(gifts.frozen).toEqual([]);
    expect(gifts.processed.filter((t) => t.amount < 0).map((t) => [t.amount, t.label])).toEqual([
      [-500, { kind: "merchant", name: "Le Petit Café" }],
    ]);
    const meals = (await listWalletTransactions(handle.db, p.userId, meal, { processed: 10, frozen: 5 }))!;
    expect(meals.processed.filter((t) => t.amount < 0).map((t) => t.amount)).toEqual([-2500]);
    expect((await getWalletDetail(handle.db, p.userId, gift, TUESDAY))!).toMatchObject({ available: 4500, frozen: 0 });
    expect((await getWalletDetail(handle.db, p.userId, meal, TUESDAY))!).toMatchObject({ available: 7500, frozen: 0 });
  });
});

describe("the meal wallet's day (the wallet page)", () => {
  test("what the 25 € leave today; Sundays and public holidays closed unless the funder allows them", async () => {
    const p = await person();
    const other = await person();
    const meal = p.wallets["Titres-restaurant"]!;
    expect(await mealDayOfWallet(handle.db, p.userId, meal, TUESDAY)).toEqual({ left: 2500, closed: null });
    await approve(p.cards["4242"]!);
    expect(await mealDayOfWallet(handle.db, p.userId, meal, TUESDAY)).toEqual({ left: 1250, closed: null });
    // Sunday 29 November 2026, 00:30 in Paris (still Saturday in UTC); Christmas day.
    expect(await mealDayOfWallet(handle.db, p.userId, meal, new Date("2026-11-28T23:30:00Z"))).toEqual({
      left: 2500,
      closed: "meal_sunday",
    });
    expect(await mealDayOfWallet(handle.db, p.userId, meal, new Date("2026-12-25T11:00:00Z"))).toMatchObject({
      closed: "meal_public_holiday",
    });
    await handle.db.updateTable("groups").set({ meal_sunday_workers: 1 }).where("id", "=", p.groupId).execute();
    expect(await mealDayOfWallet(handle.db, p.userId, meal, new Date("2026-11-29T11:00:00Z"))).toEqual({
      left: 2500,
      closed: null,
    });
    // Another wallet, or another person's: nothing to say.
    expect(await mealDayOfWallet(handle.db, p.userId, p.wallets["Cadeaux"]!, TUESDAY)).toBeNull();
    expect(await mealDayOfWallet(handle.db, other.userId, meal, TUESDAY)).toBeNull();
  });
});
