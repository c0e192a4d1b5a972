import type { DB } from "../../db";
import { newId } from "../../ids";
import type { Messenger } from "../../providers/messaging/port";
import type { PushSender } from "../../providers/push/port";
import { addAllowanceNotification, deliverAllowanceNotification } from "./notifications";
import { ALLOWANCE_TYPES, monthlyPayouts, type AllowanceType, type MonthlyPayout } from "~/domain/allowances";
import { todayInParis } from "~/domain/dates";

/**
 * The funder's review of mobility allowances (issue 15, spec 001 §2.7): not scoped to a user, since the
 * sandbox reviewer (/dev/allowances, `npm run sandbox:allowances`) stands for the funder. Approving turns
 * an allowance into one payout per month of its period (payouts.ts pays them); refusing needs a reason,
 * which the employee reads as written.
 */

/** Reasons are shown to the employee as written. */
export const ALLOWANCE_REASON_MAX = 500;

export type AllowanceDecision = { kind: "approve" } | { kind: "refuse"; reason: string };
export type AllowanceReviewResult =
  | { kind: "approved"; payouts: MonthlyPayout[] }
  | { kind: "refused" }
  | { kind: "notFound" }
  | { kind: "notReviewable" }
  | { kind: "reasonRequired" };

type Reviewed = { id: string; user_id: string; amount: number; iban: string | null; start_at: string; ends_at: string };

export async function reviewAllowance(
  db: DB,
  allowanceId: string,
  decision: AllowanceDecision,
  options: { now?: Date; messenger?: Messenger; push?: PushSender } = {},
): Promise<AllowanceReviewResult> {
  const now = options.now ?? new Date();
  const row = await db
    .selectFrom("allowances")
    .select(["id", "user_id", "status", "amount", "iban", "start_at", "ends_at"])
    .where("id", "=", allowanceId)
    .executeTakeFirst();
  if (!row) return { kind: "notFound" };
  if (row.status !== "sent") return { kind: "notReviewable" };
  const reason = decision.kind === "refuse" ? decision.reason.trim().slice(0, ALLOWANCE_REASON_MAX) : "";
  if (decision.kind === "refuse" && reason === "") return { kind: "reasonRequired" };

  const outcome = await db
    .transaction()
    .execute((trx) => (decision.kind === "approve" ? approve(trx, row, now) : refuse(trx, row, reason, now)));
  if (outcome.kind === "approved" || outcome.kind === "refused") {
    await deliverAllowanceNotification(
      { db, messenger: options.messenger, push: options.push },
      row.user_id,
      outcome.kind,
      row.id,
      { reason, payoutDate: outcome.kind === "approved" ? outcome.payouts[0]?.scheduledFor : undefined },
    );
  }
  return outcome;
}

/** Moves a sent allowance on (the guard on its status makes a concurrent review change nothing). */
async function decide(
  trx: DB,
  row: Reviewed,
  status: "approved" | "refused",
  refusalReason: string | null,
  now: Date,
): Promise<boolean> {
  const nowIso = now.toISOString();
  const moved = await trx
    .updateTable("allowances")
    .set(
      refusalReason === null
        ? { status, is_cancellable: 0, decided_at: nowIso, updated_at: nowIso }
        : { status, is_cancellable: 0, refusal_reason: refusalReason, decided_at: nowIso, updated_at: nowIso },
    )
    .where("id", "=", row.id)
    .where("status", "=", "sent")
    .executeTakeFirst();
  return Number(moved.numUpdatedRows) === 1;
}

async function refuse(trx: DB, row: Reviewed, reason: string, now: Date): Promise<AllowanceReviewResult> {
  if (!(await decide(trx, row, "refused", reason, now))) return { kind: "notReviewable" };
  await addAllowanceNotification(trx, row.user_id, "refused", row.id, now);
  return { kind: "refused" };
}

/** Approves, and schedules one payout per month of the period to the allowance's IBAN. */
async function approve(trx: DB, row: Reviewed, now: Date): Promise<AllowanceReviewResult> {
  if (!(await decide(trx, row, "approved", null, now))) return { kind: "notReviewable" };
  const payouts = monthlyPayouts(row.amount, row.start_at, row.ends_at, todayInParis(now));
  if (payouts.length > 0) {
    await trx
      .insertInto("allowance_payouts")
      .values(
        payouts.map((p) => ({
          id: newId("apo"),
          allowance_id: row.id,
          user_id: row.user_id,
          month: p.month,
          amount: p.amount,
          iban: row.iban ?? "",
          scheduled_for: p.scheduledFor,
          status: "scheduled" as const,
          created_at: now.toISOString(),
          paid_at: null,
        })),
      )
      .execute();
  }
  await addAllowanceNotification(trx, row.user_id, "approved", row.id, now);
  return { kind: "approved", payouts };
}

export interface AllowanceAwaitingReview {
  id: string;
  userEmail: string;
  type: AllowanceType;
  groupName: string;
  startAt: string;
  endsAt: string;
  amount: number;
  createdAt: string;
  /** Carpooling and bicycle: the one-way distances (the estimate, and the employee's own if declared), in metres. */
  estimateMeters: number | null;
  declaredMeters: number | null;
  /**
   * An unusual one-way distance the employee confirmed (decision 0055): the funder sees it flagged with the
   * employee's reason before deciding; null when the distance was usual.
   */
  plausibility: { reason: string } | null;
}

/** The sandbox reviewer's list: allowances sent and waiting for the funder, oldest first. */
export async function listAllowancesAwaitingReview(db: DB, limit = 50): Promise<AllowanceAwaitingReview[]> {
  const rows = await db
    .selectFrom("allowances as a")
    .innerJoin("users as u", "u.id", "a.user_id")
    .innerJoin("groups as g", "g.id", "a.group_id")
    .select([
      "a.id",
      "u.email",
      "a.type",
      "g.name",
      "a.start_at",
      "a.ends_at",
      "a.amount",
      "a.created_at",
      "a.distance_estimate_m",
      "a.distance_declared_m",
      "a.plausibility_flag",
      "a.plausibility_reason",
    ])
    .where("a.status", "=", "sent")
    .orderBy("a.created_at")
    .orderBy("a.id")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    userEmail: r.email,
    type: (ALLOWANCE_TYPES as readonly string[]).includes(r.type) ? (r.type as AllowanceType) : "carpooling",
    groupName: r.name,
    startAt: r.start_at,
    endsAt: r.ends_at,
    amount: r.amount,
    createdAt: r.created_at,
    estimateMeters: r.distance_estimate_m,
    declaredMeters: r.distance_declared_m,
    plausibility: r.plausibility_flag === 1 ? { reason: r.plausibility_reason ?? "" } : null,
  }));
}
