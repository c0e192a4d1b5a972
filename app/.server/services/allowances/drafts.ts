import type { DB } from "../../db";
import type { AllowanceDraftTable } from "../../db/schema";
import { newId } from "../../ids";
import {
  claimDraft,
  discardDraft,
  dropExpiredDrafts,
  insertDraft,
  openDraft,
  parseJsonColumn,
  readDraft,
  reachedAfter,
  updateOpenDraft,
  type DraftWrite,
} from "../drafts";
import { isAllowanceType, TRAVEL_ROLES, type AllowanceType, type TravelRole } from "~/domain/allowances";

/**
 * The allowance wizards' answers kept on the server between steps (spec 001 §2.7), in the wizards' one
 * draft store (services/drafts.ts, decision 0051): the URL carries the draft's id and the step, the
 * draft the rest, so Back loses nothing and nothing needs JavaScript. The store scopes every query to
 * the owner; this module only says what an allowance draft holds (its answers, its two files, the
 * allowance it made). The answers are the wizard's, checked again by the platform on confirmation.
 */

export interface AddressAnswer {
  line1: string;
  zipcode: string;
  city: string;
  country: string;
}

export const IBAN_SOURCES = ["saved", "other", "remember"] as const;
export type IbanSource = (typeof IBAN_SOURCES)[number];

export interface AllowanceAnswers {
  groupId?: string;
  home?: AddressAnswer;
  work?: AddressAnswer;
  daysAtOffice?: number;
  /** Normalised (spaces removed, upper case). */
  iban?: string;
  /**
   * Where the IBAN comes from (decision 0054): "saved", the profile's (read again when the allowance is
   * sent); "other", typed for this request only; "remember", typed and saved to the profile when sent.
   */
  ibanSource?: IbanSource;
  startAt?: string;
  endsAt?: string;
  travelRole?: TravelRole;
  /** The one-way distance the employee typed instead of the estimate, in metres (null: the estimate). */
  declaredOneWayMeters?: number | null;
  /** Subscription: its price, in cents. */
  amount?: number;
}

export interface AllowanceDraft {
  id: string;
  type: AllowanceType;
  answers: AllowanceAnswers;
  mediaId: string | null;
  secondMediaId: string | null;
  stepReached: number;
  submitted: boolean;
  /** The allowance the winning confirmation created (a replay lands on the list). */
  allowanceId: string | null;
}

export type AllowanceDraftLookup = { kind: "found"; draft: AllowanceDraft } | { kind: "notFound" };
export type AllowanceDraftWrite = DraftWrite;
export type FileSlot = "media" | "second_media";

const TABLE = "allowance_drafts";

const ADDRESS_KEYS = ["line1", "zipcode", "city", "country"] as const;

function isAddress(value: unknown): value is AddressAnswer {
  if (typeof value !== "object" || value === null) return false;
  return ADDRESS_KEYS.every((k) => typeof (value as Record<string, unknown>)[k] === "string");
}

/** Answers read back from the JSON column, keeping only well-typed values (never trusting the stored shape). */
export function parseAnswers(json: string): AllowanceAnswers {
  const raw = parseJsonColumn<unknown>(json, null);
  if (typeof raw !== "object" || raw === null) return {};
  const r = raw as Record<string, unknown>;
  const answers: AllowanceAnswers = {};
  const text = (v: unknown) => (typeof v === "string" ? v : undefined);
  const int = (v: unknown) => (typeof v === "number" && Number.isSafeInteger(v) ? v : undefined);
  if (text(r.groupId)) answers.groupId = text(r.groupId);
  if (isAddress(r.home)) answers.home = r.home;
  if (isAddress(r.work)) answers.work = r.work;
  if (int(r.daysAtOffice) !== undefined) answers.daysAtOffice = int(r.daysAtOffice);
  if (text(r.iban)) answers.iban = text(r.iban);
  if ((IBAN_SOURCES as readonly unknown[]).includes(r.ibanSource)) answers.ibanSource = r.ibanSource as IbanSource;
  if (text(r.startAt)) answers.startAt = text(r.startAt);
  if (text(r.endsAt)) answers.endsAt = text(r.endsAt);
  if ((TRAVEL_ROLES as readonly unknown[]).includes(r.travelRole)) answers.travelRole = r.travelRole as TravelRole;
  if (r.declaredOneWayMeters === null || int(r.declaredOneWayMeters) !== undefined)
    answers.declaredOneWayMeters = r.declaredOneWayMeters as number | null;
  if (int(r.amount) !== undefined) answers.amount = int(r.amount);
  return answers;
}

function toDraft(row: AllowanceDraftTable): AllowanceDraft {
  return {
    id: row.id,
    type: isAllowanceType(row.type) ? row.type : "carpooling",
    answers: parseAnswers(row.answers),
    mediaId: row.media_id,
    secondMediaId: row.second_media_id,
    stepReached: row.step_reached,
    submitted: row.submitted_at !== null,
    allowanceId: row.allowance_id,
  };
}

/** A new, empty draft of one type (the store drops old untouched drafts on the way). */
export async function createAllowanceDraft(
  db: DB,
  userId: string,
  type: AllowanceType,
  initial: AllowanceAnswers = {},
  now = new Date(),
): Promise<AllowanceDraft> {
  const at = now.toISOString();
  const row: AllowanceDraftTable = {
    id: newId("ald"),
    user_id: userId,
    type,
    answers: JSON.stringify(initial),
    media_id: null,
    second_media_id: null,
    step_reached: 0,
    created_at: at,
    updated_at: at,
    submitted_at: null,
    allowance_id: null,
  };
  await insertDraft(db, TABLE, row, now);
  return toDraft(row);
}

export async function getAllowanceDraft(db: DB, userId: string, draftId: string): Promise<AllowanceDraftLookup> {
  const row = await readDraft(db, TABLE, userId, draftId);
  return row ? { kind: "found", draft: toDraft(row) } : { kind: "notFound" };
}

/**
 * Merges a step's answers into the draft (a key given as `undefined` is left as it was) and, when
 * given, records how far the person may now go (never lowered: Back keeps what is ahead).
 */
export async function saveAllowanceAnswers(
  db: DB,
  userId: string,
  draftId: string,
  patch: AllowanceAnswers,
  reached?: number,
  now = new Date(),
): Promise<AllowanceDraftWrite> {
  const open = await openDraft(db, TABLE, userId, draftId);
  if (open.kind !== "open") return open;
  const merged: AllowanceAnswers = { ...parseAnswers(open.row.answers) };
  for (const [key, value] of Object.entries(patch)) {
    if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  }
  const stepReached = reachedAfter(open.row.step_reached, reached);
  await updateOpenDraft(
    db,
    TABLE,
    userId,
    draftId,
    { answers: JSON.stringify(merged), step_reached: stepReached },
    now,
  );
  return { kind: "saved" };
}

/** Puts a stored file (receipts service) in one of the two slots of a subscription draft, or empties it (null). */
export async function setAllowanceFile(
  db: DB,
  userId: string,
  draftId: string,
  slot: FileSlot,
  fileId: string | null,
  now = new Date(),
): Promise<AllowanceDraftWrite> {
  const open = await openDraft(db, TABLE, userId, draftId);
  if (open.kind !== "open") return open;
  await updateOpenDraft(
    db,
    TABLE,
    userId,
    draftId,
    slot === "media" ? { media_id: fileId } : { second_media_id: fileId },
    now,
  );
  return { kind: "saved" };
}

/**
 * Marks the draft submitted if nobody did yet: true for the one confirmation that wins (call it inside
 * the transaction that creates the allowance, then `linkAllowance`).
 */
export function claimAllowanceDraft(db: DB, userId: string, draftId: string, now = new Date()): Promise<boolean> {
  return claimDraft(db, TABLE, userId, draftId, now);
}

/** Records on the (claimed) draft the allowance its confirmation made, so a replay lands on the list. */
export async function linkAllowance(db: DB, userId: string, draftId: string, allowanceId: string): Promise<void> {
  await db
    .updateTable(TABLE)
    .set({ allowance_id: allowanceId })
    .where("id", "=", draftId)
    .where("user_id", "=", userId)
    .execute();
}

/** Forgets an unsubmitted draft (the close confirmation); its files stay the receipts service's. */
export function discardAllowanceDraft(db: DB, userId: string, draftId: string): Promise<void> {
  return discardDraft(db, TABLE, userId, draftId);
}

/** Drops every unsubmitted draft untouched for the store's time to live (`DRAFT_TTL_MS`); answers how many. */
export function dropOldAllowanceDrafts(db: DB, now = new Date()): Promise<number> {
  return dropExpiredDrafts(db, TABLE, now);
}
