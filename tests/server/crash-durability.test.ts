import Database from "better-sqlite3";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createTestSchema } from "../support/test-database";
import { signInThroughOutbox, type TestBrowser } from "../support/test-browser";
import { startTestServer, stopTestServer, type TestServer } from "../support/test-server";

/**
 * Issue 18 §5: `kill -9` of the server while it confirms writes. Signed-in people post support messages
 * (each one a form whose success is a redirect with its flash) from several connections at once; the
 * server is killed mid-stream, started again on the same database, and every message that got its
 * success answer is there, once; the restart neither migrates nor seeds again. On SQLite, or on
 * PostgreSQL with TEST_DATABASE_URL (npm test runs both steps). Decision 0041.
 */
const pgUrl = process.env.TEST_DATABASE_URL;
const NAME = "crash-durability";
const PORT = 4432;
const STREAMS = 8;
/** Writes acknowledged before the kill: enough to be sure some were in flight, few enough for seconds. */
const ACKNOWLEDGED_BEFORE_KILL = 120;
const PEOPLE = ["marie.martin@example.com", "claire.petit@example.com"];

let schema: Awaited<ReturnType<typeof createTestSchema>> | undefined;
let env: Record<string, string>;
let server: TestServer | undefined;

/** Rows of the server's database, read beside it (SQLite: read-only; PostgreSQL: the test's schema). */
async function query<T>(text: string): Promise<T[]> {
  if (schema) {
    const client = new pg.Client({ connectionString: schema.url });
    await client.connect();
    try {
      return (await client.query(text)).rows as T[];
    } finally {
      await client.end();
    }
  }
  const db = new Database(path.resolve(import.meta.dirname, `../../data/${NAME}.sqlite`), { readonly: true });
  try {
    return db.prepare(text).all() as T[];
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  if (pgUrl) schema = await createTestSchema(pgUrl);
  env = {
    SESSION_SECRET: "crash-durability-secret-of-at-least-32-characters",
    // The server's writes, not the limiter, are under test.
    RATE_LIMITS: "off",
    ...(schema ? { DATABASE_URL: schema.url } : {}),
  };
  server = await startTestServer(NAME, PORT, env);
}, 60_000);

afterAll(async () => {
  await stopTestServer(server);
  await schema?.drop();
});

test(`every write acknowledged before a kill -9 is there after the restart (${pgUrl ? "PostgreSQL" : "SQLite"})`, async () => {
  const users = await query<{ n: number | string }>("select count(*) as n from users");
  const browsers: TestBrowser[] = [];
  for (const email of PEOPLE) browsers.push(await signInThroughOutbox(server!.base, email));

  const acknowledged: string[] = [];
  let failed = 0;
  let killed = false;
  // Each stream posts until a post fails; the kill comes once enough were acknowledged, so every
  // stream ends cut off mid-post, and an answer that arrives after the kill was sent still counts.
  const stream = async (s: number) => {
    const browser = browsers[s % browsers.length]!;
    for (let i = 0; ; i++) {
      const message = `Message ${s}-${i} avant la panne`;
      let res: Response;
      try {
        res = await browser.post("/support", { message });
      } catch (err) {
        if (!killed) throw err;
        failed += 1;
        return;
      }
      // The success answer: the redirect to the conversation with its "sent" flash.
      if (res.status !== 302) throw new Error(`support post answered ${res.status}`);
      acknowledged.push(message);
      if (acknowledged.length >= ACKNOWLEDGED_BEFORE_KILL && !killed) {
        killed = true;
        server!.process.kill("SIGKILL");
      }
    }
  };
  const exited = new Promise((resolve) => server!.process.once("exit", (_code, signal) => resolve(signal)));
  await Promise.all(Array.from({ length: STREAMS }, (_, s) => stream(s)));
  expect(await exited).toBe("SIGKILL");
  expect(acknowledged.length).toBeGreaterThanOrEqual(ACKNOWLEDGED_BEFORE_KILL);
  expect(failed).toBe(STREAMS);

  server = await startTestServer(NAME, PORT, env, { keepDatabase: true });
  expect(server.output()).not.toContain("demo data created");
  expect(await (await fetch(`${server.base}/healthz`)).json()).toMatchObject({ status: "ok" });
  expect(await query("select count(*) as n from users")).toEqual(users);

  const stored = await query<{ body: string; n: number | string }>(
    "select body, count(*) as n from support_messages where author = 'user' and body like 'Message %' group by body",
  );
  const count = new Map(stored.map((r) => [r.body, Number(r.n)]));
  const missing = acknowledged.filter((m) => !count.has(m));
  expect(missing).toEqual([]);
  expect(stored.every((r) => Number(r.n) === 1)).toBe(true);
  // The same sessions still work on the restarted server.
  expect((await browsers[0]!.get("/support")).status).toBe(200);
}, 60_000);
