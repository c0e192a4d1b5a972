/**
 * The databases `npm run bench` measures (decision 0071), prepared before their servers start, through the
 * app's own functions: the demo world as the server makes it on an empty sandbox database (platform.ts:
 * seed, then the sandbox issuer's and processor's records), then Contract D's generators
 * (app/.server/db/dataset) for the grown and company-sized copies. Marie's session is planted in each
 * (`createDatabaseSessionStorage` with the bench's secret, as the e2e fixtures' `signInAs`), so that the
 * same person loads the same pages on every server.
 */
import { copyFileSync, existsSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { migrateToLatest, openDatabase, type DatabaseHandle } from "../../app/.server/db";
import { generateCompany, growHistory, type DatasetReport } from "../../app/.server/db/dataset";
import {
  DEMO_PASSWORD,
  registerDemoCards,
  registerDemoPayments,
  seedDemo,
  seedMarieCopy,
} from "../../app/.server/db/seed";
import { hashPassword } from "../../app/.server/passwords";
import { SandboxIssuer } from "../../app/.server/providers/issuer/sandbox";
import { SandboxMessenger } from "../../app/.server/providers/messaging/sandbox";
import { SandboxPaymentProcessor } from "../../app/.server/providers/payments/sandbox";
import { createDatabaseSessionStorage } from "../../app/.server/session";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const MARIE = "marie.martin@example.com";
export const CARD_LAST4 = "4242";
/** Known to the servers (their SESSION_SECRET) and to the bench, which plants the sessions. Bench-only. */
export const SESSION_SECRET = "bench-only-session-secret-never-on-a-real-server";
/** The sandbox issuer's key, as the server reads it (env.ts SANDBOX_ISSUER_KEY_FILE's default). */
const ISSUER_KEY_FILE = path.join(root, "data/sandbox-issuer.key");

/** The figures of issue 35's datasets; BENCH_* settings make them smaller while developing. */
export interface DatasetSettings {
  seed: number;
  /** growHistory: Marie's card 4242 gains so many past payments… */
  growthPayments: number;
  /** …and every other person's history is copied until the database holds this many times its own. */
  growthFactor: number;
  /** generateCompany: a funder of so many employees, with so many months of history. */
  employees: number;
  months: number;
  /** ISO date: the same "now" for every database, so their data differ by the generators only. */
  now: string;
}

export function datasetSettings(env: NodeJS.ProcessEnv): DatasetSettings {
  return {
    seed: Number(env.BENCH_SEED ?? 35),
    growthPayments: Number(env.BENCH_GROWTH_PAYMENTS ?? 20_000),
    growthFactor: Number(env.BENCH_GROWTH_FACTOR ?? 10),
    employees: Number(env.BENCH_EMPLOYEES ?? 20_000),
    months: Number(env.BENCH_MONTHS ?? 24),
    now: new Date().toISOString(),
  };
}

async function seedDemoWorld(db: DatabaseHandle["db"], origin: string, now: Date) {
  await migrateToLatest(db);
  await seedDemo(db, new SandboxMessenger(db), { now, baseUrl: origin });
  await registerDemoCards(db, new SandboxIssuer(db, ISSUER_KEY_FILE));
  await registerDemoPayments(db, new SandboxPaymentProcessor(db));
}

/** A signed-in session for `userId`, stored in `db`: the Cookie header's `name=value`. */
async function plantSession(db: DatabaseHandle["db"], userId: string): Promise<string> {
  const sessions = createDatabaseSessionStorage(db, { APP_MODE: "sandbox", sessionSecrets: [SESSION_SECRET] });
  const session = await sessions.getSession();
  session.set("userId", userId);
  const setCookie = await sessions.commitSession(session);
  return setCookie.slice(0, setCookie.indexOf(";"));
}

async function cardOf(db: DatabaseHandle["db"], userId: string): Promise<string> {
  const card = await db
    .selectFrom("cards")
    .select("id")
    .where("user_id", "=", userId)
    .where("last_four", "=", CARD_LAST4)
    .executeTakeFirstOrThrow();
  return card.id;
}

async function marie(db: DatabaseHandle["db"]): Promise<{ userId: string; cardId: string }> {
  const user = await db.selectFrom("users").select("id").where("email", "=", MARIE).executeTakeFirstOrThrow();
  return { userId: user.id, cardId: await cardOf(db, user.id) };
}

/** One of the soak's people, as the database knows them before the server starts. */
export interface SoakAccount {
  email: string;
  cookie: string;
  cardId: string;
  walletId: string;
}

export function removeSqlite(file: string) {
  for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(file + suffix, { force: true });
}

export const sqliteBytes = (file: string) => (existsSync(file) ? statSync(file).size : 0);

/**
 * The SQLite demo file: the demo world, Marie's session, and, for the soak, `people` copies of Marie
 * (seed.ts `seedMarieCopy`, as the e2e fixtures make them) each with their session.
 */
export async function prepareSqliteDemo(
  file: string,
  origin: string,
  people: number,
  now: Date,
): Promise<{ marieCookie: string; accounts: SoakAccount[] }> {
  removeSqlite(file);
  const handle = openDatabase(`file:${file}`);
  try {
    const { db } = handle;
    await seedDemoWorld(db, origin, now);
    const issuer = new SandboxIssuer(db, ISSUER_KEY_FILE);
    const processor = new SandboxPaymentProcessor(db);
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    const accounts: SoakAccount[] = [];
    for (let i = 1; i <= people; i++) {
      const email = `soak-${String(i).padStart(2, "0")}@example.com`;
      const userId = await seedMarieCopy(db, { email, passwordHash, now });
      await registerDemoCards(db, issuer, userId);
      await registerDemoPayments(db, processor, userId);
      const wallet = await db
        .selectFrom("wallets")
        .select("id")
        .where("user_id", "=", userId)
        .orderBy("created_at")
        .orderBy("id")
        .executeTakeFirstOrThrow();
      accounts.push({
        email,
        cookie: await plantSession(db, userId),
        cardId: await cardOf(db, userId),
        walletId: wallet.id,
      });
    }
    const { userId } = await marie(db);
    return { marieCookie: await plantSession(db, userId), accounts };
  } finally {
    await handle.close();
  }
}

/**
 * A copy of the prepared demo file (Marie's session included), grown by Contract D's growHistory: Marie's
 * card 4242 gains `growthPayments` past payments and the rest of the history is copied `growthFactor - 1`
 * more times.
 */
export async function growSqliteCopy(
  demoFile: string,
  file: string,
  settings: DatasetSettings,
  log: (line: string) => void,
): Promise<DatasetReport> {
  removeSqlite(file);
  copyFileSync(demoFile, file);
  const handle = openDatabase(`file:${file}`);
  try {
    const { userId, cardId } = await marie(handle.db);
    return await growHistory(handle, {
      userId,
      cardId,
      payments: settings.growthPayments,
      factor: settings.growthFactor,
      seed: settings.seed,
      now: new Date(settings.now),
      log,
    });
  } finally {
    await handle.close();
  }
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL: one schema per database on ensure-postgres.sh's server

export const POSTGRES_SCHEMAS = { demo: "bench_demo", grown: "bench_grown", company: "bench_company" } as const;
export type PostgresName = keyof typeof POSTGRES_SCHEMAS;

/** The URL that works in `schema` (its search_path), as tests/support/test-database.ts makes it. */
export function schemaUrl(baseUrl: string, schema: string): string {
  const url = new URL(baseUrl);
  url.searchParams.set("options", `-c search_path=${schema}`);
  return url.toString();
}

async function withClient<T>(baseUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function dropSchemas(baseUrl: string) {
  await withClient(baseUrl, async (client) => {
    for (const schema of Object.values(POSTGRES_SCHEMAS)) await client.query(`drop schema if exists ${schema} cascade`);
  });
}

/** Tables, indexes and TOAST of a schema, bytes. */
async function schemaBytes(client: pg.Client, schema: string): Promise<number> {
  const { rows } = await client.query<{ bytes: string | null }>(
    `select sum(pg_total_relation_size(c.oid))::bigint as bytes
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and c.relkind = 'r'`,
    [schema],
  );
  return Number(rows[0]?.bytes ?? 0);
}

/**
 * Each table of the schema vacuumed and analysed, as autovacuum would do in the minutes after the bulk
 * inserts: measured right after, the pages would be planned on an empty database's statistics, and the load
 * runs would share the machine with autovacuum's passes over millions of new rows (decision 0082).
 */
async function vacuumSchema(client: pg.Client, schema: string) {
  const { rows } = await client.query<{ tablename: string }>("select tablename from pg_tables where schemaname = $1", [
    schema,
  ]);
  for (const { tablename } of rows) await client.query(`vacuum (analyze) "${schema}"."${tablename}"`);
}

export interface PostgresDataset {
  name: PostgresName;
  schema: string;
  url: string;
  /** Marie's session cookie in this schema. */
  cookie: string;
  bytes: number;
  /** What Contract D's generator added (none for the demo), and the seconds it took. */
  report: DatasetReport | null;
}

/**
 * The schemas: each migrated and seeded with the demo world (all at once), Marie's session planted; then
 * bench_grown grown (growHistory) and bench_company given its company (generateCompany; left out when
 * `settings.employees` is 0), one after the other; then each vacuumed and analysed, and a checkpoint written. `origins` are the servers' own (the
 * demo's links in messages).
 */
export async function preparePostgres(
  baseUrl: string,
  origins: Record<PostgresName, string>,
  settings: DatasetSettings,
  log: (line: string) => void,
): Promise<PostgresDataset[]> {
  const now = new Date(settings.now);
  const names = (Object.keys(POSTGRES_SCHEMAS) as PostgresName[]).filter(
    (name) => name !== "company" || settings.employees > 0,
  );
  await dropSchemas(baseUrl);
  await withClient(baseUrl, async (client) => {
    for (const name of names) await client.query(`create schema ${POSTGRES_SCHEMAS[name]}`);
  });
  const handles = new Map(names.map((name) => [name, openDatabase(schemaUrl(baseUrl, POSTGRES_SCHEMAS[name]))]));
  const handle = (name: PostgresName) => handles.get(name)!;
  try {
    await Promise.all(names.map((name) => seedDemoWorld(handle(name).db, origins[name], now)));
    log(`demo world seeded in ${names.map((n) => POSTGRES_SCHEMAS[n]).join(", ")}`);
    const cookies = new Map<PostgresName, string>();
    for (const name of names)
      cookies.set(name, await plantSession(handle(name).db, (await marie(handle(name).db)).userId));
    const reports = new Map<PostgresName, DatasetReport>();
    const grown = await growHistory(handle("grown"), {
      ...(await marie(handle("grown").db)),
      payments: settings.growthPayments,
      factor: settings.growthFactor,
      seed: settings.seed,
      now,
      log: (line) => log(`grown: ${line}`),
    });
    reports.set("grown", grown);
    log(`bench_grown: growHistory done in ${grown.seconds.toFixed(0)} s`);
    if (handles.has("company")) {
      const company = await generateCompany(handle("company"), {
        seed: settings.seed,
        employees: settings.employees,
        months: settings.months,
        now,
        log: (line) => log(`company: ${line}`),
      });
      reports.set("company", company);
      log(`bench_company: generateCompany done in ${company.seconds.toFixed(0)} s`);
    }
    return await withClient(baseUrl, async (client) => {
      const datasets: PostgresDataset[] = [];
      const vacuumStarted = performance.now();
      for (const name of names) {
        const schema = POSTGRES_SCHEMAS[name];
        await vacuumSchema(client, schema);
        datasets.push({
          name,
          schema,
          url: schemaUrl(baseUrl, schema),
          cookie: cookies.get(name)!,
          bytes: await schemaBytes(client, schema),
          report: reports.get(name) ?? null,
        });
      }
      // The vacuum's and the inserts' pages written now rather than by the checkpointer during the load runs.
      await client.query("checkpoint").catch((err: unknown) => log(`checkpoint not run: ${String(err)}`));
      log(`schemas vacuumed and analysed in ${((performance.now() - vacuumStarted) / 1000).toFixed(0)} s`);
      return datasets;
    });
  } finally {
    await Promise.all([...handles.values()].map((h) => h.close()));
  }
}
