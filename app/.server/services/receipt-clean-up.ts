import type { DB } from "../db";
import type { FileStorage } from "../providers/file-storage";
import { dropOldAllowanceDrafts } from "./allowances/drafts";
import { dropOldDrafts } from "./refunds/drafts";

/**
 * The receipts' clean-up (issue 28 §2, decision 0047), run by the daily job `npm run receipts:purge`: drafts
 * untouched for their time to live are dropped, the files nothing holds any more are deleted with their bytes, and
 * bytes without a row (an upload interrupted under older code, a filesystem write cut short) are swept. Nothing
 * held by a draft, a request or an allowance — anyone's — is ever removed, and nothing younger than the grace.
 */
export interface CleanUpDeps {
  db: DB;
  fileStorage: FileStorage;
}

/**
 * How old a file without a holder, or bytes without a row, must be before they go: far longer than any upload
 * takes between its row, its bytes and its draft (seconds), so a live upload is never taken for an interrupted one.
 */
export const ORPHAN_GRACE_MS = 3_600_000;

/** Where storeReceipt puts every receipt: the sweep looks nowhere else. */
export const RECEIPTS_PREFIX = "receipts/";

/** The per-person upload counts' keys in `rate_limit_hits` (storeReceipt; the purge deletes the expired ones). */
export const UPLOAD_COUNT_PREFIX = "receipt-uploads:";

const BATCH = 200;

/** The rows that hold receipts, in their two slots (`media_id`, `second_media_id`). */
type Holder = "expense_request_drafts" | "expense_requests" | "allowance_drafts" | "allowances";
const ALL_HOLDERS: readonly Holder[] = ["expense_request_drafts", "expense_requests", "allowance_drafts", "allowances"];

/**
 * The file ids that these tables' rows hold — everyone's, or one person's rows (`userId`) — as a subquery of ids
 * only (`not in` a list holding a null would match nothing).
 */
export function filesHeldBy(db: DB, holders: readonly Holder[] = ALL_HOLDERS, userId?: string) {
  const slots = holders.flatMap((table) =>
    (["media_id", "second_media_id"] as const).map((slot) => {
      const query = db.selectFrom(table).select(`${slot} as id`);
      return userId ? query.where("user_id", "=", userId) : query;
    }),
  );
  const held = slots.slice(1).reduce((union, next) => union.union(next), slots[0]!);
  return db.selectFrom(held.as("held")).select("held.id").where("held.id", "is not", null);
}

/**
 * Deletes the files (rows, then bytes) that no draft, request or allowance holds and that were stored more than
 * the grace ago — everyone's, or one person's (`userId`: storeReceipt makes room this way before refusing). A
 * row is deleted only if still unheld at that moment (and the foreign keys would refuse it otherwise); bytes that
 * could not be deleted are left to `sweepOrphanObjects`.
 */
export async function purgeStrayFiles(
  deps: CleanUpDeps,
  now = new Date(),
  options: { userId?: string } = {},
): Promise<{ files: number; bytes: number }> {
  const cutoff = new Date(now.getTime() - ORPHAN_GRACE_MS).toISOString();
  let files = 0;
  let bytes = 0;
  let after = "";
  for (;;) {
    let candidates = deps.db
      .selectFrom("files")
      .select("id")
      .where("created_at", "<", cutoff)
      .where("id", ">", after)
      .where("id", "not in", filesHeldBy(deps.db))
      .orderBy("id")
      .limit(BATCH);
    if (options.userId) candidates = candidates.where("user_id", "=", options.userId);
    const ids = (await candidates.execute()).map((row) => row.id);
    if (ids.length === 0) break;
    after = ids[ids.length - 1]!;
    const deleted = await deps.db
      .deleteFrom("files")
      .where("id", "in", ids)
      .where("id", "not in", filesHeldBy(deps.db))
      .returning(["storage_key", "size"])
      .execute();
    for (const row of deleted) {
      files += 1;
      bytes += Number(row.size);
      await deps.fileStorage.delete(row.storage_key).catch(() => undefined);
    }
  }
  return { files, bytes };
}

/**
 * Deletes the stored objects under `receipts/` that no file row names and that were written more than the grace
 * ago. storeReceipt writes the row before the bytes, so a live upload always has its row; the grace covers older
 * code during a rolling deploy (bytes first) and clocks that differ.
 */
export async function sweepOrphanObjects(deps: CleanUpDeps, now = new Date()): Promise<{ objects: number }> {
  const cutoff = now.getTime() - ORPHAN_GRACE_MS;
  let objects = 0;
  for await (const keys of deps.fileStorage.list(RECEIPTS_PREFIX)) {
    const named = new Set(
      (await deps.db.selectFrom("files").select("storage_key").where("storage_key", "in", keys).execute()).map(
        (row) => row.storage_key,
      ),
    );
    for (const key of keys) {
      if (named.has(key)) continue;
      const writtenAt = await deps.fileStorage.modifiedAt(key);
      if (!writtenAt || writtenAt.getTime() >= cutoff) continue;
      await deps.fileStorage.delete(key);
      objects += 1;
    }
  }
  return { objects };
}

export interface PurgeReport {
  /** Refund and allowance drafts dropped for being untouched longer than their time to live. */
  drafts: number;
  /** Files deleted (rows and bytes) because nothing held them any more, and their bytes. */
  files: number;
  bytes: number;
  /** Stored objects without a row, deleted. */
  orphans: number;
}

/** The daily job: expired drafts, then the files they held, then bytes without a row, then old upload counts. */
export async function purgeReceipts(deps: CleanUpDeps, now = new Date()): Promise<PurgeReport> {
  const drafts = (await dropOldDrafts(deps.db, now)) + (await dropOldAllowanceDrafts(deps.db, now));
  const stray = await purgeStrayFiles(deps, now);
  const { objects } = await sweepOrphanObjects(deps, now);
  await deps.db
    .deleteFrom("rate_limit_hits")
    .where("key", "like", `${UPLOAD_COUNT_PREFIX}%`)
    .where("reset_at", "<=", now.toISOString())
    .execute();
  return { drafts, files: stray.files, bytes: stray.bytes, orphans: objects };
}
