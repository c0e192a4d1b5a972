import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { startStripeStandIn, type StandInAnswer, type StripeStandIn } from "../../../tests/support/stripe-stand-in";
import type { DatabaseHandle } from "../db";
import { createAccount } from "../db/factories";
import { openTestDatabase } from "../../../tests/support/test-database";
import { newId } from "../ids";
import type { Logger } from "../logger";
import { SandboxMessenger } from "../providers/messaging/sandbox";
import { StripeIssuer } from "../providers/issuer/stripe";
import { StripePaymentProcessor } from "../providers/payments/stripe";
import { SandboxPushSender } from "../providers/push/sandbox";
import { blockCard } from "./card-actions";
import { newRequestId, saveCardChoice, submitCardRequest } from "./card-creation";
import { payWithCard } from "./card-payments";
import { startCreditCardSetup } from "./credit-cards";
import { retryOverflowPayment } from "./overflow";
import { cardRequest, paymentPerson, TUESDAY } from "../../../tests/support/payment-test-kit";
import { getAccount } from "./accounts";

/**
 * A provider that does not answer (issue 18 §5, decision 0043): the real Stripe SDK, with a short timeout, against
 * the local stand-in, which does the work when a request arrives but sends the answer late — the worst case, where
 * the provider did something and we do not know it. Nothing is recorded on our side as done; the person's retry
 * sends the same idempotency key, and the provider's work is found again instead of being done twice.
 */

/** Short in tests; the server's default is STRIPE_TIMEOUT_MS (4 s). */
const TIMEOUT_MS = 250;
/** Longer than the client waits, the SDK's own retry and its back-off included. */
const LATE_MS = 2500;

let handle: DatabaseHandle;
let standIn: StripeStandIn;
/** What the stand-in did (requests it carried out, not replays), by kind. */
const made = { cardholders: 0, cards: 0, customers: 0, charges: 0 };
/** Stripe Issuing cards as the stand-in holds them. */
const issuingCards = new Map<string, { status: string; type: string }>();
let answerOverride: ((method: string, path: string) => StandInAnswer | null) | null = null;

function answer(method: string, path: string, form: Record<string, string>): StandInAnswer {
  const override = answerOverride?.(method, path);
  if (override) return override;
  if (method === "POST" && path === "/v1/issuing/cardholders")
    return { status: 200, body: { id: `ich_${++made.cardholders}`, object: "issuing.cardholder" } };
  if (method === "POST" && path === "/v1/issuing/cards") {
    const id = `ic_${++made.cards}`;
    issuingCards.set(id, { status: "active", type: form.type ?? "virtual" });
    return { status: 200, body: { id, object: "issuing.card", status: "active" } };
  }
  const cardPath = /^\/v1\/issuing\/cards\/(\w+)$/.exec(path);
  const card = cardPath ? issuingCards.get(cardPath[1]!) : undefined;
  if (cardPath && card && method === "GET")
    return {
      status: 200,
      body: {
        id: cardPath[1],
        object: "issuing.card",
        last4: "4242",
        brand: "Visa",
        exp_month: 11,
        exp_year: 2030,
        status: card.status,
        type: card.type,
        shipping: null,
      },
    };
  if (cardPath && card && method === "POST") {
    if (card.status === "canceled")
      return {
        status: 400,
        body: {
          error: {
            type: "invalid_request_error",
            message: "This card has been canceled and can no longer be updated.",
          },
        },
      };
    if (form.status) card.status = form.status;
    return { status: 200, body: { id: cardPath[1], object: "issuing.card", status: card.status } };
  }
  if (method === "POST" && path === "/v1/customers")
    return { status: 200, body: { id: `cus_${++made.customers}`, object: "customer" } };
  if (method === "POST" && path === "/v1/setup_intents")
    return {
      status: 200,
      body: { id: "seti_1", object: "setup_intent", client_secret: "seti_1_secret", customer: form.customer },
    };
  if (method === "POST" && path === "/v1/payment_intents")
    return {
      status: 200,
      body: { id: `pi_${++made.charges}`, object: "payment_intent", customer: form.customer, status: "succeeded" },
    };
  return {
    status: 404,
    body: { error: { type: "invalid_request_error", code: "resource_missing", message: `no ${method} ${path}` } },
  };
}

const stripeOptions = () => ({
  secretKey: "sk_test_timeouts",
  publishableKey: "pk_test_timeouts",
  host: "127.0.0.1",
  port: standIn.port,
  protocol: "http" as const,
  timeoutMs: TIMEOUT_MS,
  // As in production: the SDK sends a request once more, with the same key, before giving up.
  maxNetworkRetries: 1,
});

beforeAll(async () => {
  handle = await openTestDatabase();
  standIn = await startStripeStandIn(answer);
}, 30_000);
afterAll(async () => {
  await standIn.close();
  await handle.close();
});
beforeEach(() => {
  standIn.requests.length = 0;
  answerOverride = null;
});
afterEach(() => standIn.delayAnswers(0));

const posts = (path: string) => standIn.requests.filter((r) => r.method === "POST" && r.path === path);

describe("the card issuer does not answer", () => {
  /** A person whose employer offers one virtual card, and who has a virtual card •••• 1234 already. */
  const person = () =>
    createAccount(
      handle.db,
      {
        email: `timeouts-${newId("e")}@example.com`,
        passwordHash: "x",
        freeLicences: ["virtual_card"],
        cards: [{ type: "virtual", lastFour: "1234" }],
      },
      TUESDAY,
    );
  const freeVirtualLicences = async (userId: string) =>
    (
      await handle.db
        .selectFrom("licences")
        .select("id")
        .where("user_id", "=", userId)
        .where("license_type", "=", "virtual_card")
        .where("used_at", "is", null)
        .execute()
    ).length;
  const cardsAtStripe = async (userId: string) =>
    handle.db
      .selectFrom("cards")
      .select(["id", "issuer_ref"])
      .where("user_id", "=", userId)
      .where("issuer_ref", "like", "ic_%")
      .execute();

  test("card creation: « ne répond pas », nothing recorded, the licence back; the retry makes exactly one card", async () => {
    const { userId, groupId } = await person();
    const issuer = new StripeIssuer(stripeOptions());
    const requestId = newRequestId();
    expect(await saveCardChoice(handle.db, userId, requestId, { groupId, type: "virtual" })).toEqual({ kind: "ok" });
    const licencesBefore = await freeVirtualLicences(userId);
    const [cardholdersBefore, cardsBefore] = [made.cardholders, made.cards];

    // The cardholder is answered; the card is made but its answer comes too late.
    standIn.delayAnswers(LATE_MS, (method, path) => method === "POST" && path === "/v1/issuing/cards");
    const started = Date.now();
    const first = await submitCardRequest(handle.db, issuer, userId, requestId);
    // Bounded: the timeout, the SDK's one retry and its back-off (≤ 1 s), never the provider's delay.
    expect(Date.now() - started).toBeLessThan(2 * TIMEOUT_MS + 1500);
    // No answer is no server message: the page says the service does not answer, and nothing else.
    expect(first).toEqual({ kind: "issuerFailed", code: "unavailable", message: null });
    // The stand-in did make the card (the answer was only late): the case a new key would turn into two cards.
    expect(made.cards).toBe(cardsBefore + 1);
    // Nothing half-done on our side: no card row, the licence free again, the request a draft to send again.
    expect(await cardsAtStripe(userId)).toEqual([]);
    expect(await freeVirtualLicences(userId)).toBe(licencesBefore);
    expect(
      await handle.db
        .selectFrom("card_requests")
        .select(["status", "issuer_ref", "licence_id"])
        .where("id", "=", requestId)
        .executeTakeFirstOrThrow(),
    ).toEqual({ status: "draft", issuer_ref: null, licence_id: null });

    // A few minutes later the issuer answers again: the same request, the same key, the same card.
    standIn.delayAnswers(0);
    const retry = await submitCardRequest(handle.db, issuer, userId, requestId);
    expect(retry).toMatchObject({ kind: "created", cardId: expect.stringMatching(/^card_/) });
    expect([made.cardholders, made.cards]).toEqual([cardholdersBefore + 1, cardsBefore + 1]);
    // The cardholder, never recorded on our side, is found again by its key too.
    expect(new Set(posts("/v1/issuing/cardholders").map((r) => r.headers["idempotency-key"]))).toEqual(
      new Set([`${requestId}:0:cardholder`]),
    );
    const created = posts("/v1/issuing/cards");
    expect(created.length).toBeGreaterThanOrEqual(2);
    expect(new Set(created.map((r) => r.headers["idempotency-key"]))).toEqual(new Set([`${requestId}:0`]));
    expect(created.at(-1)!.replayed).toBe(true);
    expect(await cardsAtStripe(userId)).toEqual([
      { id: retry.kind === "created" ? retry.cardId : "", issuer_ref: `ic_${made.cards}` },
    ]);
    expect(await freeVirtualLicences(userId)).toBe(licencesBefore - 1);
  });

  test("an issuer that answers with its own failure (HTTP 500, which Stripe replays for the key): the retry is a new request", async () => {
    const { userId, groupId } = await person();
    const issuer = new StripeIssuer({ ...stripeOptions(), maxNetworkRetries: 0 });
    const requestId = newRequestId();
    expect(await saveCardChoice(handle.db, userId, requestId, { groupId, type: "virtual" })).toEqual({ kind: "ok" });
    answerOverride = (method, path) =>
      method === "POST" && path === "/v1/issuing/cards"
        ? { status: 500, body: { error: { type: "api_error", message: "An unknown error occurred" } } }
        : null;
    const first = await submitCardRequest(handle.db, issuer, userId, requestId);
    expect(first).toMatchObject({ kind: "issuerFailed", code: "unavailable" });
    answerOverride = null;
    const retry = await submitCardRequest(handle.db, issuer, userId, requestId);
    expect(retry).toMatchObject({ kind: "created" });
    expect(posts("/v1/issuing/cards").map((r) => r.headers["idempotency-key"])).toEqual([
      `${requestId}:0`,
      `${requestId}:1`,
    ]);
  });

  test("blocking a card whose cancel was done but not answered: the retry records it blocked", async () => {
    const { userId, cards } = await person();
    const cardId = cards["1234"]!;
    const issuer = new StripeIssuer(stripeOptions());
    issuingCards.set("ic_lost", { status: "active", type: "virtual" });
    await handle.db.updateTable("cards").set({ issuer_ref: "ic_lost" }).where("id", "=", cardId).execute();

    standIn.delayAnswers(LATE_MS);
    expect(await blockCard(handle.db, issuer, userId, cardId, "lost")).toEqual({ kind: "issuerFailed" });
    expect(issuingCards.get("ic_lost")!.status).toBe("canceled");
    // Our side waits for an answer: the card is not shown blocked on a guess.
    expect(
      await handle.db.selectFrom("cards").select("status").where("id", "=", cardId).executeTakeFirstOrThrow(),
    ).toEqual({ status: "active" });

    standIn.delayAnswers(0);
    expect(await blockCard(handle.db, issuer, userId, cardId, "lost")).toEqual({ kind: "ok" });
    expect(
      await handle.db
        .selectFrom("cards")
        .select(["status", "block_reason"])
        .where("id", "=", cardId)
        .executeTakeFirstOrThrow(),
    ).toEqual({ status: "blocked", block_reason: "lost" });
  });
});

describe("the payment processor does not answer", () => {
  const logs: string[] = [];
  const logger: Logger = { debug: () => {}, info: () => {}, warn: (m) => logs.push(m), error: (m) => logs.push(m) };

  test("an overflow charge: the approval stands, the intent payment_failed; « Relancer le paiement » charges once", async () => {
    const p = await paymentPerson(handle.db, {
      wallets: [{ name: "Titres-restaurant", type: "meal", balance: 10000 }],
      creditCards: [{ brand: "visa", last4: "1111", isDefault: true }],
      overflowLimit: 5000,
    });
    const payments = new StripePaymentProcessor(stripeOptions());
    const chargesBefore = made.charges;
    standIn.delayAnswers(LATE_MS);
    const { result, settled } = await payWithCard(
      {
        db: handle.db,
        payments,
        messenger: new SandboxMessenger(handle.db),
        push: new SandboxPushSender(handle.db),
        logger,
      },
      cardRequest(p.cards["4242"]!, { amount: 4500 }),
    );
    await settled;
    expect(result).toMatchObject({ kind: "approved", overflow: 2000 });
    if (result.kind !== "approved") return;
    const intentOf = () =>
      handle.db
        .selectFrom("payment_intents")
        .select(["id", "latest_status", "processor_ref"])
        .where("authorization_id", "=", result.authorizationId)
        .executeTakeFirstOrThrow();
    const intent = await intentOf();
    // Charged at the stand-in (its answer late), recorded here as failed without a reference: the retry's business.
    expect(made.charges).toBe(chargesBefore + 1);
    expect(intent).toMatchObject({ latest_status: "payment_failed", processor_ref: null });
    expect(logs).toContain("card payment: overflow charge failed");

    // While the processor still does not answer, the retry says so and changes nothing.
    expect(await retryOverflowPayment(handle.db, payments, p.userId, p.cards["4242"]!, result.authorizationId)).toEqual(
      {
        kind: "processorFailed",
      },
    );
    expect(await intentOf()).toMatchObject({ latest_status: "payment_failed", processor_ref: null });

    standIn.delayAnswers(0);
    expect(await retryOverflowPayment(handle.db, payments, p.userId, p.cards["4242"]!, result.authorizationId)).toEqual(
      {
        kind: "succeeded",
      },
    );
    // One charge at the processor, found again with the intent's key.
    expect(made.charges).toBe(chargesBefore + 1);
    const sent = posts("/v1/payment_intents");
    expect(new Set(sent.map((r) => r.headers["idempotency-key"]))).toEqual(new Set([intent.id]));
    expect(sent.at(-1)!.replayed).toBe(true);
    expect(await intentOf()).toMatchObject({ latest_status: "succeeded", processor_ref: `pi_${made.charges}` });
  });

  test("saving a card: a customer made but not answered is the one the retry gets", async () => {
    const { userId } = await createAccount(
      handle.db,
      { email: `timeouts-${newId("e")}@example.com`, passwordHash: "x" },
      TUESDAY,
    );
    const account = (await getAccount(handle.db, userId))!;
    const payments = new StripePaymentProcessor(stripeOptions());
    const customersBefore = made.customers;
    standIn.delayAnswers(LATE_MS);
    expect(await startCreditCardSetup(handle.db, payments, account, "/cards")).toBe("processorFailed");
    expect(made.customers).toBe(customersBefore + 1);
    const customerRef = () =>
      handle.db.selectFrom("users").select("processor_customer_ref").where("id", "=", userId).executeTakeFirstOrThrow();
    expect(await customerRef()).toEqual({ processor_customer_ref: null });

    standIn.delayAnswers(0);
    expect(await startCreditCardSetup(handle.db, payments, account, "/cards")).toMatchObject({ kind: "elements" });
    expect(made.customers).toBe(customersBefore + 1);
    expect(await customerRef()).toEqual({ processor_customer_ref: `cus_${made.customers}` });
    const keys = posts("/v1/customers").map((r) => r.headers["idempotency-key"]);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(new RegExp(`^${userId}:customer:`));
  });
});
