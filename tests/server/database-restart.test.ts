import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { userInfo } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { signInThroughOutbox, type TestBrowser } from "../support/test-browser";
import { startTestServer, stopTestServer, type TestServer } from "../support/test-server";

/**
 * Issue 18 §5: PostgreSQL restarted during traffic. A private PostgreSQL instance (its own data folder
 * and port: stopping the machine's shared one would break the other test files), the built server on it;
 * while requests flow, PostgreSQL stops: pages answer the French error page, /healthz says degraded,
 * the process stays up; PostgreSQL starts again and the server recovers by itself, same session.
 * Decision 0041.
 */
const PG_PORT = 4450;
const PORT = 4434;
/** initdb and pg_ctl refuse to run as root: as the `postgres` user when the tests run as root. */
const asRoot = userInfo().uid === 0;

/** The newest installed PostgreSQL's server programs (Debian: /usr/lib/postgresql/<major>/bin), or on the PATH. */
function postgresBin(): string {
  const root = "/usr/lib/postgresql";
  const majors = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(`${root}/${v}/bin/pg_ctl`))
        .sort((x, y) => Number(y) - Number(x))
    : [];
  if (majors[0]) return `${root}/${majors[0]}/bin`;
  try {
    return path.dirname(execFileSync("sh", ["-c", "command -v pg_ctl"]).toString().trim());
  } catch {
    throw new Error(
      "PostgreSQL's server programs (initdb, pg_ctl) are not installed: scripts/ensure-postgres.sh installs them",
    );
  }
}

function pgTool(tool: string, args: string[]): void {
  const program = `${postgresBin()}/${tool}`;
  const command = asRoot ? "runuser" : program;
  const argv = asRoot ? ["-u", "postgres", "--", program, ...args] : args;
  execFileSync(command, argv, { stdio: "ignore", timeout: 30_000 });
}

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  "PostgreSQL restarted during traffic (needs PostgreSQL installed: skipped without TEST_DATABASE_URL, run by npm test's PostgreSQL step; it starts a private instance of its own)",
  () => {
    let dir: string;
    let server: TestServer | undefined;
    const data = () => path.join(dir, "data");
    const startPostgres = () =>
      pgTool("pg_ctl", [
        "-D",
        data(),
        "-l",
        path.join(dir, "log"),
        "-o",
        `-p ${PG_PORT} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
        "-w",
        "start",
      ]);
    const stopPostgres = () => pgTool("pg_ctl", ["-D", data(), "-m", "fast", "-w", "stop"]);

    beforeAll(async () => {
      dir = mkdtempSync("/tmp/portal-pg-restart-");
      if (asRoot) {
        const uid = Number(execFileSync("id", ["-u", "postgres"]).toString());
        const gid = Number(execFileSync("id", ["-g", "postgres"]).toString());
        chownSync(dir, uid, gid);
      }
      pgTool("initdb", ["-D", data(), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
      startPostgres();
      server = await startTestServer("database-restart", PORT, {
        DATABASE_URL: `postgres://postgres@127.0.0.1:${PG_PORT}/postgres`,
        SESSION_SECRET: "database-restart-secret-of-at-least-32-characters",
        // Rate limits on, as in production: their counts live in this PostgreSQL too.
      });
    }, 90_000);

    afterAll(async () => {
      await stopTestServer(server);
      if (dir && existsSync(path.join(data(), "postmaster.pid")))
        pgTool("pg_ctl", ["-D", data(), "-m", "immediate", "-w", "stop"]);
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    /** The French error page, whole: its title and text, no stack trace, no React Router English. */
    function expectFrenchErrorPage(html: string) {
      expect(html).toContain('<html lang="fr"');
      expect(html).toContain("Une erreur est survenue");
      expect(html).not.toMatch(/\bat .+:\d+:\d+|Error:|ECONNREFUSED|Unexpected Application Error|stack/i);
    }

    test("requests fail with the French error page, /healthz says degraded, the process stays up; it recovers by itself", async () => {
      const marie: TestBrowser = await signInThroughOutbox(server!.base, "marie.martin@example.com");
      const cardPath = (await marie.get("/cards")).headers.get("location") ?? "";
      expect(cardPath).toMatch(/^\/cards\/[\w-]+$/);
      expect((await marie.get(cardPath)).status).toBe(200);

      // Traffic from a few connections all along: every request gets an answer (a page or the error page).
      let running = true;
      const answers: number[] = [];
      const traffic = Promise.all(
        Array.from({ length: 4 }, async () => {
          while (running) {
            answers.push((await marie.get(cardPath)).status);
            await new Promise((r) => setTimeout(r, 20));
          }
        }),
      );

      await new Promise((r) => setTimeout(r, 300));
      stopPostgres();
      // The pool's idle connections were cut: time for their errors to arrive (they must not end the process).
      await new Promise((r) => setTimeout(r, 500));

      const page = await marie.get(cardPath);
      expect(page.status).toBeGreaterThanOrEqual(500);
      expectFrenchErrorPage(await page.text());
      const write = await marie.post(`${cardPath}/freeze`, { intent: "freeze" });
      expect(write.status).toBeGreaterThanOrEqual(500);
      expectFrenchErrorPage(await write.text());
      const health = await fetch(`${server!.base}/healthz`);
      expect(health.status).toBe(503);
      expect(await health.json()).toEqual({ status: "degraded", database: "unreachable" });
      expect(server!.process.exitCode).toBeNull();
      expect(server!.process.signalCode).toBeNull();

      startPostgres();
      const back = Date.now();
      let healthy = false;
      while (!healthy && Date.now() - back < 10_000) {
        healthy = (await fetch(`${server!.base}/healthz`)).status === 200;
        if (!healthy) await new Promise((r) => setTimeout(r, 100));
      }
      const recoveredInMs = Date.now() - back;
      expect(healthy).toBe(true);
      expect(recoveredInMs).toBeLessThan(5_000);
      running = false;
      await traffic;

      // The same session, signed in before the outage, works again.
      const after = await marie.get(cardPath);
      expect(after.status).toBe(200);
      expect(await after.text()).toContain("4242");
      // Traffic saw pages before, error pages during, nothing else (no dropped connection, no 4xx).
      expect(answers).toContain(200);
      expect(answers.some((s) => s >= 500)).toBe(true);
      expect(answers.every((s) => s === 200 || s >= 500)).toBe(true);
      expect(server!.process.exitCode).toBeNull();
      expect(server!.output()).toContain("database connection lost");
    }, 45_000);
  },
);
