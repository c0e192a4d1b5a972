import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { collectGarbage, heapFigures, openWorkerInspectors, writeHeapSnapshot } from "../../scripts/bench/inspector";

/**
 * The bench's window into a worker (scripts/bench/inspector.ts, issue 28 item 7), on a real node process
 * started as the bench starts the server: `--inspect-port` set, no inspector open until SIGUSR1. The
 * process keeps 400,000 small objects reachable and has just dropped 2 M others, so a full garbage
 * collection must free the dropped ones and keep the others.
 */
const PORT = 3890;
const MB = 1024 * 1024;
const CHILD = `
globalThis.kept = Array.from({ length: 4e5 }, (_, i) => ({ i, twice: i * 2 }));
let dropped = Array.from({ length: 2e6 }, (_, i) => ({ i, text: "x" + i }));
dropped = null;
process.stdout.write("ready\\n");
setInterval(() => {}, 1000);
`;

let child: ChildProcess;
let port: number | undefined;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "bench-inspector-"));
  child = spawn(process.execPath, [`--inspect-port=${PORT}`, "-e", CHILD], { stdio: ["ignore", "pipe", "pipe"] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("ready") && resolve());
    child.once("exit", (code) => reject(new Error(`the child exited (${code})`)));
  });
  port = (await openWorkerInspectors([child.pid!], PORT, 0)).get(child.pid!);
});

afterAll(() => {
  child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

test("SIGUSR1 opens the process's inspector on its --inspect-port, found by its process id", () => {
  expect(port).toBe(PORT);
});

test("a full garbage collection frees what was dropped and keeps what is reachable", async () => {
  const before = await heapFigures(port!);
  const after = await collectGarbage(port!);
  // 400,000 kept objects of two fields and their array: about 20 MB on Node 20, over an empty process's 4 MB.
  expect(after.heapUsed).toBeGreaterThan(15 * MB);
  // 2 M dropped objects with a string each: about 140 MB counted before and gone after.
  expect(before.heapUsed - after.heapUsed).toBeGreaterThan(60 * MB);
  expect(after.heapTotal).toBeGreaterThanOrEqual(after.heapUsed);
  expect(after.rss).toBeGreaterThan(after.heapUsed);
});

test("a heap snapshot is written whole, and holds the kept objects", async () => {
  const file = path.join(dir, "child.heapsnapshot");
  await writeHeapSnapshot(port!, file);
  const snapshot = JSON.parse(readFileSync(file, "utf8")) as {
    snapshot: { meta: { node_fields: string[] }; node_count: number };
    nodes: number[];
  };
  expect(snapshot.nodes.length).toBe(snapshot.snapshot.node_count * snapshot.snapshot.meta.node_fields.length);
  expect(snapshot.snapshot.node_count).toBeGreaterThan(4e5);
}, 60_000);
