import type { DeclineCode } from "~/domain/authorisation";
import { frenchWords, type CatalogueKey } from "~/i18n/words.server";

/**
 * The words of a card payment written outside a page (decision 0037): the notification's sentence (e-mail subject
 * and push) and the decline's sentence of the sandbox terminal's shell, in French (spec 000 §1), through the one
 * translator of words outside a page (`frenchWords`). The reasons are the declined tab's: one wording, the
 * catalogue's `cards.transactions.reasons.*`.
 */

/** Why a payment was recorded declined: by the rules (`DeclineCode`), or by the issuer itself (the Stripe webhook). */
export type RecordedDecline = DeclineCode | "declined_by_issuer";

/** A recorded decline, or a lifecycle reason of a released approval (`expired`, `reversed`, decision 0035). */
type ReasonCode = RecordedDecline | "expired" | "reversed";

/** The catalogue's key of a reason: a code the catalogue has no words for fails the typecheck here. */
function reasonKey(code: ReasonCode): CatalogueKey {
  return `cards.transactions.reasons.${code}`;
}

/** Why a payment was declined, in words: "votre carte est gelée". */
export function declineReason(code: RecordedDecline): string {
  return frenchWords(reasonKey(code));
}

/** The sentence of a decline, as the declined tab says it: "Refusée : votre carte est gelée". */
export function declineSentence(code: RecordedDecline): string {
  return frenchWords("cards.transactions.statusWithReason", {
    status: frenchWords("cards.transactions.status.declined"),
    reason: declineReason(code),
  });
}

/** The notification's sentence of a payment: accepted, or refused with its reason (cents said as euros). */
export function cardPaymentSentence(
  decision: { kind: "approved" } | { kind: "declined"; code: DeclineCode },
  values: { amount: string; merchant: string },
): string {
  return decision.kind === "approved"
    ? frenchWords("notificationCentre.cardPayment.approved", values)
    : frenchWords("notificationCentre.cardPayment.declined", { ...values, reason: declineReason(decision.code) });
}
