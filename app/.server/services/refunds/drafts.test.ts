import { afterAll, beforeAll, expect, test } from "vitest";
import type { DatabaseHandle } from "../../db";
import { insertUsers } from "../../db/factories";
import { openTestDatabase } from "../../../../tests/support/test-database";
import { newId } from "../../ids";
import {
  attachReceipt,
  createDraft,
  discardDraft,
  dropOldDrafts,
  findCorrectionDraft,
  getDraft,
  READING_GIVE_UP_MS,
  removeReceipt,
  saveDraftAnswers,
  setDraftReading,
} from "./drafts";
import { DRAFT_TTL_MS } from "../drafts";

/** The refund wizard's drafts against a real database (SQLite, or PostgreSQL with TEST_DATABASE_URL). */
let handle: DatabaseHandle;
let alice: string;
let bob: string;
let typeId: string;

async function insertFile(userId: string): Promise<string> {
  const id = newId("fil");
  await handle.db
    .insertInto("files")
    .values({
      id,
      user_id: userId,
      storage_key: `receipts/${id}`,
      file_name: "ticket.jpg",
      content_type: "image/jpeg",
      size: 1234,
      sha256: id,
      created_at: new Date().toISOString(),
    })
    .execute();
  return id;
}

beforeAll(async () => {
  handle = await openTestDatabase();
  [alice, bob] = (await insertUsers(handle.db, ["alice@example.com", "bob@example.com"])) as [string, string];
  typeId = newId("ext");
  await handle.db
    .insertInto("expense_types")
    .values({
      id: typeId,
      technical_name: "culture",
      name_fr: "Culture",
      name_en: "Culture",
      name_nl: "Cultuur",
      front_disabled: 0,
      position: 1,
    })
    .execute();
}, 30_000);
afterAll(() => handle.close());

test("a new draft starts empty at the type step and is its owner's only", async () => {
  const draft = await createDraft(handle.db, alice);
  expect(draft).toMatchObject({ requestId: null, typeId: null, mediaId: null, stepReached: 0, paymentMethods: [] });
  expect((await getDraft(handle.db, alice, draft.id)).kind).toBe("found");
  expect(await getDraft(handle.db, bob, draft.id)).toEqual({ kind: "notFound" });
  expect(await getDraft(handle.db, alice, "erd_unknown")).toEqual({ kind: "notFound" });
  expect(await saveDraftAnswers(handle.db, bob, draft.id, { amount: 100 })).toEqual({ kind: "notFound" });
});

test("answers are saved and the furthest step reached never goes back", async () => {
  const draft = await createDraft(handle.db, alice);
  expect(await saveDraftAnswers(handle.db, alice, draft.id, { typeId, amount: 910 }, 3)).toEqual({ kind: "saved" });
  await saveDraftAnswers(handle.db, alice, draft.id, { ticketDate: "2026-11-14" }, 1);
  await saveDraftAnswers(handle.db, alice, draft.id, {
    paymentMethods: [
      { walletId: "w1", amount: 500 },
      { walletId: "w2", amount: 410 },
    ],
  });
  const found = await getDraft(handle.db, alice, draft.id);
  expect(found.kind === "found" && found.draft).toMatchObject({
    typeId,
    amount: 910,
    ticketDate: "2026-11-14",
    stepReached: 3,
    paymentMethods: [
      { walletId: "w1", amount: 500 },
      { walletId: "w2", amount: 410 },
    ],
  });
});

test("two receipts at most; removing the first moves the second up and forgets the reading", async () => {
  const draft = await createDraft(handle.db, alice);
  const [one, two, three] = [await insertFile(alice), await insertFile(alice), await insertFile(alice)];
  expect(await attachReceipt(handle.db, alice, draft.id, one)).toEqual({ kind: "attached", slot: "first" });
  await setDraftReading(handle.db, alice, draft.id, {
    state: "pending",
    fileId: one,
    startedAt: new Date().toISOString(),
  });
  expect(await attachReceipt(handle.db, alice, draft.id, two)).toEqual({ kind: "attached", slot: "second" });
  expect(await attachReceipt(handle.db, alice, draft.id, three)).toEqual({ kind: "full" });
  expect(await removeReceipt(handle.db, bob, draft.id, one)).toEqual({ kind: "notFound" });
  expect(await removeReceipt(handle.db, alice, draft.id, three)).toEqual({ kind: "notFound" });
  expect(await removeReceipt(handle.db, alice, draft.id, one)).toEqual({ kind: "removed" });
  const found = await getDraft(handle.db, alice, draft.id);
  expect(found.kind === "found" && found.draft).toMatchObject({ mediaId: two, secondMediaId: null, reading: null });
});

test("a reading is stored for the first receipt only, and a stale pending reading counts as unreadable", async () => {
  const draft = await createDraft(handle.db, alice);
  const [one, other] = [await insertFile(alice), await insertFile(alice)];
  await attachReceipt(handle.db, alice, draft.id, one);
  const suggestion = { ticketDate: "2026-11-14", amount: 910, partnerId: null, companyName: "Pain & Co" };
  await setDraftReading(handle.db, alice, draft.id, { state: "done", fileId: other, suggestion });
  let found = await getDraft(handle.db, alice, draft.id);
  expect(found.kind === "found" && found.draft.reading).toBeNull();
  await setDraftReading(handle.db, alice, draft.id, { state: "done", fileId: one, suggestion });
  found = await getDraft(handle.db, alice, draft.id);
  expect(found.kind === "found" && found.draft.reading).toEqual({ state: "done", fileId: one, suggestion });

  const started = new Date("2026-11-14T10:00:00Z");
  await setDraftReading(handle.db, alice, draft.id, {
    state: "pending",
    fileId: one,
    startedAt: started.toISOString(),
  });
  found = await getDraft(handle.db, alice, draft.id, new Date(started.getTime() + 1000));
  expect(found.kind === "found" && found.draft.reading?.state).toBe("pending");
  found = await getDraft(handle.db, alice, draft.id, new Date(started.getTime() + READING_GIVE_UP_MS + 1));
  expect(found.kind === "found" && found.draft.reading).toEqual({ state: "unreadable", fileId: one });
});

test("a correction starts from the request's answers and files, and is found again until sent", async () => {
  const media = await insertFile(alice);
  const requestId = newId("exr");
  await handle.db
    .insertInto("expense_requests")
    .values({
      id: requestId,
      user_id: alice,
      type_id: typeId,
      partner_id: null,
      amount: 4590,
      amount_to_refund: 4590,
      fees: 0,
      iban_last_four: "0189",
      ticket_date: "2026-11-10",
      status: "to_correct",
      is_rectifiable: 1,
      is_cancellable: 0,
      created_at: new Date().toISOString(),
      media_id: media,
      second_media_id: null,
      iban: null,
      refusal_reason: null,
      correction_reason: "Illisible",
      payout_date: null,
      sworn_name: null,
      updated_at: null,
    })
    .execute();
  expect(await findCorrectionDraft(handle.db, alice, requestId)).toBeNull();
  const draft = await createDraft(handle.db, alice, {
    from: {
      id: requestId,
      typeId,
      partnerId: null,
      ticketDate: "2026-11-10",
      amount: 4590,
      mediaId: media,
      secondMediaId: null,
      paymentMethods: [{ walletId: "w1", amount: 4590 }],
    },
    stepReached: 6,
  });
  expect(draft).toMatchObject({ requestId, typeId, amount: 4590, mediaId: media, iban: null, stepReached: 6 });
  expect((await findCorrectionDraft(handle.db, alice, requestId))?.id).toBe(draft.id);
  expect(await findCorrectionDraft(handle.db, bob, requestId)).toBeNull();
  await handle.db
    .updateTable("expense_request_drafts")
    .set({ submitted_at: new Date().toISOString() })
    .where("id", "=", draft.id)
    .execute();
  expect(await findCorrectionDraft(handle.db, alice, requestId)).toBeNull();
  expect(await saveDraftAnswers(handle.db, alice, draft.id, { amount: 1 })).toEqual({ kind: "submitted" });
});

test("discarding forgets only the owner's draft; old drafts are dropped", async () => {
  const draft = await createDraft(handle.db, alice);
  await discardDraft(handle.db, bob, draft.id);
  expect((await getDraft(handle.db, alice, draft.id)).kind).toBe("found");
  await discardDraft(handle.db, alice, draft.id);
  expect((await getDraft(handle.db, alice, draft.id)).kind).toBe("notFound");

  const old = await createDraft(handle.db, alice, {}, new Date(Date.now() - DRAFT_TTL_MS - 60_000));
  const fresh = await createDraft(handle.db, alice, {}, new Date(Date.now() - DRAFT_TTL_MS + 60_000));
  expect(await dropOldDrafts(handle.db)).toBe(1);
  expect((await getDraft(handle.db, alice, old.id)).kind).toBe("notFound");
  expect((await getDraft(handle.db, alice, fresh.id)).kind).toBe("found");
});
