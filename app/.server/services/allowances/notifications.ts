import type { DB } from "../../db";
import { getNotificationPreferences } from "../notification-preferences";
import { deliverNotification, recordNotification, type NotifyDeps } from "../notifications";
import { allowanceMail, type AllowanceEvent } from "./wording";

/*
 * The notifications of an allowance's events, shared by the employee's side (created, cancelled), the
 * funder's review (approved, refused) and the payouts (finished): the centre's row, written in the event's
 * transaction, then the e-mail and the push after it.
 */

const typeOf = (event: AllowanceEvent) => `allowance_${event}_notification`;

/** The notification centre's row of an event, inside the event's transaction. */
export async function addAllowanceNotification(
  trx: DB,
  userId: string,
  event: AllowanceEvent,
  allowanceId: string,
  now: Date,
): Promise<void> {
  await recordNotification(trx, userId, typeOf(event), allowanceId, now);
}

/**
 * The e-mail (in French, with the allowance's facts) and the push of a change, after the event's transaction:
 * each only when the employee keeps the expenseRequests e-mails or pushes on (allowances share that preference).
 */
export async function deliverAllowanceNotification(
  deps: NotifyDeps,
  userId: string,
  event: AllowanceEvent,
  allowanceId: string,
  extra: { reason?: string; payoutDate?: string } = {},
): Promise<void> {
  const { db, messenger } = deps;
  const type = typeOf(event);
  // deliverNotification checks the preference too; checked first here so that the row is not read for nothing.
  const preferences = await getNotificationPreferences(db, userId);
  if (!messenger || !preferences.expenseRequests.mail) {
    await deliverNotification({ db, push: deps.push }, userId, type, allowanceId);
    return;
  }
  const row = await db
    .selectFrom("allowances")
    .select(["type", "amount", "start_at", "ends_at"])
    .where("id", "=", allowanceId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!row) return;
  const mail = allowanceMail(event, {
    type: row.type,
    amount: row.amount,
    startAt: row.start_at,
    endsAt: row.ends_at,
    ...extra,
  });
  await deliverNotification(deps, userId, type, allowanceId, { mail });
}
