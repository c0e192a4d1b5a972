import type { DB } from "../../db";
import type { ExpenseRequestDraftTable } from "../../db/schema";
import { newId } from "../../ids";
import { RECEIPT_MAX_FILES } from "~/domain/receipt-file";

/**
 * The refund wizard's answers kept on the server between steps (spec 001 §2.6): the URL carries the
 * draft's id and the step, the draft holds the rest, so Back and Forward lose nothing and need no
 * JavaScript. Every query is scoped to the user: another person's draft id finds nothing.
 */

/** What the automatic reading suggested (the receipts service's `ReceiptSuggestion`). */
export interface DraftSuggestion {
  ticketDate: string | null;
  amount: number | null;
  partnerId: string | null;
  companyName: string | null;
}

/** The reading of the first receipt, started in the background after its upload. */
export type DraftReading =
  | { state: "pending"; fileId: string; startedAt: string }
  | { state: "done"; fileId: string; suggestion: DraftSuggestion }
  | { state: "unreadable"; fileId: string };

/** A reading still pending after this long is taken as failed (the process reading it may have stopped). */
export const READING_GIVE_UP_MS = 60_000;
/** Drafts untouched this long are dropped (`dropOldDrafts`). */
export const DRAFT_TTL_MS = 7 * 24 * 3_600_000;

export interface PaymentMethodAnswer {
  walletId: string;
  amount: number;
}

export interface ExpenseDraft {
  id: string;
  /** The request being corrected, or null for a new one. */
  requestId: string | null;
  typeId: string | null;
  mobilityGroup: string | null;
  mobilitySubtype: string | null;
  mediaId: string | null;
  secondMediaId: string | null;
  partnerId: string | null;
  ticketDate: string | null;
  amount: number | null;
  /** The IBAN typed; null when none yet, or (correcting) to keep the one on file. */
  iban: string | null;
  paymentMethods: PaymentMethodAnswer[];
  reading: DraftReading | null;
  /** The furthest step reached (REFUND_STEPS index). */
  stepReached: number;
  submitted: boolean;
  updatedAt: string;
}

function parseJson<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

function toDraft(row: ExpenseRequestDraftTable, now: Date): ExpenseDraft {
  let reading = parseJson<DraftReading | null>(row.reading, null);
  if (reading?.state === "pending" && now.getTime() - Date.parse(reading.startedAt) > READING_GIVE_UP_MS)
    reading = { state: "unreadable", fileId: reading.fileId };
  return {
    id: row.id,
    requestId: row.request_id,
    typeId: row.type_id,
    mobilityGroup: row.mobility_group,
    mobilitySubtype: row.mobility_subtype,
    mediaId: row.media_id,
    secondMediaId: row.second_media_id,
    partnerId: row.partner_id,
    ticketDate: row.ticket_date,
    amount: row.amount,
    iban: row.iban,
    paymentMethods: parseJson<PaymentMethodAnswer[]>(row.payment_methods, []),
    reading,
    stepReached: row.step_reached,
    submitted: row.submitted_at !== null,
    updatedAt: row.updated_at,
  };
}

/** What a correction starts from (the platform's `EditableExpenseRequest`). */
export interface DraftSource {
  id: string;
  typeId: string;
  partnerId: string | null;
  ticketDate: string;
  amount: number;
  mediaId: string | null;
  secondMediaId: string | null;
  paymentMethods: PaymentMethodAnswer[];
}

/**
 * A new draft: empty (a new request, at the type step), or holding a request's answers and files to
 * correct it (reached up to the summary, since every answer is there; the wizard opens it at the ticket
 * step). Old drafts are dropped on the way.
 */
export async function createDraft(
  db: DB,
  userId: string,
  options: { from?: DraftSource; stepReached?: number } = {},
  now = new Date(),
): Promise<ExpenseDraft> {
  await dropOldDrafts(db, now);
  const at = now.toISOString();
  const from = options.from;
  const row: ExpenseRequestDraftTable = {
    id: newId("erd"),
    user_id: userId,
    request_id: from?.id ?? null,
    type_id: from?.typeId ?? null,
    mobility_group: null,
    mobility_subtype: null,
    media_id: from?.mediaId ?? null,
    second_media_id: from?.mediaId ? (from.secondMediaId ?? null) : null,
    partner_id: from?.partnerId ?? null,
    ticket_date: from?.ticketDate ?? null,
    amount: from?.amount ?? null,
    iban: null,
    payment_methods: from ? JSON.stringify(from.paymentMethods) : null,
    reading: null,
    step_reached: options.stepReached ?? 0,
    created_at: at,
    updated_at: at,
    submitted_at: null,
  };
  await db.insertInto("expense_request_drafts").values(row).execute();
  return toDraft(row, now);
}

/** The user's unsubmitted draft correcting this request, if one was started. */
export async function findCorrectionDraft(
  db: DB,
  userId: string,
  requestId: string,
  now = new Date(),
): Promise<ExpenseDraft | null> {
  const row = await db
    .selectFrom("expense_request_drafts")
    .selectAll()
    .where("user_id", "=", userId)
    .where("request_id", "=", requestId)
    .where("submitted_at", "is", null)
    .orderBy("updated_at", "desc")
    .executeTakeFirst();
  return row ? toDraft(row, now) : null;
}

export type DraftLookup = { kind: "found"; draft: ExpenseDraft } | { kind: "notFound" };

export async function getDraft(db: DB, userId: string, draftId: string, now = new Date()): Promise<DraftLookup> {
  if (draftId.length > 100) return { kind: "notFound" };
  const row = await db
    .selectFrom("expense_request_drafts")
    .selectAll()
    .where("id", "=", draftId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row ? { kind: "found", draft: toDraft(row, now) } : { kind: "notFound" };
}

export interface DraftAnswers {
  typeId?: string | null;
  mobilityGroup?: string | null;
  mobilitySubtype?: string | null;
  partnerId?: string | null;
  ticketDate?: string | null;
  amount?: number | null;
  iban?: string | null;
  paymentMethods?: PaymentMethodAnswer[];
}

export type DraftWrite = { kind: "saved" } | { kind: "notFound" } | { kind: "submitted" };

/** The row of a draft still open for changes, or why not. */
async function openDraft(db: DB, userId: string, draftId: string) {
  const row = await db
    .selectFrom("expense_request_drafts")
    .selectAll()
    .where("id", "=", draftId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!row) return { kind: "notFound" } as const;
  if (row.submitted_at !== null) return { kind: "submitted" } as const;
  return { kind: "open", row } as const;
}

/**
 * Saves a step's answers and, when given, records that the person may now go as far as `reached`
 * (never lowered: Back keeps what is ahead).
 */
export async function saveDraftAnswers(
  db: DB,
  userId: string,
  draftId: string,
  answers: DraftAnswers,
  reached?: number,
  now = new Date(),
): Promise<DraftWrite> {
  const open = await openDraft(db, userId, draftId);
  if (open.kind !== "open") return open;
  const set: Partial<ExpenseRequestDraftTable> = { updated_at: now.toISOString() };
  if (answers.typeId !== undefined) set.type_id = answers.typeId;
  if (answers.mobilityGroup !== undefined) set.mobility_group = answers.mobilityGroup;
  if (answers.mobilitySubtype !== undefined) set.mobility_subtype = answers.mobilitySubtype;
  if (answers.partnerId !== undefined) set.partner_id = answers.partnerId;
  if (answers.ticketDate !== undefined) set.ticket_date = answers.ticketDate;
  if (answers.amount !== undefined) set.amount = answers.amount;
  if (answers.iban !== undefined) set.iban = answers.iban;
  if (answers.paymentMethods !== undefined) set.payment_methods = JSON.stringify(answers.paymentMethods);
  if (reached !== undefined) set.step_reached = Math.max(open.row.step_reached, reached);
  await db
    .updateTable("expense_request_drafts")
    .set(set)
    .where("id", "=", draftId)
    .where("user_id", "=", userId)
    .where("submitted_at", "is", null)
    .execute();
  return { kind: "saved" };
}

export type AttachResult =
  { kind: "attached"; slot: "first" | "second" } | { kind: "full" } | { kind: "notFound" } | { kind: "submitted" };

/** Adds a stored receipt to the draft: the first slot, then the second (at most 2). */
export async function attachReceipt(
  db: DB,
  userId: string,
  draftId: string,
  fileId: string,
  now = new Date(),
): Promise<AttachResult> {
  const open = await openDraft(db, userId, draftId);
  if (open.kind !== "open") return open;
  const { row } = open;
  const held = [row.media_id, row.second_media_id].filter(Boolean).length;
  if (held >= RECEIPT_MAX_FILES) return { kind: "full" };
  const slot = row.media_id === null ? "first" : "second";
  const updated = await db
    .updateTable("expense_request_drafts")
    .set(slot === "first" ? { media_id: fileId } : { second_media_id: fileId })
    .set({ updated_at: now.toISOString() })
    .where("id", "=", draftId)
    .where("user_id", "=", userId)
    .where(slot === "first" ? "media_id" : "second_media_id", "is", null)
    .executeTakeFirst();
  // Another upload of the same draft took the slot in between: this one is one too many.
  if (Number(updated.numUpdatedRows) === 0) return { kind: "full" };
  return { kind: "attached", slot };
}

export type RemoveResult = { kind: "removed" } | { kind: "notFound" } | { kind: "submitted" };

/**
 * Takes a receipt off the draft (the file itself is the receipts service's to delete). Removing the
 * first moves the second up; its reading is forgotten, as are the suggestions it gave.
 */
export async function removeReceipt(
  db: DB,
  userId: string,
  draftId: string,
  fileId: string,
  now = new Date(),
): Promise<RemoveResult> {
  const open = await openDraft(db, userId, draftId);
  if (open.kind !== "open") return open;
  const { row } = open;
  if (row.media_id !== fileId && row.second_media_id !== fileId) return { kind: "notFound" };
  const set: Partial<ExpenseRequestDraftTable> =
    row.media_id === fileId
      ? { media_id: row.second_media_id, second_media_id: null, reading: null }
      : { second_media_id: null };
  await db
    .updateTable("expense_request_drafts")
    .set({ ...set, updated_at: now.toISOString() })
    .where("id", "=", draftId)
    .where("user_id", "=", userId)
    .where("submitted_at", "is", null)
    .execute();
  return { kind: "removed" };
}

/**
 * Stores the reading of the draft's first receipt. A reading of a file that is no longer the first (removed
 * meanwhile) changes nothing.
 */
export async function setDraftReading(
  db: DB,
  userId: string,
  draftId: string,
  reading: DraftReading,
  now = new Date(),
): Promise<void> {
  await db
    .updateTable("expense_request_drafts")
    .set({ reading: JSON.stringify(reading), updated_at: now.toISOString() })
    .where("id", "=", draftId)
    .where("user_id", "=", userId)
    .where("media_id", "=", reading.fileId)
    .execute();
}

/** Forgets a draft (the close confirmation); its files stay the receipts service's. */
export async function discardDraft(db: DB, userId: string, draftId: string): Promise<void> {
  await db
    .deleteFrom("expense_request_drafts")
    .where("id", "=", draftId)
    .where("user_id", "=", userId)
    .where("submitted_at", "is", null)
    .execute();
}

/** Drops every draft untouched for `DRAFT_TTL_MS`; answers how many. */
export async function dropOldDrafts(db: DB, now = new Date()): Promise<number> {
  const result = await db
    .deleteFrom("expense_request_drafts")
    .where("updated_at", "<", new Date(now.getTime() - DRAFT_TTL_MS).toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
