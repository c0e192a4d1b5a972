import { createHash, randomBytes } from "node:crypto";
import {
  RECEIPT_MAX_BYTES,
  receiptFileName,
  sniffReceiptType,
  type ReceiptContentType,
} from "../../domain/receipt-file";
import { parseReceiptText, passPeriodOf, type PassPeriod } from "../../domain/receipt-text";
import { foldForSearch } from "../../domain/search-text";
import { todayInParis } from "../../domain/dates";
import type { DB } from "../db";
import { countHit } from "../db/rate-limit-store";
import type { Env } from "../env";
import { newId } from "../ids";
import type { Logger } from "../logger";
import { observeReceiptReading } from "../metrics";
import type { FileStorage } from "../providers/file-storage";
import type { ReceiptReader } from "../providers/receipt-reading";
import { filesHeldBy, purgeStrayFiles, UPLOAD_COUNT_PREFIX } from "./receipt-clean-up";

/**
 * Receipts (spec 001 §3 "file", §5 "Upload"): stored for their owner only, their type sniffed from
 * their bytes, read on this server (decision 0025). Every function takes the platform's pieces it
 * needs (a route passes `await getPlatform()`), then the signed-in user's id, and is scoped to them.
 */
export interface ReceiptDeps {
  db: DB;
  fileStorage: FileStorage;
  receiptReader: ReceiptReader;
  logger: Logger;
}

export interface ReceiptFile {
  id: string;
  fileName: string;
  contentType: ReceiptContentType;
  size: number;
  sha256: string;
  createdAt: string;
}

export interface ReceiptSuggestion {
  ticketDate: string | null;
  /** Integer cents. */
  amount: number | null;
  /** A France partner, enabled, whose name matches the merchant read. */
  partnerId: string | null;
  /** The merchant's name as read. */
  companyName: string | null;
  /** The days a transport pass or its proof says it covers (a subscription's, decision 0056). */
  period: PassPeriod | null;
}

type FileRow = {
  id: string;
  file_name: string;
  content_type: string;
  size: number;
  sha256: string;
  created_at: string;
  storage_key: string;
};

const toReceiptFile = (row: FileRow): ReceiptFile => ({
  id: row.id,
  fileName: row.file_name,
  contentType: row.content_type as ReceiptContentType,
  size: Number(row.size),
  sha256: row.sha256,
  createdAt: row.created_at,
});

async function ownFile(db: DB, userId: string, fileId: string): Promise<FileRow | undefined> {
  if (typeof fileId !== "string" || fileId.length > 100) return undefined;
  return db
    .selectFrom("files")
    .select(["id", "file_name", "content_type", "size", "sha256", "created_at", "storage_key"])
    .where("id", "=", fileId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
}

/** The per-person upload limits (decision 0047): the settings RECEIPT_QUOTA_MB and RECEIPT_UPLOADS_PER_HOUR. */
export interface UploadLimits {
  /** Bytes of receipts a person may hold outside sent requests and allowances (their drafts' files). */
  quotaBytes: number;
  /** Uploads a person may make in an hour, counted from their first one. */
  uploadsPerHour: number;
}

export type UploadSettings = Pick<Env, "RECEIPT_QUOTA_MB" | "RECEIPT_UPLOADS_PER_HOUR">;

export const UPLOAD_WINDOW_MS = 3_600_000;
export const DEFAULT_UPLOAD_LIMITS: UploadLimits = { quotaBytes: 60_000_000, uploadsPerHour: 30 };

export function uploadLimitsOf(env: UploadSettings | undefined): UploadLimits {
  if (!env) return DEFAULT_UPLOAD_LIMITS;
  return { quotaBytes: env.RECEIPT_QUOTA_MB * 1_000_000, uploadsPerHour: env.RECEIPT_UPLOADS_PER_HOUR };
}

/**
 * The bytes of the person's files that are on none of their sent requests or allowances: what their drafts
 * hold, and what nothing holds any more (an expired draft's files, an interrupted upload) until the purge.
 */
export async function heldReceiptBytes(db: DB, userId: string): Promise<number> {
  const row = await db
    .selectFrom("files")
    .select((eb) => eb.fn.sum<number | string | null>("size").as("bytes"))
    .where("user_id", "=", userId)
    .where("id", "not in", filesHeldBy(db, ["expense_requests", "allowances"], userId))
    .executeTakeFirst();
  return Number(row?.bytes ?? 0);
}

/**
 * Keeps an uploaded receipt: at most RECEIPT_MAX_BYTES, a whole PDF, PNG or JPEG by its content
 * (never by its name or the type the browser claimed). The storage key is random.
 *
 * Per person (decision 0047): at most `uploadsPerHour` uploads an hour (`tooManyUploads`), and at most `quotaBytes`
 * held by their drafts (`quotaExceeded`). The row is written before the bytes, then the quota is checked with it
 * counted: two uploads at once cannot both slip under the ceiling, and a worker killed during the upload leaves a
 * row that nothing holds, which the daily purge removes with its bytes (`purgeStrayFiles`) — never bytes the
 * portal cannot name. `deps.env` gives the settings (a route passes the platform); without it, the defaults.
 */
export async function storeReceipt(
  deps: Pick<ReceiptDeps, "db" | "fileStorage"> & { env?: UploadSettings },
  userId: string,
  upload: File,
  now = new Date(),
): Promise<
  | { kind: "stored"; file: ReceiptFile }
  | { kind: "tooBig" }
  | { kind: "invalidType" }
  | { kind: "empty" }
  | { kind: "tooManyUploads" }
  | { kind: "quotaExceeded" }
> {
  if (upload.size === 0) return { kind: "empty" };
  if (upload.size > RECEIPT_MAX_BYTES) return { kind: "tooBig" };
  const bytes = new Uint8Array(await upload.arrayBuffer());
  if (bytes.length === 0) return { kind: "empty" };
  if (bytes.length > RECEIPT_MAX_BYTES) return { kind: "tooBig" };
  const contentType = sniffReceiptType(bytes);
  if (!contentType) return { kind: "invalidType" };

  const limits = uploadLimitsOf(deps.env);
  const count = await countHit(deps.db, UPLOAD_COUNT_PREFIX + userId, UPLOAD_WINDOW_MS, now);
  if (count.totalHits > limits.uploadsPerHour) return { kind: "tooManyUploads" };

  const row: FileRow = {
    id: newId("file"),
    file_name: receiptFileName(upload.name ?? "", contentType),
    content_type: contentType,
    size: bytes.length,
    sha256: createHash("sha256").update(bytes).digest("hex"),
    created_at: now.toISOString(),
    storage_key: `receipts/${randomBytes(18).toString("base64url")}`,
  };
  await deps.db
    .insertInto("files")
    .values({ ...row, user_id: userId })
    .execute();
  const forget = () => deps.db.deleteFrom("files").where("id", "=", row.id).execute();
  try {
    if ((await heldReceiptBytes(deps.db, userId)) > limits.quotaBytes) {
      // What nothing holds any more (an expired draft's files) is the person's first room.
      const purged = await purgeStrayFiles(deps, now, { userId });
      if (purged.files === 0 || (await heldReceiptBytes(deps.db, userId)) > limits.quotaBytes) {
        await forget();
        return { kind: "quotaExceeded" };
      }
    }
    await deps.fileStorage.put(row.storage_key, bytes, { contentType });
  } catch (err) {
    await forget().catch(() => undefined);
    await deps.fileStorage.delete(row.storage_key).catch(() => undefined);
    throw err;
  }
  return { kind: "stored", file: toReceiptFile(row) };
}

export async function describeReceipt(deps: Pick<ReceiptDeps, "db">, userId: string, fileId: string) {
  const row = await ownFile(deps.db, userId, fileId);
  return row ? toReceiptFile(row) : null;
}

/** The receipt's bytes for its owner (the download route streams them). */
export async function openReceipt(
  deps: Pick<ReceiptDeps, "db" | "fileStorage" | "logger">,
  userId: string,
  fileId: string,
): Promise<{ kind: "found"; file: ReceiptFile; body: ReadableStream<Uint8Array> } | { kind: "notFound" }> {
  const row = await ownFile(deps.db, userId, fileId);
  if (!row) return { kind: "notFound" };
  const body = await deps.fileStorage.get(row.storage_key);
  if (!body) {
    deps.logger.error("receipt missing from storage", { fileId: row.id, storage: deps.fileStorage.name });
    return { kind: "notFound" };
  }
  return { kind: "found", file: toReceiptFile(row), body };
}

/** Removes a receipt not yet on a request or an allowance (a draft's reference to it goes too). */
export async function deleteReceipt(
  deps: Pick<ReceiptDeps, "db" | "fileStorage">,
  userId: string,
  fileId: string,
): Promise<{ kind: "deleted" } | { kind: "notFound" } | { kind: "inUse" }> {
  const row = await ownFile(deps.db, userId, fileId);
  if (!row) return { kind: "notFound" };
  const used = await deps.db
    .selectFrom("expense_requests")
    .select("id")
    .where((eb) => eb.or([eb("media_id", "=", row.id), eb("second_media_id", "=", row.id)]))
    .executeTakeFirst();
  const onAllowance = await deps.db
    .selectFrom("allowances")
    .select("id")
    .where((eb) => eb.or([eb("media_id", "=", row.id), eb("second_media_id", "=", row.id)]))
    .executeTakeFirst();
  if (used || onAllowance) return { kind: "inUse" };
  await deps.db.transaction().execute(async (trx) => {
    for (const table of ["expense_request_drafts", "allowance_drafts"] as const) {
      await trx
        .updateTable(table)
        .set({ media_id: null })
        .where("user_id", "=", userId)
        .where("media_id", "=", row.id)
        .execute();
      await trx
        .updateTable(table)
        .set({ second_media_id: null })
        .where("user_id", "=", userId)
        .where("second_media_id", "=", row.id)
        .execute();
    }
    await trx.deleteFrom("files").where("id", "=", row.id).where("user_id", "=", userId).execute();
  });
  await deps.fileStorage.delete(row.storage_key);
  return { kind: "deleted" };
}

/**
 * Another of the user's requests, still alive (not cancelled or refused), whose receipt has the same
 * content (SHA-256) as this file: the same ticket sent twice. `exceptRequestId`: the request being corrected.
 */
export async function receiptUsedElsewhere(
  deps: Pick<ReceiptDeps, "db">,
  userId: string,
  fileId: string,
  exceptRequestId: string | null = null,
): Promise<{ requestId: string; createdAt: string } | null> {
  const row = await ownFile(deps.db, userId, fileId);
  if (!row) return null;
  let query = deps.db
    .selectFrom("expense_requests as r")
    .innerJoin("files as f", (join) =>
      join.on((eb) => eb.or([eb("f.id", "=", eb.ref("r.media_id")), eb("f.id", "=", eb.ref("r.second_media_id"))])),
    )
    .select(["r.id", "r.created_at"])
    .where("r.user_id", "=", userId)
    .where("f.user_id", "=", userId)
    .where("f.sha256", "=", row.sha256)
    .where("r.status", "not in", ["cancelled", "refused"]);
  if (exceptRequestId) query = query.where("r.id", "!=", exceptRequestId);
  const hit = await query.orderBy("r.created_at", "desc").orderBy("r.id").executeTakeFirst();
  return hit ? { requestId: hit.id, createdAt: hit.created_at } : null;
}

type ReadReceiptResult =
  { kind: "read"; suggestion: ReceiptSuggestion; ms: number } | { kind: "unreadable" } | { kind: "notFound" };

/**
 * Reads the receipt on this server and suggests its date, total and partner. A failure is logged as
 * `ocr_cannot_predict_image_annotations` and answered `unreadable`: the employee types the details.
 */
export async function readReceipt(
  deps: ReceiptDeps,
  userId: string,
  fileId: string,
  now: Date = new Date(),
): Promise<ReadReceiptResult> {
  const row = await ownFile(deps.db, userId, fileId);
  if (!row) return { kind: "notFound" };
  const start = performance.now();
  const result = await readStoredFile(deps, row, now, start);
  observeReceiptReading(result.kind === "notFound" ? "not_found" : result.kind, start);
  return result;
}

/** The reading itself, once the file is known to be the person's: its bytes, the reader, the facts read. */
async function readStoredFile(deps: ReceiptDeps, row: FileRow, now: Date, start: number): Promise<ReadReceiptResult> {
  try {
    const body = await deps.fileStorage.get(row.storage_key);
    if (!body) return { kind: "notFound" };
    const bytes = new Uint8Array(await new Response(body).arrayBuffer());
    const reading = await deps.receiptReader.read(bytes, row.content_type);
    if (reading.kind !== "read") {
      deps.logger.warn("ocr_cannot_predict_image_annotations", { fileId: row.id, reason: reading.reason });
      return { kind: "unreadable" };
    }
    const facts = parseReceiptText(reading.text, todayInParis(now));
    const partnerId = facts.companyName ? await matchPartner(deps.db, facts.companyName) : null;
    const ms = Math.round(performance.now() - start);
    return { kind: "read", suggestion: { ...facts, partnerId, period: passPeriodOf(reading.text) }, ms };
  } catch (err) {
    deps.logger.warn("ocr_cannot_predict_image_annotations", { fileId: row.id, err });
    return { kind: "unreadable" };
  }
}

/**
 * The enabled France partner whose folded name is the merchant's: the same name first, else one whose
 * name is among the merchant's words (or the reverse). None: null.
 */
async function matchPartner(db: DB, companyName: string): Promise<string | null> {
  const folded = foldForSearch(companyName);
  if (folded.length < 3) return null;
  // Enabled French partners are a few hundred at most: compared here, both ways, on their folded names.
  const candidates = await db
    .selectFrom("partners")
    .select(["id", "search_text"])
    .where("country", "=", "FR")
    .where("enabled", "=", 1)
    .orderBy("id")
    .execute();
  const names = candidates.flatMap((c) => c.search_text.split(" | ").map((name) => ({ id: c.id, name })));
  const exact = names.find((n) => n.name === folded);
  if (exact) return exact.id;
  // Whole words only ("sport" is not in "intersport"). The longest partner name inside what was read
  // ("boulangerie pain et co" in "boulangerie pain et co lyon"), else the shortest one that holds it all.
  const words = (text: string) => ` ${text} `;
  const inside = names
    .filter((n) => n.name.length >= 3 && words(folded).includes(words(n.name)))
    .sort((a, b) => b.name.length - a.name.length);
  const around = names
    .filter((n) => folded.length >= 5 && words(n.name).includes(words(folded)))
    .sort((a, b) => a.name.length - b.name.length);
  return (inside[0] ?? around[0])?.id ?? null;
}
