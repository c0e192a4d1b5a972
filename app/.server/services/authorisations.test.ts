import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { DatabaseHandle } from "../db";
import { createAccount } from "../db/factories";
import { openTestDatabase } from "../../../tests/support/test-database";
import {
  BOOKSHOP,
  cardRequest,
  paymentPerson,
  RESTAURANT,
  SUNDAY,
  TUESDAY,
} from "../../../tests/support/payment-test-kit";
import { authorise, mealAllowanceLeftToday, type AuthoriseRequest } from "./authorisations";
import { declineSentence } from "./card-payment-words";
import { listWallets } from "./wallets";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openTestDatabase();
});
afterAll(() => handle.close());

const person = (spec: Parameters<typeof paymentPerson>[1] = {}) => paymentPerson(handle.db, spec);
const pay = (cardId: string, fields: Partial<AuthoriseRequest> = {}) =>
  authorise({ db: handle.db }, cardRequest(cardId, fields));

async function available(userId: string, name: string) {
  const wallets = await listWallets(handle.db, userId, TUESDAY);
  return wallets.find((w) => w.name === name)?.available;
}

describe("approvals hold the amounts where the screens read them", () => {
  test("12,50 € at a restaurant on a weekday: from Titres-restaurant, held, the balance lower", async () => {
    const p = await person();
    const result = await pay(p.cards["4242"]!);
    expect(result).toMatchObject({
      kind: "approved",
      split: [{ walletId: p.wallets["Titres-restaurant"], amount: 1250 }],
      overflow: 0,
      overflowPayment: null,
    });
    if (result.kind !== "approved") return;
    const row = await handle.db
      .selectFrom("card_authorizations")
      .selectAll()
      .where("id", "=", result.authorizationId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      card_id: p.cards["4242"],
      amount: 1250,
      status_name: "pending",
      frozen: 1,
      has_card_transactions: 0,
      status_reason: null,
      currency: "EUR",
      merchant_category_code: "5812",
      entry_mode: "contactless",
      merchant_name: "Le Petit Café",
    });
    const holds = await handle.db
      .selectFrom("wallet_transactions")
      .select(["wallet_id", "amount", "status", "main_comment"])
      .where("authorization_id", "=", result.authorizationId)
      .execute();
    expect(holds).toEqual([
      { wallet_id: p.wallets["Titres-restaurant"], amount: -1250, status: "frozen", main_comment: "withdraw" },
    ]);
    expect(await available(p.userId, "Titres-restaurant")).toBe(10000 - 1250);
    expect(await mealAllowanceLeftToday(handle.db, p.userId, TUESDAY)).toBe(2500 - 1250);
  });

  test("30 € at a restaurant: 25 € from Titres-restaurant, 5 € from the next eligible wallet", async () => {
    const p = await person();
    expect(await pay(p.cards["4242"]!, { amount: 3000 })).toMatchObject({
      kind: "approved",
      split: [
        { walletId: p.wallets["Titres-restaurant"], amount: 2500 },
        { walletId: p.wallets["Cadeaux"], amount: 500 },
      ],
    });
    expect(await available(p.userId, "Cadeaux")).toBe(4500);
  });

  test("the overflow goes to the default saved card, with a payment intent to charge", async () => {
    const p = await person({
      wallets: [{ name: "Culture", type: "culture", balance: 1000 }],
      creditCards: [{ brand: "visa", last4: "1111", isDefault: true }],
      overflowLimit: 5000,
    });
    // More than the wallet and the 50 € authorised: declined, nothing held.
    expect(await pay(p.cards["4242"]!, { amount: 6001, merchant: BOOKSHOP })).toMatchObject({
      kind: "declined",
      code: "overflow_limit_exceeded",
    });
    expect(await available(p.userId, "Culture")).toBe(1000);
    const result = await pay(p.cards["4242"]!, { amount: 4000, merchant: BOOKSHOP });
    expect(result).toMatchObject({ kind: "approved", overflow: 3000 });
    if (result.kind !== "approved") return;
    const intents = await handle.db
      .selectFrom("payment_intents")
      .select(["amount", "latest_status", "credit_card_id"])
      .where("authorization_id", "=", result.authorizationId)
      .execute();
    expect(intents).toEqual([
      { amount: 3000, latest_status: "processing", credit_card_id: result.overflowPayment!.creditCardId },
    ]);
    const auth = await handle.db
      .selectFrom("card_authorizations")
      .select("overflow_amount")
      .where("id", "=", result.authorizationId)
      .executeTakeFirstOrThrow();
    expect(auth.overflow_amount).toBe(3000);
    // The wallet is all held now: the saved card never pays a payment alone.
    expect(await pay(p.cards["4242"]!, { amount: 1000, merchant: BOOKSHOP })).toMatchObject({
      kind: "declined",
      code: "insufficient_funds",
    });
  });
});

describe("declines are recorded with their reason, and hold nothing", () => {
  test("a decline at the wallets is recorded with its figures, and its notification with its facts", async () => {
    const p = await person();
    // 200 € at a restaurant: the day's 25 € from Titres-restaurant, the 50 € of Cadeaux, no saved card.
    const result = await authorise({ db: handle.db }, cardRequest(p.cards["4242"]!, { amount: 20000 }), {
      notify: true,
      now: TUESDAY,
    });
    const detail = {
      amount: 20000,
      wallets: [
        {
          walletId: p.wallets["Titres-restaurant"],
          name: "Titres-restaurant",
          type: "meal",
          canPay: 2500,
          stop: "meal_daily_cap",
          limit: null,
        },
        { walletId: p.wallets["Cadeaux"], name: "Cadeaux", type: "gift", canPay: 5000, stop: "balance", limit: null },
      ],
      overflow: { kind: "none" },
    };
    expect(result).toMatchObject({ kind: "declined", code: "insufficient_funds", detail });
    if (result.kind !== "declined") return;
    const row = await handle.db
      .selectFrom("card_authorizations")
      .select(["status_reason", "decline_detail"])
      .where("id", "=", result.authorizationId)
      .executeTakeFirstOrThrow();
    expect(row.status_reason).toBe("insufficient_funds");
    expect(JSON.parse(row.decline_detail!)).toEqual(detail);
    const notification = await handle.db
      .selectFrom("notifications")
      .select(["type", "data_id", "facts"])
      .where("user_id", "=", p.userId)
      .executeTakeFirstOrThrow();
    expect(notification).toMatchObject({
      type: "card_authorization_declined_notification",
      data_id: result.authorizationId,
    });
    expect(JSON.parse(notification.facts!)).toEqual({
      amount: 20000,
      merchant: "Le Petit Café",
      code: "insufficient_funds",
      detail,
    });
  });

  test("an approval's notification says its amount and merchant; a frozen card's decline has no figures", async () => {
    const p = await person({ frozen: true });
    const declined = await authorise({ db: handle.db }, cardRequest(p.cards["4242"]!), { notify: true });
    expect(declined).toMatchObject({ kind: "declined", code: "card_frozen", detail: null });
    const q = await person();
    await authorise({ db: handle.db }, cardRequest(q.cards["4242"]!), { notify: true });
    const facts = async (userId: string) =>
      (
        await handle.db
          .selectFrom("notifications")
          .select("facts")
          .where("user_id", "=", userId)
          .executeTakeFirstOrThrow()
      ).facts;
    expect(JSON.parse((await facts(p.userId))!)).toEqual({
      amount: 1250,
      merchant: "Le Petit Café",
      code: "card_frozen",
      detail: null,
    });
    expect(JSON.parse((await facts(q.userId))!)).toEqual({ amount: 1250, merchant: "Le Petit Café" });
    if (declined.kind !== "declined") return;
    const row = await handle.db
      .selectFrom("card_authorizations")
      .select("decline_detail")
      .where("id", "=", declined.authorizationId!)
      .executeTakeFirstOrThrow();
    expect(row.decline_detail).toBeNull();
  });

  test("a restaurant on a Sunday: declined, the declined tab's reason; allowed for Sunday workers", async () => {
    const p = await person({ cardWallets: ["Titres-restaurant"] });
    const result = await pay(p.cards["4242"]!, { at: SUNDAY });
    expect(result).toMatchObject({ kind: "declined", code: "meal_sunday" });
    if (result.kind !== "declined") return;
    // The result carries the code; its words are the declined tab's (services/card-payment-words.ts).
    expect(declineSentence(result.code)).toBe("Refusée : les titres-restaurant ne s'utilisent pas le dimanche");
    const row = await handle.db
      .selectFrom("card_authorizations")
      .select(["status_name", "status_reason", "frozen", "has_card_transactions"])
      .where("id", "=", result.authorizationId!)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status_name: "closed", status_reason: "meal_sunday", frozen: 0, has_card_transactions: 0 });
    const holds = await handle.db
      .selectFrom("wallet_transactions")
      .select("id")
      .where("authorization_id", "=", result.authorizationId!)
      .execute();
    expect(holds).toEqual([]);

    await handle.db.updateTable("groups").set({ meal_sunday_workers: 1 }).where("id", "=", p.groupId).execute();
    expect((await pay(p.cards["4242"]!, { at: SUNDAY })).kind).toBe("approved");
  });

  test("25 € a day across several payments", async () => {
    const p = await person({ cardWallets: ["Titres-restaurant"] });
    const card = p.cards["4242"]!;
    expect((await pay(card, { amount: 1500 })).kind).toBe("approved");
    expect(await pay(card, { amount: 1500 })).toMatchObject({ kind: "declined", code: "meal_daily_cap" });
    expect((await pay(card, { amount: 1000 })).kind).toBe("approved");
    expect(await pay(card, { amount: 1 })).toMatchObject({ kind: "declined", code: "meal_daily_cap" });
    // The next Paris day starts again.
    expect((await pay(card, { amount: 2500, at: new Date("2026-11-25T11:00:00Z") })).kind).toBe("approved");
  });

  test("a frozen card: declined « carte gelée »", async () => {
    const p = await person({ frozen: true });
    const result = await pay(p.cards["4242"]!);
    expect(result).toMatchObject({ kind: "declined", code: "card_frozen" });
    if (result.kind === "declined") expect(declineSentence(result.code)).toBe("Refusée : votre carte est gelée");
    expect(await available(p.userId, "Titres-restaurant")).toBe(10000);
  });

  test("three wrong PINs lock the PIN and open the unlock panel; then even the right PIN is refused", async () => {
    const p = await person();
    const card = p.cards["4242"]!;
    const wrong = { entryMode: "chip_and_pin" as const, pinCheck: "mismatch" as const };
    expect(await pay(card, wrong)).toMatchObject({ code: "incorrect_pin" });
    expect(await pay(card, wrong)).toMatchObject({ code: "incorrect_pin" });
    expect(await pay(card, wrong)).toMatchObject({ code: "pin_locked" });
    const state = await handle.db
      .selectFrom("card_pin_attempts")
      .selectAll()
      .where("card_id", "=", card)
      .executeTakeFirst();
    expect(state).toMatchObject({ wrong_count: 3, locked: 1 });
    const row = await handle.db.selectFrom("cards").select("pin_can_update").where("id", "=", card).executeTakeFirst();
    expect(row?.pin_can_update).toBe(1);
    expect(await pay(card, { entryMode: "chip_and_pin", pinCheck: "match" })).toMatchObject({ code: "pin_locked" });
  });

  test("a right PIN clears the count of wrong ones", async () => {
    const p = await person();
    const card = p.cards["4242"]!;
    await pay(card, { entryMode: "chip_and_pin", pinCheck: "mismatch" });
    await pay(card, { entryMode: "chip_and_pin", pinCheck: "mismatch" });
    expect((await pay(card, { entryMode: "chip_and_pin", pinCheck: "match" })).kind).toBe("approved");
    expect(await pay(card, { entryMode: "chip_and_pin", pinCheck: "mismatch" })).toMatchObject({
      code: "incorrect_pin",
    });
  });

  test("a physical card not yet delivered is not activated", async () => {
    const p = await createAccount(handle.db, {
      email: "shipping@example.com",
      passwordHash: "x",
      wallets: [{ name: "Cadeaux", type: "gift", balance: 5000 }],
      cards: [{ type: "physical", lastFour: "5555", shippingStatus: "shipped", wallets: ["Cadeaux"] }],
    });
    expect(await pay(p.cards["5555"]!)).toMatchObject({ code: "card_not_activated" });
  });

  test("unknown card, malformed amount or category: refused, nothing written", async () => {
    const before = await handle.db.selectFrom("card_authorizations").select("id").execute();
    expect(await pay("card_unknown")).toEqual({ kind: "unknownCard" });
    expect(
      await authorise(
        { db: handle.db },
        {
          card: { issuerRef: "ic_nope" },
          amount: 100,
          currency: "EUR",
          merchant: RESTAURANT,
          at: TUESDAY,
          entryMode: "online",
        },
      ),
    ).toEqual({ kind: "unknownCard" });
    const p = await person();
    for (const amount of [0, -5, 1.5, 1e12]) {
      expect(await pay(p.cards["4242"]!, { amount })).toMatchObject({ code: "invalid_amount", authorizationId: null });
    }
    expect(await pay(p.cards["4242"]!, { merchant: { ...RESTAURANT, categoryCode: "58x2" } })).toMatchObject({
      code: "invalid_merchant_category",
      authorizationId: null,
    });
    const after = await handle.db.selectFrom("card_authorizations").select("id").execute();
    expect(after.length).toBe(before.length);
  });

  test("a foreign currency is declined and recorded with its reason", async () => {
    const p = await person();
    expect(await pay(p.cards["4242"]!, { currency: "USD" })).toMatchObject({
      kind: "declined",
      code: "currency_not_supported",
    });
  });

  test("the card's issuer reference finds it too", async () => {
    const p = await person();
    const card = await handle.db
      .selectFrom("cards")
      .select("issuer_ref")
      .where("id", "=", p.cards["4242"]!)
      .executeTakeFirstOrThrow();
    expect((await pay("ignored", { card: { issuerRef: card.issuer_ref } })).kind).toBe("approved");
  });
});

describe("concurrency: a wallet never goes below zero", () => {
  test("two payments racing for the same euro: one wins, the other is declined", async () => {
    const p = await person({ wallets: [{ name: "Cadeaux", type: "gift", balance: 1000 }] });
    const card = p.cards["4242"]!;
    const results = await Promise.all([pay(card, { amount: 600 }), pay(card, { amount: 600 })]);
    expect(results.map((r) => r.kind).sort()).toEqual(["approved", "declined"]);
    expect(await available(p.userId, "Cadeaux")).toBe(400);
  });

  test("100 simultaneous payments on a wallet that can pay 40 of them: exactly 40, balance exactly zero", async () => {
    const p = await person({ wallets: [{ name: "Cadeaux", type: "gift", balance: 4000 }] });
    const card = p.cards["4242"]!;
    const results = await Promise.all(Array.from({ length: 100 }, () => pay(card, { amount: 100 })));
    expect(results.filter((r) => r.kind === "approved")).toHaveLength(40);
    expect(results.filter((r) => r.kind === "declined" && r.code === "insufficient_funds")).toHaveLength(60);
    expect(await available(p.userId, "Cadeaux")).toBe(0);
  });
});
