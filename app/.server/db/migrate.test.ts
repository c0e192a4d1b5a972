import { afterAll, beforeAll, expect, test } from "vitest";
import { pingDatabase, type DatabaseHandle } from "./index";
import { openTestDatabase } from "./test-database";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openTestDatabase();
});
afterAll(() => handle.close());

test("migrations create every table and the database answers", async () => {
  await pingDatabase(handle.db);
  const tables = await handle.db.introspection.getTables();
  const names = tables.map((t) => t.name);
  for (const name of ["users", "cards", "wallets", "sessions", "one_time_codes", "outbox", "card_authorizations", "guess_limits", "rate_limit_hits"]) {
    expect(names).toContain(name);
  }
});
