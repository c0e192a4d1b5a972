import { formatCents } from "~/domain/money";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { DatabaseHandle } from "../db";
import { createAccount } from "../db/factories";
import { openTestDatabase } from "../../../tests/support/test-database";
import { newId } from "../ids";
import type { Logger } from "../logger";
import { SandboxMessenger } from "../providers/messaging/sandbox";
import { PaymentError, type PaymentProcessor, type PaymentStatus } from "../providers/payments/port";
import { SandboxPaymentProcessor } from "../providers/payments/sandbox";
import { SandboxPushSender } from "../providers/push/sandbox";
import {
  captureCardPayment,
  payWithCard,
  refundCardPayment,
  expireStaleCardPayments,
  reverseCardPayment,
  type CardPaymentDeps,
} from "./card-payments";
import { defaultNotificationPreferences, saveNotificationPreferences } from "./notification-preferences";
import { retryOverflowPayment } from "./overflow";
import { cardRequest, SUNDAY, TUESDAY } from "../../../tests/support/payment-test-kit";

/**
 * The card payment orchestrator (decision 0037): the engine's decision, then after commit the overflow charged to
 * the saved card and the notification delivered per the preferences; the lifecycle's refunds of an overflow
 * already charged go back through the processor. Real database, sandbox messenger and push (the outbox table), and
 * a processor that records what it is asked (or the sandbox processor itself).
 */

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openTestDatabase();
});
afterAll(() => handle.close());

interface Recorded {
  charges: { customerRef: string; cardRef: string; amount: number; idempotencyKey: string }[];
  refunds: { paymentRef: string; amount: number; idempotencyKey: string }[];
}

/** A processor answering `charge` to every overflow charge ("throw": unreachable), recording charges and refunds. */
function fakeProcessor(charge: PaymentStatus | "throw", recorded: Recorded): PaymentProcessor {
  return {
    name: "fake",
    startCardSetup: () => Promise.reject(new Error("unused")),
    setupResult: () => Promise.reject(new Error("unused")),
    listCards: () => Promise.resolve([]),
    detachCard: () => Promise.resolve(),
    retryPayment: () => Promise.resolve("succeeded"),
    chargeOverflow: (request) => {
      recorded.charges.push(request);
      if (charge === "throw") return Promise.reject(new PaymentError("unavailable"));
      return Promise.resolve({ paymentRef: `pay_${request.idempotencyKey}`, status: charge });
    },
    refundPayment: (request) => {
      recorded.refunds.push(request);
      return Promise.resolve({ refundRef: `re_${recorded.refunds.length}` });
    },
  };
}

const logs: string[] = [];
const logger: Logger = {
  debug: () => {},
  info: () => {},
  warn: (msg) => logs.push(msg),
  error: (msg) => logs.push(msg),
};

function deps(payments: PaymentProcessor): CardPaymentDeps {
  return {
    db: handle.db,
    payments,
    messenger: new SandboxMessenger(handle.db),
    push: new SandboxPushSender(handle.db),
    logger,
  };
}

/**
 * A person with •••• 4242 on Titres-restaurant (100 €, 25 € a day), a default saved card and 50 € of overflow: 45 € at
 * a restaurant is 25 € from the wallet and 20 € of overflow.
 */
async function person({ notifications = true }: { notifications?: boolean } = {}) {
  const account = await createAccount(
    handle.db,
    {
      email: `cardpay-${newId("e")}@example.com`,
      passwordHash: "x",
      wallets: [{ name: "Titres-restaurant", type: "meal", balance: 10000 }],
      cards: [{ type: "physical", lastFour: "4242", wallets: ["Titres-restaurant"] }],
      creditCards: [{ brand: "visa", last4: "1111", isDefault: true }],
      overflowLimit: 5000,
    },
    TUESDAY,
  );
  const on = { mail: notifications, push: notifications };
  await saveNotificationPreferences(handle.db, account.userId, {
    ...defaultNotificationPreferences(),
    cardAuthorizationApproved: on,
    cardAuthorizationDeclined: on,
  });
  return account;
}

const request = cardRequest;

/** "Relancer le paiement" on the person's card •••• 4242, through `processor`. */
const retryOverflow = (
  p: { userId: string; cards: Record<string, string | undefined> },
  authorizationId: string,
  processor: PaymentProcessor,
) => retryOverflowPayment(handle.db, processor, p.userId, p.cards["4242"]!, authorizationId);

const intentOf = (authorizationId: string) =>
  handle.db
    .selectFrom("payment_intents")
    .select(["id", "amount", "latest_status", "processor_ref"])
    .where("authorization_id", "=", authorizationId)
    .executeTakeFirstOrThrow();

async function sent(account: { email: string; userId: string }) {
  const rows = await handle.db
    .selectFrom("outbox")
    .select(["channel", "subject", "body"])
    .where((eb) => eb.or([eb("recipient", "=", account.email), eb("recipient", "=", account.userId)]))
    .execute();
  return { mails: rows.filter((r) => r.channel === "email"), pushes: rows.filter((r) => r.channel === "push") };
}

const notificationsOf = (userId: string) =>
  handle.db.selectFrom("notifications").select(["type", "data_id"]).where("user_id", "=", userId).execute();

describe("paying with the card", () => {
  test("approved from the wallets: no charge, the notification row and its e-mail and push", async () => {
    const p = await person();
    const recorded: Recorded = { charges: [], refunds: [] };
    const { result, settled } = await payWithCard(
      deps(fakeProcessor("succeeded", recorded)),
      request(p.cards["4242"]!),
    );
    await settled;
    expect(result).toMatchObject({ kind: "approved", overflow: 0 });
    if (result.kind !== "approved") return;
    expect(recorded.charges).toEqual([]);
    expect(await notificationsOf(p.userId)).toEqual([
      { type: "card_authorization_approved_notification", data_id: result.authorizationId },
    ]);
    const { mails, pushes } = await sent(p);
    expect(mails.map((m) => m.subject)).toEqual([`Paiement de ${formatCents(1250)} chez Le Petit Café accepté.`]);
    // The push opens the payment in the card's transactions.
    expect(pushes.map((m) => m.body)).toEqual([
      `Paiement de ${formatCents(1250)} chez Le Petit Café accepté.\n/cards/${p.cards["4242"]}#tx-${result.authorizationId}`,
    ]);
  });

  test("declined on a Sunday: the notification says why in words", async () => {
    const p = await person();
    const recorded: Recorded = { charges: [], refunds: [] };
    const { result, settled } = await payWithCard(
      deps(fakeProcessor("succeeded", recorded)),
      request(p.cards["4242"]!, { at: SUNDAY }),
    );
    await settled;
    expect(result).toMatchObject({ kind: "declined", code: "meal_sunday" });
    if (result.kind !== "declined") return;
    expect((await notificationsOf(p.userId)).map((n) => n.type)).toEqual(["card_authorization_declined_notification"]);
    const { mails, pushes } = await sent(p);
    const sentence = `Paiement de ${formatCents(1250)} chez Le Petit Café refusé : les titres-restaurant ne s'utilisent pas le dimanche.`;
    expect(mails.map((m) => m.subject)).toEqual([sentence]);
    // The e-mail's body says the figures too (issue 30 §3).
    expect(mails[0]!.body).toContain(
      `Paiement de ${formatCents(1250)} chez Le Petit Café refusé : les titres-restaurant ne s'utilisent pas le dimanche ; ` +
        `${formatCents(1250)} demandés ; ici vos portefeuilles pouvaient payer ${formatCents(0)} : ` +
        `Titres-restaurant ${formatCents(0)} (pas le dimanche) ; carte enregistrée : elle ne paie jamais un paiement entier.`,
    );
    expect(pushes.map((m) => m.body)).toEqual([
      `${sentence}\n/cards/${p.cards["4242"]}?tab=declined#tx-${result.authorizationId}`,
    ]);
  });

  test("preferences off: the row in the centre, no e-mail, no push", async () => {
    const p = await person({ notifications: false });
    const recorded: Recorded = { charges: [], refunds: [] };
    const { settled } = await payWithCard(deps(fakeProcessor("succeeded", recorded)), request(p.cards["4242"]!));
    await settled;
    expect(await notificationsOf(p.userId)).toHaveLength(1);
    expect(await sent(p)).toEqual({ mails: [], pushes: [] });
  });

  test("a malformed request and an unknown card notify nobody", async () => {
    const p = await person();
    const recorded: Recorded = { charges: [], refunds: [] };
    const bad = await payWithCard(deps(fakeProcessor("succeeded", recorded)), request(p.cards["4242"]!, { amount: 0 }));
    await bad.settled;
    expect(bad.result).toMatchObject({ kind: "declined", code: "invalid_amount", authorizationId: null });
    const unknown = await payWithCard(deps(fakeProcessor("succeeded", recorded)), request("card_nobody"));
    await unknown.settled;
    expect(unknown.result).toEqual({ kind: "unknownCard" });
    expect(await notificationsOf(p.userId)).toEqual([]);
  });

  test("the overflow is charged after commit on the default saved card, keyed by our payment intent", async () => {
    const p = await person();
    const recorded: Recorded = { charges: [], refunds: [] };
    const { result, settled } = await payWithCard(
      deps(fakeProcessor("succeeded", recorded)),
      request(p.cards["4242"]!, { amount: 4500 }),
    );
    // The decision is known before the charge is made; `settled` makes it.
    expect(result).toMatchObject({ kind: "approved", overflow: 2000 });
    await settled;
    if (result.kind !== "approved") return;
    const intent = await intentOf(result.authorizationId);
    expect(recorded.charges).toEqual([expect.objectContaining({ amount: 2000, idempotencyKey: intent.id })]);
    expect(intent).toMatchObject({ latest_status: "succeeded", processor_ref: `pay_${intent.id}` });
  });

  test("a declined overflow charge: the approval stands, the intent is payment_failed and the retry charges it", async () => {
    const p = await person();
    const recorded: Recorded = { charges: [], refunds: [] };
    const { result, settled } = await payWithCard(
      deps(fakeProcessor("payment_failed", recorded)),
      request(p.cards["4242"]!, { amount: 3500 }),
    );
    await settled;
    expect(result).toMatchObject({ kind: "approved", overflow: 1000 });
    if (result.kind !== "approved") return;
    const intent = await intentOf(result.authorizationId);
    expect(intent).toMatchObject({ latest_status: "payment_failed", processor_ref: `pay_${intent.id}` });
    expect((await notificationsOf(p.userId)).map((n) => n.type)).toEqual(["card_authorization_approved_notification"]);
    // "Relancer le paiement" confirms the processor's payment again (retryPayment answers succeeded here).
    expect(await retryOverflow(p, result.authorizationId, fakeProcessor("succeeded", recorded))).toEqual({
      kind: "succeeded",
    });
    expect((await intentOf(result.authorizationId)).latest_status).toBe("succeeded");
  });

  test("an unreachable processor: the approval stands, the intent is payment_failed without a reference, logged; the retry charges it with the same key", async () => {
    const p = await person();
    const recorded: Recorded = { charges: [], refunds: [] };
    logs.length = 0;
    const { result, settled } = await payWithCard(
      deps(fakeProcessor("throw", recorded)),
      request(p.cards["4242"]!, { amount: 3500 }),
    );
    await expect(settled).resolves.toBeUndefined();
    expect(result.kind).toBe("approved");
    if (result.kind !== "approved") return;
    const intent = await intentOf(result.authorizationId);
    expect(intent).toMatchObject({ latest_status: "payment_failed", processor_ref: null });
    expect(logs).toContain("card payment: overflow charge failed");
    // The notification still went out.
    expect((await sent(p)).mails).toHaveLength(1);

    const retry: Recorded = { charges: [], refunds: [] };
    expect(await retryOverflow(p, result.authorizationId, fakeProcessor("succeeded", retry))).toEqual({
      kind: "succeeded",
    });
    expect(retry.charges).toEqual([expect.objectContaining({ amount: 1000, idempotencyKey: intent.id })]);
    expect(await intentOf(result.authorizationId)).toMatchObject({
      latest_status: "succeeded",
      processor_ref: `pay_${intent.id}`,
    });
  });
});

describe("the lifecycle through the orchestrator", () => {
  async function approvedWithOverflow(recorded: Recorded) {
    const p = await person();
    const { result, settled } = await payWithCard(
      deps(fakeProcessor("succeeded", recorded)),
      request(p.cards["4242"]!, { amount: 4500 }),
    );
    await settled;
    if (result.kind !== "approved") throw new Error("expected an approval");
    return { p, authorizationId: result.authorizationId, intent: await intentOf(result.authorizationId) };
  }

  test("a smaller capture refunds what it leaves of the charged overflow", async () => {
    const recorded: Recorded = { charges: [], refunds: [] };
    const { authorizationId, intent } = await approvedWithOverflow(recorded);
    const result = await captureCardPayment(deps(fakeProcessor("succeeded", recorded)), authorizationId, 4000);
    expect(result).toMatchObject({ kind: "captured", overflow: 1500, overflowToRefund: 500 });
    expect(recorded.refunds).toEqual([
      { paymentRef: intent.processor_ref, amount: 500, idempotencyKey: `${authorizationId}:capture` },
    ]);
  });

  test("a reversal refunds the whole charged overflow; a second reversal refunds nothing", async () => {
    const recorded: Recorded = { charges: [], refunds: [] };
    const { authorizationId, intent } = await approvedWithOverflow(recorded);
    const processor = fakeProcessor("succeeded", recorded);
    expect(await reverseCardPayment(deps(processor), authorizationId)).toMatchObject({
      kind: "reversed",
      overflowToRefund: 2000,
    });
    expect(await reverseCardPayment(deps(processor), authorizationId)).toMatchObject({ kind: "alreadyReleased" });
    expect(recorded.refunds).toEqual([
      { paymentRef: intent.processor_ref, amount: 2000, idempotencyKey: `${authorizationId}:reverse` },
    ]);
  });

  test("the expiry job releases an approval held 8 days and refunds its charged overflow, once", async () => {
    const recorded: Recorded = { charges: [], refunds: [] };
    const { authorizationId, intent } = await approvedWithOverflow(recorded);
    const processor = fakeProcessor("succeeded", recorded);
    const eightDaysLater = new Date(TUESDAY.getTime() + 8 * 24 * 60 * 60 * 1000);
    expect(await expireStaleCardPayments(deps(processor), eightDaysLater)).toBeGreaterThanOrEqual(1);
    const row = await handle.db
      .selectFrom("card_authorizations")
      .select(["status_name", "status_reason", "frozen"])
      .where("id", "=", authorizationId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status_name: "reversed", status_reason: "expired", frozen: 0 });
    const mine = () => recorded.refunds.filter((r) => r.paymentRef === intent.processor_ref);
    expect(mine()).toEqual([
      { paymentRef: intent.processor_ref, amount: 2000, idempotencyKey: `${authorizationId}:expire` },
    ]);
    await expireStaleCardPayments(deps(processor), eightDaysLater);
    expect(mine()).toHaveLength(1);
  });

  test("a merchant refund gives the overflow back first, once per reference", async () => {
    const recorded: Recorded = { charges: [], refunds: [] };
    const { authorizationId, intent } = await approvedWithOverflow(recorded);
    const processor = fakeProcessor("succeeded", recorded);
    await captureCardPayment(deps(processor), authorizationId, 4500);
    const first = await refundCardPayment(deps(processor), authorizationId, 3000, "R-1");
    expect(first).toMatchObject({ kind: "refunded", overflow: 2000 });
    expect(await refundCardPayment(deps(processor), authorizationId, 3000, "R-1")).toMatchObject({
      kind: "alreadyRefunded",
    });
    if (first.kind !== "refunded") return;
    expect(recorded.refunds).toEqual([
      { paymentRef: intent.processor_ref, amount: 2000, idempotencyKey: first.refundId },
    ]);
  });

  test("a failed charge is never charged after a reversal: the intent is cancelled", async () => {
    const recorded: Recorded = { charges: [], refunds: [] };
    const p = await person();
    const { result, settled } = await payWithCard(
      deps(fakeProcessor("payment_failed", recorded)),
      request(p.cards["4242"]!, { amount: 4500 }),
    );
    await settled;
    if (result.kind !== "approved") throw new Error("expected an approval");
    await reverseCardPayment(deps(fakeProcessor("succeeded", recorded)), result.authorizationId);
    expect((await intentOf(result.authorizationId)).latest_status).toBe("canceled");
    expect(await retryOverflow(p, result.authorizationId, fakeProcessor("succeeded", recorded))).toEqual({
      kind: "nothingToRetry",
    });
    expect(recorded.refunds).toEqual([]);
  });
});

describe("the sandbox processor", () => {
  test("charges by the saved card's outcome, once per key; 'next charge fails' fails one charge; refunds at most what was paid", async () => {
    const processor = new SandboxPaymentProcessor(handle.db);
    const customerRef = newId("scus");
    await processor.registerDemo(
      customerRef,
      [
        {
          ref: "spm_test_1",
          brand: "visa",
          last4: "4242",
          expMonth: 9,
          expYear: 2031,
          createdAt: TUESDAY.toISOString(),
        },
      ],
      [],
    );
    const charge = (key: string) =>
      processor.chargeOverflow({ customerRef, cardRef: "spm_test_1", amount: 700, idempotencyKey: key });
    const first = await charge("pi_a");
    expect(first.status).toBe("succeeded");
    expect(await charge("pi_a")).toEqual(first);

    expect(await processor.failNextCharge("spm_test_1")).toBe(true);
    const failed = await charge("pi_b");
    expect(failed.status).toBe("payment_failed");
    expect(await processor.retryPayment(customerRef, failed.paymentRef!, "spm_test_1")).toBe("succeeded");
    expect((await charge("pi_c")).status).toBe("succeeded");

    const refund = await processor.refundPayment({ paymentRef: first.paymentRef!, amount: 500, idempotencyKey: "r1" });
    expect(await processor.refundPayment({ paymentRef: first.paymentRef!, amount: 500, idempotencyKey: "r1" })).toEqual(
      refund,
    );
    await expect(
      processor.refundPayment({ paymentRef: first.paymentRef!, amount: 300, idempotencyKey: "r2" }),
    ).rejects.toMatchObject({ code: "rejected" });
    await expect(
      processor.chargeOverflow({ customerRef, cardRef: "spm_unknown", amount: 700, idempotencyKey: "pi_d" }),
    ).rejects.toMatchObject({ code: "notFound" });
  });
});
