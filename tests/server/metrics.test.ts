import { readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { todayInParis } from "../../app/domain/dates";
import { openServerDatabase, signIn } from "../support/test-browser";
import { startTestServer, stopTestServer, type TestServer } from "../support/test-server";

/**
 * GET /metrics on the real server (issue 33 §3, decision 0064): the families are there after real traffic, the
 * token is required (401 otherwise, 404 when none is set), and no label value ever carries an id, an e-mail, an
 * amount, a path as typed or a query. With two workers, one scrape adds up both workers' figures, a receipt's
 * reading included. Needs
 * `npm run build` first (npm test builds). Ports 3915 and 3916 (this slice's).
 */
const TOKEN = "metrics-test-token-0123456789abcdef0123456789";
const PASSWORD = "Demo-Portail-2026!";
const CLAIRE = "claire.petit@example.com";
const MARIE = "marie.martin@example.com";
const ANONYMOUS_CEILING = 40;
const WIZARD = "/plans/expense-requests/new";
const BAKERY = path.resolve(import.meta.dirname, "../fixtures/receipts/boulangerie-2026-11-14.jpg");

/** Every sample of a scrape: its family, its labels and its value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[key!] = value!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

const sum = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((total, s) => total + s.value, 0);

function client(base: string) {
  const scrape = (authorization?: string) =>
    fetch(`${base}/metrics`, {
      headers: { Connection: "close", ...(authorization ? { Authorization: authorization } : {}) },
    });
  const samples = async () => {
    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    return parse(await res.text());
  };
  const post = (path: string, fields: Record<string, string>, cookie?: string) =>
    fetch(`${base}${path}`, {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { Origin: base, Connection: "close", ...(cookie ? { Cookie: cookie } : {}) },
      redirect: "manual",
    });
  const get = (path: string, cookie?: string) =>
    fetch(`${base}${path}`, {
      headers: { Connection: "close", ...(cookie ? { Cookie: cookie } : {}) },
      redirect: "manual",
    });
  return { scrape, samples, post, get };
}

/**
 * Puts e-mails in the server's outbox that wait (their next attempt a day away), so every worker reads them.
 * Straight into its SQLite file, beside the server, as another process of the server would.
 */
function waitingEmails(name: string, count: number) {
  const db = new Database(path.resolve(import.meta.dirname, `../../data/${name}.sqlite`));
  try {
    const now = new Date().toISOString();
    const later = new Date(Date.now() + 86_400_000).toISOString();
    const insert = db.prepare(
      `insert into mail_outbox (id, channel, recipient, subject, body, status, attempts, next_attempt_at, give_up_at, created_at)
       values (?, 'email', 'someone@example.com', 'Test', 'Test', 'pending', 0, ?, ?, ?)`,
    );
    for (let i = 0; i < count; i++) insert.run(`mail_metrics_${i}`, later, later, now);
  } finally {
    db.close();
  }
}

describe("metrics on, one process", () => {
  let server: TestServer;
  let http: ReturnType<typeof client>;
  /** Everything personal or variable the traffic below sent or received: never a label value. */
  const secrets = new Set([CLAIRE, MARIE, "claire", "marie", "example.com", "12,50", "12.5", "1250", "4242"]);

  beforeAll(async () => {
    server = await startTestServer("test-metrics", 3915, {
      METRICS_TOKEN: TOKEN,
      // Claire's sign-in and three wrong passwords pass, the fourth is refused.
      RATE_LIMIT_SENSITIVE: "4",
      RATE_LIMIT_ANONYMOUS: String(ANONYMOUS_CEILING),
    });
    http = client(server.base);
  }, 60_000);
  afterAll(() => stopTestServer(server));

  test("without the token, with a wrong one or one that differs in its last character: 401, never cached", async () => {
    const wrong = TOKEN.slice(0, -1) + (TOKEN.endsWith("9") ? "8" : "9");
    for (const authorization of [
      undefined,
      "Bearer nope",
      `Bearer ${wrong}`,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      `Basic ${Buffer.from(`metrics:${TOKEN}`).toString("base64")}`,
      TOKEN,
      "Bearer ",
    ]) {
      const res = await http.scrape(authorization);
      expect(res.status, String(authorization)).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer\b/);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(await res.text()).not.toContain("http_request_duration_seconds");
    }
    const res = await http.scrape(`Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  test("after a sign-in, a card page, a 404, refused posts and a payment, every family is there", async () => {
    expect((await http.get("/login")).status).toBe(200);
    const signIn = await http.post("/login", { email: CLAIRE, password: PASSWORD });
    expect(signIn.status).toBe(302);
    const cookie = signIn.headers
      .getSetCookie()
      .find((c) => c.startsWith("session="))!
      .split(";")[0]!;
    const cards = await http.get("/cards", cookie);
    const cardPath = cards.headers.get("location")!;
    expect(cardPath).toMatch(/^\/cards\/card_/);
    secrets.add(cardPath.split("/")[2]!);
    expect((await http.get(cardPath, cookie)).status).toBe(200);
    expect((await http.get(`${cardPath}.data?email=${encodeURIComponent(MARIE)}`, cookie)).status).toBe(200);
    // Paths and queries carrying e-mails, ids and amounts: not found, and never a label.
    expect((await http.get(`/nope/${encodeURIComponent(MARIE)}?email=${MARIE}&amount=12.50`)).status).toBe(404);
    // Another's (or no) card: sent away from it, labelled by the route it matched.
    const foreign = await http.get(`/cards/card_doesnotexist/transactions/auth_nope/report?c=${MARIE}`, cookie);
    expect(foreign.status).toBeLessThan(500);
    // Wrong passwords past the limit on sign-in posts: 400 three times, then 429.
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await http.post("/login", { email: MARIE, password: "wrong" })).status);
    expect(statuses).toEqual([400, 400, 400, 429]);
    // A payment at the sandbox terminal: the authorisation engine decides (approved or declined, either counts).
    const paid = await http.post("/dev/terminal", {
      intent: "pay",
      card: "4242",
      holder: MARIE,
      amount: "12,50",
      merchant: "restaurant",
      day: todayInParis(),
      time: "12:30",
      entryMode: "contactless",
    });
    expect(paid.status).toBe(302);
    const authorisation = new URL(paid.headers.get("location")!, server.base).searchParams.get("authorization")!;
    expect(authorisation).toMatch(/^auth_/);
    secrets.add(authorisation);

    const samples = await http.samples();
    const names = new Set(samples.map((s) => s.name));
    for (const family of [
      "http_request_duration_seconds_bucket",
      "portal_authorisation_decisions_total",
      "portal_authorisation_duration_seconds_bucket",
      "portal_outbox_pending_messages",
      "portal_outbox_oldest_pending_age_seconds",
      "portal_rate_limit_refusals_total",
      "portal_process_cpu_seconds_total",
      "portal_nodejs_eventloop_lag_seconds",
    ])
      expect(names, family).toContain(family);
    const requests = (labels: Record<string, string>) => sum(samples, "http_request_duration_seconds_count", labels);
    expect(requests({ method: "GET", route: "/login", status_class: "2xx" })).toBe(1);
    expect(requests({ method: "POST", route: "/login", status_class: "3xx" })).toBe(1);
    expect(requests({ method: "POST", route: "/login", status_class: "4xx" })).toBe(4);
    expect(requests({ method: "GET", route: "/cards/:cardId", status_class: "2xx" })).toBe(2);
    expect(requests({ method: "GET", route: "not_found", status_class: "4xx" })).toBeGreaterThanOrEqual(1);
    expect(requests({ method: "POST", route: "/dev/terminal", status_class: "3xx" })).toBe(1);
    expect(requests({ route: "/cards/:cardId/transactions/:authorizationId/report" })).toBe(1);
    expect(requests({ route: "healthz" })).toBeGreaterThanOrEqual(1);
    expect(sum(samples, "portal_rate_limit_refusals_total", { limit: "sensitive" })).toBe(1);
    expect(sum(samples, "portal_authorisation_decisions_total")).toBe(1);
    expect(sum(samples, "portal_authorisation_duration_seconds_count")).toBe(1);
    // The outbox is reported for both channels, at 0 when nothing waits.
    expect(samples.some((s) => s.name === "portal_outbox_pending_messages" && s.labels.channel === "email")).toBe(true);
    expect(samples.some((s) => s.name === "portal_outbox_pending_messages" && s.labels.channel === "sms")).toBe(true);
    // The scrapes themselves are not timed.
    expect(samples.filter((s) => /metrics/i.test(s.labels.route ?? ""))).toEqual([]);
  });

  test("no label value carries an id, an e-mail, an amount, a raw path or a query", async () => {
    const samples = await http.samples();
    const routes = new Set(samples.flatMap((s) => (s.labels.route === undefined ? [] : [s.labels.route])));
    for (const route of routes)
      expect(route, route).toMatch(/^(static|healthz|manifest|not_found|\/([\w-]+|:\w+\??)?(\/([\w-]+|:\w+\??))*)$/);
    for (const { name, labels } of samples)
      for (const [key, value] of Object.entries(labels)) {
        for (const secret of secrets) expect(value, `${name} ${key}`).not.toContain(secret);
        expect(value, `${name} ${key}`).not.toMatch(/@|%|[?&]\w*=|\b(card|auth|usr|file|wal)_\w/);
        if (key === "le") expect(value).toMatch(/^(\+Inf|\d+(\.\d+)?(e-?\d+)?)$/);
      }
    // The labels in use, each from a closed list.
    const valuesOf = (key: string) => new Set(samples.flatMap((s) => (key in s.labels ? [s.labels[key]] : [])));
    for (const value of valuesOf("status_class")) expect(["1xx", "2xx", "3xx", "4xx", "5xx"]).toContain(value);
    for (const value of valuesOf("method")) expect(["GET", "HEAD", "POST", "OTHER"]).toContain(value);
    for (const value of valuesOf("channel")) expect(["email", "sms"]).toContain(value);
    for (const value of valuesOf("limit")) expect(["general", "sensitive"]).toContain(value);
  });

  test("the scrape is never refused by the request limits, which are counted when they refuse", async () => {
    // Anonymous pages until the address's ceiling refuses them.
    let refused = 0;
    for (let i = 0; i < ANONYMOUS_CEILING && refused === 0; i++)
      if ((await http.get("/login")).status === 429) refused += 1;
    expect(refused).toBe(1);
    for (let i = 0; i < ANONYMOUS_CEILING + 10; i++) {
      const res = await http.scrape(`Bearer ${TOKEN}`);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    const samples = await http.samples();
    expect(sum(samples, "portal_rate_limit_refusals_total", { limit: "general" })).toBe(1);
  });
});

describe("metrics on, two workers", () => {
  let server: TestServer;
  let http: ReturnType<typeof client>;
  beforeAll(async () => {
    server = await startTestServer("test-metrics-cluster", 3916, { METRICS_TOKEN: TOKEN, WEB_CONCURRENCY: "2" });
    http = client(server.base);
    const deadline = Date.now() + 30_000;
    while (!server.output().includes('"workers":2') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
  }, 60_000);
  afterAll(() => stopTestServer(server));

  test("one scrape, whichever worker answers it, adds up both workers' figures", async () => {
    expect(server.output()).toContain('"workers":2');
    // A new connection each time: the primary hands them to the workers in turn.
    const pages = 12;
    for (let i = 0; i < pages; i++) expect((await http.get("/login")).status).toBe(200);
    const loginPages = (samples: Sample[]) =>
      sum(samples, "http_request_duration_seconds_count", { method: "GET", route: "/login" });
    const pendingEmails = 3;
    waitingEmails("test-metrics-cluster", pendingEmails);
    const scrapes = await Promise.all(Array.from({ length: 4 }, () => http.samples()));
    for (const samples of scrapes) {
      expect(loginPages(samples)).toBe(pages);
      // The outbox is read by each worker from the one database: the largest is kept, not the sum of the two.
      expect(sum(samples, "portal_outbox_pending_messages", { channel: "email" })).toBe(pendingEmails);
    }
  });

  test("a receipt marie uploads in the refund wizard is read, and its reading timed, whichever worker read it", async () => {
    const db = openServerDatabase("test-metrics-cluster");
    try {
      const marie = await signIn(server.base, db, MARIE);
      const page = await (await marie.get(WIZARD)).text();
      const typeId = [...page.matchAll(/<input[^>]*name="type_id"[^>]*>/g)]
        .map((m) => m[0])
        .filter((input) => !/\bdisabled\b/.test(input))
        .map((input) => /value="([^"]+)"/.exec(input)?.[1])[0];
      expect(typeId).toBeDefined();
      const chosen = await marie.post(`${WIZARD}?step=type`, { intent: "continue", type_id: typeId! });
      const ticket = chosen.headers.get("location")!;
      expect(ticket).toContain("step=ticket");
      const draftId = new URL(ticket, server.base).searchParams.get("draft")!;
      const form = new FormData();
      form.append("intent", "upload");
      form.append("receipt", new File([readFileSync(BAKERY)], "ticket.jpg", { type: "image/jpeg" }));
      const uploaded = await marie.request(ticket, { method: "POST", body: form, headers: { Origin: server.base } });
      expect(uploaded.status).toBe(302);
      const deadline = Date.now() + 45_000;
      let state = "pending";
      while (state === "pending" && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        const row = db.prepare("select reading from expense_request_drafts where id = ?").get(draftId) as
          { reading: string | null } | undefined;
        state = row?.reading ? (JSON.parse(row.reading) as { state: string }).state : "pending";
      }
      expect(state).not.toBe("pending");
      const samples = await http.samples();
      expect(sum(samples, "portal_receipt_reading_duration_seconds_count")).toBe(1);
      expect(sum(samples, "portal_receipt_reading_duration_seconds_count", { outcome: "read" })).toBe(1);
      for (const { labels } of samples)
        for (const value of Object.values(labels)) {
          expect(value).not.toContain(draftId);
          expect(value).not.toContain(MARIE);
          expect(value).not.toContain("ticket.jpg");
        }
    } finally {
      db.close();
    }
  }, 60_000);
});

describe("metrics off (no METRICS_TOKEN)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("test-metrics-off", 3915, { METRICS_TOKEN: "" });
  }, 60_000);
  afterAll(() => stopTestServer(server));

  test("GET /metrics is the not-found page, with or without a token", async () => {
    const http = client(server.base);
    for (const authorization of [undefined, `Bearer ${TOKEN}`]) {
      const res = await http.scrape(authorization);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain("http_request_duration_seconds");
    }
  });
});
