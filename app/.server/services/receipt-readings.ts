import type { PassPeriod } from "../../domain/receipt-text";
import type { DB } from "../db";
import { readReceipt, type ReceiptDeps } from "./receipts";

/**
 * The readings of a subscription's ticket and proof (issue 31 §5, decision 0056): each file the person
 * uploads is read in the background by the receipt reader (isolated and bounded, decision 0046), one after the
 * other; what it found is kept with the file (`receipt_readings`, migration 027) until the file goes. The
 * details step proposes it, marked as read, for the person to check. Every query is scoped to the owner.
 */

/** What a reading found: each fact null when the document did not say it. */
export interface ReadFacts {
  /** Integer cents: the total the document names. */
  amount: number | null;
  /** The days the pass covers. */
  period: PassPeriod | null;
}

export type FileReading = { state: "pending" } | { state: "done"; facts: ReadFacts } | { state: "unreadable" };

/**
 * A reading still pending after this long is taken as failed: the reader gives up after 20 s a document and
 * a person's two documents wait their turn behind at most 8 others (decision 0046), or the process reading
 * them stopped.
 */
export const READING_GIVE_UP_MS = 60_000;

/**
 * Starts reading the person's files (those of `fileIds` that are theirs), one after the other, in the
 * background: each is marked pending at once, then done or unreadable. Answers the background work, which a
 * route leaves running and a test awaits; it never rejects (a failure is logged and the file unreadable).
 */
export async function startReadings(
  deps: ReceiptDeps,
  userId: string,
  fileIds: string[],
  now = new Date(),
): Promise<{ finished: Promise<void> }> {
  const owned = fileIds.length
    ? await deps.db.selectFrom("files").select("id").where("user_id", "=", userId).where("id", "in", fileIds).execute()
    : [];
  if (owned.length === 0) return { finished: Promise.resolve() };
  const startedAt = now.toISOString();
  await deps.db
    .insertInto("receipt_readings")
    .values(
      owned.map(({ id }) => ({
        file_id: id,
        user_id: userId,
        state: "pending",
        facts: null,
        started_at: startedAt,
        finished_at: null,
      })),
    )
    .onConflict((oc) => oc.column("file_id").doNothing())
    .execute();
  return {
    finished: readInTurn(
      deps,
      userId,
      owned.map(({ id }) => id),
    ),
  };
}

async function readInTurn(deps: ReceiptDeps, userId: string, fileIds: string[]): Promise<void> {
  for (const fileId of fileIds) {
    let reading: { state: "done"; facts: ReadFacts } | { state: "unreadable" } = { state: "unreadable" };
    try {
      const result = await readReceipt(deps, userId, fileId);
      if (result.kind === "read")
        reading = { state: "done", facts: { amount: result.suggestion.amount, period: result.suggestion.period } };
    } catch (error) {
      // Spec 001 §8: a reading that fails is logged; nothing is proposed.
      deps.logger.warn("ocr_cannot_predict_image_annotations", { fileId, error: String(error) });
    }
    // A file deleted meanwhile (new documents) took its row with it: the update finds nothing.
    await deps.db
      .updateTable("receipt_readings")
      .set({
        state: reading.state,
        facts: reading.state === "done" ? JSON.stringify(reading.facts) : null,
        finished_at: new Date().toISOString(),
      })
      .where("file_id", "=", fileId)
      .where("user_id", "=", userId)
      .execute()
      .catch((error: unknown) => deps.logger.warn("receipt reading not kept", { fileId, error: String(error) }));
  }
}

const isDay = (value: unknown): value is string => typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value);

/** The facts read back from their JSON column, keeping only well-typed values. */
function factsOf(json: string | null): ReadFacts {
  let raw: unknown = null;
  try {
    raw = json ? JSON.parse(json) : null;
  } catch {
    raw = null;
  }
  const r = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
  const amount = typeof r.amount === "number" && Number.isSafeInteger(r.amount) && r.amount > 0 ? r.amount : null;
  const p = (typeof r.period === "object" && r.period !== null ? r.period : {}) as Record<string, unknown>;
  const period = isDay(p.start) && isDay(p.end) && p.start <= p.end ? { start: p.start, end: p.end } : null;
  return { amount, period };
}

/** The readings of the person's files among `fileIds` (a file never read, or another's, is absent). */
export async function readingsOf(
  db: DB,
  userId: string,
  fileIds: string[],
  now = new Date(),
): Promise<Map<string, FileReading>> {
  const readings = new Map<string, FileReading>();
  if (fileIds.length === 0) return readings;
  const rows = await db
    .selectFrom("receipt_readings")
    .select(["file_id", "state", "facts", "started_at"])
    .where("user_id", "=", userId)
    .where("file_id", "in", fileIds)
    .execute();
  for (const row of rows) {
    const stale = now.getTime() - Date.parse(row.started_at) > READING_GIVE_UP_MS;
    const reading: FileReading =
      row.state === "done"
        ? { state: "done", facts: factsOf(row.facts) }
        : row.state === "pending" && !stale
          ? { state: "pending" }
          : { state: "unreadable" };
    readings.set(row.file_id, reading);
  }
  return readings;
}
