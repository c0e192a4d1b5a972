import type { DB } from "../../db";
import type { Updateable } from "kysely";
import type { ExpenseRequestTable } from "../../db/schema";
import type { Messenger } from "../../providers/messaging/port";
import type { PushSender } from "../../providers/push/port";
import { addWorkingDays } from "~/domain/calendar";
import { todayInParis } from "~/domain/dates";
import { PAYOUT_WORKING_DAYS, REVIEW_REASON_MAX } from "~/domain/refunds";
import { announceRequestEvent, mailFacts, recordRequestEvent } from "./events";
import { schedulePayout } from "./payouts";
import { captureReservations, releaseReservations } from "./reservations";

/**
 * The funder's review of refund requests (spec 001 §2.6, §5, §9, decision 0024), not scoped to a user: the
 * sandbox reviewer stands for the funder. Approve (the wallets are debited and a payout to the IBAN is
 * scheduled 7 working days later), refuse, or ask for a correction, each with the employee told.
 */

export type ReviewDecision =
  { kind: "approve" } | { kind: "refuse"; reason: string } | { kind: "askCorrection"; reason: string };

export type ReviewResult =
  | { kind: "approved"; payoutDate: string }
  | { kind: "refused" }
  | { kind: "toCorrect" }
  | { kind: "notFound" }
  | { kind: "notReviewable" }
  | { kind: "reasonRequired" };

interface Reviewed {
  id: string;
  user_id: string;
  amount_to_refund: number;
  iban: string | null;
  partner_name: string | null;
}

export async function reviewRefund(
  db: DB,
  messenger: Messenger,
  requestId: string,
  decision: ReviewDecision,
  options: { now?: Date; push?: PushSender } = {},
): Promise<ReviewResult> {
  const now = options.now ?? new Date();
  const request = await db
    .selectFrom("expense_requests as er")
    .leftJoin("partners as p", "p.id", "er.partner_id")
    .select(["er.id", "er.user_id", "er.amount_to_refund", "er.iban", "er.status", "p.name_fr as partner_name"])
    .where("er.id", "=", requestId)
    .executeTakeFirst();
  if (!request) return { kind: "notFound" };
  if (request.status !== "sent") return { kind: "notReviewable" };
  const reason = decision.kind === "approve" ? "" : decision.reason.trim().slice(0, REVIEW_REASON_MAX);
  if (decision.kind !== "approve" && reason === "") return { kind: "reasonRequired" };

  const outcome = await db.transaction().execute(async (trx): Promise<ReviewResult> => {
    switch (decision.kind) {
      case "approve":
        return approve(trx, request, now);
      case "refuse":
        return refuse(trx, request, reason, now);
      case "askCorrection":
        return askCorrection(trx, request, reason, now);
    }
  });
  if (outcome.kind === "approved" || outcome.kind === "refused" || outcome.kind === "toCorrect") {
    const event = outcome.kind === "toCorrect" ? "rectification_needed" : outcome.kind;
    await announceRequestEvent({ db, messenger, push: options.push }, request.user_id, event, request.id, {
      ...(await mailFacts(db, request.id)),
      reason,
      payoutDate: outcome.kind === "approved" ? outcome.payoutDate : undefined,
    });
  }
  return outcome;
}

/** Moves a request still waiting for the funder (false: reviewed or cancelled meanwhile, nothing changed). */
async function moveSent(trx: DB, requestId: string, set: Updateable<ExpenseRequestTable>): Promise<boolean> {
  const result = await trx
    .updateTable("expense_requests")
    .set(set)
    .where("id", "=", requestId)
    .where("status", "=", "sent")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Approved: the held amounts are debited and the payout scheduled 7 working days from today in Paris. */
async function approve(trx: DB, request: Reviewed, now: Date): Promise<ReviewResult> {
  const payoutDate = addWorkingDays(todayInParis(now), PAYOUT_WORKING_DAYS);
  const moved = await moveSent(trx, request.id, {
    status: "approved",
    is_cancellable: 0,
    is_rectifiable: 0,
    payout_date: payoutDate,
    updated_at: now.toISOString(),
  });
  if (!moved) return { kind: "notReviewable" };
  await captureReservations(trx, request.id, request.partner_name, now);
  await schedulePayout(
    trx,
    { id: request.id, userId: request.user_id, amount: request.amount_to_refund, iban: request.iban },
    payoutDate,
    now,
  );
  await recordRequestEvent(trx, request.user_id, "approved", request.id, now);
  return { kind: "approved", payoutDate };
}

/** Refused with the funder's reason: the held amounts are given back. */
async function refuse(trx: DB, request: Reviewed, reason: string, now: Date): Promise<ReviewResult> {
  const moved = await moveSent(trx, request.id, {
    status: "refused",
    is_cancellable: 0,
    is_rectifiable: 0,
    refusal_reason: reason,
    updated_at: now.toISOString(),
  });
  if (!moved) return { kind: "notReviewable" };
  await releaseReservations(trx, request.id, now);
  await recordRequestEvent(trx, request.user_id, "refused", request.id, now);
  return { kind: "refused" };
}

/** Sent back for a correction with the funder's reason. */
async function askCorrection(trx: DB, request: Reviewed, reason: string, now: Date): Promise<ReviewResult> {
  // The reservations stay held: the corrected request replaces them when it is sent again.
  const moved = await moveSent(trx, request.id, {
    status: "to_correct",
    is_cancellable: 0,
    is_rectifiable: 1,
    correction_reason: reason,
    updated_at: now.toISOString(),
  });
  if (!moved) return { kind: "notReviewable" };
  await recordRequestEvent(trx, request.user_id, "rectification_needed", request.id, now);
  return { kind: "toCorrect" };
}

export interface AwaitingReview {
  id: string;
  userEmail: string;
  partnerName: string | null;
  typeName: string;
  ticketDate: string;
  amount: number;
  createdAt: string;
}

/** The sandbox reviewer's list: requests sent and waiting for the funder, oldest first. */
export async function listRequestsAwaitingReview(db: DB, limit = 50): Promise<AwaitingReview[]> {
  const rows = await db
    .selectFrom("expense_requests as er")
    .innerJoin("users as u", "u.id", "er.user_id")
    .innerJoin("expense_types as t", "t.id", "er.type_id")
    .leftJoin("partners as p", "p.id", "er.partner_id")
    .select([
      "er.id",
      "u.email",
      "p.name_fr as partner_name",
      "t.name_fr as type_name",
      "er.ticket_date",
      "er.amount",
      "er.created_at",
    ])
    .where("er.status", "=", "sent")
    .orderBy("er.created_at")
    .orderBy("er.id")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    userEmail: r.email,
    partnerName: r.partner_name,
    typeName: r.type_name,
    ticketDate: r.ticket_date,
    amount: r.amount,
    createdAt: r.created_at,
  }));
}
