import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

export interface TestServer {
  base: string;
  process: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
}

/**
 * The ports at or above 1024 that fetch refuses to connect to: the Fetch standard's "bad ports" (undici's
 * "fetch failed", cause "bad port"). A server test on one of them never sees its server answer.
 */
const FETCH_BAD_PORTS = new Set([
  1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** A random port of `from` … `from + span - 1` that fetch may reach (each server test file has its range). */
export function testPort(from: number, span: number): number {
  for (;;) {
    const port = from + Math.floor(Math.random() * span);
    if (!FETCH_BAD_PORTS.has(port)) return port;
  }
}

/**
 * The real server (server.ts on the production build) on a loopback port with a fresh SQLite file
 * (or the one a previous start left, with `keepDatabase`), for the server tests; resolves once it
 * answers /healthz. Needs `npm run build` first. One process (tsx as a loader, not its launcher), so
 * that a signal sent to `process` reaches the server itself, SIGKILL included.
 */
export async function startTestServer(
  name: string,
  port: number,
  env: Record<string, string> = {},
  { keepDatabase = false }: { keepDatabase?: boolean } = {},
): Promise<TestServer> {
  if (!existsSync(path.join(root, "build/server/index.js")))
    throw new Error("Run `npm run build` before the server tests");
  const dbFile = path.join(root, `data/${name}.sqlite`);
  if (!keepDatabase) for (const suffix of ["", "-wal", "-shm"]) rmSync(dbFile + suffix, { force: true });
  const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      APP_MODE: "sandbox",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: `file:${dbFile}`,
      LOG_LEVEL: "info",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  const base = `http://127.0.0.1:${port}`;
  const started = Date.now();
  const deadline = started + 50_000;
  // What the last look at /healthz met, said if the server never answers ok (a slow machine, a port taken).
  let last = "no answer yet";
  while (Date.now() < deadline) {
    try {
      const health = await fetch(`${base}/healthz`, {
        headers: { Connection: "close" },
        signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())),
      });
      if (health.ok) return { base, process: child, output: () => output };
      last = `HTTP ${health.status}`;
    } catch (error) {
      // undici says only "fetch failed": its cause (ECONNREFUSED, ECONNRESET…) tells a port not listening from one
      // answering something else.
      const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : "";
      last = error instanceof Error ? `${error.name}: ${error.message}${cause}` : String(error);
    }
    if (child.exitCode !== null || child.signalCode !== null) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const ended = child.exitCode !== null || child.signalCode !== null;
  child.kill("SIGKILL");
  throw new Error(
    `server did not start in ${Date.now() - started} ms (last /healthz: ${last}; ${
      ended ? `the process ended: ${child.exitCode ?? child.signalCode}` : "the process still running"
    }):\n${output}`,
  );
}

/** Stops it with SIGTERM and resolves with its exit code (at once if it already stopped). */
export function stopTestServer(server: TestServer | undefined): Promise<number | null> {
  const stopped = (p: ChildProcess) => p.exitCode !== null || p.signalCode !== null;
  if (!server || stopped(server.process)) return Promise.resolve(server?.process.exitCode ?? null);
  const exited = new Promise<number | null>((resolve) => server.process.once("exit", (code) => resolve(code)));
  server.process.kill("SIGTERM");
  return exited;
}
