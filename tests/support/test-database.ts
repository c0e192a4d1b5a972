import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { SandboxMessenger } from "../../app/.server/providers/messaging/sandbox";
import { migrateToLatest, openDatabase, type DatabaseHandle } from "../../app/.server/db/index";
import { DEMO_EMAILS, seedDemo } from "../../app/.server/db/seed";

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
  const schema = await createTestSchema(pgUrl);
  const handle = openDatabase(schema.url);
  await migrateToLatest(handle.db);
  return {
    ...handle,
    async close() {
      await handle.close();
      await schema.drop();
    },
  };
}

/**
 * A new, empty schema on the PostgreSQL server of `pgUrl`, and the URL that works in it (its
 * `search_path`): a test's own tables beside the other test files running on the same database.
 */
export async function createTestSchema(pgUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const schema = `t_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = new URL(pgUrl);
  url.searchParams.set("options", `-c search_path=${schema}`);
  return {
    url: url.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: pgUrl });
      await cleanup.connect();
      await cleanup.query(`drop schema ${schema} cascade`);
      await cleanup.end();
    },
  };
}

/**
 * One fresh, migrated database opened twice, as two server processes (or machines) open it: each handle has its
 * own connections. A SQLite file in a temporary folder, or a private schema on TEST_DATABASE_URL's server.
 */
export async function openSharedTestDatabase(): Promise<{
  handles: [DatabaseHandle, DatabaseHandle];
  close(): Promise<void>;
}> {
  const pgUrl = process.env.TEST_DATABASE_URL;
  let url: string;
  let cleanup: () => Promise<void>;
  if (!pgUrl) {
    const folder = mkdtempSync(join(tmpdir(), "shared-db-"));
    url = `file:${join(folder, "portal.sqlite")}`;
    cleanup = async () => rmSync(folder, { recursive: true, force: true });
  } else {
    const schema = `t_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const scoped = new URL(pgUrl);
    scoped.searchParams.set("options", `-c search_path=${schema}`);
    url = scoped.toString();
    cleanup = async () => {
      const client = new pg.Client({ connectionString: pgUrl });
      await client.connect();
      await client.query(`drop schema ${schema} cascade`);
      await client.end();
    };
  }
  const first = openDatabase(url);
  await migrateToLatest(first.db);
  const second = openDatabase(url);
  return {
    handles: [first, second],
    async close() {
      await first.close();
      await second.close();
      await cleanup();
    },
  };
}

/** A fresh database holding the demo world, its sandbox messenger, and the demo users' ids by first name. */
export async function openDemoDatabase(): Promise<{
  handle: DatabaseHandle;
  messenger: SandboxMessenger;
  ids: Record<keyof typeof DEMO_EMAILS, string>;
}> {
  const handle = await openTestDatabase();
  const messenger = new SandboxMessenger(handle.db);
  await seedDemo(handle.db, messenger, { now: new Date(), baseUrl: "http://localhost" });
  const rows = await handle.db.selectFrom("users").select(["id", "email"]).execute();
  const ids = Object.fromEntries(
    Object.entries(DEMO_EMAILS).map(([name, email]) => [name, rows.find((r) => r.email === email)!.id]),
  ) as Record<keyof typeof DEMO_EMAILS, string>;
  return { handle, messenger, ids };
}
