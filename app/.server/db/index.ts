import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import SQLite from "better-sqlite3";
import {
  Kysely,
  type KyselyConfig,
  Migrator,
  PostgresAdapter,
  PostgresDialect,
  SqliteDialect,
  sql,
  type Migration,
  type SqliteDatabase,
} from "kysely";
import pg from "pg";
import * as initial from "./migrations/001_initial";
import * as cards from "./migrations/002_cards";
import * as cardRequests from "./migrations/003_card_requests";
import * as payments from "./migrations/004_payments";
import * as marketing from "./migrations/005_marketing_opt_in";
import * as accountSettings from "./migrations/006_account_settings";
import * as guessLimits from "./migrations/007_guess_limits";
import * as codeTargets from "./migrations/008_code_targets";
import * as supplierScopes from "./migrations/009_supplier_scopes";
import * as refunds from "./migrations/010_refunds";
import * as allowances from "./migrations/011_allowances";
import * as partnerLinks from "./migrations/012_partner_links";
import * as supportChat from "./migrations/013_support_chat";
import * as consent from "./migrations/014_consent";
import * as authorisations from "./migrations/015_authorisations";
import * as authorisationRefunds from "./migrations/016_authorisation_refunds";
import * as stripeWebhooks from "./migrations/017_stripe_webhooks";
import * as sandboxProcessorRefunds from "./migrations/018_sandbox_processor_refunds";
import * as lightVersion from "./migrations/019_light_version";
import * as mailOutbox from "./migrations/020_mail_outbox";
import * as declineDetail from "./migrations/021_decline_detail";
import * as notificationFacts from "./migrations/022_notification_facts";
import * as partnerLocations from "./migrations/023_partner_locations";
import * as reservedSums from "./migrations/024_reserved_sums";
import * as receiptReadings from "./migrations/027_receipt_readings";
import * as payoutDetails from "./migrations/025_payout_details";
import * as allowancePlausibility from "./migrations/026_allowance_plausibility";
import * as passkeys from "./migrations/028_passkeys";
import * as outboxChannel from "./migrations/029_outbox_channel";
import * as pushSubscriptions from "./migrations/030_push_subscriptions";
import * as cardPageReads from "./migrations/031_card_page_reads";
import * as listReads from "./migrations/032_list_reads";
import type { Database } from "./schema";

export type DB = Kysely<Database>;

/**
 * Runs `fn` in a transaction: a new one, or the caller's when `db` already is one (Kysely cannot nest them).
 * The demo seed calls the authorisation engine inside its own transaction, so the demo is written whole or not.
 */
export function inTransaction<T>(db: DB, fn: (trx: DB) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}
export type DatabaseKind = "sqlite" | "postgres";

export interface DatabaseHandle {
  db: DB;
  kind: DatabaseKind;
  close(): Promise<void>;
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew; the portal runs the same few hundred SQL texts again and again,
 * so prepared statements are kept (oldest dropped first). SQLite re-prepares them itself after a
 * schema change.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text) {
      let statement = statements.get(text);
      if (!statement) {
        // Transactions take the write lock when they begin: with several processes on one file, a
        // transaction that read first could otherwise fail at its first write instead of waiting.
        statement = sqlite.prepare(text === "begin" ? "begin immediate" : text);
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
        statements.set(text, statement);
      }
      return statement;
    },
  };
}

export interface OpenOptions {
  /** PostgreSQL: an idle connection failed (the server restarted, the network cut); the pool replaces it. */
  onConnectionLost?: (err: Error) => void;
  /**
   * Called after each query with its SQL, its parameters and how long it took (Kysely's `log`, given only when
   * asked: no cost otherwise). scripts/query-plans.ts collects a page's queries with it to explain them.
   */
  log?: (query: QueryLogEntry) => void;
}

/** One query as `OpenOptions.log` hands it over: its SQL text, its parameters, its duration in milliseconds. */
export interface QueryLogEntry {
  sql: string;
  parameters: readonly unknown[];
  ms: number;
}

/** Kysely's options for a dialect: `log` only when the caller gave one. */
function kyselyOptions(options: OpenOptions): Pick<KyselyConfig, "log"> {
  const log = options.log;
  if (!log) return {};
  return {
    log: (event) => log({ sql: event.query.sql, parameters: event.query.parameters, ms: event.queryDurationMillis }),
  };
}

/** `postgres://…` selects PostgreSQL; `file:path` (or a bare path, or `:memory:`) selects SQLite. */
export function openDatabase(url: string, options: OpenOptions = {}): DatabaseHandle {
  if (/^postgres(ql)?:\/\//.test(url)) {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    // A connection cut by the server (PostgreSQL restarted, the network cut) emits 'error' on its client
    // when no query is running on it, idle in the pool or checked out between two queries: without a
    // listener Node would end the process. The pool drops a broken client and the next query opens a
    // new connection, so the portal recovers by itself when PostgreSQL is back (decision 0041).
    pool.on("connect", (client) => client.on("error", (err) => options.onConnectionLost?.(err)));
    // The pool re-emits an idle client's error: already told by the client's own listener above.
    pool.on("error", () => undefined);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), ...kyselyOptions(options) });
    return { db, kind: "postgres", close: () => db.destroy() };
  }
  const file = url.replace(/^file:/, "");
  if (file !== ":memory:") mkdirSync(dirname(resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("synchronous = NORMAL");
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
    ...kyselyOptions(options),
  });
  return { db, kind: "sqlite", close: () => db.destroy() };
}

const migrations: Record<string, Migration> = {
  "001_initial": initial,
  "002_cards": cards,
  "003_card_requests": cardRequests,
  "004_payments": payments,
  "005_marketing_opt_in": marketing,
  "006_account_settings": accountSettings,
  "007_guess_limits": guessLimits,
  "008_code_targets": codeTargets,
  "009_supplier_scopes": supplierScopes,
  "010_refunds": refunds,
  "011_allowances": allowances,
  "012_partner_links": partnerLinks,
  "013_support_chat": supportChat,
  "014_consent": consent,
  "015_authorisations": authorisations,
  "016_authorisation_refunds": authorisationRefunds,
  "017_stripe_webhooks": stripeWebhooks,
  "018_sandbox_processor_refunds": sandboxProcessorRefunds,
  "019_light_version": lightVersion,
  "020_mail_outbox": mailOutbox,
  "021_decline_detail": declineDetail,
  "022_notification_facts": notificationFacts,
  "023_partner_locations": partnerLocations,
  "024_reserved_sums": reservedSums,
  "025_payout_details": payoutDetails,
  "026_allowance_plausibility": allowancePlausibility,
  "027_receipt_readings": receiptReadings,
  "028_passkeys": passkeys,
  "029_outbox_channel": outboxChannel,
  "030_push_subscriptions": pushSubscriptions,
  "031_card_page_reads": cardPageReads,
  "032_list_reads": listReads,
};

export async function migrateToLatest(db: DB): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableSchema: await currentSchema(db),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    throw new Error(`Migration failed${failed ? ` at ${failed.migrationName}` : ""}`, { cause: error });
  }
}

/**
 * On PostgreSQL, the schema the connection works in (`public`, or a test file's private schema). Kysely's
 * migrator looks for its tables by name in every schema unless told which one: a test file would see
 * another file's `kysely_migration_lock`, skip creating its own, then fail on it (42P01).
 */
async function currentSchema(db: DB): Promise<string | undefined> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return undefined;
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema;
}

/**
 * Runs `fn` while holding this database's startup lock: on PostgreSQL a session advisory lock (keyed by
 * the schema), so that machines starting together check for an empty database and seed it one after
 * the other; on SQLite `fn` runs as is (one machine; a cluster's primary prepares the file alone).
 */
export async function withStartupLock<T>(db: DB, fn: () => Promise<T>): Promise<T> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return fn();
  return db.connection().execute(async (connection) => {
    const key = sql`hashtext(current_schema() || ':portal-startup')`;
    await sql`select pg_advisory_lock(${key})`.execute(connection);
    try {
      return await fn();
    } finally {
      await sql`select pg_advisory_unlock(${key})`.execute(connection);
    }
  });
}

export async function pingDatabase(db: DB): Promise<void> {
  await sql`select 1`.execute(db);
}
