import type { NotificationMail } from "../notifications";
import { isAllowanceType } from "~/domain/allowances";
import { frenchDay } from "~/domain/dates";
import { formatCents } from "~/domain/money";
import { frenchWords } from "~/i18n/words.server";

/*
 * The words the allowance services write themselves (decision 0051: through `frenchWords`, never the
 * catalogue file): the e-mail of each event of an allowance, and the labels of a subscription's two
 * documents in the list. They are French whatever the browser asks (spec 000 §1).
 */

export type AllowanceEvent = "created" | "cancelled" | "approved" | "refused" | "finished";

/** The facts an allowance's e-mail states: its type, amount and period (calendar days), and the decision's. */
export interface AllowanceMailFacts {
  type: string;
  amount: number;
  startAt: string;
  endsAt: string;
  reason?: string;
  payoutDate?: string;
}

/** The e-mail of an event: the event's subject and sentence with the allowance's facts, then the footer. */
export function allowanceMail(event: AllowanceEvent, facts: AllowanceMailFacts): NotificationMail {
  const values = {
    type: isAllowanceType(facts.type) ? frenchWords(`allowances.types.${facts.type}`) : facts.type,
    amount: formatCents(facts.amount),
    start: frenchDay(facts.startAt),
    end: frenchDay(facts.endsAt),
    reason: facts.reason ?? "",
    payoutDate: facts.payoutDate ? frenchDay(facts.payoutDate) : "",
  };
  return {
    subject: frenchWords(`allowances.mail.${event}.subject`, values),
    text: `${frenchWords(`allowances.mail.${event}.text`, values)}\n\n${frenchWords("allowances.mail.footer")}`,
  };
}

/** A subscription's documents as the list names them: the ticket ("Justificatif"), then the proof ("Attestation"). */
export function mediaLabel(slot: "ticket" | "proof"): string {
  return frenchWords(`allowances.media.${slot}`);
}
