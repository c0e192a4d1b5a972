import type { DB } from "../../db";
import { newId } from "../../ids";
import type { Messenger } from "../../providers/messaging/port";
import type { PushSender } from "../../providers/push/port";
import { announceRequestEvent, mailFacts, recordRequestEvent } from "./events";

/**
 * The payouts of approved refunds (spec 001 §9, decision 0024): scheduled to the request's IBAN when the
 * funder approves it, paid when due (the request then becomes paid). Not scoped to a user: the funder's
 * side, which the sandbox reviewer stands for.
 */

/** Schedules the payout of an approved request (inside the approval's transaction). */
export async function schedulePayout(
  trx: DB,
  request: { id: string; userId: string; amount: number; iban: string | null },
  scheduledFor: string,
  now: Date,
): Promise<void> {
  await trx
    .insertInto("payouts")
    .values({
      id: newId("pay"),
      user_id: request.userId,
      expense_request_id: request.id,
      amount: request.amount,
      iban: request.iban ?? "",
      scheduled_for: scheduledFor,
      status: "scheduled",
      created_at: now.toISOString(),
      paid_at: null,
    })
    .execute();
}

/** Pays the scheduled payouts due on or before `today` (YYYY-MM-DD): each payout and its request become paid. */
export async function payDuePayouts(
  db: DB,
  messenger: Messenger,
  today: string,
  options: { now?: Date; push?: PushSender } = {},
): Promise<{ paid: string[] }> {
  const now = options.now ?? new Date();
  const due = await db
    .selectFrom("payouts")
    .select(["id", "user_id", "expense_request_id"])
    .where("status", "=", "scheduled")
    .where("scheduled_for", "<=", today)
    .orderBy("scheduled_for")
    .orderBy("id")
    .execute();
  const paid: string[] = [];
  for (const payout of due) {
    if (!(await payOne(db, payout, now))) continue;
    paid.push(payout.expense_request_id);
    await announceRequestEvent(
      { db, messenger, push: options.push },
      payout.user_id,
      "finished",
      payout.expense_request_id,
      await mailFacts(db, payout.expense_request_id),
    );
  }
  return { paid };
}

/** One payout paid, its request paid and the employee's notification written; false when another run paid it first. */
async function payOne(
  db: DB,
  payout: { id: string; user_id: string; expense_request_id: string },
  now: Date,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable("payouts")
      .set({ status: "paid", paid_at: now.toISOString() })
      .where("id", "=", payout.id)
      .where("status", "=", "scheduled")
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return false;
    await trx
      .updateTable("expense_requests")
      .set({ status: "paid", updated_at: now.toISOString() })
      .where("id", "=", payout.expense_request_id)
      .where("status", "=", "approved")
      .execute();
    await recordRequestEvent(trx, payout.user_id, "finished", payout.expense_request_id, now);
    return true;
  });
}

/** Payouts scheduled and not paid yet, for the sandbox reviewer's "pay due payouts". */
export async function listScheduledPayouts(
  db: DB,
): Promise<{ requestId: string; amount: number; scheduledFor: string }[]> {
  const rows = await db
    .selectFrom("payouts")
    .select(["expense_request_id", "amount", "scheduled_for"])
    .where("status", "=", "scheduled")
    .orderBy("scheduled_for")
    .orderBy("id")
    .execute();
  return rows.map((r) => ({ requestId: r.expense_request_id, amount: r.amount, scheduledFor: r.scheduled_for }));
}
