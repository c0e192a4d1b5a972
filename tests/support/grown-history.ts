import { sql } from "kysely";
import { migrateToLatest, type DB } from "~/.server/db";
import { growHistory } from "~/.server/db/dataset";
import type { Database } from "~/.server/db/schema";
import { registerDemoCards, registerDemoPayments, seedDemo } from "~/.server/db/seed";
import type { Platform } from "~/.server/platform";
import { SandboxIssuer } from "~/.server/providers/issuer/sandbox";
import { SandboxPaymentProcessor } from "~/.server/providers/payments/sandbox";

/**
 * The grown demo issue 35 measures, for reading query plans: Contract D's growHistory (a card's past payments decided by
 * the engine's rules with their movements and notifications, every other payment, movement and notification copied
 * `factor - 1` more times further back), and beside it the history tables growHistory leaves as they are — refund
 * requests and their reservations, allowances, sessions, messages, analytics events — copied as many times, so that a
 * page reading them whole reads `factor` times more. Those extra copies are rows only, for the plans: their dates move
 * back with each copy, nothing else is made to agree with them.
 */

type Row = Record<string, unknown>;
type HistoryTable = keyof Database;

/** The history tables growHistory does not copy, each with its columns holding instants (ISO text) or days (YYYY-MM-DD). */
const COPIED: { table: HistoryTable; instants: string[]; days: string[] }[] = [
  { table: "expense_requests", instants: ["created_at", "updated_at"], days: ["ticket_date", "payout_date"] },
  { table: "wallet_reservations", instants: ["created_at", "settled_at"], days: [] },
  { table: "allowances", instants: ["created_at", "updated_at", "decided_at", "signed_at"], days: [] },
  { table: "sessions", instants: ["created_at", "expires_at"], days: [] },
  { table: "outbox", instants: ["created_at"], days: [] },
  { table: "analytics_events", instants: ["created_at"], days: [] },
];

/** Columns naming another copied row: a copy points at the copy of the row its original pointed at. */
const REFERENCES: Record<string, string[]> = { wallet_reservations: ["expense_request_id"] };

/** Columns that must stay unique: a copy has none. */
const CLEARED: Record<string, string[]> = { allowances: ["draft_id"] };

const DAY = 24 * 60 * 60_000;
const BATCH_ROWS = 200;

/** Copies the tables of COPIED `factor - 1` more times, each copy a year (or the history's span) further back. */
async function copyOtherHistory(db: DB, factor: number): Promise<Record<string, number>> {
  const added: Record<string, number> = {};
  const oldest = await db
    .selectFrom("expense_requests")
    .select((eb) => eb.fn.min("created_at").as("oldest"))
    .executeTakeFirst();
  const span = Math.max(365 * DAY, Date.now() - Date.parse(String(oldest?.oldest ?? new Date().toISOString())));
  await db.transaction().execute(async (trx) => {
    for (const { table, instants, days } of COPIED) {
      const rows = (await trx.selectFrom(table).selectAll().execute()) as Row[];
      for (let copy = 1; copy < factor; copy++) {
        await insertRows(
          trx,
          table,
          rows.map((row) => copied(table, row, `~x${copy}`, copy * span, instants, days)),
        );
        added[table] = (added[table] ?? 0) + rows.length;
      }
    }
  });
  return added;
}

/** A copy of `row`: its id (and the ids it references) suffixed, its dates `shift` milliseconds earlier. */
function copied(table: string, row: Row, suffix: string, shift: number, instants: string[], days: string[]): Row {
  const copy: Row = { ...row };
  const key = "id" in row ? "id" : "id_hash";
  copy[key] = `${String(row[key])}${suffix}`;
  for (const column of REFERENCES[table] ?? [])
    if (row[column] != null) copy[column] = `${String(row[column])}${suffix}`;
  for (const column of CLEARED[table] ?? []) if (column in row) copy[column] = null;
  for (const column of instants)
    if (typeof row[column] === "string") copy[column] = new Date(Date.parse(row[column]) - shift).toISOString();
  for (const column of days)
    if (typeof row[column] === "string")
      copy[column] = new Date(Date.parse(row[column]) - Math.round(shift / DAY) * DAY).toISOString().slice(0, 10);
  return copy;
}

async function insertRows(db: DB, table: HistoryTable, rows: Row[]): Promise<void> {
  for (let start = 0; start < rows.length; start += BATCH_ROWS)
    await db
      .insertInto(table)
      .values(rows.slice(start, start + BATCH_ROWS) as never)
      .execute();
}

/**
 * PostgreSQL: ANALYZE of this schema's tables only (a bare ANALYZE would go through every schema of the database,
 * other test files' and the server's own included).
 */
export async function analyzeSchema(db: DB): Promise<void> {
  const { rows } = await sql<{ name: string }>`
    select quote_ident(tablename) as name from pg_tables where schemaname = current_schema()`.execute(db);
  if (rows.length > 0) await sql.raw(`analyze ${rows.map((r) => r.name).join(", ")}`).execute(db);
}

/** The demo's person by e-mail and her card by its last four digits: the ids the growth and the plans need. */
export async function personOf(db: DB, email: string, lastFour: string): Promise<{ userId: string; cardId: string }> {
  const row = await db
    .selectFrom("users")
    .innerJoin("cards", "cards.user_id", "users.id")
    .select(["users.id as userId", "cards.id as cardId"])
    .where("users.email", "=", email)
    .where("cards.last_four", "=", lastFour)
    .executeTakeFirst();
  if (!row) throw new Error(`no card ending ${lastFour} for ${email}`);
  return row;
}

/**
 * An empty database made into the grown demo: migrated, the demo seeded and its cards and payments registered with
 * the platform's sandbox issuer and processor (as the server's first start does), grown by growHistory (seed 35) and
 * copyOtherHistory, and on PostgreSQL analysed, as autovacuum would after so many rows, so that the planner knows the
 * tables' sizes. Answers the rows added, by table.
 */
export async function prepareGrownDemo(
  platform: Pick<Platform, "database" | "messenger" | "issuer" | "payments">,
  growth: { email: string; lastFour: string; payments: number; factor: number },
): Promise<Record<string, number>> {
  const handle = platform.database;
  const { issuer, payments } = platform;
  if (!(issuer instanceof SandboxIssuer) || !(payments instanceof SandboxPaymentProcessor))
    throw new Error("the grown demo is made with the sandbox issuer and processor (tests/support/test-platform.ts)");
  const { db } = handle;
  await migrateToLatest(db);
  await seedDemo(db, platform.messenger, { now: new Date(), baseUrl: "http://localhost" });
  await registerDemoCards(db, issuer);
  await registerDemoPayments(db, payments);
  const person = await personOf(db, growth.email, growth.lastFour);
  const grown = await growHistory(handle, {
    ...person,
    payments: growth.payments,
    factor: growth.factor,
    seed: 35,
    now: new Date(),
  });
  const copied = await copyOtherHistory(db, growth.factor);
  if (handle.kind === "postgres") await analyzeSchema(db);
  return { ...grown.rows, ...copied };
}
