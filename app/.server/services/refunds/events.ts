import type { DB } from "../../db";
import { deliverNotification, recordNotification, type NotificationFacts, type NotifyDeps } from "../notifications";
import { requestMail, type MailFacts, type RequestEvent } from "./wording";

/**
 * What every change of a refund request leaves behind (spec 000 §7, spec 001 §2.6): the notification row,
 * written in the change's own transaction with the request's facts as they are then (issue 30 §4: amount, amount
 * to refund, type and partner, the funder's reason, the payout day), then after commit the e-mail with the
 * request's facts and the push, each only when the employee keeps the expenseRequests e-mails or pushes on.
 */

const typeOf = (event: RequestEvent) => `expense_request_${event}_notification`;

/** The notification centre's row of the change (inside its transaction, after the change: its facts are the new ones). */
export async function recordRequestEvent(trx: DB, userId: string, event: RequestEvent, requestId: string, now: Date) {
  await recordNotification(trx, userId, typeOf(event), requestId, now, await requestFacts(trx, userId, requestId));
}

/**
 * The request's facts as the centre says them (null when it is not this person's): the reason is the refusal's or
 * the correction's, the payout day once approved; names in French, the portal's language (spec 000 §1).
 */
export async function requestFacts(db: DB, userId: string, requestId: string): Promise<NotificationFacts | undefined> {
  const row = await db
    .selectFrom("expense_requests as er")
    .innerJoin("expense_types as et", "et.id", "er.type_id")
    .leftJoin("partners as p", "p.id", "er.partner_id")
    .select([
      "er.amount",
      "er.amount_to_refund",
      "er.status",
      "er.refusal_reason",
      "er.correction_reason",
      "er.payout_date",
      "et.name_fr as expense_type",
      "p.name_fr as partner",
    ])
    .where("er.id", "=", requestId)
    .where("er.user_id", "=", userId)
    .executeTakeFirst();
  if (!row) return undefined;
  const reason =
    row.status === "refused" ? row.refusal_reason : row.status === "to_correct" ? row.correction_reason : null;
  return {
    amount: row.amount,
    amountToRefund: row.amount_to_refund,
    expenseType: row.expense_type,
    partner: row.partner,
    reason,
    payoutDate: row.payout_date,
  };
}

/** The request's amount and partner as the e-mails name them. */
export async function mailFacts(db: DB, requestId: string): Promise<MailFacts> {
  const row = await db
    .selectFrom("expense_requests as er")
    .leftJoin("partners as p", "p.id", "er.partner_id")
    .select(["er.amount", "p.name_fr as partner"])
    .where("er.id", "=", requestId)
    .executeTakeFirstOrThrow();
  return { amount: row.amount, partner: row.partner };
}

/**
 * The e-mail and the push of a change, sent after its transaction (a failed e-mail must not undo it): the e-mail is
 * the refunds' own, the push says the centre's sentence of the request's facts.
 */
export async function announceRequestEvent(
  deps: NotifyDeps,
  userId: string,
  event: RequestEvent,
  requestId: string,
  facts: MailFacts,
) {
  await deliverNotification(deps, userId, typeOf(event), requestId, {
    mail: requestMail(event, facts),
    facts: await requestFacts(deps.db, userId, requestId),
  });
}
