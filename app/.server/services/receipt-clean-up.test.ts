import { existsSync, mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { DatabaseHandle } from "../db";
import { createAllowanceRow, createRefund } from "../db/factories";
import type { FilesystemStorage } from "../providers/file-storage/filesystem";
import { openReceiptTestbed, type ReceiptTestbed } from "../../../tests/support/receipt-testbed";
import { createAllowanceDraft, setAllowanceFile } from "./allowances/drafts";
import { DRAFT_TTL_MS } from "./drafts";
import { attachReceipt, createDraft } from "./refunds/drafts";
import {
  ORPHAN_GRACE_MS,
  purgeReceipts,
  purgeStrayFiles,
  sweepOrphanObjects,
  UPLOAD_COUNT_PREFIX,
} from "./receipt-clean-up";
import { storeReceipt } from "./receipts";

/**
 * The daily purge of issue 28 §2 (decision 0047) on a real database (SQLite, or PostgreSQL with TEST_DATABASE_URL)
 * and a real folder: expired drafts and their files, files nothing holds, and bytes without a row.
 */
let bed: ReceiptTestbed;
let handle: DatabaseHandle;
let folder: string;
let storage: FilesystemStorage;
let typeId: string;

beforeAll(async () => {
  bed = await openReceiptTestbed("receipt-clean-up");
  ({ handle, folder, storage, typeId } = bed);
}, 30_000);
afterAll(() => bed.close());

const NOW = new Date("2026-11-27T03:00:00Z");
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const deps = () => ({ db: handle.db, fileStorage: storage });

const person = () => bed.person();

let files = 0;
/** A receipt stored `at` (its row's time; its bytes are written now, as a real upload's). */
async function receipt(userId: string, at: Date) {
  files += 1;
  const pdf = `%PDF-1.4\n% receipt ${files}\n%%EOF\n`;
  const result = await storeReceipt(deps(), userId, new File([pdf], "ticket.pdf"), at);
  if (result.kind !== "stored") throw new Error(result.kind);
  const row = await handle.db
    .selectFrom("files")
    .select(["id", "storage_key"])
    .where("id", "=", result.file.id)
    .executeTakeFirstOrThrow();
  return { id: row.id, key: row.storage_key };
}

const rowExists = async (id: string) =>
  (await handle.db.selectFrom("files").select("id").where("id", "=", id).executeTakeFirst()) !== undefined;
const bytesExist = (key: string) => existsSync(join(folder, key));
/** Bytes written straight into the folder, dated `at`: what a worker killed at the wrong moment leaves. */
function leftBytes(key: string, at: Date, content = "%PDF-1.4\n%%EOF\n") {
  mkdirSync(join(folder, key, ".."), { recursive: true });
  writeFileSync(join(folder, key), content);
  utimesSync(join(folder, key), at, at);
}

test("the figures: drafts live 7 days untouched, a file nothing holds or bytes without a row an hour", () => {
  expect(DRAFT_TTL_MS).toBe(7 * DAY);
  expect(ORPHAN_GRACE_MS).toBe(HOUR);
});

test("the daily purge drops expired drafts and deletes their files, never a file a request, an allowance or a live draft holds", async () => {
  const alice = await person();
  const bob = await person();
  // Bob's draft, touched 6 days ago, holding a file stored 6 days ago: alive.
  const live = await createDraft(handle.db, bob.userId, {}, ago(6 * DAY));
  const bobs = await receipt(bob.userId, ago(6 * DAY));
  await attachReceipt(handle.db, bob.userId, live.id, bobs.id, ago(6 * DAY));
  // Alice's refund draft, untouched for 8 days, with its two files; her allowance draft likewise.
  const expired = await createDraft(handle.db, alice.userId, {}, ago(8 * DAY));
  const lostA = await receipt(alice.userId, ago(8 * DAY));
  const lostB = await receipt(alice.userId, ago(8 * DAY));
  await attachReceipt(handle.db, alice.userId, expired.id, lostA.id, ago(8 * DAY));
  await attachReceipt(handle.db, alice.userId, expired.id, lostB.id, ago(8 * DAY));
  const expiredAllowance = await createAllowanceDraft(handle.db, alice.userId, "subscription", {}, ago(9 * DAY));
  const lostC = await receipt(alice.userId, ago(9 * DAY));
  await setAllowanceFile(handle.db, alice.userId, expiredAllowance.id, "media", lostC.id, ago(9 * DAY));
  // An expired draft whose file went on a sent request (the draft that sent it), and a file on an allowance.
  const sentDraft = await createDraft(handle.db, alice.userId, {}, ago(20 * DAY));
  const onRequest = await receipt(alice.userId, ago(20 * DAY));
  await attachReceipt(handle.db, alice.userId, sentDraft.id, onRequest.id, ago(20 * DAY));
  await createRefund(handle.db, {
    user_id: alice.userId,
    type_id: typeId,
    amount: 1200,
    second_media_id: onRequest.id,
    status: "refused",
  });
  const onAllowance = await receipt(alice.userId, ago(30 * DAY));
  await createAllowanceRow(handle.db, {
    user_id: alice.userId,
    group_id: alice.groupId,
    type: "subscription",
    media_id: onAllowance.id,
  });

  const report = await purgeReceipts(deps(), NOW);
  expect(report).toMatchObject({ drafts: 3, files: 3, orphans: 0 });
  for (const gone of [lostA, lostB, lostC]) {
    expect(await rowExists(gone.id), gone.id).toBe(false);
    expect(bytesExist(gone.key), gone.key).toBe(false);
  }
  for (const kept of [onRequest, onAllowance, bobs]) {
    expect(await rowExists(kept.id), kept.id).toBe(true);
    expect(bytesExist(kept.key), kept.key).toBe(true);
  }
  const drafts = await handle.db.selectFrom("expense_request_drafts").select("id").execute();
  expect(drafts.map((d) => d.id)).toContain(live.id);
  expect(drafts.map((d) => d.id)).not.toContain(expired.id);
  expect(
    await handle.db.selectFrom("allowance_drafts").select("id").where("id", "=", expiredAllowance.id).execute(),
  ).toEqual([]);

  // Run again: nothing more to do.
  expect(await purgeReceipts(deps(), NOW)).toEqual({ drafts: 0, files: 0, bytes: 0, orphans: 0 });
});

test("an interrupted upload: a row nothing holds goes after the grace, with its bytes if they were written; not before", async () => {
  const carol = await person();
  // Stopped after its row (bytes written or not), before its draft took it: 2 hours ago, and 10 minutes ago.
  const old = await receipt(carol.userId, ago(2 * HOUR));
  const oldNoBytes = await receipt(carol.userId, ago(2 * HOUR));
  rmSync(join(folder, oldNoBytes.key));
  const recent = await receipt(carol.userId, ago(10 * 60_000));

  // Scoped to someone else: nothing of carol's moves.
  const dave = await person();
  expect(await purgeStrayFiles(deps(), NOW, { userId: dave.userId })).toEqual({ files: 0, bytes: 0 });
  expect(await rowExists(old.id)).toBe(true);

  const purged = await purgeStrayFiles(deps(), NOW, { userId: carol.userId });
  expect(purged.files).toBe(2);
  expect(purged.bytes).toBeGreaterThan(0);
  expect(await rowExists(old.id)).toBe(false);
  expect(bytesExist(old.key)).toBe(false);
  expect(await rowExists(oldNoBytes.id)).toBe(false);
  expect(await rowExists(recent.id)).toBe(true);
  expect(bytesExist(recent.key)).toBe(true);
});

test("bytes without a row (an interrupted write, 0 bytes too) are swept after the grace; named, recent or foreign ones stay", async () => {
  const erin = await person();
  const named = await receipt(erin.userId, ago(DAY));
  utimesSync(join(folder, named.key), ago(DAY), ago(DAY));
  const draft = await createDraft(handle.db, erin.userId, {}, NOW);
  await attachReceipt(handle.db, erin.userId, draft.id, named.id, NOW);
  leftBytes("receipts/orphanOld0000000000000000", ago(2 * HOUR));
  leftBytes("receipts/orphanEmpty000000000000000.0123456789ab.part", ago(3 * HOUR), "");
  leftBytes("receipts/orphanRecent00000000000000", ago(30 * 60_000));
  // Not where receipts go: not the sweep's.
  leftBytes("elsewhere/old00000000000000000000", ago(DAY));

  expect(await sweepOrphanObjects(deps(), NOW)).toEqual({ objects: 2 });
  expect(bytesExist("receipts/orphanOld0000000000000000")).toBe(false);
  expect(bytesExist("receipts/orphanEmpty000000000000000.0123456789ab.part")).toBe(false);
  expect(bytesExist("receipts/orphanRecent00000000000000")).toBe(true);
  expect(bytesExist("elsewhere/old00000000000000000000")).toBe(true);
  expect(bytesExist(named.key)).toBe(true);
  expect(await rowExists(named.id)).toBe(true);

  // An hour later the recent one is swept too.
  expect(await sweepOrphanObjects(deps(), new Date(NOW.getTime() + HOUR))).toEqual({ objects: 1 });
  expect(bytesExist("receipts/orphanRecent00000000000000")).toBe(false);
});

test("the purge forgets the upload counts whose hour has passed, not the running ones", async () => {
  await handle.db
    .insertInto("rate_limit_hits")
    .values([
      { key: `${UPLOAD_COUNT_PREFIX}past`, hits: 30, reset_at: ago(HOUR).toISOString() },
      { key: `${UPLOAD_COUNT_PREFIX}running`, hits: 3, reset_at: new Date(NOW.getTime() + HOUR).toISOString() },
      { key: "general:session:other", hits: 3, reset_at: ago(HOUR).toISOString() },
    ])
    .execute();
  await purgeReceipts(deps(), NOW);
  const keys = (await handle.db.selectFrom("rate_limit_hits").select("key").execute()).map((r) => r.key);
  expect(keys).not.toContain(`${UPLOAD_COUNT_PREFIX}past`);
  expect(keys).toContain(`${UPLOAD_COUNT_PREFIX}running`);
  expect(keys).toContain("general:session:other");
});
