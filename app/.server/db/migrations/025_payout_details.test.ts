import type { Kysely } from "kysely";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { DatabaseHandle } from "../index";
import type { DEMO_EMAILS } from "../seed";
import { createRefund } from "../factories";
import { openDemoDatabase } from "../../../../tests/support/test-database";
import { down, up } from "./025_payout_details";

/**
 * Migration 025's backfill (decision 0054), run again on the demo: the columns dropped and made anew, each person's
 * saved IBAN is the latest valid full IBAN of their requests; a later request holding an invalid one gives nothing.
 */
let handle: DatabaseHandle;
let ids: Record<keyof typeof DEMO_EMAILS, string>;

beforeAll(async () => {
  ({ handle, ids } = await openDemoDatabase());
}, 30_000);
afterAll(() => handle.close());

const savedOf = async (userId: string) =>
  (await handle.db.selectFrom("users").select("payout_iban").where("id", "=", userId).executeTakeFirstOrThrow())
    .payout_iban;

test("each person gets the IBAN of their most recent request with a valid one; nobody else's", async () => {
  const { id: typeId } = await handle.db.selectFrom("expense_types").select("id").executeTakeFirstOrThrow();
  const request = (iban: string, createdAt: string) =>
    createRefund(handle.db, { user_id: ids.claire, type_id: typeId, amount: 1000, iban, created_at: createdAt });
  await request("FR7630006000011234567890189", "2026-01-05T09:00:00.000Z");
  await request("DE89370400440532013000", "2026-06-05T09:00:00.000Z");
  // Newer, but its checksum is wrong: it is not an account to pay.
  await request("DE89370400440532013001", "2026-07-05T09:00:00.000Z");

  const db = handle.db as unknown as Kysely<unknown>;
  await down(db);
  await up(db);

  expect(await savedOf(ids.marie)).toBe("FR7630006000011234567890189");
  expect(await savedOf(ids.claire)).toBe("DE89370400440532013000");
  expect(await savedOf(ids.lucas)).toBeNull();
});
