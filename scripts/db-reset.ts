/**
 * `npm run db:reset` (or `npx tsx scripts/db-reset.ts`): throws the database away, recreates the
 * schema and loads the demo world of shared/DEMO.md. Messages go to the sandbox outbox.
 */
import "dotenv/config";
import { rmSync } from "node:fs";
import { sql } from "kysely";
import { migrateToLatest, openDatabase } from "../app/.server/db";
import { DEMO_PASSWORD, registerDemoCards, registerDemoPayments, seedDemo } from "../app/.server/db/seed";
import { SandboxIssuer } from "../app/.server/providers/issuer/sandbox";
import { parseEnv } from "../app/.server/env";
import { SandboxMessenger } from "../app/.server/providers/messaging/sandbox";
import { SandboxPaymentProcessor } from "../app/.server/providers/payments/sandbox";

const isPostgres = (url: string) => /^postgres(ql)?:\/\//.test(url);

/** SQLite: delete the file and its write-ahead log; openDatabase then creates a new one. */
function deleteSqliteFiles(url: string): string {
  const file = url.replace(/^file:/, "");
  if (file !== ":memory:") {
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${file}${suffix}`, { force: true });
  }
  return `SQLite ${file}`;
}

/** The URL without its password, fit to print. */
function describePostgres(url: string): string {
  const parsed = new URL(url);
  parsed.password = "";
  return `PostgreSQL ${parsed.host}${parsed.pathname}`;
}

async function main(): Promise<void> {
  const env = parseEnv(process.env);
  const url = env.DATABASE_URL;
  const target = isPostgres(url) ? describePostgres(url) : deleteSqliteFiles(url);

  const handle = openDatabase(url);
  try {
    if (handle.kind === "postgres") {
      // Dropping the schema removes every table and the migration bookkeeping in one go.
      await sql`drop schema if exists public cascade`.execute(handle.db);
      await sql`create schema public`.execute(handle.db);
    }
    await migrateToLatest(handle.db);
    const baseUrl = env.PUBLIC_URL ?? `http://localhost:${env.PORT}`;
    await seedDemo(handle.db, new SandboxMessenger(handle.db), { now: new Date(), baseUrl });
    await registerDemoCards(handle.db, new SandboxIssuer(handle.db, env.SANDBOX_ISSUER_KEY_FILE));
    // The saved cards and overflow payments, as the server registers them when it seeds an empty database: the
    // overflow's charge and "Relancer le paiement" find them at the sandbox processor.
    await registerDemoPayments(handle.db, new SandboxPaymentProcessor(handle.db));
  } finally {
    await handle.close();
  }
  console.log(`${target} reset: schema migrated and demo data loaded (password ${DEMO_PASSWORD}).`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
