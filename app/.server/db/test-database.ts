import { randomBytes } from "node:crypto";
import pg from "pg";
import { migrateToLatest, openDatabase, type DatabaseHandle } from "./index";

/**
 * A fresh, migrated database for one test file: in-memory SQLite by default, or a
 * private schema on the PostgreSQL server named by TEST_DATABASE_URL (set by `npm test`).
 */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (!pgUrl) {
    const handle = openDatabase(":memory:");
    await migrateToLatest(handle.db);
    return handle;
  }
  const schema = `t_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = new URL(pgUrl);
  url.searchParams.set("options", `-c search_path=${schema}`);
  const handle = openDatabase(url.toString());
  await migrateToLatest(handle.db);
  return {
    ...handle,
    async close() {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: pgUrl });
      await cleanup.connect();
      await cleanup.query(`drop schema ${schema} cascade`);
      await cleanup.end();
    },
  };
}
