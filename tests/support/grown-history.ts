import { sql } from "kysely";
import { migrateToLatest, type DB } from "~/.server/db";
import type { Database } from "~/.server/db/schema";
import { registerDemoCards, registerDemoPayments, seedDemo } from "~/.server/db/seed";
import type { Platform } from "~/.server/platform";
import { SandboxIssuer } from "~/.server/providers/issuer/sandbox";
import { SandboxPaymentProcessor } from "~/.server/providers/payments/sandbox";

/**
 * A demo database grown the way issue 35 measures it: one person's card gains `payments` settled past payments
 * (copies of that card's own settled payments, each with its wallet movements, placed one after the other before
 * the oldest one) and she as many notifications, and the history tables of everybody — that person included — are
 * copied `factor - 1` more times further back in the past. Rows only, for reading query plans: the balances are not made to agree with
 * the copied movements (Contract D's growHistory does that for the bench).
 */
export interface GrowthFigures {
  userId: string;
  cardId: string;
  payments: number;
  factor: number;
  /** The person's notifications added besides (copies of hers, read and unread alike), one per payment by default. */
  notifications?: number;
}

type Row = Record<string, unknown>;
type HistoryTable = keyof Database;

/** The history tables copied, each with its columns holding instants (ISO text) or days (YYYY-MM-DD). */
const COPIED: { table: HistoryTable; instants: string[]; days: string[] }[] = [
  { table: "card_authorizations", instants: ["transaction_at"], days: [] },
  { table: "wallet_transactions", instants: ["created_at"], days: [] },
  { table: "notifications", instants: ["created_at", "read_at"], days: [] },
  { table: "expense_requests", instants: ["created_at", "updated_at"], days: ["ticket_date", "payout_date"] },
  { table: "wallet_reservations", instants: ["created_at", "settled_at"], days: [] },
  { table: "allowances", instants: ["created_at", "updated_at", "decided_at", "signed_at"], days: [] },
  { table: "sessions", instants: ["created_at", "expires_at"], days: [] },
  { table: "outbox", instants: ["created_at"], days: [] },
  { table: "analytics_events", instants: ["created_at"], days: [] },
];

/** Columns naming another copied row: a copy points at the copy of the row its original pointed at. */
const REFERENCES: Record<string, string[]> = {
  wallet_transactions: ["authorization_id"],
  wallet_reservations: ["expense_request_id"],
};

/** Columns that must stay unique: a copy has none. */
const CLEARED: Record<string, string[]> = {
  card_authorizations: ["stripe_authorization_id"],
  allowances: ["draft_id"],
};

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** One of the grown card's payments every 79 minutes: 20,000 of them span three years. */
const PAYMENT_SPACING = 79 * MINUTE;
const BATCH_ROWS = 200;

export async function growHistoryRows(db: DB, figures: GrowthFigures): Promise<Record<string, number>> {
  const added: Record<string, number> = {};
  const count = (table: string, rows: number) => (added[table] = (added[table] ?? 0) + rows);
  const oldest = await oldestInstant(db);
  await db.transaction().execute(async (trx) => {
    for (const { table, instants, days } of COPIED) {
      const rows = (await trx.selectFrom(table).selectAll().execute()) as Row[];
      for (let copy = 1; copy < figures.factor; copy++) {
        const shift = copy * Math.max(365 * DAY, Date.now() - oldest.getTime());
        const copies = rows.map((row) => copied(table, row, `~x${copy}`, shift, instants, days));
        await insertRows(trx, table, copies);
        count(table, copies.length);
      }
    }
    const card = await cardPayments(trx, figures, oldest);
    await insertRows(trx, "card_authorizations", card.authorizations);
    await insertRows(trx, "wallet_transactions", card.movements);
    count("card_authorizations", card.authorizations.length);
    count("wallet_transactions", card.movements.length);
    const notices = await personNotifications(trx, figures, oldest);
    await insertRows(trx, "notifications", notices);
    count("notifications", notices.length);
  });
  return added;
}

/** The oldest payment or movement of the database: the grown card's payments go before it. */
async function oldestInstant(db: DB): Promise<Date> {
  const row = await db
    .selectFrom("card_authorizations")
    .select((eb) => eb.fn.min("transaction_at").as("oldest"))
    .executeTakeFirst();
  return new Date(String(row?.oldest ?? new Date().toISOString()));
}

/** `payments` settled payments of the card, copies of its own settled ones, one every 79 minutes before `oldest`. */
async function cardPayments(db: DB, figures: GrowthFigures, oldest: Date) {
  const templates = await db
    .selectFrom("card_authorizations")
    .selectAll()
    .where("card_id", "=", figures.cardId)
    .where("has_card_transactions", "=", 1)
    .where("frozen", "=", 0)
    .execute();
  if (templates.length === 0) throw new Error(`card ${figures.cardId} has no settled payment to copy`);
  const movements = await db
    .selectFrom("wallet_transactions")
    .selectAll()
    .where(
      "authorization_id",
      "in",
      templates.map((t) => t.id),
    )
    .where("status", "=", "processed")
    .execute();
  const authorizations: Row[] = [];
  const copiedMovements: Row[] = [];
  for (let i = 0; i < figures.payments; i++) {
    const template = templates[i % templates.length]!;
    const at = oldest.getTime() - (i + 1) * PAYMENT_SPACING;
    const shift = new Date(template.transaction_at).getTime() - at;
    authorizations.push(copied("card_authorizations", template, `~p${i}`, shift, ["transaction_at"], []));
    for (const movement of movements.filter((m) => m.authorization_id === template.id))
      copiedMovements.push(copied("wallet_transactions", movement, `~p${i}`, shift, ["created_at"], []));
  }
  return { authorizations, movements: copiedMovements };
}

/** The person's notifications copied `figures.notifications` times in all, one every 79 minutes before `oldest`. */
async function personNotifications(db: DB, figures: GrowthFigures, oldest: Date): Promise<Row[]> {
  const templates = await db.selectFrom("notifications").selectAll().where("user_id", "=", figures.userId).execute();
  const wanted = figures.notifications ?? figures.payments;
  if (templates.length === 0) return [];
  return Array.from({ length: wanted }, (_, i) => {
    const template = templates[i % templates.length]!;
    const shift = Date.parse(template.created_at) - (oldest.getTime() - (i + 1) * PAYMENT_SPACING);
    return copied("notifications", template, `~n${i}`, shift, ["created_at", "read_at"], []);
  });
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
 * the platform's sandbox issuer and processor (as the server's first start does), then grown (growHistoryRows), and
 * on PostgreSQL analysed, as autovacuum would after so many rows, so that the planner knows the tables' sizes.
 */
export async function prepareGrownDemo(
  platform: Pick<Platform, "database" | "messenger" | "issuer" | "payments">,
  growth: { email: string; lastFour: string; payments: number; factor: number },
): Promise<Record<string, number>> {
  const { db, kind } = platform.database;
  const { issuer, payments } = platform;
  if (!(issuer instanceof SandboxIssuer) || !(payments instanceof SandboxPaymentProcessor))
    throw new Error("the grown demo is made with the sandbox issuer and processor (tests/support/test-platform.ts)");
  await migrateToLatest(db);
  await seedDemo(db, platform.messenger, { now: new Date(), baseUrl: "http://localhost" });
  await registerDemoCards(db, issuer);
  await registerDemoPayments(db, payments);
  const person = await personOf(db, growth.email, growth.lastFour);
  const added = await growHistoryRows(db, { ...person, payments: growth.payments, factor: growth.factor });
  if (kind === "postgres") await sql`analyze`.execute(db);
  return added;
}
