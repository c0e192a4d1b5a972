import { afterAll, beforeAll, expect, test } from "vitest";
import { pingDatabase, type DatabaseHandle } from "./index";
import { SCHEMA_COLUMNS } from "./schema";
import { openTestDatabase } from "../../../tests/support/test-database";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openTestDatabase();
});
afterAll(() => handle.close());

const sorted = (names: readonly string[]) => [...names].sort();

test("the database answers after the migrations", async () => {
  await pingDatabase(handle.db);
});

/** On SQLite, and on PostgreSQL when TEST_DATABASE_URL is set (npm test runs both). */
test("the migrations create exactly the tables and columns of schema.ts", async () => {
  const tables = await handle.db.introspection.getTables();
  const created = Object.fromEntries(tables.map((t) => [t.name, sorted(t.columns.map((c) => c.name))]));
  const expected = Object.fromEntries(Object.entries(SCHEMA_COLUMNS).map(([name, columns]) => [name, sorted(columns)]));
  expect(created).toEqual(expected);
});
