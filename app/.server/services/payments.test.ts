import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { DatabaseHandle } from "../db";
import { registerDemoPayments, seedDemo } from "../db/seed";
import { openTestDatabase } from "../../../tests/support/test-database";
import { SandboxMessenger } from "../providers/messaging/sandbox";
import { SANDBOX_TEST_CARDS, SandboxPaymentProcessor, SETUP_MAX_ATTEMPTS } from "../providers/payments/sandbox";
import { getAccount, type Account } from "./accounts";
import {
  completeCreditCardSetup,
  deleteCreditCard,
  listCreditCards,
  setDefaultCreditCard,
  startCreditCardSetup,
} from "./credit-cards";
import { overflowAmount, retryOverflowPayment, setOverflowAmount } from "./overflow";
import { getSwitchableTransaction, switchPaymentMethods } from "./payment-methods";
import { isPermutation, linkedWalletIds, moveWallet, setWalletPriority } from "./wallet-priority";

/** Overflow, saved credit cards and debit priority on a real database with the sandbox processor. */
let handle: DatabaseHandle;
let processor: SandboxPaymentProcessor;
let marie: Account;
let paul: Account;
let marieCard: string;
let marieVirtual: string;

beforeAll(async () => {
  handle = await openTestDatabase();
  await seedDemo(handle.db, new SandboxMessenger(handle.db), { now: new Date(), baseUrl: "http://localhost" });
  processor = new SandboxPaymentProcessor(handle.db);
  await registerDemoPayments(handle.db, processor);
  const idOf = async (email: string) =>
    (await handle.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;
  marie = (await getAccount(handle.db, await idOf("marie.martin@example.com")))!;
  paul = (await getAccount(handle.db, await idOf("paul.durand@example.com")))!;
  const card = (lastFour: string) =>
    handle.db.selectFrom("cards").select("id").where("last_four", "=", lastFour).executeTakeFirstOrThrow();
  marieCard = (await card("4242")).id;
  marieVirtual = (await card("5556")).id;
}, 30_000);
afterAll(() => handle.close());

const defaults = async (userId: string) =>
  (await listCreditCards(handle.db, userId)).filter((c) => c.isDefault).map((c) => c.last4);

/** Types a card into the sandbox processor's own fields, as the person would in the iframe. */
async function addCard(account: Account, number: string, expiry = "12/39", cvc = "123") {
  const setup = await startCreditCardSetup(handle.db, processor, account, "/cards/x/overflow/new-card");
  if (setup === "processorFailed" || setup.kind !== "hosted-fields") throw new Error("expected hosted fields");
  const key = setup.url.split("/").pop()!;
  return { setupRef: setup.setupRef, outcome: await processor.submitFields(key, { number, expiry, cvc }), key };
}

describe("overflow amount", () => {
  test("marie's demo amount is 50 €; it can be set between 50 and 150 only", async () => {
    expect(await overflowAmount(handle.db, marie.id)).toBe(50);
    await setOverflowAmount(handle.db, marie.id, 120);
    expect(await overflowAmount(handle.db, marie.id)).toBe(120);
    await expect(setOverflowAmount(handle.db, marie.id, 151)).rejects.toThrow(RangeError);
    await expect(setOverflowAmount(handle.db, marie.id, 49)).rejects.toThrow(RangeError);
    await expect(setOverflowAmount(handle.db, marie.id, 80.5)).rejects.toThrow(RangeError);
    expect(await overflowAmount(handle.db, marie.id)).toBe(120);
    expect(await overflowAmount(handle.db, paul.id)).toBe(50);
  });
});

describe("default credit card", () => {
  test("exactly one default after switching one on, none after switching it off", async () => {
    const cards = await listCreditCards(handle.db, marie.id);
    expect(cards.map((c) => [c.brand, c.last4, c.isDefault])).toEqual([
      ["visa", "4444", true],
      ["mastercard", "5454", false],
    ]);
    const mastercard = cards.find((c) => c.last4 === "5454")!;
    expect(await setDefaultCreditCard(handle.db, marie.id, mastercard.id, true)).toEqual({ kind: "ok" });
    expect(await defaults(marie.id)).toEqual(["5454"]);
    expect(await setDefaultCreditCard(handle.db, marie.id, mastercard.id, true)).toEqual({ kind: "ok" });
    expect(await defaults(marie.id)).toEqual(["5454"]);
    expect(await setDefaultCreditCard(handle.db, marie.id, mastercard.id, false)).toEqual({ kind: "ok" });
    expect(await defaults(marie.id)).toEqual([]);
    const visa = cards.find((c) => c.last4 === "4444")!;
    await setDefaultCreditCard(handle.db, marie.id, visa.id, true);
    expect(await defaults(marie.id)).toEqual(["4444"]);
  });

  test("nobody switches or deletes another user's card", async () => {
    const visa = (await listCreditCards(handle.db, marie.id)).find((c) => c.last4 === "4444")!;
    expect(await setDefaultCreditCard(handle.db, paul.id, visa.id, false)).toEqual({ kind: "notFound" });
    expect(await deleteCreditCard(handle.db, processor, paul.id, visa.id)).toEqual({ kind: "notFound" });
    expect(await defaults(marie.id)).toEqual(["4444"]);
  });
});

describe("adding and deleting a saved card", () => {
  test("a test card typed in the processor's fields joins the list; deleting it removes it everywhere", async () => {
    const { setupRef, outcome } = await addCard(marie, "4242 4242 4242 4242");
    expect(outcome.kind).toBe("saved");
    expect(await completeCreditCardSetup(handle.db, processor, marie.id, setupRef, [0])).toBe("added");
    const added = (await listCreditCards(handle.db, marie.id)).find((c) => c.last4 === "4242")!;
    expect(added).toMatchObject({ brand: "visa", expMonth: 12, expYear: 2039, isDefault: false });
    // Coming back twice (reload) adds nothing more.
    expect(await completeCreditCardSetup(handle.db, processor, marie.id, setupRef, [0])).toBe("added");
    expect((await listCreditCards(handle.db, marie.id)).filter((c) => c.last4 === "4242")).toHaveLength(1);

    await setDefaultCreditCard(handle.db, marie.id, added.id, true);
    expect(await deleteCreditCard(handle.db, processor, marie.id, added.id)).toEqual({ kind: "ok" });
    expect((await listCreditCards(handle.db, marie.id)).map((c) => c.last4)).toEqual(["4444", "5454"]);
    // The default was unset with it: none is left, never two.
    expect(await defaults(marie.id)).toEqual([]);
    expect((await processor.listCards("scus_demo_marie")).map((c) => c.last4)).toEqual(["4444", "5454"]);
  });

  test("the processor refuses bad numbers, past expiries, short CVCs and its declined test card", async () => {
    const bad = await addCard(marie, "4242 4242 4242 4241", "01/20", "12");
    expect(bad.outcome).toEqual({
      kind: "refused",
      errors: {
        number: "Ce numéro de carte n’est pas valide. Vérifiez-le.",
        expiry: "Cette carte a expiré.",
        cvc: "Le cryptogramme compte 3 chiffres, au dos de la carte.",
      },
    });
    const declined = await addCard(marie, SANDBOX_TEST_CARDS.declined);
    expect(declined.outcome).toEqual({
      kind: "refused",
      errors: { form: "Votre carte a été refusée. Essayez une autre carte." },
    });
    expect(await completeCreditCardSetup(handle.db, processor, marie.id, declined.setupRef, [0])).toBe("verifying");
    // Too many refusals end the setup.
    for (let i = 1; i < SETUP_MAX_ATTEMPTS; i++)
      await processor.submitFields(declined.key, { number: SANDBOX_TEST_CARDS.declined, expiry: "12/39", cvc: "123" });
    expect(
      await processor.submitFields(declined.key, { number: SANDBOX_TEST_CARDS.visa, expiry: "12/39", cvc: "123" }),
    ).toEqual({ kind: "expired" });
    expect(await completeCreditCardSetup(handle.db, processor, marie.id, declined.setupRef, [0])).toBe("failed");
  });

  test("a card still under verification is announced as such after three looks, then shows later", async () => {
    const { setupRef } = await addCard(marie, SANDBOX_TEST_CARDS.slowVerification);
    const started = Date.now();
    expect(await completeCreditCardSetup(handle.db, processor, marie.id, setupRef, [0, 10, 20])).toBe("verifying");
    expect(Date.now() - started).toBeGreaterThanOrEqual(30);
    expect((await listCreditCards(handle.db, marie.id)).some((c) => c.last4 === "0077")).toBe(false);
    await handle.db
      .updateTable("sandbox_processor_cards")
      .set({ visible_at: new Date(Date.now() - 1000).toISOString() })
      .where("last4", "=", "0077")
      .execute();
    expect(await completeCreditCardSetup(handle.db, processor, marie.id, setupRef, [0])).toBe("added");
  });

  test("another user's setup reference is unknown", async () => {
    const { setupRef } = await addCard(marie, SANDBOX_TEST_CARDS.mastercard);
    expect(await completeCreditCardSetup(handle.db, processor, paul.id, setupRef, [0])).toBe("notFound");
    await startCreditCardSetup(handle.db, processor, paul, "/x");
    expect(await completeCreditCardSetup(handle.db, processor, paul.id, setupRef, [0])).toBe("notFound");
  });
});

describe("retrying a failed overflow payment", () => {
  const failedAuthorization = () =>
    handle.db
      .selectFrom("payment_intents")
      .innerJoin("card_authorizations", "card_authorizations.id", "payment_intents.authorization_id")
      .select(["card_authorizations.id as authorizationId", "payment_intents.latest_status"])
      .where("card_authorizations.card_id", "=", marieCard)
      .executeTakeFirstOrThrow();

  test("without a default card, then with a card the processor declines, then with a good one", async () => {
    const { authorizationId } = await failedAuthorization();
    const cards = await listCreditCards(handle.db, marie.id);
    for (const c of cards) await setDefaultCreditCard(handle.db, marie.id, c.id, false);
    expect(await retryOverflowPayment(handle.db, processor, marie.id, marieCard, authorizationId)).toEqual({
      kind: "noDefaultCard",
    });

    const { setupRef } = await addCard(marie, SANDBOX_TEST_CARDS.chargeDeclined);
    await completeCreditCardSetup(handle.db, processor, marie.id, setupRef, [0]);
    const declining = (await listCreditCards(handle.db, marie.id)).find((c) => c.last4 === "0341")!;
    await setDefaultCreditCard(handle.db, marie.id, declining.id, true);
    expect(await retryOverflowPayment(handle.db, processor, marie.id, marieCard, authorizationId)).toEqual({
      kind: "failed",
    });
    expect((await failedAuthorization()).latest_status).toBe("payment_failed");

    // Not someone else's, not through another card.
    expect(await retryOverflowPayment(handle.db, processor, paul.id, marieCard, authorizationId)).toEqual({
      kind: "notFound",
    });
    expect(await retryOverflowPayment(handle.db, processor, marie.id, marieVirtual, authorizationId)).toEqual({
      kind: "notFound",
    });

    const visa = (await listCreditCards(handle.db, marie.id)).find((c) => c.last4 === "4444")!;
    await setDefaultCreditCard(handle.db, marie.id, visa.id, true);
    expect(await retryOverflowPayment(handle.db, processor, marie.id, marieCard, authorizationId)).toEqual({
      kind: "succeeded",
    });
    expect((await failedAuthorization()).latest_status).toBe("succeeded");
    expect(await retryOverflowPayment(handle.db, processor, marie.id, marieCard, authorizationId)).toEqual({
      kind: "nothingToRetry",
    });
  });
});

describe("debit priority", () => {
  test("only a permutation of the card's own wallets is accepted", () => {
    expect(isPermutation(["a", "b", "c"], ["c", "a", "b"])).toBe(true);
    expect(isPermutation(["a", "b", "c"], ["a", "b"])).toBe(false);
    expect(isPermutation(["a", "b", "c"], ["a", "b", "b"])).toBe(false);
    expect(isPermutation(["a", "b", "c"], ["a", "b", "c", "d"])).toBe(false);
    expect(isPermutation(["a", "b", "c"], ["a", "b", "x"])).toBe(false);
  });

  test("moving a wallet up or down swaps it with its neighbour, and stops at the ends", () => {
    expect(moveWallet(["a", "b", "c"], "b", "up")).toEqual(["b", "a", "c"]);
    expect(moveWallet(["a", "b", "c"], "b", "down")).toEqual(["a", "c", "b"]);
    expect(moveWallet(["a", "b", "c"], "a", "up")).toEqual(["a", "b", "c"]);
    expect(moveWallet(["a", "b", "c"], "c", "down")).toEqual(["a", "b", "c"]);
    expect(moveWallet(["a", "b", "c"], "zz", "down")).toEqual(["a", "b", "c"]);
  });

  test("marie reorders •••• 4242; a forged list, another user or •••• 5556 (one wallet) changes nothing", async () => {
    const before = (await linkedWalletIds(handle.db, marie.id, marieCard))!;
    expect(before).toHaveLength(3);
    const reversed = [...before].reverse();
    expect(await setWalletPriority(handle.db, marie.id, marieCard, reversed)).toEqual({ kind: "ok" });
    expect(await linkedWalletIds(handle.db, marie.id, marieCard)).toEqual(reversed);

    const foreignWallet = (
      await handle.db.selectFrom("wallets").select("id").where("user_id", "!=", marie.id).executeTakeFirstOrThrow()
    ).id;
    expect(
      await setWalletPriority(handle.db, marie.id, marieCard, [reversed[0]!, reversed[1]!, foreignWallet]),
    ).toEqual({ kind: "notPermutation" });
    expect(await setWalletPriority(handle.db, marie.id, marieCard, [reversed[0]!, reversed[0]!, reversed[1]!])).toEqual(
      { kind: "notPermutation" },
    );
    expect(await setWalletPriority(handle.db, paul.id, marieCard, before)).toEqual({ kind: "notFound" });
    expect(
      await setWalletPriority(
        handle.db,
        marie.id,
        marieVirtual,
        (await linkedWalletIds(handle.db, marie.id, marieVirtual)) ?? [],
      ),
    ).toEqual({ kind: "tooFew" });
    expect(await linkedWalletIds(handle.db, marie.id, marieCard)).toEqual(reversed);
  });
});

describe("switching a transaction's payment methods", () => {
  test("marie moves Le Bistrot des Halles onto her wallets once; bad splits and other users change nothing", async () => {
    const auth = await handle.db
      .selectFrom("card_authorizations")
      .select("id")
      .where("merchant_name", "=", "Le Bistrot des Halles")
      .executeTakeFirstOrThrow();
    const transaction = (await getSwitchableTransaction(handle.db, marie.id, marieCard, auth.id))!;
    expect(transaction.amount).toBe(1250);
    // Spec 000 §5: the restaurant accepts meal and gift wallets; her mobility wallet is not offered.
    expect(transaction.wallets.map((w) => w.name).sort()).toEqual(["Cadeaux de Noël", "Titres-restaurant"]);
    expect(transaction.wallets.every((w) => w.selectable > 0 && w.selectable <= 1250)).toBe(true);
    const offeredWith = async (scopes: string | null) => {
      await handle.db.updateTable("card_authorizations").set({ scopes }).where("id", "=", auth.id).execute();
      return (await getSwitchableTransaction(handle.db, marie.id, marieCard, auth.id))!.wallets
        .map((w) => w.name)
        .sort();
    };
    // Without the supplier's list, the wallets the restaurant's category accepts (the engine's table, decision 0035);
    // a list narrows them and never adds a wallet the category refuses.
    expect(await offeredWith(null)).toEqual(["Cadeaux de Noël", "Titres-restaurant"]);
    expect(await offeredWith('["gift"]')).toEqual(["Cadeaux de Noël"]);
    expect(await offeredWith('["mobility"]')).toEqual([]);
    expect(await offeredWith("not json")).toEqual([]);
    await offeredWith('["meal","gift"]');
    const [first, second] = transaction.wallets;

    expect(await getSwitchableTransaction(handle.db, paul.id, marieCard, auth.id)).toBeNull();
    expect(await switchPaymentMethods(handle.db, paul.id, marieCard, auth.id, { [first!.id]: "12,50" })).toEqual({
      kind: "notFound",
    });
    expect(await switchPaymentMethods(handle.db, marie.id, marieCard, auth.id, { [first!.id]: "10" })).toEqual({
      kind: "invalid",
      errors: { form: "total" },
      total: 1000,
    });
    expect(
      await switchPaymentMethods(handle.db, marie.id, marieCard, auth.id, { [first!.id]: "15", [second!.id]: "-2,50" }),
    ).toMatchObject({ kind: "invalid" });

    expect(
      await switchPaymentMethods(handle.db, marie.id, marieCard, auth.id, { [first!.id]: "10", [second!.id]: "2,50" }),
    ).toEqual({ kind: "ok", overflowToRefund: 0 });
    const parts = await handle.db
      .selectFrom("payment_method_switches")
      .select(["wallet_id", "amount"])
      .where("authorization_id", "=", auth.id)
      .orderBy("amount", "desc")
      .execute();
    expect(parts).toEqual([
      { wallet_id: first!.id, amount: 1000 },
      { wallet_id: second!.id, amount: 250 },
    ]);
    // Once only.
    expect(
      await switchPaymentMethods(handle.db, marie.id, marieCard, auth.id, { [first!.id]: "10", [second!.id]: "2,50" }),
    ).toEqual({ kind: "notFound" });
    expect(await getSwitchableTransaction(handle.db, marie.id, marieCard, auth.id)).toBeNull();
  });
});
