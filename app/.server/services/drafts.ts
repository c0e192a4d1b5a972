import type { DB } from "../db";
import type { AllowanceDraftTable, ExpenseRequestDraftTable } from "../db/schema";

/**
 * The wizards' one draft store (decision 0051): the answers a wizard keeps on the server between steps,
 * so the URL carries only the draft's id and the step. The refund and allowance drafts are rows of their
 * own tables with the same bookkeeping columns (`id`, `user_id`, `step_reached`, `updated_at`,
 * `submitted_at`); everything here is written once for both. Every query is scoped to the owner:
 * another person's draft id finds nothing, exactly like an id that never existed.
 */

interface DraftTables {
  expense_request_drafts: ExpenseRequestDraftTable;
  allowance_drafts: AllowanceDraftTable;
}
export type DraftTable = keyof DraftTables;
export type DraftRow<T extends DraftTable> = DraftTables[T];

/** Drafts untouched this long are dropped (`dropExpiredDrafts`). */
export const DRAFT_TTL_MS = 7 * 24 * 3_600_000;

/** Longer than any id we make: never worth a query. */
const MAX_ID_LENGTH = 100;

export type DraftWrite = { kind: "saved" } | { kind: "notFound" } | { kind: "submitted" };
export type OpenDraft<T extends DraftTable> =
  { kind: "open"; row: DraftRow<T> } | { kind: "notFound" } | { kind: "submitted" };

// Kysely's builders are typed per table. The two tables share every column used here, so the queries
// are written against one of them (still checked column by column) and the rows typed back by the caller's table.
const one = (table: DraftTable) => table as "allowance_drafts";

/** Inserts a new draft row (its id made by the caller's prefix), first dropping expired drafts. */
export async function insertDraft<T extends DraftTable>(
  db: DB,
  table: T,
  row: DraftRow<T>,
  now = new Date(),
): Promise<void> {
  await dropExpiredDrafts(db, table, now);
  await db
    .insertInto(one(table))
    .values(row as AllowanceDraftTable)
    .execute();
}

/** The owner's draft row, submitted or not; undefined when it is not theirs or does not exist. */
export async function readDraft<T extends DraftTable>(
  db: DB,
  table: T,
  userId: string,
  draftId: string,
): Promise<DraftRow<T> | undefined> {
  if (draftId.length > MAX_ID_LENGTH) return undefined;
  const row = await db
    .selectFrom(one(table))
    .selectAll()
    .where("id", "=", draftId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row as DraftRow<T> | undefined;
}

/** The owner's draft row still open for changes, or why not. */
export async function openDraft<T extends DraftTable>(
  db: DB,
  table: T,
  userId: string,
  draftId: string,
): Promise<OpenDraft<T>> {
  const row = await readDraft(db, table, userId, draftId);
  if (!row) return { kind: "notFound" };
  if (row.submitted_at !== null) return { kind: "submitted" };
  return { kind: "open", row };
}

/** How far the person may go after a step: never lowered, so Back keeps what is ahead. */
export function reachedAfter(current: number, reached: number | undefined): number {
  return reached === undefined ? current : Math.max(current, reached);
}

/**
 * Writes columns of an open draft (its `updated_at` with them). The guard on `submitted_at` makes a
 * write that races the confirmation change nothing.
 */
export async function updateOpenDraft<T extends DraftTable>(
  db: DB,
  table: T,
  userId: string,
  draftId: string,
  set: Partial<DraftRow<T>>,
  now = new Date(),
  guard?: { column: "media_id" | "second_media_id"; is: string | null },
): Promise<number> {
  let query = db
    .updateTable(one(table))
    .set({ ...(set as Partial<AllowanceDraftTable>), updated_at: now.toISOString() })
    .where("id", "=", draftId)
    .where("user_id", "=", userId)
    .where("submitted_at", "is", null);
  if (guard)
    query = guard.is === null ? query.where(guard.column, "is", null) : query.where(guard.column, "=", guard.is);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Marks the draft submitted if nobody did yet: true for the one confirmation that wins. Call it inside
 * the transaction that makes what the draft asked for.
 */
export async function claimDraft(
  db: DB,
  table: DraftTable,
  userId: string,
  draftId: string,
  now = new Date(),
): Promise<boolean> {
  const at = now.toISOString();
  const result = await db
    .updateTable(one(table))
    .set({ submitted_at: at, updated_at: at })
    .where("id", "=", draftId)
    .where("user_id", "=", userId)
    .where("submitted_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Forgets an unsubmitted draft (the close confirmation); its files stay the receipts service's. */
export async function discardDraft(db: DB, table: DraftTable, userId: string, draftId: string): Promise<void> {
  await db
    .deleteFrom(one(table))
    .where("id", "=", draftId)
    .where("user_id", "=", userId)
    .where("submitted_at", "is", null)
    .execute();
}

/**
 * Drops every draft untouched for `DRAFT_TTL_MS`; answers how many. Submitted allowance drafts are kept
 * (they point a replayed confirmation at the allowance it made); a submitted refund draft has done its work.
 */
export async function dropExpiredDrafts(db: DB, table: DraftTable, now = new Date()): Promise<number> {
  let query = db.deleteFrom(one(table)).where("updated_at", "<", new Date(now.getTime() - DRAFT_TTL_MS).toISOString());
  if (table === "allowance_drafts") query = query.where("submitted_at", "is", null);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Reads a JSON column, or the fallback when it is empty or not JSON (never trusting the stored text). */
export function parseJsonColumn<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}
