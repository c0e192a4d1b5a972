import { formatCents } from "~/domain/money";
import { observeAuthorisation } from "../metrics";
import type { Platform } from "../platform";
import { PaymentError } from "../providers/payments/port";
import { authorise, type AuthoriseRequest, type AuthoriseResult } from "./authorisations";
import { cardPaymentSentence, declinedPaymentMail } from "./card-payment-words";
import {
  capture,
  expireStale,
  refundFromMerchant,
  reverse,
  type CaptureResult,
  type RefundResult,
  type ReverseResult,
} from "./authorisation-lifecycle";
import { deliverNotification } from "./notifications";

/**
 * A card payment from end to end (issue 17, decision 0037): the engine decides and writes (`authorise`, with the
 * payment's notification row in its transaction), then — after commit — the overflow is charged to the default
 * saved card through the payment processor and the person is told (e-mail and push, per their preferences). The
 * lifecycle (capture, reversal, merchant refund) goes through here too, so that what it says the processor must
 * give back of an overflow already charged is refunded.
 *
 * The sandbox terminal (`/dev/terminal`, `npm run sandbox:pay`) awaits `settled` before it shows the decision; the
 * Stripe webhook answers Stripe first (2-second limit) and lets `settled` finish afterwards.
 */
export type CardPaymentDeps = Pick<Platform, "db" | "payments" | "messenger" | "push" | "logger">;

/** Decides and writes (authorise), then `settled` charges the overflow and delivers the notification. */
export async function payWithCard(
  deps: CardPaymentDeps,
  request: AuthoriseRequest,
): Promise<{ result: AuthoriseResult; settled: Promise<void> }> {
  const startedAt = performance.now();
  const result = await authorise(deps, request, { notify: true });
  observeAuthorisation(result, startedAt);
  return { result, settled: settleCardPayment(deps, request, result) };
}

/**
 * What `payWithCard` does after the decision's commit (the overflow's charge, the notification), for a caller that
 * took the decision inside its own transaction (`authorise` with `notify: true`): call it after that commit. Never
 * rejects (it logs).
 */
export function settleCardPayment(
  deps: CardPaymentDeps,
  request: AuthoriseRequest,
  result: AuthoriseResult,
): Promise<void> {
  return settle(deps, request, result).catch((err: unknown) => {
    deps.logger.error("card payment: settling failed", {
      authorisation: "authorizationId" in result ? result.authorizationId : null,
      error: err instanceof Error ? err.message : String(err),
    });
  });
}

async function settle(deps: CardPaymentDeps, request: AuthoriseRequest, result: AuthoriseResult): Promise<void> {
  if (result.kind === "unknownCard" || !result.authorizationId) return;
  // The overflow first: a charge that fails must not wait for an e-mail, and one that throws does not stop the
  // notification (the approval stands either way).
  if (result.kind === "approved" && result.overflowPayment) {
    try {
      await chargeOverflow(deps, result.overflowPayment.paymentIntentId);
    } catch (err) {
      deps.logger.error("card payment: overflow charge failed", {
        authorisation: result.authorizationId,
        error: err instanceof Error ? err.message : String(err),
      });
    }
  }
  const owner = await deps.db
    .selectFrom("card_authorizations")
    .innerJoin("cards", "cards.id", "card_authorizations.card_id")
    .select("cards.user_id")
    .where("card_authorizations.id", "=", result.authorizationId)
    .executeTakeFirst();
  if (!owner) return;
  const approved = result.kind === "approved";
  const values = { amount: formatCents(request.amount), merchant: request.merchant.name.trim() || "?" };
  // A decline with its figures says them in the e-mail's body (issue 30 §3); the subject and the push, the sentence.
  const mail = result.kind === "declined" ? declinedPaymentMail(result, values) : undefined;
  await deliverNotification(
    deps,
    owner.user_id,
    approved ? "card_authorization_approved_notification" : "card_authorization_declined_notification",
    result.authorizationId,
    { sentence: cardPaymentSentence(result, values), mail },
  );
}

/**
 * Charges a payment intent still `processing` (the engine's overflow, or a retry of one whose charge could not be
 * sent) on the person's default saved card; its processor reference and status are stored. The intent's id is the
 * idempotency key: the same intent is never charged twice. When the processor cannot be reached, the intent is
 * marked `payment_failed` without a reference — the card page's "Relancer le paiement" charges it again, with the
 * same key. A capture or a reversal that came in during the charge (the intent lowered or cancelled) is given back.
 */
export async function chargeOverflow(deps: Pick<CardPaymentDeps, "db" | "payments" | "logger">, intentId: string) {
  const intent = await deps.db
    .selectFrom("payment_intents")
    .innerJoin("credit_cards", "credit_cards.id", "payment_intents.credit_card_id")
    .innerJoin("users", "users.id", "credit_cards.user_id")
    .select([
      "payment_intents.amount",
      "payment_intents.latest_status",
      "credit_cards.processor_ref as cardRef",
      "users.processor_customer_ref as customerRef",
    ])
    .where("payment_intents.id", "=", intentId)
    .executeTakeFirst();
  if (!intent || intent.latest_status !== "processing") return;
  const markFailed = () =>
    deps.db
      .updateTable("payment_intents")
      .set({ latest_status: "payment_failed" })
      .where("id", "=", intentId)
      .where("latest_status", "=", "processing")
      .execute();
  if (!intent.customerRef) {
    await markFailed();
    return;
  }
  let charged: { paymentRef: string | null; status: "succeeded" | "payment_failed" | "processing" };
  try {
    charged = await deps.payments.chargeOverflow({
      customerRef: intent.customerRef,
      cardRef: intent.cardRef,
      amount: intent.amount,
      idempotencyKey: intentId,
    });
  } catch (err) {
    await markFailed();
    throw err;
  }
  await deps.db
    .updateTable("payment_intents")
    .set({ latest_status: charged.status, processor_ref: charged.paymentRef })
    .where("id", "=", intentId)
    .where("latest_status", "=", "processing")
    .execute();
  if (charged.status !== "succeeded" || !charged.paymentRef) return;
  const now = await deps.db
    .selectFrom("payment_intents")
    .select(["amount", "latest_status"])
    .where("id", "=", intentId)
    .executeTakeFirstOrThrow();
  const back = now.latest_status === "canceled" ? intent.amount : intent.amount - now.amount;
  if (back > 0) {
    await deps.payments.refundPayment({
      paymentRef: charged.paymentRef,
      amount: back,
      idempotencyKey: `${intentId}:late`,
    });
  }
}

/** Gives back `amount` cents of the authorisation's overflow charge; a failure is logged (the wallets' side stands). */
export async function refundOverflow(
  deps: CardPaymentDeps,
  authorisationId: string,
  amount: number,
  idempotencyKey: string,
) {
  const intent = await deps.db
    .selectFrom("payment_intents")
    .select(["id", "processor_ref"])
    .where("authorization_id", "=", authorisationId)
    .where("latest_status", "=", "succeeded")
    .orderBy("created_at", "desc")
    .executeTakeFirst();
  if (!intent?.processor_ref) {
    deps.logger.error("card payment: no charged overflow to refund", { authorisation: authorisationId, amount });
    return;
  }
  try {
    await deps.payments.refundPayment({ paymentRef: intent.processor_ref, amount, idempotencyKey });
  } catch (err) {
    if (!(err instanceof PaymentError)) throw err;
    deps.logger.error("card payment: overflow refund failed", {
      authorisation: authorisationId,
      amount,
      error: err.message,
    });
  }
}

/** The merchant's capture; of an overflow already charged, what a smaller capture leaves is refunded. */
export async function captureCardPayment(
  deps: CardPaymentDeps,
  authorizationId: string,
  amount: number,
): Promise<CaptureResult> {
  const result = await capture(deps, authorizationId, amount);
  if (result.kind === "captured" && result.overflowToRefund > 0)
    await refundOverflow(deps, authorizationId, result.overflowToRefund, `${authorizationId}:capture`);
  return result;
}

/** The merchant's reversal of an approval not captured; an overflow already charged is refunded whole. */
export async function reverseCardPayment(deps: CardPaymentDeps, authorizationId: string): Promise<ReverseResult> {
  const result = await reverse(deps, authorizationId);
  if (result.kind === "reversed" && result.overflowToRefund > 0)
    await refundOverflow(deps, authorizationId, result.overflowToRefund, `${authorizationId}:reverse`);
  return result;
}

/**
 * The daily job (`npm run payments:expire`): approvals held more than 7 days without a capture are released, and an
 * overflow already charged for them goes back to the saved card. Returns how many were released.
 */
export async function expireStaleCardPayments(deps: CardPaymentDeps, now = new Date()): Promise<number> {
  const expired = await expireStale(deps, now);
  for (const { id, overflowToRefund } of expired)
    if (overflowToRefund > 0) await refundOverflow(deps, id, overflowToRefund, `${id}:expire`);
  return expired.length;
}

/** A merchant refund of a captured payment, once per reference; its overflow part goes back to the saved card. */
export async function refundCardPayment(
  deps: CardPaymentDeps,
  authorizationId: string,
  amount: number,
  reference: string,
): Promise<RefundResult> {
  const result = await refundFromMerchant(deps, authorizationId, amount, reference);
  if (result.kind === "refunded" && result.overflow > 0)
    await refundOverflow(deps, authorizationId, result.overflow, result.refundId);
  return result;
}
