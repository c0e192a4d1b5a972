import type { DeclineCode, DeclineDetail } from "~/domain/authorisation";
import { declineWords } from "~/domain/decline-explanation";
import type { Translate } from "~/i18n";
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

/**
 * The explanation's keys through the one translator of words outside a page: they are built from the decline's
 * stops and the saved card's cases (`cards.transactions.explain.*`), each held to its French by this module's test.
 */
const frenchTranslate: Translate = (key, options) =>
  frenchWords(key as CatalogueKey, options as Record<string, string | number> | undefined);

/**
 * The notification's sentence of a payment (e-mail subject and push): accepted, or refused with its binding cause —
 * a rule's short reason, or for a shortfall the figures: « Paiement de 420,00 € chez Carrefour refusé : 420,00 €
 * demandés ; ici vos portefeuilles pouvaient payer 260,80 €. » (issue 30 §3).
 */
export function cardPaymentSentence(
  decision: { kind: "approved" } | { kind: "declined"; code: DeclineCode; detail?: DeclineDetail | null },
  values: { amount: string; merchant: string },
): string {
  if (decision.kind === "approved") return frenchWords("notificationCentre.cardPayment.approved", values);
  const words = declineWords(frenchTranslate, decision.code, decision.detail ?? null);
  return frenchWords("notificationCentre.cardPayment.declined", { ...values, reason: words.cause });
}

/**
 * The e-mail of a decline recorded with its figures (issue 30 §3): the sentence for its subject, and in its body the
 * cause with what each wallet and the saved card could pay: « Paiement de 420,00 € chez Carrefour refusé : 420,00 €
 * demandés ; ici vos portefeuilles pouvaient payer 260,80 € : Titres-restaurant 10,80 € (reste du plafond de
 * 25,00 € du jour), Cadeaux 250,00 € (solde disponible) ; carte enregistrée : aucune carte bancaire par défaut. »
 * Undefined without figures: the notification's own e-mail says the sentence.
 */
export function declinedPaymentMail(
  decision: { code: DeclineCode; detail: DeclineDetail | null },
  values: { amount: string; merchant: string },
): { subject: string; text: string } | undefined {
  const words = declineWords(frenchTranslate, decision.code, decision.detail);
  if (words.savedCard === null) return undefined;
  const figures = { ...values, wallets: words.wallets.join(", "), savedCard: words.savedCard };
  const explained = words.shortfall
    ? frenchWords("notificationCentre.cardPayment.declinedShortfall", { ...figures, figures: words.cause })
    : frenchWords("notificationCentre.cardPayment.declinedRule", {
        ...figures,
        reason: words.cause,
        figures: words.figures ?? "",
      });
  return {
    subject: frenchWords("notificationCentre.cardPayment.declined", { ...values, reason: words.cause }),
    text: `${explained}\n\n${frenchWords("notificationCentre.mailFooter")}`,
  };
}
