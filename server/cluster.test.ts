import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";

/**
 * WEB_CONCURRENCY=2: the real server as a primary and two workers on one SQLite file. The database
 * is prepared once, the rate-limit counts are shared, and SIGTERM stops every process.
 */
const root = path.resolve(import.meta.dirname, "..");
const dbFile = path.join(root, "data/test-cluster.sqlite");
const port = 3900 + Math.floor(Math.random() * 90);
const base = `http://127.0.0.1:${port}`;
let server: ChildProcess;
let output = "";

beforeAll(async () => {
  if (!existsSync(path.join(root, "build/server/index.js"))) throw new Error("Run `npm run build` before the server tests");
  for (const suffix of ["", "-wal", "-shm"]) rmSync(dbFile + suffix, { force: true });
  server = spawn(path.join(root, "node_modules/.bin/tsx"), ["server.ts"], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", APP_MODE: "sandbox", PORT: String(port), HOST: "127.0.0.1", DATABASE_URL: `file:${dbFile}`, LOG_LEVEL: "info", RATE_LIMIT_SENSITIVE: "3", WEB_CONCURRENCY: "2" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  server.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  const deadline = Date.now() + 50_000;
  while (Date.now() < deadline) {
    if (output.includes('"workers":2')) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`cluster did not start:\n${output}`);
}, 60_000);

afterAll(() => {
  if (server && server.exitCode === null) server.kill("SIGKILL");
});

test("the workers answer from the one database the primary prepared", async () => {
  // A new connection each time: the primary hands connections to the workers in turn.
  for (let i = 0; i < 10; i++) {
    const res = await fetch(`${base}/healthz`, { headers: { Connection: "close" } });
    expect(res.status).toBe(200);
  }
  expect((await fetch(`${base}/login`, { headers: { Connection: "close" } })).status).toBe(200);
});

test("sign-in attempts are counted across workers", async () => {
  const post = () =>
    fetch(`${base}/login`, {
      method: "POST",
      body: new URLSearchParams({ email: "marie.martin@example.com", password: "Demo-Portail-2026!-wrong" }),
      headers: { Origin: base, Connection: "close" },
      redirect: "manual",
    });
  const statuses = [];
  for (let i = 0; i < 4; i++) statuses.push((await post()).status);
  expect(statuses).toEqual([400, 400, 400, 429]);
});

test("SIGTERM stops the primary and its workers cleanly", async () => {
  const exited = new Promise<number | null>((resolve) => server.once("exit", (code) => resolve(code)));
  server.kill("SIGTERM");
  expect(await exited).toBe(0);
  expect(output).toContain("shutting down");
});
