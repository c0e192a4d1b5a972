import type { NotificationMail } from "../notifications";
import { frenchDay } from "~/domain/dates";
import { formatCents } from "~/domain/money";
import { frenchWords } from "~/i18n/words.server";

/**
 * The words the refund service writes itself (decision 0051): the receipts' labels of the list and the
 * e-mail of each change of a request, in French (spec 000 §1) through the one translator of words written
 * outside a page. The service passes facts; the sentences live in the catalogue's refunds sections (the list's, the mails').
 */

/** A change of a request that the employee is told about (its notification type is `expense_request_<event>_notification`). */
export type RequestEvent =
  "created" | "updated" | "cancelled" | "approved" | "refused" | "rectification_needed" | "finished";

/** The facts an e-mail names: the amount (cents), the partner, and the funder's reason or payout day (YYYY-MM-DD). */
export interface MailFacts {
  amount: number;
  partner: string | null;
  reason?: string;
  payoutDate?: string;
}

/** "Justificatif 1", "Justificatif 2": a receipt's label by its place on the request. */
export function receiptLabel(number: number): string {
  return frenchWords("refunds.list.receipt", { number });
}

/** The e-mail of a change: its subject, and its text with the refunds footer. */
export function requestMail(event: RequestEvent, facts: MailFacts): NotificationMail {
  const values = {
    amount: formatCents(facts.amount),
    partner: facts.partner ?? frenchWords("refunds.mail.unknownPartner"),
    reason: facts.reason ?? "",
    payoutDate: facts.payoutDate ? frenchDay(facts.payoutDate) : "",
  };
  return {
    subject: frenchWords(`refunds.mail.${event}.subject`, values),
    text: `${frenchWords(`refunds.mail.${event}.text`, values)}\n\n${frenchWords("refunds.mail.footer")}`,
  };
}
