import type { DB } from "../../db";
import { deliverNotification, recordNotification, type NotifyDeps } from "../notifications";
import { requestMail, type MailFacts, type RequestEvent } from "./wording";

/**
 * What every change of a refund request leaves behind (spec 000 §7, spec 001 §2.6): the notification row,
 * written in the change's own transaction, then after commit the e-mail with the request's facts and the
 * push, each only when the employee keeps the expenseRequests e-mails or pushes on.
 */

const typeOf = (event: RequestEvent) => `expense_request_${event}_notification`;

/** The notification centre's row of the change (inside its transaction). */
export async function recordRequestEvent(trx: DB, userId: string, event: RequestEvent, requestId: string, now: Date) {
  await recordNotification(trx, userId, typeOf(event), requestId, now);
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

/** The e-mail and the push of a change, sent after its transaction (a failed e-mail must not undo it). */
export async function announceRequestEvent(
  deps: NotifyDeps,
  userId: string,
  event: RequestEvent,
  requestId: string,
  facts: MailFacts,
) {
  await deliverNotification(deps, userId, typeOf(event), requestId, { mail: requestMail(event, facts) });
}
