import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";
import { openTestDatabase } from "../../tests/support/test-database";
import type { DatabaseHandle } from "./db";
import {
  AUTHORISATION_BUCKETS,
  countRateLimitRefusal,
  metricsRegistry,
  observeAuthorisation,
  observeReceiptReading,
  observeRequest,
  watchOutbox,
} from "./metrics";

/**
 * The registry behind GET /metrics (decision 0064): what each instrumentation call records, under which labels,
 * and the outbox figures read from `mail_outbox` at scrape time (SQLite, or PostgreSQL with TEST_DATABASE_URL).
 */

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openTestDatabase();
  watchOutbox(async () => handle.db);
});
afterAll(() => handle.close());
beforeEach(() => metricsRegistry().resetMetrics());

/** Each series of a family as `labels → value`, e.g. `{"outcome":"approved","reason":"none"}` → 1. */
async function series(name: string): Promise<Map<string, number>> {
  const family = (await metricsRegistry().getMetricsAsJSON()).find((m) => m.name === name);
  if (!family) throw new Error(`no family ${name}`);
  return new Map(family.values.map((v) => [JSON.stringify({ ...v.labels }), v.value]));
}

test("a request is recorded under its route pattern, its method (unknown ones as OTHER) and its status class", async () => {
  observeRequest("GET", "/cards/:cardId", 200, 0.012);
  observeRequest("GET", "/cards/:cardId", 204, 0.3);
  observeRequest("PROPFIND", "not_found", 404, 0.001);
  observeRequest("POST", "/login", 503, 0.02);
  const counts = await series("http_request_duration_seconds");
  expect(
    [...counts.keys()].filter((k) => k.includes('"le":"+Inf"')).map((k) => JSON.parse(k) as Record<string, string>),
  ).toEqual(
    expect.arrayContaining([
      { le: "+Inf", method: "GET", route: "/cards/:cardId", status_class: "2xx" },
      { le: "+Inf", method: "OTHER", route: "not_found", status_class: "4xx" },
      { le: "+Inf", method: "POST", route: "/login", status_class: "5xx" },
    ]),
  );
  const text = await metricsRegistry().getSingleMetricAsString("http_request_duration_seconds");
  expect(text).toContain(
    'http_request_duration_seconds_count{method="GET",route="/cards/:cardId",status_class="2xx"} 2',
  );
  expect(text).toContain(
    'http_request_duration_seconds_bucket{le="0.025",method="GET",route="/cards/:cardId",status_class="2xx"} 1',
  );
});

test("an authorisation is counted by outcome and the engine's code, never by amount, card or person", async () => {
  const t = performance.now();
  observeAuthorisation(
    { kind: "approved", authorizationId: "auth_1", split: [], overflow: 0, overflowPayment: null },
    t,
  );
  observeAuthorisation({ kind: "declined", authorizationId: "auth_2", code: "insufficient_funds", detail: null }, t);
  observeAuthorisation({ kind: "declined", authorizationId: null, code: "invalid_amount", detail: null }, t);
  observeAuthorisation({ kind: "unknownCard" }, t);
  observeAuthorisation(undefined, t);
  observeAuthorisation({ kind: "declined", authorizationId: "auth_2", code: "insufficient_funds", detail: null }, t, {
    replay: true,
  });
  const counts = await series("portal_authorisation_decisions_total");
  expect(Object.fromEntries(counts)).toEqual({
    '{"outcome":"approved","reason":"none"}': 1,
    '{"outcome":"declined","reason":"insufficient_funds"}': 1,
    '{"outcome":"declined","reason":"invalid_amount"}': 1,
    '{"outcome":"declined","reason":"unknown_card"}': 1,
    '{"outcome":"declined","reason":"unreadable_request"}': 1,
    '{"outcome":"replayed","reason":"none"}': 1,
  });
  const text = await metricsRegistry().getSingleMetricAsString("portal_authorisation_duration_seconds");
  expect(text).toContain('portal_authorisation_duration_seconds_count{outcome="declined"} 4');
  expect(text).not.toMatch(/auth_|card_|user_/);
  // The budget (p99 ≤ 10 ms) and Stripe's limit (2 s) are bucket bounds, so their shares read directly.
  expect(AUTHORISATION_BUCKETS).toEqual(expect.arrayContaining([0.01, 2]));
  expect(text).toContain('le="0.01",outcome="approved"} 1');
});

test("receipt readings by outcome, and request limits' refusals by the limit's name", async () => {
  observeReceiptReading("read", performance.now() - 2500);
  observeReceiptReading("unreadable", performance.now());
  countRateLimitRefusal("sensitive");
  countRateLimitRefusal("sensitive");
  countRateLimitRefusal("general");
  const readings = await metricsRegistry().getSingleMetricAsString("portal_receipt_reading_duration_seconds");
  expect(readings).toContain('portal_receipt_reading_duration_seconds_bucket{le="2",outcome="read"} 0');
  expect(readings).toContain('portal_receipt_reading_duration_seconds_bucket{le="3",outcome="read"} 1');
  expect(readings).toContain('portal_receipt_reading_duration_seconds_count{outcome="unreadable"} 1');
  expect(Object.fromEntries(await series("portal_rate_limit_refusals_total"))).toEqual({
    '{"limit":"sensitive"}': 2,
    '{"limit":"general"}': 1,
  });
});

test("the outbox's pending messages and the age of the oldest, per channel, read when scraped", async () => {
  const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();
  const row = (id: string, channel: "email" | "sms", status: "pending" | "sent" | "given_up", createdAt: string) => ({
    id,
    channel,
    recipient: channel === "sms" ? "+33612345678" : "marie.martin@example.com",
    subject: "Votre code",
    body: status === "pending" ? "123456" : "",
    status,
    attempts: 0,
    next_attempt_at: createdAt,
    give_up_at: ago(-3600),
    created_at: createdAt,
  });
  await handle.db.deleteFrom("mail_outbox").execute();
  await handle.db
    .insertInto("mail_outbox")
    .values([
      row("m1", "email", "pending", ago(90)),
      row("m2", "email", "pending", ago(10)),
      row("m3", "email", "sent", ago(5000)),
      row("s1", "sms", "given_up", ago(7000)),
    ])
    .execute();
  const depth = await series("portal_outbox_pending_messages");
  expect(Object.fromEntries(depth)).toEqual({ '{"channel":"email"}': 2, '{"channel":"sms"}': 0 });
  const age = await series("portal_outbox_oldest_pending_age_seconds");
  expect(age.get('{"channel":"email"}')).toBeGreaterThanOrEqual(90);
  expect(age.get('{"channel":"email"}')).toBeLessThan(120);
  expect(age.get('{"channel":"sms"}')).toBe(0);

  // A text message waiting too: the figures follow the table at the next scrape.
  await handle.db
    .insertInto("mail_outbox")
    .values(row("s2", "sms", "pending", ago(30)))
    .execute();
  expect((await series("portal_outbox_pending_messages")).get('{"channel":"sms"}')).toBe(1);
  // The outbox's figures carry neither the recipient nor the text.
  const text = await metricsRegistry().metrics();
  expect(text).not.toContain("example.com");
  expect(text).not.toContain("+336");
});

test("a database that does not answer leaves the outbox without figures, and the rest still scrapes", async () => {
  watchOutbox(() => Promise.reject(new Error("database unreachable")));
  try {
    observeRequest("GET", "healthz", 200, 0.001);
    const text = await metricsRegistry().metrics();
    expect(text).toContain('http_request_duration_seconds_count{method="GET",route="healthz",status_class="2xx"} 1');
    expect(text).not.toMatch(/^portal_outbox_pending_messages\{/m);
  } finally {
    watchOutbox(async () => handle.db);
  }
});

test("the process figures are prom-client's defaults, under the portal's prefix", async () => {
  const names = (await metricsRegistry().getMetricsAsJSON()).map((m) => m.name);
  expect(names).toEqual(
    expect.arrayContaining(["portal_process_cpu_seconds_total", "portal_nodejs_heap_size_used_bytes"]),
  );
  expect(names.filter((n) => n.startsWith("process_") || n.startsWith("nodejs_"))).toEqual([]);
});
