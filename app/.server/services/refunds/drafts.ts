import type { DB } from "../../db";
import type { ExpenseRequestDraftTable } from "../../db/schema";
import { newId } from "../../ids";
import {
  discardDraft as discardStoredDraft,
  dropExpiredDrafts,
  insertDraft,
  openDraft,
  parseJsonColumn,
  reachedAfter,
  readDraft,
  updateOpenDraft,
  type DraftWrite,
} from "../drafts";
import { RECEIPT_MAX_FILES } from "~/domain/receipt-file";

/**
 * The refund wizard's answers kept on the server between steps (spec 001 §2.6): the URL carries the
 * draft's id and the step, the draft holds the rest, so Back and Forward lose nothing and need no
 * JavaScript. The rows live in the wizards' one draft store (services/drafts.ts, decision 0051), which
 * scopes every query to the user: another person's draft id finds nothing. What is the refund's own here
 * is the draft's shape, its receipts' two slots and the reading of the first.
 */

const TABLE = "expense_request_drafts";

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

/**
 * Where a draft's IBAN comes from (decision 0054): the profile's ("saved"), another account for this request
 * only ("other"), or typed with none saved and to be saved to the profile when the request is sent ("remember").
 */
export type IbanSource = "saved" | "other" | "remember";
const isIbanSource = (value: string | null): value is IbanSource =>
  value === "saved" || value === "other" || value === "remember";

export interface PaymentMethodAnswer {
  walletId: string;
  amount: number;
}

export interface RefundDraft {
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
  /** Where the IBAN comes from (decision 0054); null when none was chosen yet, or kept on file. */
  ibanSource: IbanSource | null;
  paymentMethods: PaymentMethodAnswer[];
  reading: DraftReading | null;
  /** The furthest step reached (REFUND_STEPS index). */
  stepReached: number;
  submitted: boolean;
  updatedAt: string;
}

function toDraft(row: ExpenseRequestDraftTable, now: Date): RefundDraft {
  let reading = parseJsonColumn<DraftReading | null>(row.reading, null);
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
    ibanSource: isIbanSource(row.iban_source) ? row.iban_source : null,
    paymentMethods: parseJsonColumn<PaymentMethodAnswer[]>(row.payment_methods, []),
    reading,
    stepReached: row.step_reached,
    submitted: row.submitted_at !== null,
    updatedAt: row.updated_at,
  };
}

/** What a correction starts from (the platform's `EditableRefund`). */
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
): Promise<RefundDraft> {
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
    iban_source: null,
    payment_methods: from ? JSON.stringify(from.paymentMethods) : null,
    reading: null,
    step_reached: options.stepReached ?? 0,
    created_at: at,
    updated_at: at,
    submitted_at: null,
  };
  await insertDraft(db, TABLE, row, now);
  return toDraft(row, now);
}

/** The user's unsubmitted draft correcting this request, if one was started. */
export async function findCorrectionDraft(
  db: DB,
  userId: string,
  requestId: string,
  now = new Date(),
): Promise<RefundDraft | null> {
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

export type DraftLookup = { kind: "found"; draft: RefundDraft } | { kind: "notFound" };

export async function getDraft(db: DB, userId: string, draftId: string, now = new Date()): Promise<DraftLookup> {
  const row = await readDraft(db, TABLE, userId, draftId);
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
  ibanSource?: IbanSource | null;
  paymentMethods?: PaymentMethodAnswer[];
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
  const open = await openDraft(db, TABLE, userId, draftId);
  if (open.kind !== "open") return open;
  const set: Partial<ExpenseRequestDraftTable> = {};
  if (answers.typeId !== undefined) set.type_id = answers.typeId;
  if (answers.mobilityGroup !== undefined) set.mobility_group = answers.mobilityGroup;
  if (answers.mobilitySubtype !== undefined) set.mobility_subtype = answers.mobilitySubtype;
  if (answers.partnerId !== undefined) set.partner_id = answers.partnerId;
  if (answers.ticketDate !== undefined) set.ticket_date = answers.ticketDate;
  if (answers.amount !== undefined) set.amount = answers.amount;
  if (answers.iban !== undefined) set.iban = answers.iban;
  if (answers.ibanSource !== undefined) set.iban_source = answers.ibanSource;
  if (answers.paymentMethods !== undefined) set.payment_methods = JSON.stringify(answers.paymentMethods);
  if (reached !== undefined) set.step_reached = reachedAfter(reached, open.row.step_reached);
  await updateOpenDraft(db, TABLE, userId, draftId, set, now);
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
  const open = await openDraft(db, TABLE, userId, draftId);
  if (open.kind !== "open") return open;
  const { row } = open;
  const held = [row.media_id, row.second_media_id].filter(Boolean).length;
  if (held >= RECEIPT_MAX_FILES) return { kind: "full" };
  const column = row.media_id === null ? "media_id" : "second_media_id";
  // The slot is written only while still empty: another upload of the same draft that took it in
  // between makes this one one too many.
  const written = await updateOpenDraft(db, TABLE, userId, draftId, { [column]: fileId }, now, { column, is: null });
  if (written === 0) return { kind: "full" };
  return { kind: "attached", slot: column === "media_id" ? "first" : "second" };
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
  const open = await openDraft(db, TABLE, userId, draftId);
  if (open.kind !== "open") return open;
  const { row } = open;
  if (row.media_id !== fileId && row.second_media_id !== fileId) return { kind: "notFound" };
  const set: Partial<ExpenseRequestDraftTable> =
    row.media_id === fileId
      ? { media_id: row.second_media_id, second_media_id: null, reading: null }
      : { second_media_id: null };
  await updateOpenDraft(db, TABLE, userId, draftId, set, now);
  return { kind: "removed" };
}

/**
 * Stores the reading of the draft's first receipt. A reading of a file that is no longer the first (removed
 * meanwhile), or of a draft already sent, changes nothing.
 */
export async function setDraftReading(
  db: DB,
  userId: string,
  draftId: string,
  reading: DraftReading,
  now = new Date(),
): Promise<void> {
  await updateOpenDraft(db, TABLE, userId, draftId, { reading: JSON.stringify(reading) }, now, {
    column: "media_id",
    is: reading.fileId,
  });
}

/** Forgets a draft (the close confirmation); its files stay the receipts service's. */
export function discardDraft(db: DB, userId: string, draftId: string): Promise<void> {
  return discardStoredDraft(db, TABLE, userId, draftId);
}

/** Drops every draft untouched for the store's `DRAFT_TTL_MS`; answers how many. */
export function dropOldDrafts(db: DB, now = new Date()): Promise<number> {
  return dropExpiredDrafts(db, TABLE, now);
}
