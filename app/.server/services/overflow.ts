import { OVERFLOW_DEFAULT_EUROS, OVERFLOW_MAX_EUROS, OVERFLOW_MIN_EUROS } from "~/domain/overflow";
import type { DB } from "../db";
import { PaymentError, type PaymentProcessor } from "../providers/payments/port";

/**
 * Balance overflow (spec 000 §2, §4, §9): how much a saved credit card may add when the wallets run
 * short, and retrying an overflow payment that failed.
 */

/** The authorised amount in whole euros; the default when never set. */
export async function overflowAmount(db: DB, userId: string): Promise<number> {
  const row = await db
    .selectFrom("users")
    .select("balance_overflow_authorized")
    .where("id", "=", userId)
    .executeTakeFirst();
  const cents = row?.balance_overflow_authorized;
  return cents === null || cents === undefined ? OVERFLOW_DEFAULT_EUROS : Math.round(cents / 100);
}

export async function setOverflowAmount(db: DB, userId: string, euros: number): Promise<void> {
  if (!Number.isInteger(euros) || euros < OVERFLOW_MIN_EUROS || euros > OVERFLOW_MAX_EUROS) {
    throw new RangeError(`overflow amount must be ${OVERFLOW_MIN_EUROS}–${OVERFLOW_MAX_EUROS} €; validate it first`);
  }
  await db
    .updateTable("users")
    .set({ balance_overflow_authorized: euros * 100 })
    .where("id", "=", userId)
    .execute();
}

export type RetryResult = {
  kind: "succeeded" | "failed" | "notFound" | "nothingToRetry" | "noDefaultCard" | "processorFailed";
};

/**
 * Spec 000 §4: takes the authorization's last payment intent and retries it on the default saved card.
 * Only the signed-in user's own authorizations are found.
 */
export async function retryOverflowPayment(
  db: DB,
  payments: PaymentProcessor,
  userId: string,
  cardId: string,
  authorizationId: string,
): Promise<RetryResult> {
  const intent = await db
    .selectFrom("payment_intents")
    .innerJoin("card_authorizations", "card_authorizations.id", "payment_intents.authorization_id")
    .innerJoin("cards", "cards.id", "card_authorizations.card_id")
    .select([
      "payment_intents.id",
      "payment_intents.processor_ref",
      "payment_intents.latest_status",
      "payment_intents.amount",
    ])
    .where("card_authorizations.id", "=", authorizationId)
    .where("cards.id", "=", cardId)
    .where("cards.user_id", "=", userId)
    .orderBy("payment_intents.created_at", "desc")
    .orderBy("payment_intents.id", "desc")
    .executeTakeFirst();
  if (!intent) return { kind: "notFound" };
  if (intent.latest_status !== "payment_failed") return { kind: "nothingToRetry" };
  const [user, card] = await Promise.all([
    db.selectFrom("users").select("processor_customer_ref").where("id", "=", userId).executeTakeFirst(),
    db
      .selectFrom("credit_cards")
      .select(["id", "processor_ref"])
      .where("user_id", "=", userId)
      .where("is_default", "=", 1)
      .executeTakeFirst(),
  ]);
  if (!card || !user?.processor_customer_ref) return { kind: "noDefaultCard" };
  let status;
  let processorRef = intent.processor_ref;
  try {
    if (processorRef) {
      status = await payments.retryPayment(user.processor_customer_ref, processorRef, card.processor_ref);
    } else {
      // The first charge never reached the processor (decision 0037): charged now, with the same idempotency key.
      const charged = await payments.chargeOverflow({
        customerRef: user.processor_customer_ref,
        cardRef: card.processor_ref,
        amount: intent.amount,
        idempotencyKey: intent.id,
      });
      status = charged.status;
      processorRef = charged.paymentRef;
    }
  } catch (err) {
    if (err instanceof PaymentError) return { kind: "processorFailed" };
    throw err;
  }
  await db
    .updateTable("payment_intents")
    .set({ latest_status: status, credit_card_id: card.id, processor_ref: processorRef })
    .where("id", "=", intent.id)
    .execute();
  return { kind: status === "payment_failed" ? "failed" : "succeeded" };
}
