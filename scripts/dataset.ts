/**
 * `npm run dataset -- company|grow --database <url> [options]` (issue 35, Contract D): makes a large database out
 * of the demo, for the bench and for reading query plans. On an empty database the demo is seeded first (as
 * `npm run db:reset` does), so `--database file:/tmp/x.sqlite` alone is enough to start.
 *
 *   company  a funder of --employees N (20,000) employees with --months N (24) months of history
 *   grow     --payments N (20,000) past payments on the card of --email (marie.martin@example.com) ending in
 *            --card (4242), and every other row of history copied until there is --factor (10) times as much
 *
 * `--seed N` (35) makes the same rows again. Prints the rows added by table, the run time and the database's size.
 */
import { statSync } from "node:fs";
import { sql } from "kysely";
import { isDatabaseEmpty, registerDemoCards, registerDemoPayments, seedDemo } from "../app/.server/db/seed";
import { migrateToLatest, openDatabase, type DatabaseHandle } from "../app/.server/db";
import { generateCompany, growHistory, type DatasetReport } from "../app/.server/db/dataset";
import { SandboxIssuer } from "../app/.server/providers/issuer/sandbox";
import { SandboxMessenger } from "../app/.server/providers/messaging/sandbox";
import { SandboxPaymentProcessor } from "../app/.server/providers/payments/sandbox";

const USAGE =
  "npm run dataset -- company|grow --database <url> [--seed N] [--employees N] [--months N] " +
  "[--email marie.martin@example.com --card 4242 --payments 20000 --factor 10]";

function parseArguments(argv: string[]): { command: string; flags: Map<string, string> } {
  const [command = "", ...rest] = argv;
  const flags = new Map<string, string>();
  for (let i = 0; i < rest.length; i += 2) {
    const name = rest[i]!;
    const value = rest[i + 1];
    if (!name.startsWith("--") || value === undefined) throw new Error(`Unexpected ${name}. ${USAGE}`);
    flags.set(name.slice(2), value);
  }
  if (command !== "company" && command !== "grow") throw new Error(USAGE);
  if (!flags.get("database")) throw new Error(`--database is required. ${USAGE}`);
  return { command, flags };
}

function numberFlag(flags: Map<string, string>, name: string, fallback: number): number {
  const value = Number(flags.get(name) ?? fallback);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`--${name} must be a whole number`);
  return value;
}

/** The demo, as `npm run db:reset` loads it, when the database has nothing yet. */
async function ensureDemo(handle: DatabaseHandle, now: Date): Promise<void> {
  await migrateToLatest(handle.db);
  if (!(await isDatabaseEmpty(handle.db))) return;
  await seedDemo(handle.db, new SandboxMessenger(handle.db), { now, baseUrl: "http://localhost:3000" });
  await registerDemoCards(handle.db, new SandboxIssuer(handle.db, "data/sandbox-issuer.key"));
  await registerDemoPayments(handle.db, new SandboxPaymentProcessor(handle.db));
  console.log("The database was empty: the demo was seeded first.");
}

async function grow(handle: DatabaseHandle, flags: Map<string, string>, seed: number, now: Date) {
  const email = flags.get("email") ?? "marie.martin@example.com";
  const lastFour = flags.get("card") ?? "4242";
  const card = await handle.db
    .selectFrom("cards")
    .innerJoin("users", "users.id", "cards.user_id")
    .select(["cards.id", "cards.user_id"])
    .where("users.email", "=", email)
    .where("cards.last_four", "=", lastFour)
    .executeTakeFirst();
  if (!card) throw new Error(`No card ending ${lastFour} for ${email}`);
  return growHistory(handle, {
    userId: card.user_id,
    cardId: card.id,
    payments: numberFlag(flags, "payments", 20_000),
    factor: numberFlag(flags, "factor", 10),
    seed,
    now,
    log: console.log,
  });
}

/** SQLite: the file and its write-ahead log; PostgreSQL: every relation of the connection's schema, indexes included. */
async function databaseBytes(handle: DatabaseHandle, url: string): Promise<number> {
  if (handle.kind === "sqlite") {
    const file = url.replace(/^file:/, "");
    return ["", "-wal"].reduce(
      (sum, suffix) => sum + (statSync(file + suffix, { throwIfNoEntry: false })?.size ?? 0),
      0,
    );
  }
  const { rows } = await sql<{ bytes: string }>`
    select coalesce(sum(pg_total_relation_size(c.oid)), 0) as bytes
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind in ('r', 'm')`.execute(handle.db);
  return Number(rows[0]?.bytes ?? 0);
}

function printReport(report: DatasetReport, bytes: number): void {
  const width = Math.max(...Object.keys(report.rows).map((t) => t.length));
  for (const [table, count] of Object.entries(report.rows)) {
    console.log(`${table.padEnd(width)}  ${count.toLocaleString("en-US").padStart(12)}`);
  }
  const total = Object.values(report.rows).reduce((sum, n) => sum + n, 0);
  console.log(`${"total".padEnd(width)}  ${total.toLocaleString("en-US").padStart(12)} rows`);
  console.log(`Run time ${report.seconds.toFixed(1)} s; database size ${(bytes / 1024 / 1024).toFixed(1)} MB.`);
}

async function main(): Promise<void> {
  const { command, flags } = parseArguments(process.argv.slice(2));
  const url = flags.get("database")!;
  const seed = numberFlag(flags, "seed", 35);
  const now = new Date();
  const handle = openDatabase(url);
  try {
    await ensureDemo(handle, now);
    const report =
      command === "grow"
        ? await grow(handle, flags, seed, now)
        : await generateCompany(handle, {
            seed,
            employees: numberFlag(flags, "employees", 20_000),
            months: numberFlag(flags, "months", 24),
            now,
            log: console.log,
          });
    printReport(report, await databaseBytes(handle, url));
  } finally {
    await handle.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
