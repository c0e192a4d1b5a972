/**
 * `npm run bench`: checks the production build against the budgets of DESIGN.md §6 (issue 35: ratios, each
 * figure against its reference measured in the same run; decision 0071 says how).
 *
 * Prepares its databases before their servers start, through the app's own functions (scripts/bench/datasets.ts):
 * - SQLite demo (data/bench.sqlite): the demo world as the server makes it on an empty sandbox database, Marie's
 *   session planted, and for the soak 50 copies of Marie (seed.ts `seedMarieCopy`) each with their session;
 * - SQLite grown (data/bench-grown.sqlite): a copy of that file grown by Contract D's `growHistory` (Marie's
 *   card 4242 gains 20,000 past payments, the rest of the history is copied until the database holds ten
 *   times its own);
 * - PostgreSQL, on scripts/ensure-postgres.sh's server, one schema each: bench_demo (the demo world),
 *   bench_grown (the same, grown as above) and bench_company (the demo world and Contract D's
 *   `generateCompany`: a funder of 20,000 employees with 24 months of history), each with Marie's session.
 *   They are made in a process of their own (scripts/bench/prepare-postgres.ts) while the soak runs, and
 *   dropped at the end.
 * Every server is the built portal with 2 workers (as on the 2-core machine of the budget), on 127.0.0.1,
 * its own port and database, request limits lifted (RATE_LIMITS=off). The bench signs in as Marie once,
 * on the SQLite demo, through the plain HTML forms with the code from the sandbox outbox, and measures:
 * - the soak first (scripts/bench/soak.ts), on the SQLite demo: 50 signed-in people, each on their own
 *   account, for BENCH_SOAK_SECONDS on a walk of pages and form posts: errors and the server's memory, each
 *   worker's resident set and V8 heap (through its inspector, scripts/bench/inspector.ts) before, right
 *   after, after BENCH_SOAK_IDLE_SECONDS without a request and after a full garbage collection (decision
 *   0050); the demo's server is then restarted, so that the load runs find it fresh as the others;
 * - the JavaScript of every route (gzip -9, from the build's manifest: scripts/bench/js-budget.ts), the
 *   card page's JavaScript and CSS, the HTML of the card, wallets and refunds pages;
 * - throughput with autocannon (20 connections, each run after BENCH_WARM_SECONDS of the same load not
 *   counted), in two phases whose servers are all up at once, each started once the machine is quiet
 *   (scripts/bench/quiet.ts, decision 0082), and whose runs are interleaved, the second
 *   round in the reverse order of the first (scripts/bench/load.ts `interleaved`): on SQLite, /login (the
 *   portal's floor) and Marie's card •••• 4242, wallet (/wallets →) and refund list (/plans/expense-requests
 *   →) on the demo and on the grown copy; on PostgreSQL, the three pages on bench_demo, bench_grown and
 *   bench_company. Each ratio divides two means of runs centred on the same moment. Then, as a reference,
 *   the framework alone (scripts/bench/floor: a one-route React Router app built from the same packages and
 *   served the same way, on BENCH_PORT + 1);
 * - with Lighthouse (scripts/bench/lighthouse.ts: mobile, simulated slow 4G, 4× CPU, Debian's Chromium): the
 *   card, wallets and refunds pages signed in as Marie and /login, each BENCH_LIGHTHOUSE_RUNS times (median
 *   reported): performance score, LCP, JavaScript transferred;
 * - the light version (Save-Data: on): the card page's HTML + CSS, its script elements, its Lighthouse LCP.
 * Every budget is printed on one line with its measured value and a ✓/✗ mark, the latencies as details.
 * Budgets are reported, not enforced: the exit code is 0 unless the build is missing or a database, a
 * server, the sign-in or a measuring tool fails (a soak error is a failed budget, not a failed bench).
 *
 * Needs `npm run build` first (and PostgreSQL, which ensure-postgres.sh starts or installs). Traffic goes to
 * 127.0.0.1 only. 1 KB = 1024 bytes. Ports: BENCH_PORT (3300) the SQLite demo, + 1 the framework alone,
 * + 2 the SQLite grown copy, + 4, + 6, + 8 the PostgreSQL demo, grown and company; + 20 and up the demo's
 * inspectors (BENCH_INSPECT_PORT).
 * Settings: BENCH_SECONDS (6, each autocannon run), BENCH_WARM_SECONDS (5, the load before each run),
 * BENCH_ROUNDS (2, each series' runs; even keeps the drift cancelled), BENCH_LIGHTHOUSE_RUNS (3), BENCH_SOAK_SECONDS
 * (60), BENCH_SOAK_PEOPLE (50), BENCH_SOAK_IDLE_SECONDS (60), BENCH_SOAK_ROUNDS (1: soaks, each with its idle
 * time, back to back), WEB_CONCURRENCY (2), CHROMIUM_PATH (/usr/bin/chromium). The datasets (defaults: issue
 * 35's figures): BENCH_SEED (35), BENCH_GROWTH_PAYMENTS (20000), BENCH_GROWTH_FACTOR (10), BENCH_EMPLOYEES
 * (20000), BENCH_MONTHS (24); BENCH_POSTGRES=off leaves PostgreSQL out, BENCH_EMPLOYEES=0 the company. Parts alone, while developing:
 * BENCH_ONLY=load (the databases and the load runs, no soak, Lighthouse or light version) or BENCH_ONLY=soak
 * (the soak alone on the SQLite demo). For the memory investigation: BENCH_HEAP_SNAPSHOTS=<folder> (heap
 * snapshots of each worker before, after the warming and after each idle time, to compare with
 * scripts/bench/heap-diff.ts; a snapshot leaves the worker's malloc heap larger, so its resident-set figures
 * are not the bench's), BENCH_SMAPS=<folder> (/proc/<worker>/smaps at each memory point).
 */
import { execFileSync, fork, spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { type IncomingHttpHeaders, type OutgoingHttpHeaders } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync, gzipSync } from "node:zlib";
import type { DatasetReport } from "../app/.server/db/dataset";
import { DEMO_PASSWORD } from "../app/.server/db/seed";
import fr from "../locales/fr/translation.json" with { type: "json" };
import {
  CARD_LAST4,
  datasetSettings,
  dropSchemas,
  growSqliteCopy,
  MARIE,
  POSTGRES_SCHEMAS,
  prepareSqliteDemo,
  removeSqlite,
  SESSION_SECRET,
  sqliteBytes,
  type DatasetSettings,
  type PostgresDataset,
  type PostgresName,
  type SoakAccount,
} from "./bench/datasets";
import { benchAgent, BenchError, HOST, pathOf, request as httpRequest, type Reply } from "./bench/http";
import { JS_BUDGET_KB, jsByRoute, type RouteJs } from "./bench/js-budget";
import { waitForQuiet } from "./bench/quiet";
import { interleaved, load, type LoadResult, type LoadSettings, type Series, type SeriesResult } from "./bench/load";
import type { PreparationInput, PreparationMessage } from "./bench/prepare-postgres";
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
const PORT = Number(process.env.BENCH_PORT ?? 3300);
/** The SQLite demo's server: the sign-in, the soak, Lighthouse and the light version are its. */
const ORIGIN = `http://${HOST}:${PORT}`;
const PORTS = { sqliteGrown: PORT + 2, postgres: { demo: PORT + 4, grown: PORT + 6, company: PORT + 8 } };
const DB_FILE = path.join(root, "data/bench.sqlite");
const GROWN_FILE = path.join(root, "data/bench-grown.sqlite");
const WALLETS = "/wallets";
const PASSWORD = DEMO_PASSWORD;
const REFUNDS = "/plans/expense-requests";

/**
 * Each measured run follows `warmSeconds` of the same load, not counted (scripts/bench/load.ts). Runs of
 * 6 s, two per figure: 12 s measured per figure, and the whole bench within its 15 minutes.
 */
const LOAD: LoadSettings = {
  durationSeconds: Number(process.env.BENCH_SECONDS ?? 6),
  warmSeconds: Number(process.env.BENCH_WARM_SECONDS ?? 5),
  connections: 20,
};
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
/** As deployed on the 2-core machine of the budget: one worker per core (decision 0013); WEB_CONCURRENCY overrides. */
const WORKERS = process.env.WEB_CONCURRENCY ?? "2";
const BUDGET_KB = { js: JS_BUDGET_KB, css: 15, html: 30 };
/** DESIGN.md §6: throughput of each page / /login on the demo; of each page on a larger database / the demo. */
const BUDGET_RATIO = { card: 0.6, wallet: 0.7, refunds: 0.8, larger: 0.8 };
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
/** `load`: the databases and the load runs only; `soak`: the soak alone, on the SQLite demo. */
const ONLY = process.env.BENCH_ONLY;

// ---------------------------------------------------------------------------------------------
// HTTP, to the SQLite demo's server unless a port is given

const request = (urlPath: string, options: Parameters<typeof httpRequest>[2] & { port?: number } = {}) =>
  httpRequest(options.port ?? PORT, urlPath, options);

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

// ---------------------------------------------------------------------------------------------
// The servers

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

interface RunningServer {
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

/**
 * The built portal on `port` with `databaseUrl`. Only the soak's server (the SQLite demo) says where its
 * inspectors would listen (`--inspect-port`, which opens nothing by itself: the soak opens its workers'
 * with SIGUSR1).
 */
function startServer(port: number, databaseUrl: string, inspect = false): RunningServer {
  const origin = `http://${HOST}:${port}`;
  return spawnServer(["--import", "tsx", ...(inspect ? [`--inspect-port=${INSPECT_PORT}`] : []), "server.ts"], {
    NODE_ENV: "production",
    APP_MODE: "sandbox",
    HOST,
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: "warn",
    PUBLIC_URL: origin,
    // The sessions were planted by the bench (scripts/bench/datasets.ts).
    SESSION_SECRET,
    // A load measurement: no request limit, so the bench measures the server and not the limiter
    // (the per-account guess limits stay; the bench signs in once).
    RATE_LIMITS: "off",
    WEB_CONCURRENCY: WORKERS,
  });
}

/** The bench's node processes still running: stopped at the end, or when the bench is interrupted. */
const running = new Set<RunningServer>();

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
  const server = { child, output, exited };
  running.add(server);
  void exited.then(() => running.delete(server));
  return server;
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

const signedInHeaders = (cookie: string) => ({ Cookie: cookie, "Accept-Language": "fr-FR" });

/** Where `start` leads on the server at `port` once its redirects are followed (/wallets opens the first wallet). */
async function landingPath(port: number, cookie: string, start: string): Promise<string> {
  let current = start;
  for (let hop = 0; hop < 5; hop++) {
    const reply = await request(current, { port, headers: signedInHeaders(cookie) });
    if (reply.status >= 300 && reply.status < 400) current = pathOf(reply.headers.location);
    else if (reply.status === 200) return current;
    else throw new BenchError(`GET ${current} on port ${port} answered ${reply.status}`);
  }
  throw new BenchError(`too many redirects from ${start} on port ${port}`);
}

/** Marie's card •••• 4242: /cards leads to a card page, whose card list links to every card. */
async function findCardPage(port: number, cookie: string, last4: string): Promise<string> {
  let current = "/cards";
  for (let hop = 0; hop < 5; hop++) {
    const reply = await request(current, { port, headers: signedInHeaders(cookie) });
    if (reply.status >= 300 && reply.status < 400) {
      current = pathOf(reply.headers.location);
      continue;
    }
    if (reply.status !== 200) throw new BenchError(`GET ${current} on port ${port} answered ${reply.status}`);
    const html = reply.body.toString("utf8");
    for (const m of html.matchAll(/<a\b([^>]*)>([\s\S]*?)<\/a>/gi)) {
      const href = attributes(m[1] ?? "").href ?? "";
      if (/^\/cards\/[^/?#]+$/.test(href) && textOf(m[2] ?? "").includes(last4)) return href;
    }
    if (/^\/cards\/[^/]+$/.test(current) && textOf(html).includes(last4)) return current;
    throw new BenchError(`no link to the card •••• ${last4} from ${current} on port ${port}`);
  }
  throw new BenchError(`too many redirects from /cards on port ${port}`);
}

/** Marie's three pages on one server: the paths differ by the database's ids. */
interface MariePages {
  card: string;
  wallet: string;
  refunds: string;
}

async function mariePages(port: number, cookie: string): Promise<MariePages> {
  return {
    card: await findCardPage(port, cookie, CARD_LAST4),
    wallet: await landingPath(port, cookie, WALLETS),
    refunds: await landingPath(port, cookie, REFUNDS),
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

// ---------------------------------------------------------------------------------------------
// The databases

/** The SQLite demo, as prepared before its server started. */
interface SqliteDemo {
  marieCookie: string;
  accounts: SoakAccount[];
  seconds: number;
}

interface PostgresPreparation {
  child: ChildProcess;
  baseUrl: string;
  /** Resolves with the three schemas, rejects when the preparation fails. */
  done: Promise<PostgresDataset[]>;
  /** Seconds from its start to its end, once it has ended. */
  seconds: () => number;
}

/**
 * Starts preparing the PostgreSQL schemas in a process of their own (scripts/bench/prepare-postgres.ts) on
 * ensure-postgres.sh's server (started, or installed, by the script if needed). Its log lines are printed
 * as they come, tagged.
 */
function startPostgresPreparation(settings: DatasetSettings): PostgresPreparation {
  const baseUrl = execFileSync("bash", [path.join(root, "scripts/ensure-postgres.sh")], {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();
  const origins = Object.fromEntries(
    Object.entries(PORTS.postgres).map(([name, port]) => [name, `http://${HOST}:${port}`]),
  ) as Record<PostgresName, string>;
  const input: PreparationInput = { baseUrl, origins, settings };
  const started = performance.now();
  let ended: number | undefined;
  const child = fork(path.join(root, "scripts/bench/prepare-postgres.ts"), [JSON.stringify(input)], {
    cwd: root,
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const done = new Promise<PostgresDataset[]>((resolve, reject) => {
    child.on("message", (message: PreparationMessage) => {
      if ("log" in message) console.log(`  [PostgreSQL] ${message.log}`);
      else if ("done" in message) resolve(message.done);
      else reject(new BenchError(`the PostgreSQL databases could not be prepared: ${message.failed}`));
    });
    child.once("exit", (code) => {
      ended = performance.now();
      reject(new BenchError(`the PostgreSQL preparation exited (code ${code}) without its databases`));
    });
  });
  // A failure is awaited later (after the soak): not an unhandled rejection meanwhile.
  done.catch(() => undefined);
  return { child, baseUrl, done, seconds: () => ((ended ?? performance.now()) - started) / 1000 };
}

const megabytes = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
const thousands = (n: number) => n.toLocaleString("en-GB");

/** "1,234,567 rows (card_authorizations 220,000, …)": what a generator added, the largest tables first. */
function rowsOf(report: DatasetReport): string {
  const tables = Object.entries(report.rows).sort((a, b) => b[1] - a[1]);
  const total = tables.reduce((n, [, count]) => n + count, 0);
  return `${thousands(total)} rows (${tables.map(([table, count]) => `${table} ${thousands(count)}`).join(", ")})`;
}

interface DatasetLines {
  settings: DatasetSettings;
  sqliteDemo: SqliteDemo;
  sqliteGrown: DatasetReport;
  postgres: PostgresDataset[] | null;
  postgresSeconds: number;
}

function printDatasets(d: DatasetLines) {
  const { settings } = d;
  const growth = `growHistory (Marie's card ${CARD_LAST4} + ${thousands(settings.growthPayments)} payments, history ×${settings.growthFactor}, seed ${settings.seed})`;
  console.log("\nDatasets (prepared before their servers started; sizes with indexes):");
  console.log(
    `  SQLite demo ${path.relative(root, DB_FILE)}: ${megabytes(sqliteBytes(DB_FILE))}, the demo world + ${d.sqliteDemo.accounts.length} copies of Marie for the soak, ${d.sqliteDemo.seconds.toFixed(0)} s`,
  );
  console.log(
    `  SQLite grown ${path.relative(root, GROWN_FILE)}: ${megabytes(sqliteBytes(GROWN_FILE))}, a copy of the demo file + ${growth}: ${rowsOf(d.sqliteGrown)} in ${d.sqliteGrown.seconds.toFixed(0)} s`,
  );
  if (!d.postgres) return console.log("  PostgreSQL: left out (BENCH_POSTGRES=off)");
  for (const dataset of d.postgres) {
    const what =
      dataset.name === "demo"
        ? "the demo world"
        : dataset.name === "grown"
          ? `the demo world + ${growth}`
          : `the demo world + generateCompany (${thousands(settings.employees)} employees × ${settings.months} months, seed ${settings.seed})`;
    const added = dataset.report ? `: ${rowsOf(dataset.report)} in ${dataset.report.seconds.toFixed(0)} s` : "";
    console.log(`  PostgreSQL ${dataset.schema}: ${megabytes(dataset.bytes)}, ${what}${added}`);
  }
  console.log(
    `  (the PostgreSQL schemas were made in ${d.postgresSeconds.toFixed(0)} s by one process, while the SQLite files were made and the soak ran: the generators' times are those of a shared machine)`,
  );
}

// ---------------------------------------------------------------------------------------------
// The load phases

const PAGE_LABELS = {
  card: `card •••• ${CARD_LAST4}`,
  wallet: `wallet (${WALLETS} →)`,
  refunds: `refund list (${REFUNDS} →)`,
};
type PageName = keyof typeof PAGE_LABELS;
const PAGE_NAMES = Object.keys(PAGE_LABELS) as PageName[];

const printRun = (s: Series, run: LoadResult, round: number) =>
  console.log(
    `  round ${round} · ${s.database} · ${s.page}: ${run.rps.toFixed(0)} req/s, p50 ${ms(run.p50)} · p97.5 ${ms(run.p97_5)} · p99 ${ms(run.p99)}${run.failures ? ` · ${run.failures} failed` : ""}`,
  );

const phaseIntro = (what: string, runs: number) =>
  console.log(
    `\n${what}: ${runs} runs of ${LOAD.durationSeconds} s at ${LOAD.connections} connections, each after ${LOAD.warmSeconds} s of the same load not counted; ${ROUNDS} rounds, each in the reverse order of the one before…`,
  );

/**
 * Before a load phase's first run and before the Lighthouse runs, the machine left to finish what came before
 * (scripts/bench/quiet.ts, decision 0082).
 */
async function settle() {
  const quiet = await waitForQuiet();
  const busy = `${(quiet.busy * 100).toFixed(0)} % of the machine busy`;
  console.log(
    quiet.quiet
      ? `  machine quiet after ${quiet.seconds.toFixed(0)} s (${busy} over the last 2 s)`
      : `  ✗ machine still busy after ${quiet.seconds.toFixed(0)} s (${busy}): measured anyway`,
  );
}

/**
 * SQLite: /login and Marie's three pages on the demo, her three pages on the grown copy; both servers up
 * throughout, their runs interleaved (load.ts `interleaved`).
 */
async function sqlitePhase(marieCookie: string): Promise<Map<string, SeriesResult>> {
  const grown = startServer(PORTS.sqliteGrown, `file:${path.relative(root, GROWN_FILE)}`);
  try {
    await waitForServer(grown, PORTS.sqliteGrown);
    const demoPages = await mariePages(PORT, marieCookie);
    const grownPages = await mariePages(PORTS.sqliteGrown, marieCookie);
    const series: Series[] = [
      {
        key: "login",
        page: "/login (public, the floor)",
        database: "SQLite demo",
        target: { port: PORT, path: "/login" },
      },
    ];
    for (const page of PAGE_NAMES)
      series.push(
        {
          key: `demo ${page}`,
          page: PAGE_LABELS[page],
          database: "SQLite demo",
          target: { port: PORT, path: demoPages[page], cookie: marieCookie },
        },
        {
          key: `grown ${page}`,
          page: PAGE_LABELS[page],
          database: "SQLite grown",
          target: { port: PORTS.sqliteGrown, path: grownPages[page], cookie: marieCookie },
        },
      );
    phaseIntro("Load on SQLite (demo and grown servers up at once)", series.length * ROUNDS);
    await settle();
    return await interleaved(series, ROUNDS, LOAD, printRun);
  } finally {
    await stopServer(grown);
  }
}

/** PostgreSQL: Marie's three pages on bench_demo, bench_grown and bench_company, the three servers up throughout. */
async function postgresPhase(datasets: PostgresDataset[]): Promise<Map<string, SeriesResult>> {
  const servers = datasets.map((d) => ({
    dataset: d,
    port: PORTS.postgres[d.name],
    server: startServer(PORTS.postgres[d.name], d.url),
  }));
  try {
    const series: Series[] = [];
    const pages = new Map<PostgresName, MariePages>();
    for (const { dataset, port, server } of servers) {
      await waitForServer(server, port);
      pages.set(dataset.name, await mariePages(port, dataset.cookie));
    }
    for (const page of PAGE_NAMES)
      for (const { dataset, port } of servers)
        series.push({
          key: `pg ${dataset.name} ${page}`,
          page: PAGE_LABELS[page],
          database: `PostgreSQL ${dataset.schema}`,
          target: { port, path: pages.get(dataset.name)![page], cookie: dataset.cookie },
        });
    phaseIntro(
      `Load on PostgreSQL (${datasets.map((d) => d.name).join(", ")} servers up at once)`,
      series.length * ROUNDS,
    );
    await settle();
    return await interleaved(series, ROUNDS, LOAD, printRun);
  } finally {
    await Promise.all(servers.map(({ server }) => stopServer(server)));
  }
}

async function waitForServer(server: RunningServer, port: number) {
  try {
    await waitForHealth(server, 120_000, "/healthz", port);
  } catch (err) {
    throw new BenchError(
      `the server on port ${port} did not start (${err instanceof Error ? err.message : String(err)}):\n${server.output.slice(-40).join("\n")}`,
    );
  }
}

/** The framework alone on this machine, while the portal idles: the same load on a one-route app. */
async function frameworkAlone(): Promise<LoadResult> {
  const bare = await startFrameworkFloor();
  try {
    const run = await load({ port: FLOOR_PORT, path: "/" }, LOAD);
    console.log(
      `  framework alone (one-route React Router app, scripts/bench/floor): ${run.rps.toFixed(0)} req/s, p50 ${ms(run.p50)} · p97.5 ${ms(run.p97_5)} · p99 ${ms(run.p99)}${run.failures ? ` · ${run.failures} failed` : ""}`,
    );
    return run;
  } finally {
    await stopServer(bare);
  }
}

function printLoadTable(results: SeriesResult[]) {
  console.log(
    `\nLoad runs (autocannon, ${LOAD.connections} connections, Accept-Encoding of a browser: gzip, deflate, br; req/s the mean of the runs, latencies the means of the runs' percentiles, p95 from every 200 response's latency):`,
  );
  console.log(
    table([
      ["Database", "Page", "req/s (runs)", "requests", "p50", "p95", "p97.5", "p99", "max", "failed", "encoding"],
      ...results.map((r) => [
        r.database,
        `${r.page} ${r.target.path}`,
        `${r.rps.toFixed(0)} (${r.runs.map((run) => run.rps.toFixed(0)).join(", ")})`,
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
}

/** A budget line comparing two series' mean throughput. */
function ratioRow(what: string, measured: SeriesResult, reference: SeriesResult, budget: number): string[] {
  const ratio = measured.rps / reference.rps;
  const clean = [measured, reference].every((r) => r.failures === 0 && r.total > 0);
  return [
    what,
    `${ratio.toFixed(2)}× (${measured.rps.toFixed(0)} / ${reference.rps.toFixed(0)} req/s)${clean ? "" : ", with failed requests"}`,
    `≥ ${budget}×`,
    mark(clean && ratio >= budget),
  ];
}

/** Issue 35's throughput lines: each page / /login on the demo, each page on a larger database / the demo. */
function loadRows(sqlite: Map<string, SeriesResult>, postgres: Map<string, SeriesResult> | null): string[][] {
  const get = (results: Map<string, SeriesResult>, key: string) => results.get(key)!;
  const login = get(sqlite, "login");
  const rows = PAGE_NAMES.map((page) =>
    ratioRow(`${PAGE_LABELS[page]} / /login, SQLite demo`, get(sqlite, `demo ${page}`), login, BUDGET_RATIO[page]),
  );
  for (const page of PAGE_NAMES)
    rows.push(
      ratioRow(
        `${PAGE_LABELS[page]}, grown / demo, SQLite`,
        get(sqlite, `grown ${page}`),
        get(sqlite, `demo ${page}`),
        BUDGET_RATIO.larger,
      ),
    );
  if (!postgres)
    return [
      ...rows,
      [
        "PostgreSQL: grown / demo, company / demo",
        "not measured (BENCH_POSTGRES=off)",
        `≥ ${BUDGET_RATIO.larger}×`,
        "–",
      ],
    ];
  for (const larger of ["grown", "company"] as const)
    for (const page of PAGE_NAMES)
      if (!postgres.has(`pg ${larger} ${page}`))
        rows.push([
          `${PAGE_LABELS[page]}, ${larger} / demo, PostgreSQL`,
          "not measured (BENCH_EMPLOYEES=0)",
          `≥ ${BUDGET_RATIO.larger}×`,
          "–",
        ]);
      else
        rows.push(
          ratioRow(
            `${PAGE_LABELS[page]}, ${larger} / demo, PostgreSQL`,
            get(postgres, `pg ${larger} ${page}`),
            get(postgres, `pg demo ${page}`),
            BUDGET_RATIO.larger,
          ),
        );
  return rows;
}

// ---------------------------------------------------------------------------------------------
// What the pages ship: signed in once through the forms, on the SQLite demo

interface Shipped {
  cookie: string;
  loginHtml: string;
  pages: MariePages;
  noJsOk: boolean;
  loginFormOk: boolean;
  cardForms: HtmlForm[];
  cardLinks: number;
  cardH1: string | null;
  loginH1: string | null;
  cardMainText: number;
  js: Asset[];
  pageCss: Asset[];
  appCss: Asset[];
  inlineScriptBytes: number;
  routesJs: RouteJs[];
  htmlPages: { label: string; path: string; gzip: number }[];
}

async function measureShipped(): Promise<Shipped> {
  const jar = new CookieJar();
  const { loginHtml } = await signInAsMarie(jar);
  const cookie = jar.header();
  const pages = await mariePages(PORT, cookie);
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
  const cardBody = await page(pages.card);
  const cardHtml = cardBody.toString("utf8");

  // No JavaScript needed: full content and working forms in the server's HTML.
  const loginH1 = firstH1(loginHtml);
  const cardH1 = firstH1(cardHtml);
  const loginFormOk = formsOf(loginHtml).some(
    (f) =>
      f.method === "post" &&
      /name="email"/.test(f.inner) &&
      /type="submit"|<button(?![^>]*type="button")/.test(f.inner),
  );
  const cardMain = /<main\b[\s\S]*?<\/main>/i.exec(cardHtml)?.[0] ?? "";
  const cardMainText = textOf(cardMain).length;

  // What the card page makes the browser download, and every route's JavaScript.
  const { scripts, styles, inlineScriptBytes } = assetsOf(cardHtml, ORIGIN + pages.card);
  const htmlPages = [
    { label: PAGE_LABELS.card, path: pages.card, body: cardBody },
    { label: PAGE_LABELS.wallet, path: pages.wallet, body: await page(pages.wallet) },
    { label: PAGE_LABELS.refunds, path: pages.refunds, body: await page(pages.refunds) },
  ].map((p) => ({ label: p.label, path: p.path, gzip: gzipSize(p.body) }));
  return {
    cookie,
    loginHtml,
    pages,
    noJsOk: Boolean(loginH1) && Boolean(cardH1) && loginFormOk && cardMainText > 200,
    loginFormOk,
    cardForms: formsOf(cardHtml),
    cardLinks: (cardMain.match(/<a\b[^>]*\bhref="\/cards\//g) ?? []).length,
    cardH1,
    loginH1,
    cardMainText,
    js: await measureScripts(scripts),
    pageCss: await measureStyles(styles),
    appCss: allBuiltCss(),
    inlineScriptBytes,
    routesJs: jsByRoute(path.join(root, "build/client")),
    htmlPages,
  };
}

function printShipped(s: Shipped) {
  console.log(
    `\nNo-JS checks: /login h1 "${s.loginH1 ?? "—"}", POST form with e-mail + submit: ${s.loginFormOk ? "yes" : "NO"} (sign-in above used it, without scripts)`,
  );
  console.log(
    `              card h1 "${s.cardH1 ?? "—"}", ${s.cardForms.length} form(s) [${s.cardForms.map((f) => f.method).join(", ")}], ${s.cardMainText} characters of text in <main>`,
  );
  const over = s.routesJs.filter((r) => r.gzip > BUDGET_KB.js * 1024);
  console.log(
    `\nJavaScript by route (the build's manifest, gzip -9): ${s.routesJs.length} routes, ${over.length} over ${BUDGET_KB.js} KB; the heaviest: ${s.routesJs
      .slice(0, 8)
      .map((r) => `${r.id} ${kb(r.gzip)}`)
      .join(", ")}`,
  );
  console.log(
    `\nJavaScript of the card page by its imports, biggest first (inline bootstrap scripts in the HTML: ${kb(s.inlineScriptBytes)} raw, counted with the HTML):`,
  );
  console.log(
    table([
      ["Asset", "gzip", "raw", ""],
      ...s.js.map((a) => [a.path, kb(a.gzip), kb(a.raw), a.indirect ? "static import, not in HTML" : ""]),
    ]),
  );
  console.log("\nCSS:");
  console.log(
    table([
      ["Asset", "gzip", "raw", "linked by the card page"],
      ...s.appCss.map((a) => [a.path, kb(a.gzip), kb(a.raw), s.pageCss.some((p) => p.path === a.path) ? "yes" : "no"]),
    ]),
  );
  const unbuilt = s.pageCss.filter((p) => !s.appCss.some((a) => a.path === p.path));
  if (unbuilt.length)
    console.log(
      `  also linked, not in build/client/assets: ${unbuilt.map((a) => `${a.path} ${kb(a.gzip)}`).join(", ")}`,
    );
}

/** The budget lines of what the pages ship (the JavaScript Lighthouse saw is the Lighthouse part's). */
function shippedRows(s: Shipped): string[][] {
  const over = s.routesJs.filter((r) => r.gzip > BUDGET_KB.js * 1024);
  const heaviest = s.routesJs[0];
  const cssGzip = sum(s.appCss, "gzip");
  const htmlHeaviest = s.htmlPages.reduce((max, p) => (p.gzip > max.gzip ? p : max));
  return [
    [
      "JavaScript by route, the build's manifest, gzip",
      `${over.length} of ${s.routesJs.length} routes over; the heaviest ${heaviest ? `${heaviest.id} ${kb(heaviest.gzip)}` : "–"}`,
      `every route ≤ ${BUDGET_KB.js} KB`,
      mark(over.length === 0),
    ],
    [
      "JavaScript needed to use any page",
      s.noJsOk
        ? `0 KB (h1 + ${s.cardForms.length} form(s), ${s.cardLinks} card link(s) in server HTML)`
        : "content or forms missing without JS",
      "0 KB",
      mark(s.noJsOk),
    ],
    [
      "CSS, whole app, gzip",
      `${kb(cssGzip)} (${s.appCss.length} file(s), ${kb(sum(s.appCss, "raw"))} raw)`,
      `≤ ${BUDGET_KB.css} KB`,
      mark(cssGzip <= BUDGET_KB.css * 1024),
    ],
    [
      "HTML of a main page, gzip",
      `${kb(htmlHeaviest.gzip)} on ${htmlHeaviest.label} (${s.htmlPages.map((p) => `${p.label.split(" ")[0]} ${kb(p.gzip)}`).join(", ")})`,
      `≤ ${BUDGET_KB.html} KB`,
      mark(s.htmlPages.every((p) => p.gzip <= BUDGET_KB.html * 1024)),
    ],
  ];
}

// ---------------------------------------------------------------------------------------------
// Lighthouse and the light version, on the SQLite demo

interface PageReport {
  lighthouse: LighthouseSummary[];
  light: LightMeasure;
}

async function measureInBrowser(s: Shipped): Promise<PageReport> {
  const browserHeaders = { "Accept-Language": "fr-FR,fr;q=0.9" };
  const signedIn = { ...browserHeaders, Cookie: s.cookie };
  const lighthousePages: (LighthousePage & { path: string })[] = [
    { label: PAGE_LABELS.card, path: s.pages.card, headers: signedIn },
    { label: "wallets", path: s.pages.wallet, headers: signedIn },
    { label: "refunds", path: s.pages.refunds, headers: signedIn },
    { label: "/login (public)", path: "/login", headers: browserHeaders },
    { label: "card, Save-Data: on", path: s.pages.card, headers: { ...signedIn, "Save-Data": "on" } },
  ].map((p) => ({ ...p, url: ORIGIN + p.path }));
  console.log(
    `\nLighthouse ${LIGHTHOUSE.runs}× per page (mobile, simulated slow 4G, 4× CPU; ${lighthousePages.length} pages, interleaved)…`,
  );
  await settle();
  const started = performance.now();
  const measured = await measurePages(lighthousePages, LIGHTHOUSE.runs);
  const lighthouse: LighthouseSummary[] = [];
  for (const p of lighthousePages) lighthouse.push(await summarise(p.label, p.path, measured.get(p.label) ?? []));
  console.log(`  done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return { lighthouse, light: await measureLight(s.cookie, s.pages.card) };
}

function printInBrowser({ lighthouse, light }: PageReport) {
  const jsEncodings = [...new Set(lighthouse.flatMap((s) => s.runs.flatMap((r) => r.jsEncodings)))].join(", ");
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
}

const lighthouseOk = (s: LighthouseSummary) => !s.failed && s.score >= LIGHTHOUSE.score && s.lcpMs <= LIGHTHOUSE.lcpMs;

function lighthouseRow(s: LighthouseSummary, what: string): string[] {
  return [
    `Lighthouse mobile, ${what}`,
    s.failed
      ? `not scored: ${s.runs.find((r) => r.problem)?.problem ?? "no score"}`
      : `performance ${s.score.toFixed(0)}, LCP ${seconds(s.lcpMs)} (median of ${s.runs.length})`,
    `performance ${LIGHTHOUSE.score}, LCP ≤ ${seconds(LIGHTHOUSE.lcpMs)}`,
    mark(lighthouseOk(s)),
  ];
}

function inBrowserRows({ lighthouse, light }: PageReport, shipped: Shipped): string[][] {
  const [lhCard, lhWallets, lhRefunds, lhLogin, lhLight] = lighthouse as [
    LighthouseSummary,
    LighthouseSummary,
    LighthouseSummary,
    LighthouseSummary,
    LighthouseSummary,
  ];
  const jsHeaviest = lighthouse.slice(0, 4).reduce((max, s) => (s.jsGzip > max.jsGzip ? s : max), lhCard);
  const cardJs = sum(shipped.js, "gzip");
  const lightBytes = light.htmlGzip + light.cssGzip;
  return [
    lighthouseRow(lhCard, "card page"),
    lighthouseRow(lhWallets, "wallets page"),
    lighthouseRow(lhRefunds, "refunds page"),
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
    [
      "JavaScript loaded by a page, gzip",
      `${kb(jsHeaviest.jsGzip)} on ${jsHeaviest.label} (scripts Lighthouse saw; ${kb(jsHeaviest.jsBytes)} as sent); card by its imports ${kb(cardJs)}`,
      `≤ ${BUDGET_KB.js} KB`,
      mark(!jsHeaviest.failed && jsHeaviest.jsGzip <= BUDGET_KB.js * 1024 && cardJs <= BUDGET_KB.js * 1024),
    ],
    lighthouseRow(lhLogin, "/login (the floor)"),
  ];
}

// ---------------------------------------------------------------------------------------------
// The run

/** The soak on the SQLite demo's server: the notification settings form read as its first person would. */
async function soakOnDemo(server: RunningServer, accounts: SoakAccount[]): Promise<SoakReport> {
  const first = accounts[0];
  if (!first) throw new BenchError("the soak needs BENCH_SOAK_PEOPLE ≥ 1");
  const settings = await request("/settings/notifications", {
    headers: { Cookie: first.cookie, "Accept-Encoding": "identity", "Accept-Language": "fr-FR" },
  });
  if (settings.status !== 200) throw new BenchError(`/settings/notifications answered ${settings.status}`);
  return runSoak(server, accounts, settings.body.toString("utf8"));
}

interface Prepared {
  datasets: DatasetLines;
  soakReport: SoakReport | null;
}

/** Everything measured on the ready databases, then the details and the budgets table. */
async function measureAll({ datasets, soakReport }: Prepared) {
  const shipped = await measureShipped();
  const sqlite = await sqlitePhase(datasets.sqliteDemo.marieCookie);
  console.log("\nThe framework alone, as a reference (one run, not interleaved)…");
  const framework = await frameworkAlone();
  const postgres = datasets.postgres ? await postgresPhase(datasets.postgres) : null;
  const browser = ONLY === "load" ? null : await measureInBrowser(shipped);

  // Details first, the budgets last.
  printDatasets(datasets);
  printLoadTable([...sqlite.values(), ...(postgres?.values() ?? [])]);
  const login = sqlite.get("login")!;
  const card = sqlite.get("demo card")!;
  console.log(
    `  framework alone, ${LOAD.connections} connections: ${framework.rps.toFixed(0)} req/s (p50 ${ms(framework.p50)} · p95 ${ms(framework.p95)} · p99 ${ms(framework.p99)})`,
  );
  if (browser) printInBrowser(browser);
  if (soakReport) printSoak(soakReport);
  printShipped(shipped);

  const [jsByRouteRow, ...otherShipped] = shippedRows(shipped);
  const notInBrowser = ["Lighthouse, light version", "not measured (BENCH_ONLY=load)", "", "–"];
  const browserRows = browser ? inBrowserRows(browser, shipped) : [];
  const company = datasets.postgres?.find((d) => d.name === "company");
  console.log(
    `\nBudgets (DESIGN.md §6, issue 35's "Done when" first; throughput ratios of means of interleaved runs, ${ROUNDS} × ${LOAD.durationSeconds} s each, 2 workers, ${LOAD.connections} connections; gzip -9 unless said, 1 KB = 1024 bytes)\n`,
  );
  console.log(
    table([
      ["What", "Measured", "Budget", ""],
      ...loadRows(sqlite, postgres),
      jsByRouteRow!,
      ...(browser ? browserRows.slice(0, 6) : [notInBrowser]),
      ["Beyond issue 35's list", "", "", ""],
      ...otherShipped,
      ...(browser ? browserRows.slice(6) : []),
      ["Payment authorisation decision, 50 concurrent, p99", "measured by `npm run bench:webhook`", "≤ 10 ms", "–"],
      ...(soakReport ? soakRows(soakReport) : [["Soak", "not run (BENCH_ONLY=load)", "", "–"]]),
      [
        "The framework alone (one-route app), 20 connections",
        `${framework.rps.toFixed(0)} req/s; /login ${(login.rps / framework.rps).toFixed(2)}×, card ${(card.rps / framework.rps).toFixed(2)}× its throughput (one run, not interleaved)`,
        "reference",
        "–",
      ],
      [
        "Company dataset, PostgreSQL bench_company",
        company?.report
          ? `${thousands(datasets.settings.employees)} employees × ${datasets.settings.months} months: ${thousands(Object.values(company.report.rows).reduce((a, b) => a + b, 0))} rows, ${megabytes(company.bytes)}, generated in ${company.report.seconds.toFixed(0)} s`
          : `not made (${datasets.postgres ? "BENCH_EMPLOYEES=0" : "BENCH_POSTGRES=off"})`,
        "reported",
        "–",
      ],
    ]),
  );
}

const SERVER_NOISE =
  /^(Debugger (listening|attached|ending)|For help, see: https:\/\/nodejs\.org\/en\/docs\/inspector)/;

async function main(): Promise<number> {
  if (ONLY !== undefined && ONLY !== "soak" && ONLY !== "load") {
    console.error(`BENCH_ONLY: "load", "soak" or unset, not "${ONLY}"`);
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
  const settings = datasetSettings(process.env);
  let preparation: PostgresPreparation | null = null;
  let demo: RunningServer | null = null;
  const cleanUp = async () => {
    await Promise.all([...running].map(stopServer));
    if (preparation && preparation.child.exitCode === null) preparation.child.kill("SIGTERM");
    if (preparation)
      await dropSchemas(preparation.baseUrl).catch((err: unknown) =>
        console.error(`✗ dropping the bench schemas: ${String(err)}`),
      );
    removeSqlite(DB_FILE);
    removeSqlite(GROWN_FILE);
  };
  const interrupt = () => void cleanUp().finally(() => process.exit(130));
  process.once("SIGINT", interrupt);
  process.once("SIGTERM", interrupt);
  try {
    if (ONLY !== "soak" && process.env.BENCH_POSTGRES !== "off") {
      preparation = startPostgresPreparation(settings);
      console.log(
        `Preparing the PostgreSQL schemas ${Object.values(POSTGRES_SCHEMAS)
          .filter((schema) => settings.employees > 0 || schema !== POSTGRES_SCHEMAS.company)
          .join(", ")} (in the background)…`,
      );
    }
    const people = ONLY === "load" ? 0 : SOAK.people;
    console.log(`Preparing the SQLite demo (${people} copies of Marie for the soak)…`);
    const sqliteStarted = performance.now();
    const demoFile = await prepareSqliteDemo(DB_FILE, ORIGIN, people, new Date(settings.now));
    const sqliteDemo = { ...demoFile, seconds: (performance.now() - sqliteStarted) / 1000 };
    let sqliteGrown: DatasetReport | null = null;
    if (ONLY !== "soak") {
      console.log("Growing a copy of it (growHistory)…");
      sqliteGrown = await growSqliteCopy(DB_FILE, GROWN_FILE, settings, (line) =>
        console.log(`  [SQLite grown] ${line}`),
      );
    }
    demo = startServer(PORT, `file:${path.relative(root, DB_FILE)}`, true);
    await waitForServer(demo, PORT);
    console.log(`Server ready on ${ORIGIN} (the SQLite demo; ${WORKERS} worker(s))`);
    const soakReport = ONLY === "load" ? null : await soakOnDemo(demo, demoFile.accounts);
    if (ONLY === "soak" || !sqliteGrown) {
      if (soakReport) {
        printSoak(soakReport);
        console.log(`\n${table([["What", "Measured", "Budget", ""], ...soakRows(soakReport)])}`);
      }
      console.log(`\nBench run time: ${runTime()}`);
      return 0;
    }
    if (preparation) console.log("\nWaiting for the PostgreSQL schemas…");
    const postgres = preparation ? await preparation.done : null;
    if (soakReport) {
      // The soak's heaps and caches are not the demo's: its server starts again, fresh as the others.
      await stopServer(demo);
      demo = startServer(PORT, `file:${path.relative(root, DB_FILE)}`, true);
      await waitForServer(demo, PORT);
    }
    await measureAll({
      datasets: { settings, sqliteDemo, sqliteGrown, postgres, postgresSeconds: preparation?.seconds() ?? 0 },
      soakReport,
    });
    console.log(`\nBench run time: ${runTime()} (budget: 15 min)`);
    return 0;
  } catch (err) {
    console.error(
      `\n✗ Benchmark failed after ${runTime()}: ${err instanceof BenchError || err instanceof LighthouseSetupError ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
    );
    return 1;
  } finally {
    benchAgent.destroy();
    await cleanUp();
    process.off("SIGINT", interrupt);
    process.off("SIGTERM", interrupt);
    // Node's own lines about the inspector the soak opened (SIGUSR1) are not the server's.
    const warnings = demo?.output.filter((line) => line.trim() && !SERVER_NOISE.test(line)) ?? [];
    if (warnings.length)
      console.log(`\nServer output (LOG_LEVEL=warn), last lines:\n${warnings.slice(-15).join("\n")}`);
  }
}

process.exitCode = await main();
