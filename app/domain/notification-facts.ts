import { isAllowanceType } from "./allowances";
import { readDeclineDetail, type DeclineDetail } from "./authorisation";
import { frenchDay } from "./dates";
import { formatCents } from "./money";

/**
 * What a notification says happened (issue 30 §4, decision 0030): its producer stores the event's facts with the
 * row (`notifications.facts`, a JSON object) when the event happens, so that the centre says what, where and how
 * much even once the request is deleted or the card closed. The stored JSON is read back here, field by field: a
 * field missing or of another kind makes the facts unusable (null), and the centre then says the type's sentence,
 * as for the rows written before the facts existed. The same sentence serves the panel (in the reader's language)
 * and the e-mail and push (in French, `frenchWords`).
 */

/** The facts as stored: any JSON object (each type's producer writes its own fields). */
export type NotificationFacts = Readonly<Record<string, unknown>>;

export const REFUND_EVENTS = [
  "created",
  "updated",
  "cancelled",
  "approved",
  "refused",
  "rectification_needed",
  "finished",
] as const;
export type RefundNotificationEvent = (typeof REFUND_EVENTS)[number];

export const ALLOWANCE_EVENTS = ["created", "cancelled", "approved", "refused", "finished"] as const;
export type AllowanceNotificationEvent = (typeof ALLOWANCE_EVENTS)[number];

/** The facts of each type, once read. Amounts are cents; days are calendar days (YYYY-MM-DD). */
export type NotificationSubject =
  | {
      kind: "cardPayment";
      approved: boolean;
      amount: number;
      merchant: string;
      /** The decline's code and figures as the engine recorded them (declined only; figures read field by field). */
      code: string | null;
      detail: DeclineDetail | null;
    }
  | { kind: "cardCreated"; cardType: "physical" | "virtual"; lastFour: string }
  | {
      kind: "walletReload";
      wallet: string;
      amount: number;
      /** What the wallet held right after (null: not known, as for a demo reload spent since). */
      balance: number | null;
      endDate: string;
    }
  | { kind: "walletExpiring"; wallet: string; amount: number; endDate: string }
  | {
      kind: "refund";
      event: RefundNotificationEvent;
      amount: number;
      amountToRefund: number;
      expenseType: string;
      partner: string | null;
      /** The funder's reason (refused, to correct). */
      reason: string | null;
      payoutDate: string | null;
    }
  | {
      kind: "allowance";
      event: AllowanceNotificationEvent;
      allowanceType: string;
      amount: number;
      startAt: string;
      endsAt: string;
      reason: string | null;
    };

const CARD_PAYMENT_PREFIX = "card_authorization_";
const isCents = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v);
const isText = (v: unknown): v is string => typeof v === "string" && v.trim() !== "";
const isDay = (v: unknown): v is string => typeof v === "string" && /^\d{4}-\d{2}-\d{2}$/.test(v);
const textOrNull = (v: unknown): string | null => (isText(v) ? v : null);
const dayOrNull = (v: unknown): string | null => (isDay(v) ? v : null);
const eventOf = <T extends string>(events: readonly T[], type: string, prefix: string): T | null => {
  const event = type.slice(prefix.length, -"_notification".length);
  return type.startsWith(prefix) && type.endsWith("_notification") && (events as readonly string[]).includes(event)
    ? (event as T)
    : null;
};

/** The facts of a notification of `type`, read field by field; null when there are none or they do not fit. */
export function readNotificationFacts(type: string, facts: NotificationFacts | null): NotificationSubject | null {
  if (!facts) return null;
  const f = facts;
  if (
    type === `${CARD_PAYMENT_PREFIX}approved_notification` ||
    type === `${CARD_PAYMENT_PREFIX}declined_notification`
  ) {
    if (!isCents(f.amount) || !isText(f.merchant)) return null;
    const approved = type === `${CARD_PAYMENT_PREFIX}approved_notification`;
    return {
      kind: "cardPayment",
      approved,
      amount: f.amount,
      merchant: f.merchant,
      code: approved ? null : textOrNull(f.code),
      detail: approved ? null : readDeclineDetail(f.detail),
    };
  }
  if (type === "card_created_to_user_notification")
    return (f.cardType === "physical" || f.cardType === "virtual") &&
      typeof f.lastFour === "string" &&
      /^\d{4}$/.test(f.lastFour)
      ? { kind: "cardCreated", cardType: f.cardType, lastFour: f.lastFour }
      : null;
  if (type === "wallet_reload_notification")
    return isText(f.wallet) && isCents(f.amount) && isDay(f.endDate)
      ? {
          kind: "walletReload",
          wallet: f.wallet,
          amount: f.amount,
          balance: isCents(f.balance) ? f.balance : null,
          endDate: f.endDate,
        }
      : null;
  if (type === "wallet_expire_in_notification")
    return isText(f.wallet) && isCents(f.amount) && isDay(f.endDate)
      ? { kind: "walletExpiring", wallet: f.wallet, amount: f.amount, endDate: f.endDate }
      : null;
  const refund = eventOf(REFUND_EVENTS, type, "expense_request_");
  if (refund)
    return isCents(f.amount) && isCents(f.amountToRefund) && isText(f.expenseType)
      ? {
          kind: "refund",
          event: refund,
          amount: f.amount,
          amountToRefund: f.amountToRefund,
          expenseType: f.expenseType,
          partner: textOrNull(f.partner),
          reason: textOrNull(f.reason),
          payoutDate: dayOrNull(f.payoutDate),
        }
      : null;
  const allowance = eventOf(ALLOWANCE_EVENTS, type, "allowance_");
  if (allowance)
    return isText(f.allowanceType) && isCents(f.amount) && isDay(f.startAt) && isDay(f.endsAt)
      ? {
          kind: "allowance",
          event: allowance,
          allowanceType: f.allowanceType,
          amount: f.amount,
          startAt: f.startAt,
          endsAt: f.endsAt,
          reason: textOrNull(f.reason),
        }
      : null;
  return null;
}

/** The catalogue keys the sentences use: the section notificationCentre.facts, and the allowance types' names. */
export type NotificationFactsKey =
  | "notificationCentre.facts.cardApproved"
  | "notificationCentre.facts.cardDeclined"
  | "notificationCentre.facts.cardCreated.physical"
  | "notificationCentre.facts.cardCreated.virtual"
  | "notificationCentre.facts.walletReload"
  | "notificationCentre.facts.walletReloadNoBalance"
  | "notificationCentre.facts.walletExpiring"
  | "notificationCentre.facts.refundAbout"
  | `notificationCentre.facts.refund.${RefundNotificationEvent}`
  | "notificationCentre.facts.refund.approvedOn"
  | "notificationCentre.facts.refund.refusedBecause"
  | "notificationCentre.facts.refund.rectificationBecause"
  | `notificationCentre.facts.allowance.${AllowanceNotificationEvent}`
  | "notificationCentre.facts.allowance.refusedBecause"
  | "allowances.types.carpooling"
  | "allowances.types.bicycle"
  | "allowances.types.subscription";

/** A translator of those keys: the page's `t`, or `frenchWords` for e-mails and pushes. */
export type SayFacts = (key: NotificationFactsKey, values?: Record<string, string>) => string;

/**
 * The sentence of a notification's facts: "Paiement refusé : 420,00 € chez Carrefour", "Portefeuille
 * Titres-restaurant rechargé de 150,00 € (solde 230,50 €), à utiliser jusqu’au 31/12/2026.", "Demande de
 * remboursement de 350,00 € (Culture chez Fnac) acceptée : 300,00 € seront remboursés le 04/12/2026."
 */
export function notificationSentence(say: SayFacts, subject: NotificationSubject): string {
  switch (subject.kind) {
    case "cardPayment":
      return say(`notificationCentre.facts.${subject.approved ? "cardApproved" : "cardDeclined"}`, {
        amount: formatCents(subject.amount),
        merchant: subject.merchant,
      });
    case "cardCreated":
      return say(`notificationCentre.facts.cardCreated.${subject.cardType}`, { lastFour: subject.lastFour });
    case "walletReload":
      return say(`notificationCentre.facts.${subject.balance === null ? "walletReloadNoBalance" : "walletReload"}`, {
        wallet: subject.wallet,
        amount: formatCents(subject.amount),
        balance: subject.balance === null ? "" : formatCents(subject.balance),
        endDate: frenchDay(subject.endDate),
      });
    case "walletExpiring":
      return say("notificationCentre.facts.walletExpiring", {
        wallet: subject.wallet,
        amount: formatCents(subject.amount),
        endDate: frenchDay(subject.endDate),
      });
    case "refund":
      return refundSentence(say, subject);
    case "allowance":
      return allowanceSentence(say, subject);
  }
}

function refundSentence(say: SayFacts, subject: Extract<NotificationSubject, { kind: "refund" }>): string {
  const values = {
    amount: formatCents(subject.amount),
    toRefund: formatCents(subject.amountToRefund),
    about: subject.partner
      ? say("notificationCentre.facts.refundAbout", { expenseType: subject.expenseType, partner: subject.partner })
      : subject.expenseType,
    reason: subject.reason ?? "",
    payoutDate: subject.payoutDate ? frenchDay(subject.payoutDate) : "",
  };
  if (subject.event === "approved" && subject.payoutDate)
    return say("notificationCentre.facts.refund.approvedOn", values);
  if (subject.event === "refused" && subject.reason)
    return say("notificationCentre.facts.refund.refusedBecause", values);
  if (subject.event === "rectification_needed" && subject.reason)
    return say("notificationCentre.facts.refund.rectificationBecause", values);
  return say(`notificationCentre.facts.refund.${subject.event}`, values);
}

function allowanceSentence(say: SayFacts, subject: Extract<NotificationSubject, { kind: "allowance" }>): string {
  const values = {
    amount: formatCents(subject.amount),
    type: isAllowanceType(subject.allowanceType)
      ? say(`allowances.types.${subject.allowanceType}`)
      : subject.allowanceType,
    start: frenchDay(subject.startAt),
    end: frenchDay(subject.endsAt),
    reason: subject.reason ?? "",
  };
  if (subject.event === "refused" && subject.reason)
    return say("notificationCentre.facts.allowance.refusedBecause", values);
  return say(`notificationCentre.facts.allowance.${subject.event}`, values);
}
