import { readdirSync } from "node:fs";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { DatabaseHandle } from "../db";
import { createAllowanceRow, createRefund } from "../db/factories";
import type { FilesystemStorage } from "../providers/file-storage/filesystem";
import { openReceiptTestbed, type ReceiptTestbed } from "../../../tests/support/receipt-testbed";
import { createAllowanceDraft, setAllowanceFile } from "./allowances/drafts";
import { attachReceipt, createDraft } from "./refunds/drafts";
import { UPLOAD_COUNT_PREFIX } from "./receipt-clean-up";
import { heldReceiptBytes, storeReceipt, uploadLimitsOf, type UploadSettings } from "./receipts";

/**
 * The per-person upload limits of issue 28 §2 (decision 0047) on a real database (SQLite, or PostgreSQL with
 * TEST_DATABASE_URL) and a real folder: the bytes a person's drafts hold, and their uploads an hour.
 */
let bed: ReceiptTestbed;
let handle: DatabaseHandle;
let folder: string;
let storage: FilesystemStorage;
let typeId: string;

beforeAll(async () => {
  bed = await openReceiptTestbed("receipt-quotas");
  ({ handle, folder, storage, typeId } = bed);
}, 30_000);
afterAll(() => bed.close());

const person = () => bed.person();

/** A whole PDF of exactly `size` bytes (what storeReceipt accepts: `%PDF-` first, `%%EOF` at the end). */
function pdfOf(size: number, fill = "x"): File {
  const head = "%PDF-1.4\n%";
  const tail = "\n%%EOF\n";
  return new File([head + fill.repeat(size - head.length - tail.length) + tail], "ticket.pdf", {
    type: "application/pdf",
  });
}

const MB = 1_000_000;
const settings = (quotaMb: number, perHour: number): UploadSettings => ({
  RECEIPT_QUOTA_MB: quotaMb,
  RECEIPT_UPLOADS_PER_HOUR: perHour,
});
const objectsOf = () => readdirSync(folder, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;

test("the settings give the limits, the defaults without them", () => {
  expect(uploadLimitsOf(settings(60, 30))).toEqual({ quotaBytes: 60 * MB, uploadsPerHour: 30 });
  expect(uploadLimitsOf(settings(1, 2))).toEqual({ quotaBytes: MB, uploadsPerHour: 2 });
  expect(uploadLimitsOf(undefined)).toEqual({ quotaBytes: 60 * MB, uploadsPerHour: 30 });
});

test("beyond the bytes a person's drafts may hold, an upload is refused and nothing is kept; files on sent requests and allowances do not count", async () => {
  const deps = { db: handle.db, fileStorage: storage, env: settings(2, 100) };
  const alice = await person();
  const first = await storeReceipt(deps, alice.userId, pdfOf(0.9 * MB));
  const second = await storeReceipt(deps, alice.userId, pdfOf(0.9 * MB, "y"));
  expect([first.kind, second.kind]).toEqual(["stored", "stored"]);
  expect(await heldReceiptBytes(handle.db, alice.userId)).toBe(1.8 * MB);

  const rows = await handle.db.selectFrom("files").select("id").execute();
  const objects = objectsOf();
  expect(await storeReceipt(deps, alice.userId, pdfOf(0.3 * MB))).toEqual({ kind: "quotaExceeded" });
  expect(await handle.db.selectFrom("files").select("id").execute()).toHaveLength(rows.length);
  expect(objectsOf()).toBe(objects);
  // What still fits, fits (1.8 + 0.2 = the ceiling itself).
  expect((await storeReceipt(deps, alice.userId, pdfOf(0.2 * MB))).kind).toBe("stored");
  expect(await storeReceipt(deps, alice.userId, pdfOf(1000))).toEqual({ kind: "quotaExceeded" });

  // Sent: the first file on a request, the second on an allowance; room again for 1.8 MB.
  if (first.kind !== "stored" || second.kind !== "stored") return;
  await createRefund(handle.db, {
    user_id: alice.userId,
    type_id: typeId,
    amount: 1000,
    media_id: first.file.id,
  });
  await createAllowanceRow(handle.db, {
    user_id: alice.userId,
    group_id: alice.groupId,
    type: "subscription",
    second_media_id: second.file.id,
  });
  expect(await heldReceiptBytes(handle.db, alice.userId)).toBe(0.2 * MB);
  expect((await storeReceipt(deps, alice.userId, pdfOf(1.8 * MB))).kind).toBe("stored");

  // Another person's files are theirs: alice at her ceiling does not stop bob, nor the reverse.
  const bob = await person();
  expect(await heldReceiptBytes(handle.db, bob.userId)).toBe(0);
  expect((await storeReceipt(deps, bob.userId, pdfOf(1.9 * MB))).kind).toBe("stored");
  expect(await heldReceiptBytes(handle.db, alice.userId)).toBe(2 * MB);
});

test("uploads at once cannot slip over the ceiling together: each row is counted before its bytes are written", async () => {
  const deps = { db: handle.db, fileStorage: storage, env: settings(3, 100) };
  const carol = await person();
  const objects = objectsOf();
  const results = await Promise.all(
    Array.from({ length: 10 }, (_, i) => storeReceipt(deps, carol.userId, pdfOf(MB, String.fromCharCode(97 + i)))),
  );
  const stored = results.filter((r) => r.kind === "stored").length;
  // Never over; uploads racing one another may all be refused (a retry fits: below).
  expect(stored).toBeLessThanOrEqual(3);
  expect(results.filter((r) => r.kind === "quotaExceeded")).toHaveLength(10 - stored);
  expect(await heldReceiptBytes(handle.db, carol.userId)).toBe(stored * MB);
  expect(objectsOf()).toBe(objects + stored);
  for (let more = stored; more < 3; more += 1)
    expect((await storeReceipt(deps, carol.userId, pdfOf(MB, String(more)))).kind).toBe("stored");
  expect(await storeReceipt(deps, carol.userId, pdfOf(MB, "z"))).toEqual({ kind: "quotaExceeded" });
  expect(await heldReceiptBytes(handle.db, carol.userId)).toBe(3 * MB);
});

test("files nothing holds any more (an expired draft's) make room before a refusal; a live draft's files do not", async () => {
  const deps = { db: handle.db, fileStorage: storage, env: settings(1, 100) };
  const dave = await person();
  const dayAgo = new Date(Date.now() - 86_400_000);
  // Yesterday: one file on a draft still open, one on nothing (its draft dropped since).
  const kept = await storeReceipt(deps, dave.userId, pdfOf(0.4 * MB), dayAgo);
  const stray = await storeReceipt(deps, dave.userId, pdfOf(0.5 * MB, "z"), dayAgo);
  if (kept.kind !== "stored" || stray.kind !== "stored") throw new Error("not stored");
  const draft = await createAllowanceDraft(handle.db, dave.userId, "subscription");
  await setAllowanceFile(handle.db, dave.userId, draft.id, "media", kept.file.id);

  expect((await storeReceipt(deps, dave.userId, pdfOf(0.5 * MB, "w"))).kind).toBe("stored");
  const ids = (await handle.db.selectFrom("files").select("id").where("user_id", "=", dave.userId).execute()).map(
    (r) => r.id,
  );
  expect(ids).toContain(kept.file.id);
  expect(ids).not.toContain(stray.file.id);
  // Now the draft's 0.4 MB and the new 0.5 MB: another 0.5 MB is refused, the draft's file kept.
  expect(await storeReceipt(deps, dave.userId, pdfOf(0.5 * MB, "v"))).toEqual({ kind: "quotaExceeded" });
  expect(ids).toHaveLength(2);
});

test("beyond the uploads an hour a person may make, an upload is refused and nothing is kept, until the hour has passed", async () => {
  const deps = { db: handle.db, fileStorage: storage, env: settings(60, 3) };
  const erin = await person();
  const frank = await person();
  const start = new Date("2026-11-27T10:00:00Z");
  const at = (minutes: number) => new Date(start.getTime() + minutes * 60_000);
  for (const minute of [0, 1, 2])
    expect((await storeReceipt(deps, erin.userId, pdfOf(100), at(minute))).kind).toBe("stored");
  const rows = (await handle.db.selectFrom("files").select("id").execute()).length;
  expect(await storeReceipt(deps, erin.userId, pdfOf(100), at(3))).toEqual({ kind: "tooManyUploads" });
  expect(await storeReceipt(deps, erin.userId, pdfOf(100), at(59))).toEqual({ kind: "tooManyUploads" });
  expect((await handle.db.selectFrom("files").select("id").execute()).length).toBe(rows);
  // Someone else's count is their own.
  expect((await storeReceipt(deps, frank.userId, pdfOf(100), at(3))).kind).toBe("stored");
  // An hour after the first: a new window.
  expect((await storeReceipt(deps, erin.userId, pdfOf(100), at(60))).kind).toBe("stored");
  // Refused files (empty, wrong type) are not counted: nothing was stored for them.
  for (let i = 0; i < 5; i += 1)
    expect((await storeReceipt(deps, frank.userId, new File(["not a receipt"], "x.txt"), at(4))).kind).toBe(
      "invalidType",
    );
  expect((await storeReceipt(deps, frank.userId, pdfOf(100), at(5))).kind).toBe("stored");
  const count = await handle.db
    .selectFrom("rate_limit_hits")
    .select("hits")
    .where("key", "=", UPLOAD_COUNT_PREFIX + frank.userId)
    .executeTakeFirstOrThrow();
  expect(Number(count.hits)).toBe(2);
});

test("a refund draft's upload counts like any other (the draft holds it)", async () => {
  const deps = { db: handle.db, fileStorage: storage, env: settings(1, 100) };
  const gina = await person();
  const draft = await createDraft(handle.db, gina.userId);
  const stored = await storeReceipt(deps, gina.userId, pdfOf(0.6 * MB));
  if (stored.kind !== "stored") throw new Error(stored.kind);
  expect((await attachReceipt(handle.db, gina.userId, draft.id, stored.file.id)).kind).toBe("attached");
  expect(await storeReceipt(deps, gina.userId, pdfOf(0.6 * MB, "y"))).toEqual({ kind: "quotaExceeded" });
});
