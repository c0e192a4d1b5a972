import { afterAll, beforeAll, expect, test } from "vitest";
import { testPort, startTestServer, stopTestServer, type TestServer } from "../support/test-server";

/**
 * WEB_CONCURRENCY=2: the real server as a primary and two workers on one SQLite file. The database
 * is prepared once, the rate-limit counts are shared, and SIGTERM stops every process.
 */
const port = testPort(3900, 90);
let server: TestServer;
let base: string;

beforeAll(async () => {
  server = await startTestServer("test-cluster", port, { RATE_LIMIT_SENSITIVE: "3", WEB_CONCURRENCY: "2" });
  base = server.base;
  // /healthz answers once one worker listens; wait for both.
  const deadline = Date.now() + 30_000;
  while (!server.output().includes('"workers":2') && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 100));
}, 60_000);

afterAll(async () => {
  if (server?.process.exitCode === null) server.process.kill("SIGKILL");
});

test("both workers listen and answer from the one database the primary prepared", async () => {
  expect(server.output()).toContain('"workers":2');
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
  expect(await stopTestServer(server)).toBe(0);
  expect(server.output()).toContain("shutting down");
});
