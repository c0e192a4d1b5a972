import { afterAll, beforeAll, expect, test } from "vitest";
import type { DatabaseHandle } from "../db";
import type { DEMO_EMAILS } from "../db/seed";
import { openDemoDatabase } from "../../../tests/support/test-database";
import { hasCardInTheMaking } from "./card-creation";
import { countUnread } from "./notifications";
import { pendingFields } from "./profile";
import { shellState } from "./shell";

let handle: DatabaseHandle;
let ids: Record<keyof typeof DEMO_EMAILS, string>;

beforeAll(async () => {
  ({ handle, ids } = await openDemoDatabase());
}, 30_000);
afterAll(() => handle.close());

const neverFails = () => Promise.resolve(null);

/** The one query answers what the three services answer, for every demo account. */
async function expectSameAsServices(userId: string) {
  expect(await shellState(handle.db, userId, neverFails)).toEqual({
    cardInTheMaking: await hasCardInTheMaking(handle.db, userId),
    pendingFields: await pendingFields(handle.db, userId),
    unread: await countUnread(handle.db, userId),
  });
}

test("the shell's state in one query: the card in the making, the changes waiting, the bell's count", async () => {
  for (const userId of Object.values(ids)) await expectSameAsServices(userId);
  expect((await shellState(handle.db, ids.marie, neverFails)).unread).toBe(16);
});

test("a change waiting for its code and a card asked for are seen, e-mail first", async () => {
  const now = new Date().toISOString();
  const userId = ids.lucas;
  const group = await handle.db
    .selectFrom("memberships")
    .select("group_id")
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  await handle.db
    .insertInto("pending_changes")
    .values([
      { id: "pc_phone", user_id: userId, field_name: "phone", new_value: "+33600000000", created_at: now },
      { id: "pc_email", user_id: userId, field_name: "email", new_value: "new@example.com", created_at: now },
    ])
    .execute();
  await handle.db
    .insertInto("card_requests")
    .values({
      id: "creq_shell",
      user_id: userId,
      group_id: group.group_id,
      type: "virtual",
      status: "submitted",
      attempt: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const state = await shellState(handle.db, userId, neverFails);
  expect(state.cardInTheMaking).toBe(true);
  expect(state.pendingFields).toEqual(["email", "phone"]);
  await expectSameAsServices(userId);
});
