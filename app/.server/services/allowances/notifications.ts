import type { DB } from "../../db";
import { deliverNotification, recordNotification, type NotificationFacts, type NotifyDeps } from "../notifications";
import { allowanceMail, type AllowanceEvent } from "./wording";

/*
 * The notifications of an allowance's events, shared by the employee's side (created, cancelled), the
 * funder's review (approved, refused) and the payouts (finished): the centre's row, written in the event's
 * transaction with the allowance's facts (issue 30 §4: its type, amount, period and the refusal's reason), then
 * the e-mail and the push after it.
 */

const typeOf = (event: AllowanceEvent) => `allowance_${event}_notification`;

/** The notification centre's row of an event, inside the event's transaction (after the change: its facts are the new ones). */
export async function addAllowanceNotification(
  trx: DB,
  userId: string,
  event: AllowanceEvent,
  allowanceId: string,
  now: Date,
): Promise<void> {
  const row = await allowanceOf(trx, userId, allowanceId);
  await recordNotification(trx, userId, typeOf(event), allowanceId, now, row ? factsOf(row) : undefined);
}

type AllowanceRow = Awaited<ReturnType<typeof allowanceOf>>;

/** This person's allowance, as its notifications state it (undefined: not this person's). */
function allowanceOf(db: DB, userId: string, allowanceId: string) {
  return db
    .selectFrom("allowances")
    .select(["type", "amount", "start_at", "ends_at", "status", "refusal_reason"])
    .where("id", "=", allowanceId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
}

/** An allowance's facts as its notifications state them now (undefined: not this person's). */
export async function allowanceFacts(
  db: DB,
  userId: string,
  allowanceId: string,
): Promise<NotificationFacts | undefined> {
  const row = await allowanceOf(db, userId, allowanceId);
  return row && factsOf(row);
}

/** The centre's facts of an allowance: its type, amount and period, and the refusal's reason once refused. */
function factsOf(row: NonNullable<AllowanceRow>): NotificationFacts {
  return {
    allowanceType: row.type,
    amount: row.amount,
    startAt: row.start_at,
    endsAt: row.ends_at,
    reason: row.status === "refused" ? row.refusal_reason : null,
  };
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
  const row = await allowanceOf(deps.db, userId, allowanceId);
  if (!row) return;
  // deliverNotification sends the e-mail and the push only as the preference allows.
  const mail = allowanceMail(event, {
    type: row.type,
    amount: row.amount,
    startAt: row.start_at,
    endsAt: row.ends_at,
    ...extra,
  });
  await deliverNotification(deps, userId, typeOf(event), allowanceId, { mail, facts: factsOf(row) });
}
