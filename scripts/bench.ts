/**
 * `npm run bench`: checks the production build against the budgets of DESIGN.md §6, in one run.
 *
 * Prepares a fresh SQLite file before the server starts: the demo world (as the server makes it on an
 * empty sandbox database) and, for the soak, 50 copies of Marie (seed.ts `seedMarieCopy`, as the e2e
 * fixtures make them) with a signed-in session planted for each (the fixtures' `signInAs`), signed with a
 * bench-only SESSION_SECRET given to the server. Then starts the built portal (2 workers, as on the
 * 2-core machine of the budget) on 127.0.0.1, request limits lifted (RATE_LIMITS=off), signs in as Marie
 * (the richest account) through the plain HTML forms with the code from the sandbox outbox, and measures:
 * - the JavaScript and CSS shipped (gzip -9), the HTML of the card, wallets and refunds pages;
 * - with autocannon, each run after the same load not counted: the public /login page (the portal's
 *   floor), Marie's card •••• 4242 at 20 and 50 connections and the wallets page at 20; then, as a
 *   reference, the framework alone (scripts/bench/floor: a one-route React Router app built from the same
 *   packages and served the same way, on BENCH_PORT + 1) at 20 and 50;
 * - with Lighthouse (scripts/bench/lighthouse.ts: mobile, simulated slow 4G, 4× CPU, Debian's Chromium):
 *   the card, wallets and refunds pages signed in as Marie and /login, each BENCH_LIGHTHOUSE_RUNS times
 *   (median reported): performance score, LCP, JavaScript transferred;
 * - the light version (Save-Data: on): the card page's HTML + CSS, its script elements, its Lighthouse LCP;
 * - the soak (scripts/bench/soak.ts): 50 signed-in people, each on their own account, for
 *   BENCH_SOAK_SECONDS on a walk of pages and form posts: errors and the server's memory; each worker's
 *   resident set and V8 heap (through its inspector, scripts/bench/inspector.ts) before the soak, right
 *   after it, after BENCH_SOAK_IDLE_SECONDS without a request, and after a full garbage collection
 *   (decision 0050).
 * Every budget is printed on one line with its measured value and a ✓/✗ mark. Budgets are reported, not
 * enforced: the exit code is 0 unless the build is missing or the server, the sign-in or a measuring tool
 * fails (a soak error is a failed budget, not a failed bench).
 *
 * Needs `npm run build` first. Traffic goes to 127.0.0.1 only. 1 KB = 1024 bytes.
 * Settings: BENCH_PORT (3300), BENCH_SECONDS (10, each autocannon run), BENCH_WARM_SECONDS (5, the load
 * before each run), BENCH_LIGHTHOUSE_RUNS (3),
 * BENCH_SOAK_SECONDS (60), BENCH_SOAK_PEOPLE (50), BENCH_SOAK_IDLE_SECONDS (60), BENCH_SOAK_ROUNDS (1: soaks,
 * each with its idle time, back to back), BENCH_INSPECT_PORT (BENCH_PORT + 20, the primary's; workers take the
 * next ones), WEB_CONCURRENCY (2), CHROMIUM_PATH (/usr/bin/chromium). For the memory investigation:
 * BENCH_ONLY=soak (the soak alone on a fresh server), BENCH_HEAP_SNAPSHOTS=<folder> (heap snapshots of each
 * worker before, after the warming and after each idle time, to compare with scripts/bench/heap-diff.ts; a
 * snapshot leaves the worker's malloc heap larger, so its resident-set figures are not the bench's),
 * BENCH_SMAPS=<folder> (/proc/<worker>/smaps at each memory point).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import http, { type IncomingHttpHeaders, type OutgoingHttpHeaders } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync, gzipSync } from "node:zlib";
import { migrateToLatest, openDatabase } from "../app/.server/db";
import {
  DEMO_PASSWORD,
  registerDemoCards,
  registerDemoPayments,
  seedDemo,
  seedMarieCopy,
} from "../app/.server/db/seed";
import { hashPassword } from "../app/.server/passwords";
import fr from "../locales/fr/translation.json" with { type: "json" };
import { SandboxIssuer } from "../app/.server/providers/issuer/sandbox";
import { SandboxMessenger } from "../app/.server/providers/messaging/sandbox";
import { SandboxPaymentProcessor } from "../app/.server/providers/payments/sandbox";
import { createDatabaseSessionStorage } from "../app/.server/session";
import {
  LighthouseSetupError,
  measurePages,
  median,
  type LighthousePage,
  type LighthouseRun,
} from "./bench/lighthouse";
import {
  collectGarbage,
  heapFigures,
  openWorkerInspectors,
  writeHeapSnapshot,
  type HeapFigures,
} from "./bench/inspector";
import {
  meanRss,
  memoryMeasurable,
  memoryPoint,
  servingPids,
  soak,
  TIMEOUT_SECONDS,
  warmUp,
  type MemoryPoint,
  type SoakPerson,
} from "./bench/soak";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const HOST = "127.0.0.1";
const PORT = Number(process.env.BENCH_PORT ?? 3300);
const ORIGIN = `http://${HOST}:${PORT}`;
const DB_FILE = path.join(root, "data/bench.sqlite");
const MARIE = "marie.martin@example.com";
const CARD_LAST4 = "4242";
const WALLETS = "/wallets";
const PASSWORD = DEMO_PASSWORD;
const REFUNDS = "/plans/expense-requests";
/** Known to the server (its SESSION_SECRET) and to this script, which plants the soak's sessions. Bench-only. */
const SESSION_SECRET = "bench-only-session-secret-never-on-a-real-server";
/** The sandbox issuer's key, as the server reads it (env.ts SANDBOX_ISSUER_KEY_FILE's default). */
const ISSUER_KEY_FILE = path.join(root, "data/sandbox-issuer.key");

/**
 * Each measured run follows `warmSeconds` of the same load, not counted: a worker's JIT compiles the hot
 * paths over its first thousands of requests, and a page measured cold (20 requests of warm-up, as the
 * bench did before) answered up to 40 % slower than the same page a minute later, which flattered the
 * card/floor ratio because the floor was measured first.
 */
const LOAD = {
  durationSeconds: Number(process.env.BENCH_SECONDS ?? 10),
  warmSeconds: Number(process.env.BENCH_WARM_SECONDS ?? 5),
};
/** As deployed on the 2-core machine of the budget: one worker per core (decision 0013); WEB_CONCURRENCY overrides. */
const WORKERS = process.env.WEB_CONCURRENCY ?? "2";
const BUDGET_KB = { js: 130, css: 15, html: 30 };
const BUDGET_MS = { p95At20: 50, p99At50: 100 };
const BUDGET_RATIO = 0.5;
const LIGHTHOUSE = {
  runs: Math.max(1, Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3)),
  score: 100,
  lcpMs: 1500,
};
/** Issue 18 item 3: the light version (Save-Data: on). */
const LIGHT = { htmlCssKb: 30, lcpMs: 1000 };
/**
 * Issue 18 item 6. Memory "does not grow" when the mean resident set of the last 10 s is at most 10 % above
 * that of the first 10 s (after a warm-up round): V8 grows its heaps in steps and gives memory back lazily,
 * so the resident set of a healthy server moves by several percent within a minute; a leak of the size
 * that matters (kilobytes kept per request, tens of thousands of requests a minute) shows beyond that.
 */
const SOAK = {
  people: Number(process.env.BENCH_SOAK_PEOPLE ?? 50),
  seconds: Number(process.env.BENCH_SOAK_SECONDS ?? 60),
  /**
   * The same load, not measured, before the 60 s: a worker's heap grows to this load's working set in its
   * first 15 s or so (from about 350 to about 600 MB), which is not a leak; growth after that is.
   */
  warmSeconds: Number(process.env.BENCH_SOAK_WARM_SECONDS ?? 20),
  window: 10,
  growth: 1.1,
  /** Issue 28 item 7: how long the server idles after the soak before its memory is read again. */
  idleSeconds: Number(process.env.BENCH_SOAK_IDLE_SECONDS ?? 60),
  /** Soaks (each followed by its idle time) back to back: the second shows whether memory keeps growing. */
  rounds: Number(process.env.BENCH_SOAK_ROUNDS ?? 1),
};
/**
 * Where the server's inspectors would listen (`--inspect-port`, which opens nothing by itself): the
 * primary's port, its workers' the next ones up. The bench opens the workers' (SIGUSR1) for the soak's
 * heap figures and its full garbage collection (scripts/bench/inspector.ts).
 */
const INSPECT_PORT = Number(process.env.BENCH_INSPECT_PORT ?? PORT + 20);
/** A folder: heap snapshots of each worker after the soak's warming and after its idle minute (for diffing). */
const SNAPSHOT_DIR = process.env.BENCH_HEAP_SNAPSHOTS;
/** A folder: /proc/<worker>/smaps at each of the soak's memory points (BENCH_HEAP_SNAPSHOTS' snapshots change them). */
const SMAPS_DIR = process.env.BENCH_SMAPS;
/** `soak`: only the soak, with its memory figures, on the fresh server (no load runs, no Lighthouse). */
const ONLY = process.env.BENCH_ONLY;

/** autocannon ships no types: what this script uses of it (as scripts/bench-webhook.ts). */
interface CannonResult {
  latency: { p50: number; p97_5: number; p99: number; max: number };
  requests: { average: number; total: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (
  options: { url: string; connections: number; duration: number; headers: Record<string, string> },
  done: (err: unknown, result: CannonResult) => void,
) => { on(event: "response", listener: (client: object, status: number, bytes: number, ms: number) => void): void };
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

class BenchError extends Error {}

// ---------------------------------------------------------------------------------------------
// HTTP (node:http, so that headers such as Origin are sent as given and bodies are not decoded)

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const benchAgent = new http.Agent({ keepAlive: true, maxSockets: 8 });

function request(
  urlPath: string,
  options: { method?: string; headers?: OutgoingHttpHeaders; body?: string; port?: number } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: HOST,
        port: options.port ?? PORT,
        path: urlPath,
        method: options.method ?? "GET",
        headers: options.headers,
        agent: benchAgent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.setTimeout(30_000, () => req.destroy(new Error(`timeout on ${urlPath}`)));
    req.end(options.body);
  });
}

/** A one-origin cookie jar: name → value, from Set-Cookie headers. */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  store(headers: IncomingHttpHeaders) {
    for (const line of headers["set-cookie"] ?? []) {
      const [pair = ""] = line.split(";");
      const eq = pair.indexOf("=");
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === "" || /max-age=0\b/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

const pathOf = (location: string | undefined) =>
  location ? new URL(location, ORIGIN).pathname + new URL(location, ORIGIN).search : "";

// ---------------------------------------------------------------------------------------------
// The server

function checkBuild() {
  const serverEntry = path.join(root, "build/server/index.js");
  const assets = path.join(root, "build/client/assets");
  if (!existsSync(serverEntry) || !existsSync(assets)) {
    throw new BenchError(
      "No production build found (build/server/index.js, build/client/assets). Run `npm run build` first.",
    );
  }
  // A build older than the sources measures yesterday's code: say so, but go on.
  const built = statSync(serverEntry).mtimeMs;
  const newest = (dir: string): number =>
    readdirSync(dir, { withFileTypes: true }).reduce((max, entry) => {
      const full = path.join(dir, entry.name);
      const time = entry.isDirectory() ? newest(full) : statSync(full).mtimeMs;
      return Math.max(max, time);
    }, 0);
  const sources = Math.max(newest(path.join(root, "app")), newest(path.join(root, "locales")));
  if (sources > built)
    console.warn("⚠ build/ is older than app/ or locales/: run `npm run build` to measure the current code.\n");
}

function removeDatabase() {
  for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(DB_FILE + suffix, { force: true });
}

interface RunningServer {
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

/** One of the soak's people, as the database knows them before the server starts. */
interface SoakAccount {
  email: string;
  cookie: string;
  cardId: string;
  walletId: string;
}

/**
 * The database the server will find: the demo world, as the server makes it on an empty sandbox database
 * (platform.ts: seed, then the sandbox issuer's and processor's records), and the soak's people, each a copy
 * of Marie (the e2e fixtures' `makeMarie`) with a signed-in session planted (the fixtures' `signInAs`).
 */
async function prepareDatabase(people: number): Promise<SoakAccount[]> {
  removeDatabase();
  const handle = openDatabase(`file:${DB_FILE}`);
  try {
    const { db } = handle;
    await migrateToLatest(db);
    await seedDemo(db, new SandboxMessenger(db), { now: new Date(), baseUrl: ORIGIN });
    const issuer = new SandboxIssuer(db, ISSUER_KEY_FILE);
    const processor = new SandboxPaymentProcessor(db);
    await registerDemoCards(db, issuer);
    await registerDemoPayments(db, processor);

    const passwordHash = await hashPassword(PASSWORD);
    const sessions = createDatabaseSessionStorage(db, { APP_MODE: "sandbox", sessionSecrets: [SESSION_SECRET] });
    const accounts: SoakAccount[] = [];
    for (let i = 1; i <= people; i++) {
      const email = `soak-${String(i).padStart(2, "0")}@example.com`;
      const userId = await seedMarieCopy(db, { email, passwordHash, now: new Date() });
      await registerDemoCards(db, issuer, userId);
      await registerDemoPayments(db, processor, userId);
      const card = await db
        .selectFrom("cards")
        .select("id")
        .where("user_id", "=", userId)
        .where("last_four", "=", CARD_LAST4)
        .executeTakeFirstOrThrow();
      const wallet = await db
        .selectFrom("wallets")
        .select("id")
        .where("user_id", "=", userId)
        .orderBy("created_at")
        .orderBy("id")
        .executeTakeFirstOrThrow();
      const session = await sessions.getSession();
      session.set("userId", userId);
      const setCookie = await sessions.commitSession(session);
      accounts.push({
        email,
        cookie: setCookie.slice(0, setCookie.indexOf(";")),
        cardId: card.id,
        walletId: wallet.id,
      });
    }
    return accounts;
  } finally {
    await handle.close();
  }
}

function startServer(): RunningServer {
  return spawnServer(["--import", "tsx", `--inspect-port=${INSPECT_PORT}`, "server.ts"], {
    NODE_ENV: "production",
    APP_MODE: "sandbox",
    HOST,
    PORT: String(PORT),
    DATABASE_URL: `file:${path.relative(root, DB_FILE)}`,
    LOG_LEVEL: "warn",
    PUBLIC_URL: ORIGIN,
    // The soak's sessions were signed by this script (prepareDatabase).
    SESSION_SECRET,
    // A load measurement: no request limit, so the bench measures the server and not the limiter
    // (the per-account guess limits stay; the bench signs in once).
    RATE_LIMITS: "off",
    WEB_CONCURRENCY: WORKERS,
  });
}

/** A node process of the bench (a server, or a build), its last 200 lines of output kept for a failure's message. */
function spawnServer(args: string[], env: NodeJS.ProcessEnv, cwd = root): RunningServer {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(...chunk.toString("utf8").split("\n").filter(Boolean));
    if (output.length > 200) output.splice(0, output.length - 200);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output, exited };
}

/** Waits until the server answers 200 on `urlPath` (its health check by default), at `port`. */
async function waitForHealth(server: RunningServer, timeoutMs = 60_000, urlPath = "/healthz", port = PORT) {
  const deadline = Date.now() + timeoutMs;
  let exitCode: number | null | undefined;
  void server.exited.then((code) => (exitCode = code));
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new BenchError(`the server exited (code ${exitCode}) before it was ready`);
    try {
      const reply = await request(urlPath, { port });
      if (reply.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new BenchError(`the server did not answer ${urlPath} within ${timeoutMs / 1000} s`);
}

async function stopServer(server: RunningServer) {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill("SIGTERM");
  const timer = setTimeout(() => server.child.kill("SIGKILL"), 15_000);
  await server.exited;
  clearTimeout(timer);
}

// ---------------------------------------------------------------------------------------------
// The framework alone (scripts/bench/floor): what this machine gives a one-route React Router app

const FLOOR_DIR = path.join(root, "scripts/bench/floor");
const FLOOR_PORT = PORT + 1;

/**
 * Builds and starts the floor app: one route, one loader, one form, on Express with the portal's
 * compression and worker count, built from the portal's own packages. Its figures say how much of a
 * budget the machine and the framework leave to the portal (/login is the portal's own floor).
 */
async function startFrameworkFloor(): Promise<RunningServer> {
  const build = spawnServer(
    [path.join(root, "node_modules/@react-router/dev/bin.js"), "build"],
    { NODE_ENV: "production" },
    FLOOR_DIR,
  );
  if ((await build.exited) !== 0)
    throw new BenchError(`the framework floor did not build:\n${build.output.slice(-40).join("\n")}`);
  const floor = spawnServer(["--import", "tsx", path.join(FLOOR_DIR, "server.ts")], {
    NODE_ENV: "production",
    HOST,
    PORT: String(FLOOR_PORT),
    WEB_CONCURRENCY: WORKERS,
  });
  try {
    await waitForHealth(floor, 30_000, "/", FLOOR_PORT);
    return floor;
  } catch (err) {
    await stopServer(floor);
    throw new BenchError(
      `the framework floor did not start (${err instanceof Error ? err.message : String(err)}):\n${floor.output.slice(-40).join("\n")}`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// HTML inspection (regular expressions are enough for the markup React renders)

function attributes(tag: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const m of tag.matchAll(/([\w:-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
    const name = m[1];
    if (name) attrs[name.toLowerCase()] = m[2] ?? m[3] ?? m[4] ?? "";
  }
  return attrs;
}

const decode = (text: string) =>
  text
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&apos;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&");

const textOf = (html: string) =>
  decode(html.replace(/<[^>]*>/g, " "))
    .replace(/\s+/g, " ")
    .trim();

function firstH1(html: string): string | null {
  const m = /<h1\b[^>]*>([\s\S]*?)<\/h1>/i.exec(html);
  return m ? textOf(m[1] ?? "") : null;
}

interface HtmlForm {
  method: string;
  action: string | undefined;
  inner: string;
}

function formsOf(html: string): HtmlForm[] {
  return [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)].map((m) => {
    const attrs = attributes(m[1] ?? "");
    return { method: (attrs.method ?? "get").toLowerCase(), action: attrs.action, inner: m[2] ?? "" };
  });
}

/** Assets the HTML makes the browser load: script src, modulepreload, stylesheets, and the imports of inline module scripts. */
function assetsOf(
  html: string,
  pageUrl: string,
): { scripts: Set<string>; styles: Set<string>; inlineScriptBytes: number } {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  const local = (ref: string) => {
    const url = new URL(decode(ref), pageUrl);
    return url.origin === ORIGIN ? url.pathname : null;
  };
  let inlineScriptBytes = 0;
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attrs = attributes(m[1] ?? "");
    if (attrs.src) {
      const src = local(attrs.src);
      if (src) scripts.add(src);
      continue;
    }
    const body = m[2] ?? "";
    inlineScriptBytes += Buffer.byteLength(body);
    // React Router's bootstrap, sent inside the small script that starts it after the first paint
    // (app/.server/scripts-after-paint.ts): the scripts it preloads are the ones the page loads.
    const preloads = /(\[(?:"\/assets\/[^"]+\.js",?)*\])\.forEach/.exec(body)?.[1];
    for (const ref of preloads ? (JSON.parse(preloads) as string[]) : []) {
      const src = local(ref);
      if (src) scripts.add(src);
    }
  }
  for (const m of html.matchAll(/<link\b([^>]*)>/gi)) {
    const attrs = attributes(m[1] ?? "");
    const rel = (attrs.rel ?? "").toLowerCase().split(/\s+/);
    const href = attrs.href ? local(attrs.href) : null;
    if (!href) continue;
    if (rel.includes("modulepreload") || (rel.includes("preload") && attrs.as === "script")) scripts.add(href);
    if (rel.includes("stylesheet")) styles.add(href);
  }
  return { scripts, styles, inlineScriptBytes };
}

// ---------------------------------------------------------------------------------------------
// Measurements

interface Asset {
  path: string;
  raw: number;
  gzip: number;
  /** Loaded through another script's static import, not named by the HTML. */
  indirect: boolean;
}

const gzipSize = (data: Buffer | string) => gzipSync(data, { level: 9 }).length;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const sum = (assets: Asset[], key: "raw" | "gzip") => assets.reduce((total, a) => total + a[key], 0);

async function fetchAsset(assetPath: string): Promise<Buffer> {
  const reply = await request(assetPath, { headers: { "Accept-Encoding": "identity" } });
  if (reply.status !== 200) throw new BenchError(`${assetPath} answered ${reply.status}`);
  return reply.body;
}

/** Every script of the page, following static `import … from "./x.js"` (not dynamic `import()`). */
async function measureScripts(entries: Set<string>): Promise<Asset[]> {
  const seen = new Map<string, Asset>();
  const queue = [...entries].map((p) => ({ path: p, indirect: false }));
  while (queue.length > 0) {
    const next = queue.shift()!;
    if (seen.has(next.path)) continue;
    const body = await fetchAsset(next.path);
    seen.set(next.path, { path: next.path, raw: body.length, gzip: gzipSize(body), indirect: next.indirect });
    for (const m of body.toString("utf8").matchAll(/\b(?:import|from)\s*["'](\.{1,2}\/[^"']+\.js|\/[^"']+\.js)["']/g)) {
      const target = new URL(m[1] ?? "", ORIGIN + next.path).pathname;
      if (!seen.has(target)) queue.push({ path: target, indirect: !entries.has(target) });
    }
  }
  return [...seen.values()].sort((a, b) => b.gzip - a.gzip);
}

async function measureStyles(paths: Iterable<string>): Promise<Asset[]> {
  const assets: Asset[] = [];
  for (const p of paths) {
    const body = await fetchAsset(p);
    assets.push({ path: p, raw: body.length, gzip: gzipSize(body), indirect: false });
  }
  return assets.sort((a, b) => b.gzip - a.gzip);
}

/** All the CSS the build ships, whichever page links it. */
function allBuiltCss(): Asset[] {
  const dir = path.join(root, "build/client/assets");
  return readdirSync(dir)
    .filter((name) => name.endsWith(".css"))
    .map((name) => {
      const body = readFileSync(path.join(dir, name));
      return { path: `/assets/${name}`, raw: body.length, gzip: gzipSize(body), indirect: false };
    })
    .sort((a, b) => b.gzip - a.gzip);
}

/** What React Router's browser manifest says of a route (build/client/assets/manifest-*.js). */
interface ManifestRoute {
  parentId?: string;
  module: string;
  imports?: string[];
  clientActionModule?: string;
  clientLoaderModule?: string;
  clientMiddlewareModule?: string;
  hydrateFallbackModule?: string;
}

/**
 * The JavaScript every route of the build loads, gzip -9, from the build's own manifest: the client entry,
 * then the route and each of its parents, with the modules each imports. The pages the bench opens are four;
 * the budget is for any page.
 */
function jsByRoute(): { id: string; gzip: number }[] {
  const dir = path.join(root, "build/client/assets");
  const file = readdirSync(dir).find((name) => /^manifest-[\w-]+\.js$/.test(name));
  if (!file) throw new BenchError("build/client/assets has no React Router manifest");
  const text = readFileSync(path.join(dir, file), "utf8");
  const manifest = JSON.parse(text.slice(text.indexOf("=") + 1).replace(/;\s*$/, "")) as {
    entry: { module: string; imports: string[] };
    routes: Record<string, ManifestRoute>;
  };
  const sizes = new Map<string, number>();
  const gzipOf = (asset: string) => {
    let size = sizes.get(asset);
    if (size === undefined) sizes.set(asset, (size = gzipSize(readFileSync(path.join(root, "build/client", asset)))));
    return size;
  };
  return Object.keys(manifest.routes)
    .map((id) => {
      const files = new Set([manifest.entry.module, ...manifest.entry.imports]);
      for (let route = manifest.routes[id]; route; route = route.parentId ? manifest.routes[route.parentId] : undefined)
        for (const asset of [
          route.module,
          ...(route.imports ?? []),
          route.clientActionModule,
          route.clientLoaderModule,
          route.clientMiddlewareModule,
          route.hydrateFallbackModule,
        ])
          if (asset) files.add(asset);
      return { id, gzip: [...files].reduce((total, asset) => total + gzipOf(asset), 0) };
    })
    .sort((a, b) => b.gzip - a.gzip);
}

/** Fills and posts the POST form of `html` that has an input named `field`, as a browser without JavaScript would. */
async function submitForm(
  jar: CookieJar,
  pagePath: string,
  html: string,
  field: string,
  values: Record<string, string>,
): Promise<Reply> {
  const form = formsOf(html).find((f) => f.method === "post" && new RegExp(`name="${field}"`).test(f.inner));
  if (!form) throw new BenchError(`${pagePath} has no POST form with a "${field}" field in its HTML`);
  const fields = new URLSearchParams();
  for (const m of form.inner.matchAll(/<input\b([^>]*)>/gi)) {
    const attrs = attributes(m[1] ?? "");
    if (!attrs.name) continue;
    fields.set(attrs.name, values[attrs.name] ?? decode(attrs.value ?? ""));
  }
  // The submit button's own name and value, when it has one.
  const button = /<button\b([^>]*)>/i.exec(form.inner);
  const buttonAttrs = attributes(button?.[1] ?? "");
  if (buttonAttrs.name && buttonAttrs.type !== "button") fields.set(buttonAttrs.name, decode(buttonAttrs.value ?? ""));
  const action = pathOf(new URL(decode(form.action ?? pagePath), ORIGIN + pagePath).toString());
  const body = fields.toString();
  const reply = await request(action, {
    method: "POST",
    body,
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "Content-Length": Buffer.byteLength(body),
      Origin: ORIGIN,
      Cookie: jar.header(),
      "Accept-Language": "fr-FR",
    },
  });
  jar.store(reply.headers);
  return reply;
}

async function getPage(jar: CookieJar, pagePath: string): Promise<string> {
  const reply = await request(pagePath, { headers: { Cookie: jar.header(), "Accept-Language": "fr-FR" } });
  jar.store(reply.headers);
  if (reply.status !== 200) throw new BenchError(`GET ${pagePath} answered ${reply.status}`);
  return reply.body.toString("utf8");
}

/** The newest sign-in code sent to `recipient`, read from the sandbox outbox (as tests/e2e/helpers.ts latestCodeFor). */
async function latestCodeFor(recipient: string, subject = "Votre code de connexion"): Promise<string> {
  const reply = await request("/dev/outbox", { headers: { "Accept-Language": "fr-FR" } });
  if (reply.status !== 200) throw new BenchError(`GET /dev/outbox answered ${reply.status}`);
  const messages = reply.body.toString("utf8").split('class="outbox__message"').slice(1);
  for (const message of messages) {
    const to = /class="outbox__recipient">([^<]*)</.exec(message)?.[1];
    if (!to || to !== recipient || !message.includes(subject)) continue;
    const code = /\b(\d{6})\b/.exec(message.slice(message.indexOf("outbox__body")));
    if (code) return code[1]!;
  }
  throw new BenchError(`no sign-in code for ${recipient} in /dev/outbox`);
}

/** Signs in as Marie with the login page's own forms: password, then the code from the outbox (her second factor). */
async function signInAsMarie(jar: CookieJar): Promise<{ loginHtml: string }> {
  const loginHtml = await getPage(jar, "/login");
  const first = await submitForm(jar, "/login", loginHtml, "password", { email: MARIE, password: PASSWORD });
  if (first.status < 300 || first.status >= 400)
    throw new BenchError(`sign-in answered ${first.status}, not a redirect (wrong password? rate limit?)`);
  let location = pathOf(first.headers.location);
  if (location.startsWith("/login/code")) {
    const codeHtml = await getPage(jar, location);
    const code = await latestCodeFor(MARIE);
    const second = await submitForm(jar, location, codeHtml, "code", { code });
    if (second.status < 300 || second.status >= 400)
      throw new BenchError(`the code step answered ${second.status}, not a redirect (wrong code?)`);
    location = pathOf(second.headers.location);
  }
  if (location.startsWith("/login")) throw new BenchError(`sign-in ended on ${location}, not signed in`);
  return { loginHtml };
}

/** Where `start` leads once its redirects are followed (/wallets opens the first wallet). */
async function landingPath(jar: CookieJar, start: string): Promise<string> {
  let current = start;
  for (let hop = 0; hop < 5; hop++) {
    const reply = await request(current, { headers: { Cookie: jar.header(), "Accept-Language": "fr-FR" } });
    jar.store(reply.headers);
    if (reply.status >= 300 && reply.status < 400) current = pathOf(reply.headers.location);
    else if (reply.status === 200) return current;
    else throw new BenchError(`GET ${current} answered ${reply.status}`);
  }
  throw new BenchError(`too many redirects from ${start}`);
}

/** Marie's card •••• 4242: /cards leads to a card page, whose card list links to every card. */
async function findCardPage(jar: CookieJar, last4: string): Promise<string> {
  let current = "/cards";
  for (let hop = 0; hop < 5; hop++) {
    const reply = await request(current, { headers: { Cookie: jar.header(), "Accept-Language": "fr-FR" } });
    jar.store(reply.headers);
    if (reply.status >= 300 && reply.status < 400) {
      current = pathOf(reply.headers.location);
      continue;
    }
    if (reply.status !== 200) throw new BenchError(`GET ${current} answered ${reply.status}`);
    const html = reply.body.toString("utf8");
    for (const m of html.matchAll(/<a\b([^>]*)>([\s\S]*?)<\/a>/gi)) {
      const href = attributes(m[1] ?? "").href ?? "";
      if (/^\/cards\/[^/?#]+$/.test(href) && textOf(m[2] ?? "").includes(last4)) return href;
    }
    if (/^\/cards\/[^/]+$/.test(current) && textOf(html).includes(last4)) return current;
    throw new BenchError(`no link to the card •••• ${last4} from ${current}`);
  }
  throw new BenchError("too many redirects from /cards");
}

interface LoadResult {
  label: string;
  path: string;
  connections: number;
  rps: number;
  total: number;
  p50: number;
  p95: number;
  p97_5: number;
  p99: number;
  max: number;
  failures: number;
  /** The Content-Encoding the server chose for a browser's Accept-Encoding (brotli costs CPU). */
  encoding: string;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/**
 * One autocannon run. autocannon reports p50/p97.5/p99 but not p95 (the budget's figure): p95 comes from
 * the latency of every response, which autocannon's `response` events carry.
 */
async function load(
  label: string,
  urlPath: string,
  connections: number,
  cookie?: string,
  port = PORT,
): Promise<LoadResult> {
  const headers: Record<string, string> = {
    "Accept-Encoding": "gzip, deflate, br",
    "Accept-Language": "fr-FR,fr;q=0.9",
    Accept: "text/html",
    ...(cookie ? { Cookie: cookie } : {}),
  };
  const reply = await request(urlPath, { headers, port });
  if (reply.status !== 200) throw new BenchError(`warm-up: GET ${urlPath} answered ${reply.status}`);
  const encoding = String(reply.headers["content-encoding"] ?? "identity");
  const cannon = (duration: number, latencies?: number[]) =>
    new Promise<CannonResult>((resolve, reject) => {
      const instance = autocannon(
        { url: `http://${HOST}:${port}${urlPath}`, connections, duration, headers },
        (err, res) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(res)),
      );
      if (latencies)
        instance.on("response", (_client, status, _bytes, ms) => {
          if (status === 200) latencies.push(ms);
        });
    });
  // Warm-up, not counted (LOAD): the same load, so that what is measured is the server's steady state.
  const warm = await cannon(LOAD.warmSeconds);
  if (warm.non2xx + warm.errors > 0)
    throw new BenchError(`warm-up: GET ${urlPath} had ${warm.non2xx + warm.errors} failed answer(s)`);
  const latencies: number[] = [];
  const result = await cannon(LOAD.durationSeconds, latencies);
  const sorted = latencies.sort((a, b) => a - b);
  return {
    label,
    path: urlPath,
    connections,
    rps: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p95: percentile(sorted, 95),
    p97_5: result.latency.p97_5,
    p99: result.latency.p99,
    max: result.latency.max,
    // autocannon counts timeouts among its errors.
    failures: result.non2xx + result.errors,
    encoding,
  };
}

// ---------------------------------------------------------------------------------------------
// Report

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((row) => [...(row[col] ?? "")].length)));
  const line = (row: string[]) =>
    `| ${row.map((cell, col) => cell + " ".repeat(widths[col]! - [...cell].length)).join(" | ")} |`;
  return [line(rows[0]!), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.slice(1).map(line)].join("\n");
}

const mark = (ok: boolean) => (ok ? "✓" : "✗");
const ms = (n: number) => `${n.toFixed(1)} ms`;

const seconds = (msValue: number) => `${(msValue / 1000).toFixed(2)} s`;
const mb = (kbValue: number) => `${(kbValue / 1024).toFixed(0)} MB`;

// ---------------------------------------------------------------------------------------------
// The light version (issue 18 item 3): the card page with Save-Data: on

interface LightMeasure {
  htmlGzip: number;
  cssGzip: number;
  cssFiles: number;
  /** How the bytes were counted: the server's own gzip, or gzip -9 here when it sent something else. */
  counted: string;
  scriptElements: number;
  modulePreloads: number;
  fontFiles: number;
  vary: string;
}

/** Fetches a page or asset as a browser asking for the light version and gzip would; its size as sent. */
async function fetchGzip(
  urlPath: string,
  headers: OutgoingHttpHeaders,
): Promise<{ text: string; bytes: number; gzip: boolean; reply: Reply }> {
  const reply = await request(urlPath, { headers: { ...headers, "Accept-Encoding": "gzip" } });
  if (reply.status !== 200)
    throw new BenchError(
      `GET ${urlPath} (Save-Data: on) answered ${reply.status}${reply.headers.location ? ` → ${reply.headers.location}` : ""}`,
    );
  const gzip = reply.headers["content-encoding"] === "gzip";
  const body = gzip ? gunzipSync(reply.body) : reply.body;
  return { text: body.toString("utf8"), bytes: gzip ? reply.body.length : gzipSize(body), gzip, reply };
}

async function measureLight(cookie: string, cardPath: string): Promise<LightMeasure> {
  const headers = { Cookie: cookie, "Save-Data": "on", "Accept-Language": "fr-FR" };
  const page = await fetchGzip(cardPath, headers);
  const { styles } = assetsOf(page.text, ORIGIN + cardPath);
  let cssGzip = 0;
  let allGzip = page.gzip;
  let fontFiles = (page.text.match(/\.woff2?\b/g) ?? []).length;
  for (const style of styles) {
    const css = await fetchGzip(style, headers);
    cssGzip += css.bytes;
    allGzip &&= css.gzip;
    fontFiles += (css.text.match(/\.woff2?\b/g) ?? []).length;
  }
  return {
    htmlGzip: page.bytes,
    cssGzip,
    cssFiles: styles.size,
    counted: allGzip ? "as the server gzips them" : "gzip -9 here (the server sent another encoding)",
    scriptElements: (page.text.match(/<script\b/gi) ?? []).length,
    modulePreloads: (page.text.match(/<link\b[^>]*\brel="modulepreload"/gi) ?? []).length,
    fontFiles,
    vary: String(page.reply.headers.vary ?? ""),
  };
}

// ---------------------------------------------------------------------------------------------
// The soak's walk

/**
 * What the notification settings form posts, ticking every box or none (static bodies: each person's
 * walk posts both in turn). Read from the form in the page, as a browser would post it: every checkbox
 * by its name, every hidden field ("the switch was on before") set as the page would after the ticking.
 */
function notificationBodies(html: string): { allOn: string; allOff: string } {
  const form = formsOf(html).find((f) => f.method === "post" && /type="checkbox"/.test(f.inner));
  if (!form) throw new BenchError("/settings/notifications has no POST form with checkboxes in its HTML");
  const allOn = new URLSearchParams();
  const allOff = new URLSearchParams();
  for (const m of form.inner.matchAll(/<input\b([^>]*)>/gi)) {
    const attrs = attributes(m[1] ?? "");
    if (!attrs.name) continue;
    if (attrs.type === "checkbox") allOn.set(attrs.name, "on");
    else if (attrs.type === "hidden") {
      allOn.set(attrs.name, "on");
      allOff.set(attrs.name, "");
    }
  }
  if (![...allOn.keys()].length) throw new BenchError("/settings/notifications: no checkbox in the form");
  return { allOn: allOn.toString(), allOff: allOff.toString() };
}

const PAGE = [200];
/** A successful form post: the portal redirects (post/redirect/get), with its flash message. */
const POSTED = [302, 303];

/** A catalogue text as React writes it in HTML. */
const asHtml = (text: string) =>
  text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#x27;");
/** The page after a post shows its flash message: read uncompressed, to find the text. */
const confirmation = (text: string) => ({ expectText: asHtml(text), headers: { "Accept-Encoding": "identity" } });

/**
 * A person's walk: their card page, wallets, refunds, notifications, and four writes to their own data
 * (freeze and unfreeze their card, notification preferences off and on), each checked by the
 * confirmation the next page shows.
 */
function soakWalk(account: SoakAccount, bodies: { allOn: string; allOff: string }): SoakPerson {
  const card = `/cards/${account.cardId}`;
  const done = {
    frozen: confirmation(fr.cards.actions.freezeSuccess),
    unfrozen: confirmation(fr.cards.actions.unfreezeSuccess),
    saved: confirmation(fr.settings.notifications.saved),
  };
  return {
    email: account.email,
    cookie: account.cookie,
    steps: [
      { name: "card page", method: "GET", path: card, expect: PAGE },
      { name: "/wallets", method: "GET", path: WALLETS, expect: [302] },
      { name: "wallet page", method: "GET", path: `/wallets/${account.walletId}`, expect: PAGE },
      { name: "freeze panel", method: "GET", path: `${card}/freeze`, expect: PAGE },
      { name: "freeze the card", method: "POST", path: `${card}/freeze`, body: "intent=freeze", expect: POSTED },
      { name: "card page, frozen", method: "GET", path: card, expect: PAGE, ...done.frozen },
      { name: "refunds", method: "GET", path: REFUNDS, expect: PAGE },
      { name: "unfreeze the card", method: "POST", path: `${card}/freeze`, body: "intent=unfreeze", expect: POSTED },
      { name: "card page, unfrozen", method: "GET", path: card, expect: PAGE, ...done.unfrozen },
      {
        name: "notification centre",
        method: "GET",
        path: `/notifications?back=${encodeURIComponent(card)}`,
        expect: PAGE,
      },
      { name: "notification settings", method: "GET", path: "/settings/notifications", expect: PAGE },
      {
        name: "notifications: none",
        method: "POST",
        path: "/settings/notifications",
        body: bodies.allOff,
        expect: POSTED,
      },
      { name: "settings, saved", method: "GET", path: "/settings/notifications", expect: PAGE, ...done.saved },
      {
        name: "notifications: all",
        method: "POST",
        path: "/settings/notifications",
        body: bodies.allOn,
        expect: POSTED,
      },
      { name: "settings, saved", method: "GET", path: "/settings/notifications", expect: PAGE, ...done.saved },
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// The soak and the server's memory around it

interface SoakReport {
  soaked: Awaited<ReturnType<typeof soak>>;
  warmUpProblems: string[];
  errors: number;
  memoryKnown: boolean;
  firstRss: number;
  lastRss: number;
  memoryOk: boolean;
  /** Before the soak, right after it, after the idle minute, and after that a full garbage collection. */
  points: MemoryPoint[];
  /** Workers whose heap could not be read (no inspector). */
  uninspected: number;
  /** Whether each round ends with a full garbage collection (at least one inspector open). */
  collected: boolean;
  snapshots: string[];
}

const sleep = (msValue: number) => new Promise((resolve) => setTimeout(resolve, msValue));

/**
 * The soak (issue 18 item 6) and the workers' memory around it (issue 28 item 7): resident set and V8
 * heap of each worker before the soak, right after it, after SOAK.idleSeconds without a request, and
 * after a full garbage collection at the end of that idle time (forced through the inspector: what the
 * heap really holds, as opposed to what V8 has not collected yet).
 */
async function runSoak(server: RunningServer, accounts: SoakAccount[], settingsHtml: string): Promise<SoakReport> {
  const bodies = notificationBodies(settingsHtml);
  const people = accounts.map((a) => soakWalk(a, bodies));
  const pid = server.child.pid!;
  console.log(
    `\nSoak: ${people.length} signed-in people, one walk each (warm-up round, ${SOAK.warmSeconds} s of the same load not measured, then ${SOAK.seconds} s, then ${SOAK.idleSeconds} s idle)…`,
  );
  // Opened once, before the first figures, so that every point pays alike for the open inspectors.
  const workers = servingPids(pid);
  const inspectors = await openWorkerInspectors(workers, INSPECT_PORT);
  const points: MemoryPoint[] = [];
  const point = async (label: string, heapOf: (port: number) => Promise<HeapFigures> = heapFigures) => {
    const at = await memoryPoint(label, pid, inspectors, heapOf);
    points.push(at);
    // The workers' mappings at each point: what of the resident set is V8's heap, malloc's, code…
    if (SMAPS_DIR)
      for (const w of at.workers)
        writeFileSync(
          path.resolve(SMAPS_DIR, `worker-${w.pid}-${points.length}-${label.replace(/\W+/g, "-")}.smaps`),
          readFileSync(`/proc/${w.pid}/smaps`),
        );
  };
  const snapshots: string[] = [];
  const snapshot = async (when: string) => {
    if (!SNAPSHOT_DIR) return;
    for (const [workerPid, port] of inspectors) {
      const file = path.resolve(SNAPSHOT_DIR, `worker-${workerPid}-${when}.heapsnapshot`);
      await writeHeapSnapshot(port, file);
      snapshots.push(file);
    }
  };

  await point("before the soak");
  await snapshot("before");
  const warmUpProblems = await warmUp(ORIGIN, people);
  for (const problem of warmUpProblems.slice(0, 10)) console.log(`  warm-up: ${problem}`);
  const total = (map: Map<string, number>) => [...map.values()].reduce((a, b) => a + b, 0);
  const errorsOf = (run: Awaited<ReturnType<typeof soak>>) =>
    total(run.unexpected) + run.connectionErrors + total(run.timeouts);
  // Its errors count: they are errors of the same server under the same load.
  const warming = SOAK.warmSeconds > 0 ? await soak(ORIGIN, people, SOAK.warmSeconds, pid) : null;
  if (warming) console.log(`  warming: ${warming.requests} requests, ${errorsOf(warming)} error(s)`);
  await snapshot("after-warming");
  let errors = warmUpProblems.length + (warming ? errorsOf(warming) : 0);
  let soaked: Awaited<ReturnType<typeof soak>> | undefined;
  for (let round = 1; round <= SOAK.rounds; round++) {
    const run = await soak(ORIGIN, people, SOAK.seconds, pid);
    soaked ??= run;
    const tag = SOAK.rounds > 1 ? `, round ${round}` : "";
    await point(`right after the ${run.seconds.toFixed(0)} s${tag}`);
    errors += errorsOf(run);
    console.log(
      `  ${run.requests} requests in ${run.seconds.toFixed(0)} s${tag}: ${run.requestsPerSecond.toFixed(0)} req/s, ${errorsOf(run)} error(s); idle ${SOAK.idleSeconds} s…`,
    );
    await sleep(SOAK.idleSeconds * 1000);
    await point(`after ${SOAK.idleSeconds} s idle${tag}`);
    if (inspectors.size) await point(`then a full GC${tag}`, collectGarbage);
    await snapshot(`after-idle-${round}`);
  }
  if (!soaked) throw new BenchError("BENCH_SOAK_ROUNDS must be at least 1");

  const memoryKnown = memoryMeasurable() && soaked.samples.some((s) => s.rssKb[0]! > 0);
  const firstRss = meanRss(soaked.samples, 0, SOAK.window);
  const lastRss = meanRss(soaked.samples, soaked.seconds - SOAK.window, soaked.seconds + 1);
  return {
    soaked,
    warmUpProblems,
    errors,
    memoryKnown,
    firstRss,
    lastRss,
    memoryOk: memoryKnown && lastRss <= firstRss * SOAK.growth,
    points,
    uninspected: workers.length - inspectors.size,
    collected: inspectors.size > 0,
    snapshots,
  };
}

function printSoak(report: SoakReport) {
  const { soaked } = report;
  console.log(
    `\nSoak: ${soaked.people} people × ${soaked.seconds.toFixed(0)} s, ${soaked.requests} requests (${soaked.reads} page reads, ${soaked.writes} form posts), p50 ${ms(soaked.p50)} · p99 ${ms(soaked.p99)}`,
  );
  if (report.errors) {
    const lines = [
      ...report.warmUpProblems.map((p) => `warm-up: ${p}`),
      ...[...soaked.unexpected].map(([what, count]) => `${what}: ${count}×`),
      ...(soaked.connectionErrors ? [`connection errors: ${soaked.connectionErrors}`] : []),
      ...[...soaked.timeouts].map(([step, count]) => `${step} → no answer within ${TIMEOUT_SECONDS} s: ${count}×`),
    ];
    console.log(`  errors: ${lines.slice(0, 20).join("\n          ")}`);
  }
  if (!report.memoryKnown) {
    console.log("  server memory: not measured (no /proc on this system)");
    return;
  }
  const perProcess = (sample: { rssKb: number[] } | undefined) =>
    sample ? sample.rssKb.map((k, i) => `${i === 0 ? "primary" : `worker ${i}`} ${mb(k)}`).join(", ") : "–";
  console.log(
    `  server memory (resident set, primary + workers, sampled each second): first ${SOAK.window} s ${mb(report.firstRss)}, last ${SOAK.window} s ${mb(report.lastRss)} (${((report.lastRss / report.firstRss - 1) * 100).toFixed(1)} %)`,
  );
  const every5 = soaked.samples.filter((_, i) => i % 5 === 0 || i === soaked.samples.length - 1);
  console.log(
    `  total by time: ${every5.map((s) => `${s.at.toFixed(0)} s ${mb(s.rssKb.reduce((a, b) => a + b, 0))}`).join(" · ")}`,
  );
  console.log(`  at the start: ${perProcess(soaked.samples[0])}`);
  console.log(`  at the end:   ${perProcess(soaked.samples.at(-1))}`);
  const mib = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MB`;
  const workerCount = Math.max(...report.points.map((p) => p.workers.length));
  const columns = Array.from({ length: workerCount }, (_, i) => `worker ${i + 1}: RSS · heap used / total · external`);
  console.log(
    `\n  Workers' memory around the soak (RSS from /proc; heap from process.memoryUsage() through the inspector${report.uninspected ? `, not read for ${report.uninspected} worker(s)` : ""}):`,
  );
  console.log(
    table([
      ["When", "primary RSS", ...columns],
      ...report.points.map((p) => [
        p.label,
        p.primaryRssKb ? mb(p.primaryRssKb) : "–",
        ...Array.from({ length: workerCount }, (_, i) => {
          const w = p.workers[i];
          if (!w) return "–";
          const heap = w.heap
            ? ` · ${mib(w.heap.heapUsed)} / ${mib(w.heap.heapTotal)} · ${mib(w.heap.external)}`
            : " · heap not read";
          return `${mb(w.rssKb)}${heap}`;
        }),
      ]),
    ]),
  );
  if (report.snapshots.length) console.log(`  heap snapshots: ${report.snapshots.join(", ")}`);
}

/** The soak's lines of the budget table. */
function soakRows(report: SoakReport): string[][] {
  const { soaked, firstRss, lastRss, memoryKnown } = report;
  const before = report.points[0];
  const workersRss = (p: MemoryPoint | undefined) => (p ? p.workers.map((w) => mb(w.rssKb)).join(" + ") : "–");
  return [
    [
      `Soak: ${soaked.people} signed-in people, ${soaked.seconds.toFixed(0)} s, pages + posts`,
      `${report.errors} error(s) in ${soaked.requests} requests (${soaked.requestsPerSecond.toFixed(0)} req/s, ${soaked.writes} posts)`,
      "0 errors",
      mark(report.errors === 0 && soaked.requests > 0),
    ],
    [
      `Soak: server memory, last ${SOAK.window} s vs first ${SOAK.window} s`,
      memoryKnown
        ? `${mb(lastRss)} vs ${mb(firstRss)} (${lastRss >= firstRss ? "+" : ""}${((lastRss / firstRss - 1) * 100).toFixed(1)} %)`
        : "not measured (no /proc)",
      `no growth (≤ +${((SOAK.growth - 1) * 100).toFixed(0)} %)`,
      memoryKnown ? mark(report.memoryOk) : "–",
    ],
    [
      `Soak: workers' RSS before → after → ${SOAK.idleSeconds} s idle${report.collected ? " → full GC" : ""}`,
      memoryKnown
        ? [before, ...report.points.slice(report.collected ? -3 : -2)].map(workersRss).join(" → ")
        : "not measured (no /proc)",
      "reported (decision 0050)",
      "",
    ],
  ];
}

// ---------------------------------------------------------------------------------------------
// The run

interface LighthouseSummary {
  label: string;
  path: string;
  runs: LighthouseRun[];
  score: number;
  lcpMs: number;
  /** As transferred (the server's encoding), median. */
  jsBytes: number;
  /** The same scripts by gzip -9 (the budget's measure, as the other rows), median. */
  jsGzip: number;
  failed: boolean;
}

/** gzip -9 size of each script Lighthouse saw, fetched once each from this server. */
const gzipOfUrl = new Map<string, number>();
async function gzipOfScripts(urls: string[]): Promise<number> {
  let total = 0;
  for (const url of new Set(urls)) {
    const parsed = new URL(url);
    if (parsed.origin !== ORIGIN) throw new BenchError(`the page loaded a script from elsewhere: ${url}`);
    if (!gzipOfUrl.has(url)) gzipOfUrl.set(url, gzipSize(await fetchAsset(parsed.pathname + parsed.search)));
    total += gzipOfUrl.get(url)!;
  }
  return total;
}

async function summarise(label: string, urlPath: string, runs: LighthouseRun[]): Promise<LighthouseSummary> {
  const gzips: number[] = [];
  for (const run of runs) if (run.score !== null) gzips.push(await gzipOfScripts(run.scriptUrls));
  return {
    label,
    path: urlPath,
    runs,
    score: median(runs.map((r) => r.score)),
    lcpMs: median(runs.map((r) => r.lcpMs)),
    jsBytes: median(runs.filter((r) => r.score !== null).map((r) => r.jsBytes)),
    jsGzip: median(gzips),
    failed: runs.some((r) => r.score === null || r.lcpMs === null),
  };
}

const range = (values: (number | null)[], format: (n: number) => string) => {
  const known = values.filter((v): v is number => v !== null);
  if (known.length < 2) return "";
  return ` (${format(Math.min(...known))}–${format(Math.max(...known))})`;
};

async function bench(server: RunningServer, accounts: SoakAccount[]) {
  const jar = new CookieJar();
  const { loginHtml } = await signInAsMarie(jar);
  const cardPath = await findCardPage(jar, CARD_LAST4);
  const walletPath = await landingPath(jar, WALLETS);
  const refundsPath = await landingPath(jar, REFUNDS);
  const cookie = jar.header();

  const page = async (pagePath: string) => {
    const reply = await request(pagePath, {
      headers: { Cookie: cookie, "Accept-Encoding": "identity", "Accept-Language": "fr-FR" },
    });
    if (reply.status !== 200)
      throw new BenchError(
        `GET ${pagePath} answered ${reply.status}${reply.headers.location ? ` → ${reply.headers.location}` : ""}`,
      );
    return reply.body;
  };
  const cardBody = await page(cardPath);
  const walletsBody = await page(walletPath);
  const refundsBody = await page(refundsPath);
  const settingsHtml = (await page("/settings/notifications")).toString("utf8");
  const cardHtml = cardBody.toString("utf8");

  // 1. No JavaScript needed: full content and working forms in the server's HTML.
  const loginH1 = firstH1(loginHtml);
  const cardH1 = firstH1(cardHtml);
  const loginForms = formsOf(loginHtml);
  const cardForms = formsOf(cardHtml);
  const loginFormOk = loginForms.some(
    (f) =>
      f.method === "post" &&
      /name="email"/.test(f.inner) &&
      /type="submit"|<button(?![^>]*type="button")/.test(f.inner),
  );
  const cardMain = /<main\b[\s\S]*?<\/main>/i.exec(cardHtml)?.[0] ?? "";
  const cardLinks = (cardMain.match(/<a\b[^>]*\bhref="\/cards\//g) ?? []).length;
  const noJsOk = Boolean(loginH1) && Boolean(cardH1) && loginFormOk && textOf(cardMain).length > 200;

  // 2–4. What the card page makes the browser download.
  const { scripts, styles, inlineScriptBytes } = assetsOf(cardHtml, ORIGIN + cardPath);
  const js = await measureScripts(scripts);
  const pageCss = await measureStyles(styles);
  const appCss = allBuiltCss();
  const routesJs = jsByRoute();
  const routesOverJs = routesJs.filter((r) => r.gzip > BUDGET_KB.js * 1024);
  console.log(
    `JavaScript by route (the build's manifest): ${routesJs.length} routes, ${routesOverJs.length} over ${BUDGET_KB.js} KB${routesOverJs.length ? `: ${routesOverJs.map((r) => `${r.id} ${kb(r.gzip)}`).join(", ")}` : ""}`,
  );
  const jsGzip = sum(js, "gzip");
  const cssGzip = sum(appCss, "gzip");
  const htmlPages = [
    { label: `card •••• ${CARD_LAST4}`, path: cardPath, body: cardBody },
    { label: `wallets (${WALLETS} →)`, path: walletPath, body: walletsBody },
    { label: "refunds", path: refundsPath, body: refundsBody },
  ].map((p) => ({ ...p, gzip: gzipSize(p.body) }));

  // 5. The server under load, with autocannon: the floor first, then Marie's pages.
  console.log(
    `Load: autocannon, ${LOAD.durationSeconds} s per run, each after ${LOAD.warmSeconds} s of the same load not counted…`,
  );
  const runs: LoadResult[] = [];
  for (const [label, urlPath, connections, withCookie] of [
    ["floor: /login (public)", "/login", 20, false],
    [`card •••• ${CARD_LAST4}`, cardPath, 20, true],
    [`card •••• ${CARD_LAST4}`, cardPath, 50, true],
    [`wallets (${WALLETS} →)`, walletPath, 20, true],
  ] as const) {
    const run = await load(label, urlPath, connections, withCookie ? cookie : undefined);
    console.log(
      `  ${label}, ${connections} connections: ${run.rps.toFixed(0)} req/s, p50 ${ms(run.p50)} · p97.5 ${ms(run.p97_5)} · p99 ${ms(run.p99)}${run.failures ? ` · ${run.failures} failed` : ""}`,
    );
    runs.push(run);
  }
  const [floor, card20, card50, wallets] = runs as [LoadResult, LoadResult, LoadResult, LoadResult];
  // The framework alone on this machine, while the portal idles: the same loads on a one-route app.
  const bare = await startFrameworkFloor();
  const framework: LoadResult[] = [];
  try {
    for (const connections of [20, 50]) {
      const run = await load("framework alone", "/", connections, undefined, FLOOR_PORT);
      console.log(
        `  framework alone (one-route React Router app, scripts/bench/floor), ${connections} connections: ${run.rps.toFixed(0)} req/s, p50 ${ms(run.p50)} · p95 ${ms(run.p95)} · p99 ${ms(run.p99)}${run.failures ? ` · ${run.failures} failed` : ""}`,
      );
      framework.push(run);
    }
  } finally {
    await stopServer(bare);
  }
  const [bare20, bare50] = framework as [LoadResult, LoadResult];
  const ratio = card20.rps / floor.rps;
  const clean = (...rs: LoadResult[]) => rs.every((r) => r.failures === 0 && r.total > 0);

  // 6. Lighthouse: Marie's pages and /login, then the card page in its light version.
  const browserHeaders = { "Accept-Language": "fr-FR,fr;q=0.9" };
  const signedIn = { ...browserHeaders, Cookie: cookie };
  const lighthousePages: (LighthousePage & { path: string })[] = [
    { label: `card •••• ${CARD_LAST4}`, path: cardPath, headers: signedIn },
    { label: "wallets", path: walletPath, headers: signedIn },
    { label: "refunds", path: refundsPath, headers: signedIn },
    { label: "/login (public)", path: "/login", headers: browserHeaders },
    { label: "card, Save-Data: on", path: cardPath, headers: { ...signedIn, "Save-Data": "on" } },
  ].map((p) => ({ ...p, url: ORIGIN + p.path }));
  console.log(
    `\nLighthouse ${LIGHTHOUSE.runs}× per page (mobile, simulated slow 4G, 4× CPU; ${lighthousePages.length} pages, interleaved)…`,
  );
  const lighthouseStarted = performance.now();
  const measured = await measurePages(lighthousePages, LIGHTHOUSE.runs);
  const lighthouse: LighthouseSummary[] = [];
  for (const p of lighthousePages) lighthouse.push(await summarise(p.label, p.path, measured.get(p.label) ?? []));
  console.log(`  done in ${((performance.now() - lighthouseStarted) / 1000).toFixed(0)} s`);
  const [lhCard, lhWallets, lhRefunds, lhLogin, lhLight] = lighthouse as [
    LighthouseSummary,
    LighthouseSummary,
    LighthouseSummary,
    LighthouseSummary,
    LighthouseSummary,
  ];
  const lighthouseOk = (s: LighthouseSummary) =>
    !s.failed && s.score >= LIGHTHOUSE.score && s.lcpMs <= LIGHTHOUSE.lcpMs;
  const jsHeaviest = lighthouse.slice(0, 4).reduce((max, s) => (s.jsGzip > max.jsGzip ? s : max), lhCard);
  const jsEncodings = [...new Set(lighthouse.flatMap((s) => s.runs.flatMap((r) => r.jsEncodings)))].join(", ");

  // 7. The light version: what the card page weighs with Save-Data: on.
  const light = await measureLight(cookie, cardPath);
  const lightBytes = light.htmlGzip + light.cssGzip;

  // 8. The soak: the people prepared before the server started, each on their own account.
  const soakReport = await runSoak(server, accounts, settingsHtml);

  // Details first, the budgets last.
  console.log(
    "\nLoad runs (autocannon, Accept-Encoding of a browser: gzip, deflate, br; p95 from every 200 response's latency):",
  );
  console.log(
    table([
      ["Page", "Connections", "req/s", "requests", "p50", "p95", "p97.5", "p99", "max", "failed", "encoding"],
      ...[floor, card20, card50, wallets].map((r) => [
        `${r.label} ${r.path}`,
        String(r.connections),
        r.rps.toFixed(0),
        String(r.total),
        ms(r.p50),
        ms(r.p95),
        ms(r.p97_5),
        ms(r.p99),
        ms(r.max),
        String(r.failures),
        r.encoding,
      ]),
    ]),
  );

  console.log(
    `\nLighthouse ${LIGHTHOUSE.runs}× per page, medians (min–max). JS: the scripts the page loaded, by gzip -9, and as transferred (${jsEncodings || "–"}, bodies without headers):`,
  );
  console.log(
    table([
      ["Page", "Performance", "LCP", "JS gzip -9", "JS transferred", "LCP element", "Problems"],
      ...lighthouse.map((s) => [
        `${s.label} ${s.path}`,
        `${Number.isNaN(s.score) ? "–" : s.score.toFixed(0)}${range(
          s.runs.map((r) => r.score),
          (n) => n.toFixed(0),
        )}`,
        `${Number.isNaN(s.lcpMs) ? "–" : seconds(s.lcpMs)}${range(
          s.runs.map((r) => r.lcpMs),
          (n) => (n / 1000).toFixed(2),
        )}`,
        `${kb(s.jsGzip)} (${s.runs[0]?.jsFiles ?? 0} files)`,
        kb(s.jsBytes),
        (s.runs.find((r) => r.lcpElement)?.lcpElement ?? "–").slice(0, 60),
        [
          ...new Set(s.runs.map((r) => r.problem).filter(Boolean)),
          ...(s.runs.some((r) => r.retries) ? [`${s.runs.reduce((n, r) => n + r.retries, 0)} run(s) redone`] : []),
        ]
          .join(" / ")
          .slice(0, 120),
      ]),
    ]),
  );

  console.log(
    `\nLight version (card page, Save-Data: on; bytes ${light.counted}): HTML ${kb(light.htmlGzip)} + CSS ${kb(light.cssGzip)} (${light.cssFiles} file(s)); ${light.scriptElements} <script> element(s), ${light.modulePreloads} modulepreload link(s), ${light.fontFiles} web font reference(s); Vary: ${light.vary || "—"}`,
  );

  printSoak(soakReport);

  console.log(
    `\nNo-JS checks: /login h1 "${loginH1 ?? "—"}", POST form with e-mail + submit: ${loginFormOk ? "yes" : "NO"} (sign-in above used it, without scripts)`,
  );
  console.log(
    `              card h1 "${cardH1 ?? "—"}", ${cardForms.length} form(s) [${cardForms.map((f) => f.method).join(", ")}], ${textOf(cardMain).length} characters of text in <main>`,
  );

  console.log(
    `\nJavaScript of the card page by its imports, biggest first (inline bootstrap scripts in the HTML: ${kb(inlineScriptBytes)} raw, counted with the HTML):`,
  );
  console.log(
    table([
      ["Asset", "gzip", "raw", ""],
      ...js.map((a) => [a.path, kb(a.gzip), kb(a.raw), a.indirect ? "static import, not in HTML" : ""]),
    ]),
  );
  console.log("\nCSS:");
  console.log(
    table([
      ["Asset", "gzip", "raw", "linked by the card page"],
      ...appCss.map((a) => [a.path, kb(a.gzip), kb(a.raw), pageCss.some((p) => p.path === a.path) ? "yes" : "no"]),
    ]),
  );
  const unbuilt = pageCss.filter((p) => !appCss.some((a) => a.path === p.path));
  if (unbuilt.length)
    console.log(
      `  also linked, not in build/client/assets: ${unbuilt.map((a) => `${a.path} ${kb(a.gzip)}`).join(", ")}`,
    );

  const lighthouseRow = (s: LighthouseSummary, what: string): string[] => [
    `Lighthouse mobile, ${what}`,
    s.failed
      ? `not scored: ${s.runs.find((r) => r.problem)?.problem ?? "no score"}`
      : `performance ${s.score.toFixed(0)}, LCP ${seconds(s.lcpMs)} (median of ${s.runs.length})`,
    `performance ${LIGHTHOUSE.score}, LCP ≤ ${seconds(LIGHTHOUSE.lcpMs)}`,
    mark(lighthouseOk(s)),
  ];
  const htmlHeaviest = htmlPages.reduce((max, p) => (p.gzip > max.gzip ? p : max));
  console.log(`\nBudgets (DESIGN.md §6) — card page ${cardPath}, gzip -9 unless said, 1 KB = 1024 bytes\n`);
  console.log(
    table([
      ["What", "Measured", "Budget", ""],
      [
        "JavaScript needed to use any page",
        noJsOk
          ? `0 KB (h1 + ${cardForms.length} form(s), ${cardLinks} card link(s) in server HTML)`
          : "content or forms missing without JS",
        "0 KB",
        mark(noJsOk),
      ],
      [
        "JavaScript loaded by a page, gzip",
        `${kb(jsHeaviest.jsGzip)} on ${jsHeaviest.label} (scripts Lighthouse saw; ${kb(jsHeaviest.jsBytes)} as sent, ${jsEncodings || "–"}); card by its imports ${kb(jsGzip)}`,
        `≤ ${BUDGET_KB.js} KB`,
        mark(!jsHeaviest.failed && jsHeaviest.jsGzip <= BUDGET_KB.js * 1024 && jsGzip <= BUDGET_KB.js * 1024),
      ],
      [
        "JavaScript by route, the build's manifest, gzip",
        `${kb(routesJs[0]?.gzip ?? 0)} on ${routesJs[0]?.id ?? "–"}; ${routesOverJs.length} of ${routesJs.length} routes over ${BUDGET_KB.js} KB`,
        `≤ ${BUDGET_KB.js} KB`,
        mark(routesOverJs.length === 0),
      ],
      [
        "CSS, whole app, gzip",
        `${kb(cssGzip)} (${appCss.length} file(s), ${kb(sum(appCss, "raw"))} raw)`,
        `≤ ${BUDGET_KB.css} KB`,
        mark(cssGzip <= BUDGET_KB.css * 1024),
      ],
      [
        "HTML of a main page, gzip",
        `${kb(htmlHeaviest.gzip)} on ${htmlHeaviest.label} (${htmlPages.map((p) => `${p.label.split(" ")[0]} ${kb(p.gzip)}`).join(", ")})`,
        `≤ ${BUDGET_KB.html} KB`,
        mark(htmlPages.every((p) => p.gzip <= BUDGET_KB.html * 1024)),
      ],
      [
        "Card page, 20 connections, p95",
        `${ms(card20.p95)} (p50 ${ms(card20.p50)} · p97.5 ${ms(card20.p97_5)} · p99 ${ms(card20.p99)})`,
        `≤ ${BUDGET_MS.p95At20} ms`,
        mark(clean(card20) && card20.p95 <= BUDGET_MS.p95At20),
      ],
      [
        "Card page, 50 connections, p99",
        `${ms(card50.p99)} (p50 ${ms(card50.p50)} · p97.5 ${ms(card50.p97_5)})`,
        `≤ ${BUDGET_MS.p99At50} ms`,
        mark(clean(card50) && card50.p99 <= BUDGET_MS.p99At50),
      ],
      [
        "Card page throughput / /login, 20 connections",
        `${ratio.toFixed(2)}× (${card20.rps.toFixed(0)} / ${floor.rps.toFixed(0)} req/s)`,
        `≥ ${BUDGET_RATIO}×`,
        mark(clean(floor, card20) && ratio >= BUDGET_RATIO),
      ],
      lighthouseRow(lhCard, "card page"),
      lighthouseRow(lhWallets, "wallets page"),
      lighthouseRow(lhRefunds, "refunds page"),
      ["Payment authorisation decision, 50 concurrent, p99", "measured by `npm run bench:webhook`", "≤ 10 ms", "–"],
      ["Beyond §6 (issue 18)", "", "", ""],
      [
        "The framework alone (one-route app), 20 / 50 connections",
        `${bare20.rps.toFixed(0)} req/s, p95 ${ms(bare20.p95)} / ${bare50.rps.toFixed(0)} req/s, p99 ${ms(bare50.p99)}; card ${(card20.rps / bare20.rps).toFixed(2)}× its throughput`,
        "reference",
        "–",
      ],
      lighthouseRow(lhLogin, "/login (the floor)"),
      [
        "Light version: card HTML + CSS, gzip",
        `${kb(lightBytes)} (HTML ${kb(light.htmlGzip)} + CSS ${kb(light.cssGzip)})`,
        `< ${LIGHT.htmlCssKb} KB`,
        mark(lightBytes < LIGHT.htmlCssKb * 1024),
      ],
      [
        "Light version: script elements on the card page",
        `${light.scriptElements} <script>, ${light.modulePreloads} modulepreload`,
        "0",
        mark(light.scriptElements === 0 && light.modulePreloads === 0),
      ],
      [
        "Light version: Lighthouse mobile LCP, card page",
        lhLight.failed
          ? `not scored: ${lhLight.runs.find((r) => r.problem)?.problem ?? "no score"}`
          : `${seconds(lhLight.lcpMs)} (performance ${lhLight.score.toFixed(0)}, median of ${lhLight.runs.length})`,
        `≤ ${seconds(LIGHT.lcpMs)}`,
        mark(!lhLight.failed && lhLight.lcpMs <= LIGHT.lcpMs),
      ],
      ...soakRows(soakReport),
    ]),
  );
}

/** BENCH_ONLY=soak: the soak and its memory figures alone, on the fresh server. */
async function soakAlone(accounts: SoakAccount[], server: RunningServer) {
  const first = accounts[0];
  if (!first) throw new BenchError("BENCH_ONLY=soak needs BENCH_SOAK_PEOPLE ≥ 1");
  const settings = await request("/settings/notifications", {
    headers: { Cookie: first.cookie, "Accept-Encoding": "identity", "Accept-Language": "fr-FR" },
  });
  if (settings.status !== 200) throw new BenchError(`/settings/notifications answered ${settings.status}`);
  const report = await runSoak(server, accounts, settings.body.toString("utf8"));
  printSoak(report);
  console.log(`\n${table([["What", "Measured", "Budget", ""], ...soakRows(report)])}`);
}

async function main(): Promise<number> {
  if (ONLY !== undefined && ONLY !== "soak") {
    console.error(`BENCH_ONLY: "soak" or unset, not "${ONLY}"`);
    return 1;
  }
  const started = performance.now();
  const runTime = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
  try {
    checkBuild();
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    return 1;
  }
  let accounts: SoakAccount[];
  try {
    accounts = await prepareDatabase(SOAK.people);
  } catch (err) {
    console.error(
      `✗ The bench database could not be prepared: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
    );
    removeDatabase();
    return 1;
  }
  const server = startServer();
  const interrupt = () => void stopServer(server).finally(() => process.exit(130));
  process.once("SIGINT", interrupt);
  process.once("SIGTERM", interrupt);
  try {
    try {
      await waitForHealth(server);
    } catch (err) {
      console.error(`✗ The server did not start: ${err instanceof Error ? err.message : String(err)}`);
      if (server.output.length) console.error(server.output.slice(-40).join("\n"));
      return 1;
    }
    console.log(
      `Server ready on ${ORIGIN} (fresh database ${path.relative(root, DB_FILE)}: the demo and ${accounts.length} copies of Marie for the soak; ${WORKERS} worker(s))\n`,
    );
    if (ONLY === "soak") await soakAlone(accounts, server);
    else await bench(server, accounts);
    console.log(`\nBench run time: ${runTime()}`);
    return 0;
  } catch (err) {
    console.error(
      `\n✗ Benchmark failed after ${runTime()}: ${err instanceof BenchError || err instanceof LighthouseSetupError ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
    );
    return 1;
  } finally {
    benchAgent.destroy();
    await stopServer(server);
    process.off("SIGINT", interrupt);
    process.off("SIGTERM", interrupt);
    removeDatabase();
    // Node's own lines about the inspector the soak opened (SIGUSR1) are not the server's.
    const inspectorLine =
      /^(Debugger (listening|attached|ending)|For help, see: https:\/\/nodejs\.org\/en\/docs\/inspector)/;
    const warnings = server.output.filter((line) => line.trim() && !inspectorLine.test(line));
    if (warnings.length)
      console.log(`\nServer output (LOG_LEVEL=warn), last lines:\n${warnings.slice(-15).join("\n")}`);
  }
}

process.exitCode = await main();
