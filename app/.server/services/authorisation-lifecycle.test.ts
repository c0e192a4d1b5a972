import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { DatabaseHandle } from "../db";
import type { AccountSpec } from "../db/factories";
import { openTestDatabase } from "../../../tests/support/test-database";
import { approvedPayment, BOOKSHOP, paymentPerson, RESTAURANT, TUESDAY } from "../../../tests/support/payment-test-kit";
import { capture, expireStale, refundFromMerchant, reverse } from "./authorisation-lifecycle";
import { authorise, type AuthoriseRequest } from "./authorisations";
import { listWallets, spentTodayByWallet } from "./wallets";

const FUEL = { name: "Station Total", city: "Lyon", country: "FR", categoryCode: "5542" };

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openTestDatabase();
});
afterAll(() => handle.close());
const deps = () => ({ db: handle.db });

const person = (spec: Partial<AccountSpec> = {}) => paymentPerson(handle.db, spec);
const approve = (cardId: string, fields: Partial<AuthoriseRequest> = {}) => approvedPayment(handle.db, cardId, fields);

async function wallet(userId: string, name: string) {
  const w = (await listWallets(handle.db, userId, TUESDAY)).find((x) => x.name === name)!;
  return { available: w.available, frozen: w.frozen };
}
const authRow = (id: string) =>
  handle.db.selectFrom("card_authorizations").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const movements = (id: string) =>
  handle.db
    .selectFrom("wallet_transactions")
    .select(["wallet_id", "amount", "status", "main_comment"])
    .where("authorization_id", "=", id)
    .orderBy("status")
    .orderBy("amount")
    .execute();
const spentToday = async (walletId: string) => (await spentTodayByWallet(handle.db, [walletId], TUESDAY)).get(walletId);

describe("capture", () => {
  test("the exact amount: the hold becomes a processed payment, approved tab, balance debited once", async () => {
    const p = await person();
    const id = await approve(p.cards["4242"]!);
    expect(await capture(deps(), id, 1250)).toEqual({
      kind: "captured",
      amount: 1250,
      wallets: [{ walletId: p.wallets["Titres-restaurant"], amount: 1250 }],
      overflow: 0,
      overflowToRefund: 0,
    });
    expect(await authRow(id)).toMatchObject({
      status_name: "closed",
      has_card_transactions: 1,
      frozen: 0,
      amount: 1250,
    });
    expect(await movements(id)).toEqual([
      { wallet_id: p.wallets["Titres-restaurant"], amount: -1250, status: "captured", main_comment: "withdraw" },
      { wallet_id: p.wallets["Titres-restaurant"], amount: -1250, status: "processed", main_comment: "withdraw" },
    ]);
    expect(await wallet(p.userId, "Titres-restaurant")).toEqual({ available: 8750, frozen: 0 });
    // Counted once in the day's spending (the processed row; the captured hold no longer counts).
    expect(await spentToday(p.wallets["Titres-restaurant"]!)).toBe(1250);
  });

  test("a second capture changes nothing and says so", async () => {
    const p = await person();
    const id = await approve(p.cards["4242"]!);
    await capture(deps(), id, 1250);
    expect(await capture(deps(), id, 1250)).toEqual({ kind: "alreadyCaptured", amount: 1250 });
    expect(await capture(deps(), id, 900)).toEqual({ kind: "alreadyCaptured", amount: 1250 });
    expect(await wallet(p.userId, "Titres-restaurant")).toEqual({ available: 8750, frozen: 0 });
    expect((await movements(id)).filter((m) => m.status === "processed")).toHaveLength(1);
  });

  test("a partial capture releases the rest, from the last wallet of the split first", async () => {
    const p = await person();
    // 30 €: 25 € from Titres-restaurant, 5 € from Cadeaux.
    const id = await approve(p.cards["4242"]!, { amount: 3000 });
    expect(await capture(deps(), id, 2700)).toMatchObject({
      kind: "captured",
      amount: 2700,
      wallets: [
        { walletId: p.wallets["Titres-restaurant"], amount: 2500 },
        { walletId: p.wallets["Cadeaux"], amount: 200 },
      ],
    });
    expect(await wallet(p.userId, "Titres-restaurant")).toEqual({ available: 7500, frozen: 0 });
    expect(await wallet(p.userId, "Cadeaux")).toEqual({ available: 4800, frozen: 0 });
    expect(await spentToday(p.wallets["Cadeaux"]!)).toBe(200);
  });

  test("a partial capture lowers the overflow first: the payment intent not charged yet is lowered or cancelled", async () => {
    const p = await person({
      wallets: [{ name: "Culture", type: "culture", balance: 1000 }],
      creditCards: [{ brand: "visa", last4: "1111", isDefault: true }],
      overflowLimit: 5000,
    });
    const id = await approve(p.cards["4242"]!, { amount: 4000, merchant: BOOKSHOP });
    expect(await capture(deps(), id, 1800)).toMatchObject({
      wallets: [{ walletId: p.wallets["Culture"], amount: 1000 }],
      overflow: 800,
      overflowToRefund: 0,
    });
    const intent = await handle.db
      .selectFrom("payment_intents")
      .select(["amount", "latest_status"])
      .where("authorization_id", "=", id)
      .executeTakeFirstOrThrow();
    expect(intent).toEqual({ amount: 800, latest_status: "processing" });
    expect((await authRow(id)).overflow_amount).toBe(800);
  });

  test("a tip at a restaurant: up to +20 %, from the wallets in order, meal within the 25 € of the day", async () => {
    const p = await person();
    const id = await approve(p.cards["4242"]!, { amount: 2000 });
    // 20 € + 20 % = 24 € at most.
    expect(await capture(deps(), id, 2401)).toEqual({ kind: "overTolerance", max: 2400 });
    expect(await capture(deps(), id, 2400)).toMatchObject({
      kind: "captured",
      wallets: [{ walletId: p.wallets["Titres-restaurant"], amount: 2400 }],
    });
    const q = await person();
    const id2 = await approve(q.cards["4242"]!, { amount: 2400 });
    // 28,80 €: Titres-restaurant up to its 25 € of the day, the 3,80 € left from Cadeaux.
    expect(await capture(deps(), id2, 2880)).toMatchObject({
      wallets: [
        { walletId: q.wallets["Titres-restaurant"], amount: 2500 },
        { walletId: q.wallets["Cadeaux"], amount: 380 },
      ],
    });
  });

  test("the tip follows the engine's rules: on a Sunday titres-restaurant pay nothing of it", async () => {
    const SUNDAY = new Date("2026-11-22T11:30:00Z");
    const p = await person();
    // Paid by Cadeaux alone (titres-restaurant never on Sundays); its 1 € tip too, although Titres-restaurant holds 100 €.
    const id = await approve(p.cards["4242"]!, { amount: 4900, at: SUNDAY });
    expect(await capture(deps(), id, 5000)).toMatchObject({
      kind: "captured",
      wallets: [{ walletId: p.wallets["Cadeaux"], amount: 5000 }],
    });
    const q = await person();
    const id2 = await approve(q.cards["4242"]!, { amount: 5000, at: SUNDAY });
    expect(await capture(deps(), id2, 5001)).toEqual({ kind: "insufficientFunds" });
  });

  test("an over-capture the wallets cannot pay is refused and nothing changes", async () => {
    const p = await person({ wallets: [{ name: "Titres-restaurant", type: "meal", balance: 1300 }] });
    const id = await approve(p.cards["4242"]!);
    expect(await capture(deps(), id, 1400)).toEqual({ kind: "insufficientFunds" });
    expect(await authRow(id)).toMatchObject({ status_name: "pending", frozen: 1 });
    expect(await wallet(p.userId, "Titres-restaurant")).toEqual({ available: 50, frozen: 1250 });
    // Within what is left (never below zero): accepted.
    expect(await capture(deps(), id, 1300)).toMatchObject({ kind: "captured", amount: 1300 });
    expect(await wallet(p.userId, "Titres-restaurant")).toEqual({ available: 0, frozen: 0 });
  });

  test("fuel may be captured above its pre-authorisation (assumed +20 %), a bookshop never", async () => {
    const p = await person({ wallets: [{ name: "Mobilité", type: "mobility", balance: 20000 }] });
    const fuel = await approve(p.cards["4242"]!, { amount: 5000, merchant: FUEL });
    expect(await capture(deps(), fuel, 6000)).toMatchObject({ kind: "captured", amount: 6000 });
    const q = await person({ wallets: [{ name: "Culture", type: "culture", balance: 5000 }] });
    const book = await approve(q.cards["4242"]!, { amount: 1000, merchant: BOOKSHOP });
    expect(await capture(deps(), book, 1001)).toEqual({ kind: "overTolerance", max: 1000 });
  });

  test("bad input: zero, negative, fractional or absurd amounts, an unknown or declined authorisation", async () => {
    const p = await person();
    const id = await approve(p.cards["4242"]!);
    for (const amount of [0, -5, 12.5, 10_000_001, Number.NaN]) {
      expect(await capture(deps(), id, amount)).toEqual({ kind: "invalid" });
    }
    expect(await capture(deps(), "auth_nope", 100)).toEqual({ kind: "notFound" });
    const declined = await authorise(deps(), {
      card: { id: p.cards["4242"]! },
      amount: 100_000,
      currency: "EUR",
      merchant: RESTAURANT,
      at: TUESDAY,
      entryMode: "contactless",
    });
    if (declined.kind !== "declined" || !declined.authorizationId) throw new Error("expected a recorded decline");
    expect(await capture(deps(), declined.authorizationId, 100)).toEqual({ kind: "notCapturable", status: "closed" });
  });

  test("two captures at the same instant: exactly one applies", async () => {
    const p = await person();
    const id = await approve(p.cards["4242"]!);
    const results = await Promise.all([capture(deps(), id, 1250), capture(deps(), id, 1250)]);
    expect(results.map((r) => r.kind).sort()).toEqual(["alreadyCaptured", "captured"]);
    expect(await wallet(p.userId, "Titres-restaurant")).toEqual({ available: 8750, frozen: 0 });
  });
});

describe("reverse and expiry", () => {
  test("a reversal releases the holds: the balance, the day's spending and the 25 € come back; idempotent", async () => {
    const p = await person();
    const id = await approve(p.cards["4242"]!, { amount: 3000 });
    expect(await reverse(deps(), id)).toEqual({
      kind: "reversed",
      released: [
        { walletId: p.wallets["Titres-restaurant"], amount: 2500 },
        { walletId: p.wallets["Cadeaux"], amount: 500 },
      ],
      overflowToRefund: 0,
    });
    expect(await authRow(id)).toMatchObject({ status_name: "reversed", status_reason: "reversed", frozen: 0 });
    expect(await wallet(p.userId, "Titres-restaurant")).toEqual({ available: 10000, frozen: 0 });
    expect(await spentToday(p.wallets["Titres-restaurant"]!)).toBe(0);
    expect(await reverse(deps(), id)).toEqual({ kind: "alreadyReleased", reason: "reversed" });
    expect(await capture(deps(), id, 3000)).toEqual({ kind: "notCapturable", status: "reversed" });
    // The 25 € of the day are whole again: a new 25 € meal payment is approved.
    await approve(p.cards["4242"]!, { amount: 2500 });
  });

  test("a captured payment cannot be reversed; the overflow's payment intent is cancelled on a reversal", async () => {
    const p = await person();
    const id = await approve(p.cards["4242"]!);
    await capture(deps(), id, 1250);
    expect(await reverse(deps(), id)).toEqual({ kind: "captured" });
    expect(await reverse(deps(), "auth_nope")).toEqual({ kind: "notFound" });

    const q = await person({
      wallets: [{ name: "Culture", type: "culture", balance: 1000 }],
      creditCards: [{ brand: "visa", last4: "1111", isDefault: true }],
      overflowLimit: 5000,
    });
    const withOverflow = await approve(q.cards["4242"]!, { amount: 3000, merchant: BOOKSHOP });
    await reverse(deps(), withOverflow);
    const intent = await handle.db
      .selectFrom("payment_intents")
      .select("latest_status")
      .where("authorization_id", "=", withOverflow)
      .executeTakeFirstOrThrow();
    expect(intent.latest_status).toBe("canceled");
  });

  test("a capture and a reversal at the same instant: exactly one applies, the other sees it", async () => {
    const p = await person();
    const id = await approve(p.cards["4242"]!);
    const [captured, reversed] = await Promise.all([capture(deps(), id, 1250), reverse(deps(), id)]);
    const kinds = [captured.kind, reversed.kind].sort();
    expect([
      ["captured", "captured"], // captured first: the reversal answers "captured"
      ["notCapturable", "reversed"],
    ]).toContainEqual(kinds);
    const w = await wallet(p.userId, "Titres-restaurant");
    expect(w.frozen).toBe(0);
    expect(w.available).toBe(captured.kind === "captured" ? 8750 : 10000);
  });

  test("an overflow already charged is reported for the processor to give back", async () => {
    const p = await person({
      wallets: [{ name: "Culture", type: "culture", balance: 1000 }],
      creditCards: [{ brand: "visa", last4: "1111", isDefault: true }],
      overflowLimit: 5000,
    });
    const id = await approve(p.cards["4242"]!, { amount: 3000, merchant: BOOKSHOP });
    await handle.db
      .updateTable("payment_intents")
      .set({ latest_status: "succeeded" })
      .where("authorization_id", "=", id)
      .execute();
    expect(await reverse(deps(), id)).toMatchObject({ kind: "reversed", overflowToRefund: 2000 });
    const q = await person({
      wallets: [{ name: "Culture", type: "culture", balance: 1000 }],
      creditCards: [{ brand: "visa", last4: "1111", isDefault: true }],
      overflowLimit: 5000,
    });
    const id2 = await approve(q.cards["4242"]!, { amount: 3000, merchant: BOOKSHOP });
    await handle.db
      .updateTable("payment_intents")
      .set({ latest_status: "succeeded" })
      .where("authorization_id", "=", id2)
      .execute();
    expect(await capture(deps(), id2, 2500)).toMatchObject({ kind: "captured", overflow: 1500, overflowToRefund: 500 });
  });

  test("expireStale releases approvals held more than 7 days, not younger ones nor captured ones", async () => {
    const p = await person();
    const old = await approve(p.cards["4242"]!, { amount: 500 });
    const captured = await approve(p.cards["4242"]!, { amount: 600 });
    await capture(deps(), captured, 600);
    const recent = await approve(p.cards["4242"]!, {
      amount: 700,
      at: new Date(TUESDAY.getTime() + 2 * 24 * 60 * 60 * 1000),
    });
    const eightDaysLater = new Date(TUESDAY.getTime() + 8 * 24 * 60 * 60 * 1000);
    const expired = (await expireStale(deps(), eightDaysLater)).map((e) => e.id);
    expect(expired).toContain(old);
    expect(expired).not.toContain(captured);
    expect(expired).not.toContain(recent);
    expect(await authRow(old)).toMatchObject({ status_name: "reversed", status_reason: "expired", frozen: 0 });
    expect(await authRow(recent)).toMatchObject({ status_name: "pending", frozen: 1 });
    // A second run finds nothing more of this person's.
    expect((await expireStale(deps(), eightDaysLater)).map((e) => e.id)).not.toContain(old);
  });
});

describe("refunds from the merchant", () => {
  test("reverse priority order, at most what was captured, once per reference", async () => {
    const p = await person();
    const id = await approve(p.cards["4242"]!, { amount: 3000 });
    // Not captured yet: nothing to refund.
    expect(await refundFromMerchant(deps(), id, 500, "R1", TUESDAY)).toEqual({ kind: "notCaptured" });
    await capture(deps(), id, 3000);
    // 8 €: the 5 € Cadeaux paid last come back first, then 3 € of Titres-restaurant.
    const first = await refundFromMerchant(deps(), id, 800, "R1", TUESDAY);
    expect(first).toMatchObject({
      kind: "refunded",
      wallets: [
        { walletId: p.wallets["Cadeaux"], amount: 500 },
        { walletId: p.wallets["Titres-restaurant"], amount: 300 },
      ],
      overflow: 0,
    });
    expect(await wallet(p.userId, "Cadeaux")).toEqual({ available: 5000, frozen: 0 });
    expect(await wallet(p.userId, "Titres-restaurant")).toEqual({ available: 7800, frozen: 0 });
    // The same reference again: nothing changes.
    if (first.kind !== "refunded") return;
    expect(await refundFromMerchant(deps(), id, 800, "R1", TUESDAY)).toEqual({
      kind: "alreadyRefunded",
      refundId: first.refundId,
      amount: 800,
    });
    expect(await wallet(p.userId, "Titres-restaurant")).toEqual({ available: 7800, frozen: 0 });
    // 22 € left to refund: 22,01 € refused, 22 € accepted, then nothing more.
    expect(await refundFromMerchant(deps(), id, 2201, "R2", TUESDAY)).toEqual({ kind: "tooMuch", refundable: 2200 });
    expect(await refundFromMerchant(deps(), id, 2200, "R2", TUESDAY)).toMatchObject({
      kind: "refunded",
      wallets: [{ walletId: p.wallets["Titres-restaurant"], amount: 2200 }],
    });
    expect(await wallet(p.userId, "Titres-restaurant")).toEqual({ available: 10000, frozen: 0 });
    expect(await refundFromMerchant(deps(), id, 1, "R3", TUESDAY)).toEqual({ kind: "tooMuch", refundable: 0 });
    // A refund is not a payment: the day's spending is unchanged.
    expect(await spentToday(p.wallets["Titres-restaurant"]!)).toBe(2500);
  });

  test("the overflow is refunded first, for the caller to give back through the processor", async () => {
    const p = await person({
      wallets: [{ name: "Culture", type: "culture", balance: 1000 }],
      creditCards: [{ brand: "visa", last4: "1111", isDefault: true }],
      overflowLimit: 5000,
    });
    const id = await approve(p.cards["4242"]!, { amount: 3000, merchant: BOOKSHOP });
    await capture(deps(), id, 3000);
    expect(await refundFromMerchant(deps(), id, 2500, "R1", TUESDAY)).toMatchObject({
      kind: "refunded",
      overflow: 2000,
      wallets: [{ walletId: p.wallets["Culture"], amount: 500 }],
    });
  });

  test("bad input: amounts and references", async () => {
    const p = await person();
    const id = await approve(p.cards["4242"]!);
    await capture(deps(), id, 1250);
    expect(await refundFromMerchant(deps(), id, 0, "R1", TUESDAY)).toEqual({ kind: "invalid" });
    expect(await refundFromMerchant(deps(), id, 100, "  ", TUESDAY)).toEqual({ kind: "invalid" });
    expect(await refundFromMerchant(deps(), id, 100, "x".repeat(121), TUESDAY)).toEqual({ kind: "invalid" });
    expect(await refundFromMerchant(deps(), "auth_nope", 100, "R1", TUESDAY)).toEqual({ kind: "notFound" });
  });

  test("the same refund twice at the same instant credits once", async () => {
    const p = await person();
    const id = await approve(p.cards["4242"]!);
    await capture(deps(), id, 1250);
    const results = await Promise.all([
      refundFromMerchant(deps(), id, 1250, "R1", TUESDAY),
      refundFromMerchant(deps(), id, 1250, "R1", TUESDAY),
    ]);
    expect(results.map((r) => r.kind).sort()).toEqual(["alreadyRefunded", "refunded"]);
    expect(await wallet(p.userId, "Titres-restaurant")).toEqual({ available: 10000, frozen: 0 });
  });
});
