import cluster from "node:cluster";
import { sql } from "kysely";
import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { DeclineCode } from "~/domain/authorisation";
import type { DB } from "./db";
import type { AuthoriseResult } from "./services/authorisations";

/**
 * The figures an operator scrapes from GET /metrics (issue 33 §3, decision 0064), in Prometheus's text format.
 * Server only: nothing here reaches the browser bundle.
 *
 * No label ever carries a person, a card, an amount or a path as typed: requests are labelled by the route
 * pattern they matched (`/cards/:cardId`), authorisations by the engine's decline codes, readings by a fixed
 * outcome, refusals by the limit's name. Every label value comes from a closed list or the route table.
 *
 * One set of figures per process, kept on `globalThis`: the server (server/*.ts, run by tsx) and the app bundle
 * each load their own copy of this module, and Vite's development server loads it again on every change; all of
 * them must record into the one registry (prom-client refuses a second metric of the same name).
 */

/** The prefix of prom-client's default process figures (`portal_process_cpu_seconds_total`…) and of the app's. */
export const METRICS_PREFIX = "portal_";

/**
 * Buckets (seconds) chosen for this app:
 * - requests: a page renders in 5 to 50 ms on the demo (DESIGN §6), a receipt upload or a slow database takes
 *   seconds; the buckets split the first 100 ms finely and stop at 10 s, past which the proxy has given up.
 * - authorisations: the budget is p99 ≤ 10 ms through the signed webhook and Stripe waits 2 s at most (DESIGN §6),
 *   so 10 ms and 2 s are bucket bounds: the share over budget and the share Stripe decided without us read directly.
 * - receipt readings: the reader gives up on a document after 20 s and a reading waits its turn for 60 s at most
 *   (decision 0046, `READING_GIVE_UP_MS`); most images read in 1 to 5 s.
 */
export const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
export const AUTHORISATION_BUCKETS = [0.001, 0.0025, 0.005, 0.0075, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2];
export const RECEIPT_READING_BUCKETS = [0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 20, 30, 60];

/** The outbox channels (migration 029): each is always reported, at 0 when nothing waits. */
const OUTBOX_CHANNELS = ["email", "sms"] as const;
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

export type AuthorisationOutcome = "approved" | "declined" | "replayed";
/** `not_found`: the file's row is the person's but its bytes are gone from the storage. */
export type ReceiptReadingOutcome = "read" | "unreadable" | "not_found";
/** The request limits of server/rate-limits.ts (decision 0014). */
export type RateLimitName = "general" | "sensitive";

interface PortalMetrics {
  registry: Registry;
  http: Histogram<"method" | "route" | "status_class">;
  authorisations: Counter<"outcome" | "reason">;
  authorisationSeconds: Histogram<"outcome">;
  receiptReadingSeconds: Histogram<"outcome">;
  rateLimitRefusals: Counter<"limit">;
  /** Where the outbox gauges read `mail_outbox` at scrape time; unset: they report nothing. */
  outboxDatabase?: () => Promise<DB>;
}

const GLOBAL_KEY = Symbol.for("portal.metrics");

function createMetrics(): PortalMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: METRICS_PREFIX });
  const metrics: PortalMetrics = {
    registry,
    http: new Histogram({
      name: "http_request_duration_seconds",
      help: "Time to answer a request, by method, route pattern (never the path itself) and status class.",
      labelNames: ["method", "route", "status_class"],
      buckets: HTTP_BUCKETS,
      registers: [registry],
    }),
    authorisations: new Counter({
      name: `${METRICS_PREFIX}authorisation_decisions_total`,
      help: "Card authorisation decisions, by outcome and the engine's reason code (none when approved).",
      labelNames: ["outcome", "reason"],
      registers: [registry],
    }),
    authorisationSeconds: new Histogram({
      name: `${METRICS_PREFIX}authorisation_duration_seconds`,
      help: "Time to decide a card authorisation and commit it, by outcome.",
      labelNames: ["outcome"],
      buckets: AUTHORISATION_BUCKETS,
      registers: [registry],
    }),
    receiptReadingSeconds: new Histogram({
      name: `${METRICS_PREFIX}receipt_reading_duration_seconds`,
      help: "Time to read a receipt on this server, by outcome.",
      labelNames: ["outcome"],
      buckets: RECEIPT_READING_BUCKETS,
      registers: [registry],
    }),
    rateLimitRefusals: new Counter({
      name: `${METRICS_PREFIX}rate_limit_refusals_total`,
      help: "Requests refused with 429 by a request limit, by the limit's name.",
      labelNames: ["limit"],
      registers: [registry],
    }),
  };
  addOutboxGauges(metrics);
  // With workers, the primary asks each worker for this registry and adds them up (decision 0064).
  if (cluster.isWorker) {
    new AggregatorRegistry();
    AggregatorRegistry.setRegistries([registry]);
  }
  return metrics;
}

/**
 * The outbox's pending messages and the age of the oldest, per channel, read from the database when scraped.
 * Every worker reads the same table: with workers the figures are not added up but the largest kept (`max`).
 * A database that does not answer leaves both gauges without a value for that scrape (the rest still scrapes).
 */
function addOutboxGauges(metrics: PortalMetrics) {
  // A scrape reads every family at once: both gauges wait for the one query of that scrape.
  let reading: Promise<void> | undefined;
  const refresh = () => (reading ??= readOutbox().finally(() => (reading = undefined)));
  const depth = new Gauge({
    name: `${METRICS_PREFIX}outbox_pending_messages`,
    help: "Messages (e-mails, text messages) waiting in the outbox to be sent, by channel.",
    labelNames: ["channel"],
    aggregator: "max",
    registers: [metrics.registry],
    collect: refresh,
  });
  const age = new Gauge({
    name: `${METRICS_PREFIX}outbox_oldest_pending_age_seconds`,
    help: "Age of the oldest message waiting in the outbox, by channel (0 when none waits).",
    labelNames: ["channel"],
    aggregator: "max",
    registers: [metrics.registry],
    collect: refresh,
  });
  async function readOutbox() {
    const rows = await outboxFigures(metrics).catch(() => null);
    depth.reset();
    age.reset();
    if (!rows) return;
    const now = Date.now();
    for (const channel of OUTBOX_CHANNELS) {
      const row = rows.find((r) => r.channel === channel);
      depth.set({ channel }, Number(row?.pending ?? 0));
      const oldest = row?.oldest ? Date.parse(row.oldest) : NaN;
      age.set({ channel }, Number.isNaN(oldest) ? 0 : Math.max(0, (now - oldest) / 1000));
    }
  }
}

async function outboxFigures(metrics: PortalMetrics) {
  if (!metrics.outboxDatabase) return null;
  const db = await metrics.outboxDatabase();
  return db
    .selectFrom("mail_outbox")
    .select(["channel", sql<number | string>`count(*)`.as("pending"), sql<string | null>`min(created_at)`.as("oldest")])
    .where("status", "=", "pending")
    .groupBy("channel")
    .execute();
}

/** This process's figures (made on first use). */
function metrics(): PortalMetrics {
  const holder = globalThis as unknown as Record<symbol, PortalMetrics | undefined>;
  return (holder[GLOBAL_KEY] ??= createMetrics());
}

/** The registry, for the endpoint and the tests. */
export function metricsRegistry(): Registry {
  return metrics().registry;
}

/** Where the outbox gauges read `mail_outbox` (the server gives its platform's database). */
export function watchOutbox(database: () => Promise<DB>): void {
  metrics().outboxDatabase = database;
}

/** A request answered: `route` is a route pattern or one of the server's fixed names, never a path. */
export function observeRequest(method: string, route: string, status: number, seconds: number): void {
  metrics().http.observe(
    { method: METHODS.has(method) ? method : "OTHER", route, status_class: `${Math.floor(status / 100)}xx` },
    seconds,
  );
}

/**
 * A card authorisation decided (the sandbox terminal, the Stripe webhook), `startedAt` from `performance.now()`.
 * The reason is the engine's decline code (`~/domain/authorisation` DECLINE_CODES), `unknown_card`, or
 * `unreadable_request` (`result` undefined: a request too malformed to decide); `none` when approved. A replay
 * of a request already decided (Stripe sending it again) is counted apart, without its reason.
 */
export function observeAuthorisation(
  result: AuthoriseResult | undefined,
  startedAt: number,
  { replay = false }: { replay?: boolean } = {},
): void {
  const m = metrics();
  const [outcome, reason]: [AuthorisationOutcome, DeclineCode | "unknown_card" | "unreadable_request" | "none"] = replay
    ? ["replayed", "none"]
    : !result
      ? ["declined", "unreadable_request"]
      : result.kind === "unknownCard"
        ? ["declined", "unknown_card"]
        : result.kind === "declined"
          ? ["declined", result.code]
          : ["approved", "none"];
  m.authorisations.inc({ outcome, reason });
  m.authorisationSeconds.observe({ outcome }, (performance.now() - startedAt) / 1000);
}

/** A receipt read (or not): `startedAt` from `performance.now()`. */
export function observeReceiptReading(outcome: ReceiptReadingOutcome, startedAt: number): void {
  metrics().receiptReadingSeconds.observe({ outcome }, (performance.now() - startedAt) / 1000);
}

/** A request refused by one of the request limits. */
export function countRateLimitRefusal(limit: RateLimitName): void {
  metrics().rateLimitRefusals.inc({ limit });
}
