import "dotenv/config";
import { parseEnv, type Env } from "../app/.server/env";
import { migrateToLatest, openDatabase, type DatabaseHandle } from "../app/.server/db";

/**
 * The database a sandbox command works on: DATABASE_URL like the server (default data/portal.sqlite),
 * migrated first as the server does on start (a command may run first, or after an upgrade).
 */
export async function openCommandDatabase(): Promise<{ env: Env; handle: DatabaseHandle }> {
  const env = parseEnv(process.env);
  const handle = openDatabase(env.DATABASE_URL);
  await migrateToLatest(handle.db);
  return { env, handle };
}
