import { afterAll, beforeAll, expect, test } from "vitest";
import type { DatabaseHandle } from "../../db";
import { insertUsers } from "../../db/factories";
import { openTestDatabase } from "../../../../tests/support/test-database";
import { DRAFT_TTL_MS } from "../drafts";
import {
  claimAllowanceDraft,
  createAllowanceDraft,
  discardAllowanceDraft,
  dropOldAllowanceDrafts,
  getAllowanceDraft,
  parseAnswers,
  saveAllowanceAnswers,
  setAllowanceFile,
} from "./drafts";

/** The allowance wizards' drafts on the one draft store, against a real database (SQLite, or PostgreSQL). */
let handle: DatabaseHandle;
let alice: string;
let bob: string;

beforeAll(async () => {
  handle = await openTestDatabase();
  [alice, bob] = (await insertUsers(handle.db, ["alice@example.com", "bob@example.com"])) as [string, string];
}, 30_000);
afterAll(() => handle.close());

const found = async (userId: string, draftId: string) => {
  const lookup = await getAllowanceDraft(handle.db, userId, draftId);
  return lookup.kind === "found" ? lookup.draft : null;
};

test("a new draft starts empty at the first step and is its owner's only", async () => {
  const draft = await createAllowanceDraft(handle.db, alice, "carpooling");
  expect(draft).toMatchObject({ type: "carpooling", answers: {}, mediaId: null, stepReached: 0, submitted: false });
  expect(draft.id).toMatch(/^ald_/);
  expect(await found(alice, draft.id)).toEqual(draft);
  expect(await getAllowanceDraft(handle.db, bob, draft.id)).toEqual({ kind: "notFound" });
  expect(await getAllowanceDraft(handle.db, alice, "x".repeat(101))).toEqual({ kind: "notFound" });
  expect(await saveAllowanceAnswers(handle.db, bob, draft.id, { amount: 100 })).toEqual({ kind: "notFound" });
  expect(await setAllowanceFile(handle.db, bob, draft.id, "media", null)).toEqual({ kind: "notFound" });
});

test("answers merge (a key left undefined keeps its value) and the furthest step never goes back", async () => {
  const draft = await createAllowanceDraft(handle.db, alice, "bicycle");
  await saveAllowanceAnswers(handle.db, alice, draft.id, { groupId: "grp_1", daysAtOffice: 12 }, 2);
  await saveAllowanceAnswers(handle.db, alice, draft.id, { groupId: undefined, declaredOneWayMeters: null }, 1);
  expect(await found(alice, draft.id)).toMatchObject({
    answers: { groupId: "grp_1", daysAtOffice: 12, declaredOneWayMeters: null },
    stepReached: 2,
  });
});

test("a draft is claimed once; then it takes no answers and is not discarded", async () => {
  const draft = await createAllowanceDraft(handle.db, alice, "subscription");
  expect(await claimAllowanceDraft(handle.db, bob, draft.id)).toBe(false);
  expect(await claimAllowanceDraft(handle.db, alice, draft.id)).toBe(true);
  expect(await claimAllowanceDraft(handle.db, alice, draft.id)).toBe(false);
  expect(await saveAllowanceAnswers(handle.db, alice, draft.id, { amount: 100 })).toEqual({ kind: "submitted" });
  expect(await setAllowanceFile(handle.db, alice, draft.id, "media", null)).toEqual({ kind: "submitted" });
  // (linkAllowance, inside the transaction that makes the allowance, is requests.test.ts's.)
  await discardAllowanceDraft(handle.db, alice, draft.id);
  expect(await found(alice, draft.id)).toMatchObject({ submitted: true });
});

test("an open draft is discarded by its owner only; untouched ones expire, submitted ones stay", async () => {
  const open = await createAllowanceDraft(handle.db, alice, "carpooling");
  await discardAllowanceDraft(handle.db, bob, open.id);
  expect(await found(alice, open.id)).not.toBeNull();
  await discardAllowanceDraft(handle.db, alice, open.id);
  expect(await found(alice, open.id)).toBeNull();

  const old = new Date(Date.now() - DRAFT_TTL_MS - 60_000);
  const stale = await createAllowanceDraft(handle.db, alice, "carpooling", {}, old);
  const sent = await createAllowanceDraft(handle.db, alice, "carpooling", {}, old);
  await claimAllowanceDraft(handle.db, alice, sent.id, old);
  const fresh = await createAllowanceDraft(handle.db, alice, "carpooling", {}, old);
  await saveAllowanceAnswers(handle.db, alice, fresh.id, { amount: 100 });
  expect(await dropOldAllowanceDrafts(handle.db)).toBeGreaterThanOrEqual(1);
  expect(await found(alice, stale.id)).toBeNull();
  expect(await found(alice, sent.id)).not.toBeNull();
  expect(await found(alice, fresh.id)).not.toBeNull();
});

test("answers read back keep only well-typed values", () => {
  expect(parseAnswers("not json")).toEqual({});
  expect(parseAnswers("[1]")).toEqual({});
  expect(
    parseAnswers(
      JSON.stringify({
        groupId: "grp_1",
        home: { line1: "1 rue", zipcode: "75001", city: "Paris", country: "FR" },
        work: { line1: 3 },
        daysAtOffice: 1.5,
        travelRole: "pilot",
        amount: 4200,
        declaredOneWayMeters: null,
      }),
    ),
  ).toEqual({
    groupId: "grp_1",
    home: { line1: "1 rue", zipcode: "75001", city: "Paris", country: "FR" },
    amount: 4200,
    declaredOneWayMeters: null,
  });
});

test("the IBAN's source is kept only when it is one of the three (decision 0054)", () => {
  for (const source of ["saved", "other", "remember"])
    expect(parseAnswers(JSON.stringify({ ibanSource: source }))).toEqual({ ibanSource: source });
  expect(parseAnswers(JSON.stringify({ ibanSource: "profile" }))).toEqual({});
  expect(parseAnswers(JSON.stringify({ ibanSource: 1 }))).toEqual({});
});
