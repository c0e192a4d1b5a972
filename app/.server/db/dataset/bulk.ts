import { CompiledQuery, sql } from "kysely";
import type { DatabaseHandle, DB } from "../index";
import type { Database } from "../schema";

type Row = Record<string, string | number | null>;

/** Parents before their children: the order in which a batch writes its tables (foreign keys are checked per row). */
const TABLE_ORDER: (keyof Database)[] = [
  "groups",
  "users",
  "memberships",
  "cards",
  "wallets",
  "card_wallets",
  "wallet_balances",
  "credit_limits",
  "card_authorizations",
  "payment_intents",
  "card_authorization_refunds",
  "payment_method_switches",
  "wallet_transactions",
  "expense_requests",
  "expense_request_payment_methods",
  "wallet_reservations",
  "payouts",
  "allowances",
  "allowance_payouts",
  "notifications",
];

/** Rows buffered before they are written, all tables together, in one transaction. */
const BATCH_ROWS = 20_000;
/** SQLite takes at most 32,766 parameters a statement; 400 rows of up to 40 columns stay under it. */
const SQLITE_ROWS_PER_STATEMENT = 400;

/**
 * Writes generated rows fast: buffered by table, then written together, each buffer as few statements as the
 * database allows, in one transaction per batch. SQLite: multi-row `insert … values (?, …), (?, …)`, whose text
 * repeats so the handle's statement cache prepares it once. PostgreSQL: one `insert … select * from unnest($1::text[],
 * $2::int8[], …)` per table and batch, a parameter per column whatever the number of rows (a `values` list is held
 * to 65,535 parameters and PostgreSQL parses and plans each of its rows). Tables are written parents first
 * (`TABLE_ORDER`): a card before its authorisations, an authorisation before its wallet movements.
 */
export class BulkWriter {
  private readonly buffers = new Map<keyof Database, { columns: string[]; rows: Row[] }>();
  private buffered = 0;
  /** Rows written, by table. */
  readonly counts: Record<string, number> = {};

  constructor(private readonly handle: DatabaseHandle) {}

  /** A row of `table`; every row of a table has the columns of its first (as the factories make them). */
  add<T extends keyof Database>(table: T, row: Database[T]): void {
    let buffer = this.buffers.get(table);
    if (!buffer) {
      buffer = { columns: Object.keys(row), rows: [] };
      this.buffers.set(table, buffer);
    }
    buffer.rows.push(row as unknown as Row);
    this.buffered += 1;
  }

  /**
   * Runs `fn` with SQLite's page cache at 256 MB instead of its 2 MB (`cache_size`, this connection only, set back
   * afterwards): each batch adds rows all over the history tables' indexes, which then stay in memory instead of
   * being read back from the file for every statement. PostgreSQL's shared buffers are the server's: as they are.
   */
  async withLargeCache<T>(fn: () => Promise<T>): Promise<T> {
    if (this.handle.kind !== "sqlite") return fn();
    const { db } = this.handle;
    const { rows } = await sql<{ cache_size: number }>`pragma cache_size`.execute(db);
    await sql`pragma cache_size = -262144`.execute(db);
    try {
      return await fn();
    } finally {
      await sql.raw(`pragma cache_size = ${Number(rows[0]?.cache_size ?? -2000)}`).execute(db);
    }
  }

  /**
   * Runs `fn` with the secondary indexes of `tables` dropped, then makes them again and analyses the tables
   * (PostgreSQL; SQLite runs `fn` as it is). Keeping a dozen indexes up row after row is most of a large load's
   * time on PostgreSQL (a random insertion into each index for each row, each one written to the WAL); an index
   * built once over the loaded rows is a sort. The definitions are read from `pg_indexes` before the drop and run
   * again as they were, so the indexes end exactly as the migrations made them; the indexes behind a primary key or
   * a unique constraint stay (their constraints are checked during the load). They are made again even when `fn`
   * fails. `analyze` gives the planner the tables' new figures, as the pages are measured just after.
   */
  async withoutSecondaryIndexes<T>(tables: (keyof Database)[], fn: () => Promise<T>): Promise<T> {
    if (this.handle.kind !== "postgres") return fn();
    const { db } = this.handle;
    const { rows: indexes } = await sql<{ schema: string; name: string; definition: string }>`
      select i.schemaname as schema, i.indexname as name, i.indexdef as definition
      from pg_indexes i
      join pg_namespace n on n.nspname = i.schemaname
      join pg_class c on c.relname = i.indexname and c.relnamespace = n.oid
      where i.schemaname = current_schema() and i.tablename in (${sql.join(tables)})
        and not exists (select 1 from pg_constraint k where k.conindid = c.oid)
      order by i.tablename, i.indexname`.execute(db);
    for (const index of indexes) await sql`drop index ${sql.id(index.schema, index.name)}`.execute(db);
    try {
      return await fn();
    } finally {
      // One connection for the setting and the builds: a sort in memory instead of on disk for each index.
      await db.connection().execute(async (connection) => {
        await sql`set maintenance_work_mem = '256MB'`.execute(connection);
        for (const index of indexes) await sql.raw(index.definition).execute(connection);
        await sql`reset maintenance_work_mem`.execute(connection);
        await sql.raw(`analyze ${tables.map(quote).join(", ")}`).execute(connection);
      });
    }
  }

  /** Writes the buffers when they hold a batch. */
  async maybeFlush(): Promise<void> {
    if (this.buffered >= BATCH_ROWS) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.buffered === 0) return;
    const rank = (table: keyof Database) => TABLE_ORDER.indexOf(table) >>> 0;
    const buffers = [...this.buffers.entries()]
      .filter(([, b]) => b.rows.length > 0)
      .sort(([a], [b]) => rank(a) - rank(b));
    await this.handle.db.transaction().execute(async (trx) => {
      // A generator's batch need not wait for its WAL to reach the disk at commit (PostgreSQL): a crash loses the
      // last batches, never consistency, and the dataset is made again from its seed.
      if (this.handle.kind === "postgres") await sql`set local synchronous_commit = off`.execute(trx);
      for (const [table, buffer] of buffers) {
        if (this.handle.kind === "postgres") await insertUnnest(trx, table, buffer.columns, buffer.rows);
        else await insertValues(trx, table, buffer.columns, buffer.rows);
        this.counts[table] = (this.counts[table] ?? 0) + buffer.rows.length;
        buffer.rows = [];
      }
    });
    this.buffered = 0;
  }
}

const quote = (name: string) => `"${name}"`;

async function insertValues(trx: DB, table: string, columns: string[], rows: Row[]): Promise<void> {
  const tuple = `(${columns.map(() => "?").join(", ")})`;
  const head = `insert into ${quote(table)} (${columns.map(quote).join(", ")}) values `;
  for (let start = 0; start < rows.length; start += SQLITE_ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + SQLITE_ROWS_PER_STATEMENT);
    const parameters: unknown[] = [];
    for (const row of chunk) for (const column of columns) parameters.push(row[column]);
    await trx.executeQuery(CompiledQuery.raw(head + chunk.map(() => tuple).join(", "), parameters));
  }
}

/**
 * One array a column: `int8[]` when the column's values are numbers (integers: money in cents, 0/1 flags),
 * else `text[]`. A column of nulls only is typed by the table's column (`text[]` of nulls casts to nothing else),
 * so it is left out of the insert and takes its default (null).
 */
async function insertUnnest(trx: DB, table: string, columns: string[], rows: Row[]): Promise<void> {
  const present = columns.filter((c) => rows.some((r) => r[c] !== null && r[c] !== undefined));
  const types = present.map((c) => (typeof rows.find((r) => r[c] !== null)![c] === "number" ? "int8" : "text"));
  const arrays = present.map((c) => rows.map((r) => r[c] ?? null));
  const text =
    `insert into ${quote(table)} (${present.map(quote).join(", ")}) ` +
    `select * from unnest(${types.map((t, i) => `$${i + 1}::${t}[]`).join(", ")})`;
  await trx.executeQuery(CompiledQuery.raw(text, arrays));
}
