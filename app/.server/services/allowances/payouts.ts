import type { DB } from "../../db";
import type { Messenger } from "../../providers/messaging/port";
import type { PushSender } from "../../providers/push/port";
import { addAllowanceNotification, deliverAllowanceNotification } from "./notifications";

/**
 * The monthly payouts of approved allowances (issue 15, spec 001 §2.7): paying those that are due, and the
 * sandbox reviewer's list of those still scheduled. An allowance whose last payout is paid becomes paid.
 */

/**
 * Pays the monthly payouts due on or before `today`; an allowance whose payouts are all paid becomes paid
 * (its notification and e-mail then). Answers the payouts paid.
 */
export async function payDueAllowancePayouts(
  db: DB,
  today: string,
  options: { now?: Date; messenger?: Messenger; push?: PushSender } = {},
): Promise<{ paid: string[]; finished: string[] }> {
  const now = options.now ?? new Date();
  const due = await db
    .selectFrom("allowance_payouts")
    .select(["id", "allowance_id", "user_id"])
    .where("status", "=", "scheduled")
    .where("scheduled_for", "<=", today)
    .orderBy("scheduled_for")
    .orderBy("month")
    .orderBy("id")
    .execute();
  const paid: string[] = [];
  const finished: string[] = [];
  for (const payout of due) {
    const done = await db.transaction().execute((trx) => payOne(trx, payout, now));
    if (!done) continue;
    paid.push(payout.id);
    if (done === "finished") {
      finished.push(payout.allowance_id);
      await deliverAllowanceNotification(
        { db, messenger: options.messenger, push: options.push },
        payout.user_id,
        "finished",
        payout.allowance_id,
      );
    }
  }
  return { paid, finished };
}

/**
 * One payout paid, in its own transaction: null when another run paid it first, "finished" when it was the
 * allowance's last (the allowance is then paid, with its notification), else "paid".
 */
async function payOne(
  trx: DB,
  payout: { id: string; allowance_id: string; user_id: string },
  now: Date,
): Promise<"paid" | "finished" | null> {
  const updated = await trx
    .updateTable("allowance_payouts")
    .set({ status: "paid", paid_at: now.toISOString() })
    .where("id", "=", payout.id)
    .where("status", "=", "scheduled")
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) return null;
  const left = await trx
    .selectFrom("allowance_payouts")
    .select("id")
    .where("allowance_id", "=", payout.allowance_id)
    .where("status", "=", "scheduled")
    .executeTakeFirst();
  if (left) return "paid";
  const moved = await trx
    .updateTable("allowances")
    .set({ status: "paid", updated_at: now.toISOString() })
    .where("id", "=", payout.allowance_id)
    .where("status", "=", "approved")
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) return "paid";
  await addAllowanceNotification(trx, payout.user_id, "finished", payout.allowance_id, now);
  return "finished";
}

/** Monthly payouts scheduled and not paid yet, for the sandbox reviewer. */
export async function listScheduledAllowancePayouts(
  db: DB,
  limit = 100,
): Promise<{ id: string; allowanceId: string; month: string; amount: number; scheduledFor: string }[]> {
  const rows = await db
    .selectFrom("allowance_payouts")
    .select(["id", "allowance_id", "month", "amount", "scheduled_for"])
    .where("status", "=", "scheduled")
    .orderBy("scheduled_for")
    .orderBy("month")
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    allowanceId: r.allowance_id,
    month: r.month,
    amount: r.amount,
    scheduledFor: r.scheduled_for,
  }));
}
