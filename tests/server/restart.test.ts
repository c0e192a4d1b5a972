import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, expect, test } from "vitest";
import { testPort, startTestServer, stopTestServer, type TestServer } from "../support/test-server";

/**
 * Issue 28 §6, decision 0048, on the built server with WEB_CONCURRENCY=2: a worker killed with SIGKILL is
 * replaced by the primary and the service answers again within a few seconds (a second young death waits
 * longer: the back-off against a crash loop); the primary killed with SIGKILL takes its workers with it
 * within a few seconds (and any helper process), nothing is left listening, and the service starts again on the same port and
 * database, as the supervisor (Docker's restart policy, systemd's Restart=always) would start it.
 */
const NAME = "test-restart";
// Above PostgreSQL's 5432, which the PostgreSQL run of `npm test` leaves listening on this machine.
const port = testPort(5500, 90);
let server: TestServer;

/** A process's children that still run. */
function childrenOf(parent: number): number[] {
  try {
    return execFileSync("ps", ["-o", "pid=", "--ppid", String(parent)], { encoding: "utf8" })
      .split("\n")
      .map((line) => Number(line.trim()))
      .filter((pid) => pid > 0 && alive(pid));
  } catch {
    return []; // ps exits 1 when there are none
  }
}

/** The worker processes of a primary: its children that node:cluster started (NODE_UNIQUE_ID), not its other helpers. */
function workerPids(primary: number): number[] {
  return childrenOf(primary).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/environ`, "utf8")
        .split("\0")
        .some((v) => v.startsWith("NODE_UNIQUE_ID="));
    } catch {
      return false;
    }
  });
}

/** Every process below this one (the workers, and any helper process of the primary or of a worker). */
function descendantsOf(pid: number): number[] {
  return childrenOf(pid).flatMap((child) => [child, ...descendantsOf(child)]);
}

/** A process that still runs (a zombie waiting for a parent to read its end has stopped). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** Ten new connections in a row answered 200 by /healthz (the primary hands connections to the workers in turn). */
async function answers(): Promise<boolean> {
  try {
    for (let i = 0; i < 10; i++) {
      const res = await fetch(`${server.base}/healthz`, {
        headers: { Connection: "close" },
        signal: AbortSignal.timeout(1_000),
      });
      if (res.status !== 200) return false;
    }
    return true;
  } catch {
    return false;
  }
}

async function waitFor(condition: () => boolean | Promise<boolean>, ms: number): Promise<number> {
  const start = Date.now();
  while (Date.now() - start < ms) {
    if (await condition()) return Date.now() - start;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not within ${ms} ms`);
}

async function startCluster(keepDatabase: boolean) {
  server = await startTestServer(NAME, port, { WEB_CONCURRENCY: "2" }, { keepDatabase });
  await waitFor(() => server.output().includes('"workers":2'), 30_000);
}

beforeAll(() => startCluster(false), 60_000);

afterAll(async () => {
  await stopTestServer(server);
});

test("a worker killed with SIGKILL is replaced: the service answers again within a few seconds, from a new worker", async () => {
  const primary = server.process.pid!;
  const before = workerPids(primary);
  expect(before).toHaveLength(2);

  process.kill(before[0]!, "SIGKILL");
  // The other worker keeps answering; the replacement is started and takes its share of connections.
  expect(await waitFor(answers, 5_000)).toBeLessThan(5_000);
  const replaced = await waitFor(() => {
    const now = workerPids(primary);
    return now.length === 2 && !now.includes(before[0]!);
  }, 5_000);
  expect(replaced).toBeLessThan(5_000);
  const replacement = workerPids(primary).find((pid) => !before.includes(pid))!;
  await waitFor(() => server.output().includes(`"worker listening","pid":${replacement}`), 15_000);
  expect(await answers()).toBe(true);
  expect(server.output()).toMatch(
    new RegExp(`worker stopped, starting another","pid":${before[0]},"exit":null,"signal":"SIGKILL"`),
  );
  expect(server.output()).toContain(`"worker started","pid":${replacement}`);

  // Killed again while young: the back-off doubles the wait, and the service still comes back.
  process.kill(replacement, "SIGKILL");
  await waitFor(() => {
    const now = workerPids(primary);
    return now.length === 2 && !now.includes(replacement);
  }, 5_000);
  expect(await waitFor(answers, 5_000)).toBeLessThan(5_000);
  const waits = [...server.output().matchAll(/worker stopped, starting another.*"delayMs":(\d+)/g)].map((m) =>
    Number(m[1]),
  );
  expect(waits).toHaveLength(2);
  expect(waits[1]).toBeGreaterThan(waits[0]!);
}, 40_000);

test("the primary killed with SIGKILL: its workers stop within a few seconds, nothing listens, and it starts again", async () => {
  const primary = server.process.pid!;
  expect(workerPids(primary)).toHaveLength(2);
  const below = descendantsOf(primary);
  const exited = new Promise((resolve) => server.process.once("exit", resolve));
  process.kill(primary, "SIGKILL");
  await exited;

  // Nothing of the service is left running: no orphan worker, nor any helper process of theirs.
  const elapsed = await waitFor(() => below.every((pid) => !alive(pid)), 5_000);
  expect(elapsed).toBeLessThan(5_000);
  // No orphan holds the port: a connection is refused.
  await expect(fetch(`${server.base}/healthz`, { signal: AbortSignal.timeout(1_000) })).rejects.toThrow();
  expect(server.output()).toContain("primary gone, worker stopping");

  // What the supervisor does next: the same command on the same port and database, answering again.
  await startCluster(true);
  expect(await answers()).toBe(true);
  expect(workerPids(server.process.pid!)).toHaveLength(2);
}, 60_000);
