/**
 * `npm run bench`: checks the production build against the budgets of DESIGN.md §6.
 *
 * Starts the built portal on 127.0.0.1 with a fresh SQLite file, signs in as Claire (no second
 * factor) through the plain HTML form, then measures the card page: JavaScript and CSS shipped
 * (gzip -9), HTML size, and server latency under 20 concurrent users. Budgets are reported, not
 * enforced: the exit code is 0 unless the build is missing or the server or the sign-in fails.
 *
 * Needs `npm run build` first. Traffic goes to 127.0.0.1 only. 1 KB = 1024 bytes.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import http, { type IncomingHttpHeaders, type OutgoingHttpHeaders } from "node:http";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const HOST = "127.0.0.1";
const PORT = Number(process.env.BENCH_PORT ?? 3300);
const ORIGIN = `http://${HOST}:${PORT}`;
const DB_FILE = path.join(root, "data/bench.sqlite");
const CLAIRE = "claire.petit@example.com";
const PASSWORD = "Demo-Portail-2026!";

const LOAD = { users: 20, durationMs: 10_000, maxRequests: 5000, warmup: 20 };
/** As deployed on the 2-core machine of the budget: one worker per core (decision 0013); WEB_CONCURRENCY overrides. */
const WORKERS = process.env.WEB_CONCURRENCY ?? "2";
const BUDGET_KB = { js: 130, css: 15, html: 30 };
const BUDGET_P95_MS = 100;

class BenchError extends Error {}

// ---------------------------------------------------------------------------------------------
// HTTP (node:http, so that headers such as Origin are sent as given and bodies are not decoded)

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const benchAgent = new http.Agent({ keepAlive: true, maxSockets: LOAD.users });

function request(
  urlPath: string,
  options: { method?: string; headers?: OutgoingHttpHeaders; body?: string } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: HOST,
        port: PORT,
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

function startServer(): RunningServer {
  removeDatabase();
  const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      APP_MODE: "sandbox",
      HOST,
      PORT: String(PORT),
      DATABASE_URL: `file:${path.relative(root, DB_FILE)}`,
      LOG_LEVEL: "warn",
      // A load measurement: no request limit (the per-account guess limits stay; each virtual user signs
      // in once). Virtual users still send their own X-Forwarded-For address, as real ones would have.
      RATE_LIMITS: "off",
      WEB_CONCURRENCY: WORKERS,
      TRUST_PROXY: "1",
    },
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

async function waitForHealth(server: RunningServer, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let exitCode: number | null | undefined;
  void server.exited.then((code) => (exitCode = code));
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new BenchError(`the server exited (code ${exitCode}) before it was ready`);
    try {
      const reply = await request("/healthz");
      if (reply.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new BenchError(`the server did not answer /healthz within ${timeoutMs / 1000} s`);
}

async function stopServer(server: RunningServer) {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill("SIGTERM");
  const timer = setTimeout(() => server.child.kill("SIGKILL"), 15_000);
  await server.exited;
  clearTimeout(timer);
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
    // React Router's bootstrap: `import "/assets/…"; import * as route0 from "/assets/…"; import("/assets/entry.client…")`.
    if (attrs.type === "module") {
      for (const imp of body.matchAll(/\bimport\s*\(?\s*["']([^"']+)["']|\bfrom\s*["']([^"']+)["']/g)) {
        const src = local(imp[1] ?? imp[2] ?? "");
        if (src) scripts.add(src);
      }
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

/** Signs in with the login page's own form, as a browser without JavaScript would. */
async function signInAsClaire(jar: CookieJar): Promise<{ loginHtml: string }> {
  const page = await request("/login", { headers: { "Accept-Language": "fr-FR" } });
  jar.store(page.headers);
  if (page.status !== 200) throw new BenchError(`GET /login answered ${page.status}`);
  const loginHtml = page.body.toString("utf8");
  const form = formsOf(loginHtml).find((f) => f.method === "post" && /name="password"/.test(f.inner));
  if (!form) throw new BenchError("/login has no POST form with a password field in its HTML");

  const fields = new URLSearchParams();
  for (const m of form.inner.matchAll(/<input\b([^>]*)>/gi)) {
    const attrs = attributes(m[1] ?? "");
    if (!attrs.name) continue;
    if (attrs.name === "email") fields.set("email", CLAIRE);
    else if (attrs.name === "password") fields.set("password", PASSWORD);
    else fields.set(attrs.name, decode(attrs.value ?? ""));
  }
  const action = pathOf(new URL(decode(form.action ?? "/login"), `${ORIGIN}/login`).toString());
  const body = fields.toString();
  const reply = await request(action, {
    method: "POST",
    body,
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "Content-Length": Buffer.byteLength(body),
      Origin: ORIGIN,
      Cookie: jar.header(),
    },
  });
  jar.store(reply.headers);
  const location = pathOf(reply.headers.location);
  if (reply.status < 300 || reply.status >= 400)
    throw new BenchError(`sign-in answered ${reply.status}, not a redirect (wrong password? rate limit?)`);
  if (location.startsWith("/login"))
    throw new BenchError(`sign-in redirected to ${location}: Claire should have no second factor`);
  return { loginHtml };
}

/** /cards redirects to the first card; returns that page's path. */
async function findCardPage(jar: CookieJar): Promise<string> {
  let current = "/cards";
  for (let hop = 0; hop < 5; hop++) {
    const reply = await request(current, { headers: { Cookie: jar.header() } });
    jar.store(reply.headers);
    if (reply.status >= 300 && reply.status < 400) {
      current = pathOf(reply.headers.location);
      continue;
    }
    if (reply.status !== 200) throw new BenchError(`GET ${current} answered ${reply.status}`);
    if (!/^\/cards\/[^/]+$/.test(new URL(current, ORIGIN).pathname))
      throw new BenchError(`/cards led to ${current}, not a card page`);
    return current;
  }
  throw new BenchError("too many redirects from /cards");
}

interface LoadResult {
  latencies: number[];
  errors: Map<string, number>;
  elapsedMs: number;
  encoding: string;
}

async function loadTest(cardPath: string, cookie: string): Promise<LoadResult> {
  const latencies: number[] = [];
  const errors = new Map<string, number>();
  const encodings = new Set<string>();
  const fail = (why: string) => errors.set(why, (errors.get(why) ?? 0) + 1);
  const headers = (user: number): OutgoingHttpHeaders => ({
    Cookie: cookie,
    "Accept-Encoding": "gzip, deflate, br",
    "Accept-Language": "fr-FR,fr;q=0.9",
    Accept: "text/html",
    "X-Forwarded-For": `10.20.0.${user + 1}`,
  });

  for (let i = 0; i < LOAD.warmup; i++) await request(cardPath, { headers: headers(i % LOAD.users) });

  let started = 0;
  const begin = performance.now();
  const deadline = begin + LOAD.durationMs;
  const user = async (id: number) => {
    while (performance.now() < deadline && started < LOAD.maxRequests) {
      started++;
      const t0 = performance.now();
      try {
        const reply = await request(cardPath, { headers: headers(id) });
        const ms = performance.now() - t0;
        if (reply.status === 200) latencies.push(ms);
        else fail(`HTTP ${reply.status}`);
        encodings.add(String(reply.headers["content-encoding"] ?? "identity"));
      } catch (err) {
        fail(err instanceof Error ? err.message : String(err));
      }
    }
  };
  await Promise.all(Array.from({ length: LOAD.users }, (_, id) => user(id)));
  return { latencies, errors, elapsedMs: performance.now() - begin, encoding: [...encodings].join(", ") };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
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

async function bench() {
  const jar = new CookieJar();
  const { loginHtml } = await signInAsClaire(jar);
  const cardPath = await findCardPage(jar);
  const cookie = jar.header();

  const cardReply = await request(cardPath, {
    headers: { Cookie: cookie, "Accept-Encoding": "identity", "Accept-Language": "fr-FR" },
  });
  if (cardReply.status !== 200) throw new BenchError(`GET ${cardPath} answered ${cardReply.status}`);
  const cardHtml = cardReply.body.toString("utf8");

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
  const jsGzip = sum(js, "gzip");
  const cssGzip = sum(appCss, "gzip");
  const htmlGzip = gzipSize(cardReply.body);

  // 5. Latency under load.
  console.log(
    `Load: ${LOAD.users} users on ${cardPath} for up to ${LOAD.durationMs / 1000} s or ${LOAD.maxRequests} requests…\n`,
  );
  const load = await loadTest(cardPath, cookie);
  const sorted = [...load.latencies].sort((a, b) => a - b);
  const [p50, p95, p99] = [50, 95, 99].map((p) => percentile(sorted, p)) as [number, number, number];
  const failed = [...load.errors.values()].reduce((a, b) => a + b, 0);
  const rps = ((sorted.length + failed) / load.elapsedMs) * 1000;
  const ms = (n: number) => `${n.toFixed(1)} ms`;

  console.log(`Budgets (DESIGN.md §6) — card page ${cardPath}, gzip -9, 1 KB = 1024 bytes\n`);
  console.log(
    table([
      ["What", "Measured", "Budget", ""],
      [
        "JavaScript needed to use the page",
        noJsOk
          ? `0 KB (h1 + ${cardForms.length} form(s), ${cardLinks} card link(s) in server HTML)`
          : "content or forms missing without JS",
        "0 KB",
        mark(noJsOk),
      ],
      [
        "JavaScript loaded by the card page",
        `${kb(jsGzip)} (${js.length} files, ${kb(sum(js, "raw"))} raw)`,
        `≤ ${BUDGET_KB.js} KB`,
        mark(jsGzip <= BUDGET_KB.js * 1024),
      ],
      [
        "CSS, whole app",
        `${kb(cssGzip)} (${appCss.length} file(s), ${kb(sum(appCss, "raw"))} raw)`,
        `≤ ${BUDGET_KB.css} KB`,
        mark(cssGzip <= BUDGET_KB.css * 1024),
      ],
      [
        "HTML of the card page",
        `${kb(htmlGzip)} (${kb(cardReply.body.length)} raw)`,
        `≤ ${BUDGET_KB.html} KB`,
        mark(htmlGzip <= BUDGET_KB.html * 1024),
      ],
      [
        `Card page, ${LOAD.users} concurrent users, p95`,
        sorted.length
          ? `p50 ${ms(p50)} · p95 ${ms(p95)} · p99 ${ms(p99)} · ${rps.toFixed(0)} req/s`
          : "no successful request",
        `p95 ≤ ${BUDGET_P95_MS} ms`,
        mark(sorted.length > 0 && failed === 0 && p95 <= BUDGET_P95_MS),
      ],
    ]),
  );

  console.log(
    `\nNo-JS checks: /login h1 "${loginH1 ?? "—"}", POST form with e-mail + submit: ${loginFormOk ? "yes" : "NO"} (sign-in above used it, without scripts)`,
  );
  console.log(
    `              card h1 "${cardH1 ?? "—"}", ${cardForms.length} form(s) [${cardForms.map((f) => f.method).join(", ")}], ${textOf(cardMain).length} characters of text in <main>`,
  );
  console.log(
    `\nLoad: ${sorted.length} OK + ${failed} failed in ${(load.elapsedMs / 1000).toFixed(1)} s, response encoding ${load.encoding}, ${LOAD.warmup} warm-up requests not counted`,
  );
  for (const [why, count] of load.errors) console.log(`  ✗ ${count} × ${why}`);
  if (sorted.length) console.log(`  min ${ms(sorted[0]!)} · max ${ms(sorted[sorted.length - 1]!)}`);

  console.log(
    `\nJavaScript of the card page, biggest first (inline bootstrap scripts in the HTML: ${kb(inlineScriptBytes)} raw, counted with the HTML):`,
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
}

async function main(): Promise<number> {
  try {
    checkBuild();
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
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
    console.log(`Server ready on ${ORIGIN} (fresh database ${path.relative(root, DB_FILE)}, ${WORKERS} worker(s))\n`);
    await bench();
    return 0;
  } catch (err) {
    console.error(
      `\n✗ Benchmark failed: ${err instanceof BenchError ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
    );
    return 1;
  } finally {
    benchAgent.destroy();
    await stopServer(server);
    process.off("SIGINT", interrupt);
    process.off("SIGTERM", interrupt);
    removeDatabase();
    const warnings = server.output.filter((line) => line.trim());
    if (warnings.length)
      console.log(`\nServer output (LOG_LEVEL=warn), last lines:\n${warnings.slice(-15).join("\n")}`);
  }
}

process.exitCode = await main();
