import Stripe from "stripe";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { DatabaseHandle } from "~/.server/db";
import { openDemoDatabase } from "../support/test-database";
import { parseEnv } from "~/.server/env";
import { createLogger } from "~/.server/logger";
import type { Platform } from "~/.server/platform";
import { addCalendarDays, isFrenchPublicHoliday } from "~/domain/calendar";
import { todayInParis } from "~/domain/dates";
import { action, loader } from "~/routes/webhooks/stripe";
import { installTestPlatform } from "../support/test-platform";

/**
 * The webhook route as React Router calls it (decision 0036), on the demo database: marie's •••• 4242 paying 12,50 €
 * at a restaurant. The server's own refusals (body types, cross-site posts) are tested on the built server
 * (tests/server/stripe-webhook.test.ts).
 */
const SECRET = "whsec_route_test_secret";
let handle: DatabaseHandle;
let platform: Platform;
let cardRef: string;
const lines: string[] = [];

beforeAll(async () => {
  let ids: Record<string, string>;
  ({ handle, ids } = await openDemoDatabase());
  platform = installTestPlatform(handle, "stripe-webhook-route-test-secret-0123456789");
  platform.logger = createLogger("debug", (line) => lines.push(line));
  const card = await handle.db
    .selectFrom("cards")
    .select("issuer_ref")
    .where("user_id", "=", ids.marie!)
    .where("last_four", "=", "4242")
    .executeTakeFirstOrThrow();
  cardRef = card.issuer_ref!;
}, 30_000);
afterAll(() => handle.close());

const withSecret = (secret: string | undefined) => {
  platform.env = parseEnv({ SESSION_SECRET: "x".repeat(40), LOG_LEVEL: "silent", STRIPE_WEBHOOK_SECRET: secret });
};

/** Lunch time (12:30 in Paris) of the last day up to today on which titres-restaurant pay: not a Sunday nor a holiday. */
function lastMealDay(): number {
  let day = todayInParis();
  while (new Date(`${day}T12:00:00Z`).getUTCDay() === 0 || isFrenchPublicHoliday(day)) day = addCalendarDays(day, -1);
  return Math.floor(new Date(`${day}T11:30:00Z`).getTime() / 1000);
}

/** A lunch at a restaurant: an authorisation request Stripe signed just now. */
function requestEvent(id = `evt_${crypto.randomUUID()}`) {
  const now = Math.floor(Date.now() / 1000);
  return JSON.stringify({
    id,
    object: "event",
    api_version: "2025-03-31.basil",
    type: "issuing_authorization.request",
    data: {
      object: {
        id: `iauth_${crypto.randomUUID()}`,
        object: "issuing.authorization",
        approved: false,
        authorization_method: "chip",
        card: { id: cardRef, object: "issuing.card" },
        created: lastMealDay(),
        merchant_data: { name: "Le Petit Café", city: "Lyon", country: "FR", category_code: "5812" },
        pending_request: { amount: 1250, currency: "eur", merchant_amount: 1250, merchant_currency: "eur" },
        status: "pending",
      },
    },
    created: now,
  });
}

async function post(body: string, signature?: string | null, contentType = "application/json"): Promise<Response> {
  const url = "http://localhost/webhooks/stripe";
  const headers: Record<string, string> = { "Content-Type": contentType };
  const sig =
    signature === undefined ? Stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET }) : signature;
  if (sig) headers["Stripe-Signature"] = sig;
  return action({
    request: new Request(url, { method: "POST", body, headers }),
    url: new URL(url),
    pattern: "/webhooks/stripe",
    params: {},
    context: undefined as never,
  });
}

test("without STRIPE_WEBHOOK_SECRET the route does not exist: 404, signed or not", async () => {
  withSecret(undefined);
  expect((await post(requestEvent())).status).toBe(404);
  expect(loader().status).toBe(404);
});

test("a signed authorisation request: 200, Stripe-Version, {approved: true}, at once", async () => {
  withSecret(SECRET);
  const res = await post(requestEvent());
  expect(res.status).toBe(200);
  expect(res.headers.get("Stripe-Version")).toBe("2025-03-31.basil");
  expect(res.headers.get("Content-Type")).toBe("application/json");
  expect(await res.json()).toEqual({ approved: true });
});

/** The milliseconds of `Server-Timing: decision;dur=…`, or null without one. */
function decisionMs(res: Response): number | null {
  const match = /^decision;dur=(\d+(?:\.\d+)?)$/.exec(res.headers.get("Server-Timing") ?? "");
  return match ? Number(match[1]) : null;
}

test("the decision's latency, waits for the database included, is in Server-Timing; only on a decision", async () => {
  withSecret(SECRET);
  const started = performance.now();
  const quick = await post(requestEvent());
  const wall = performance.now() - started;
  expect(await quick.json()).toEqual({ approved: true });
  const quickMs = decisionMs(quick);
  expect(quickMs).not.toBeNull();
  expect(quickMs!).toBeGreaterThan(0);
  expect(quickMs!).toBeLessThanOrEqual(wall);

  // Another write transaction holds the database for 150 ms: the decision's time counts that wait.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const busy = handle.db.transaction().execute(async (trx) => {
    await trx.selectFrom("users").select("id").limit(1).execute();
    await held;
  });
  const waiting = post(requestEvent());
  await new Promise((r) => setTimeout(r, 150));
  release();
  await busy;
  const waited = await waiting;
  expect(await waited.json()).toEqual({ approved: true });
  expect(decisionMs(waited)!).toBeGreaterThanOrEqual(140);

  const other = JSON.stringify({
    id: `evt_${crypto.randomUUID()}`,
    object: "event",
    type: "issuing_card.created",
    data: { object: { id: "ic_x", object: "issuing.card" } },
    created: Math.floor(Date.now() / 1000),
  });
  const received = await post(other);
  expect(await received.json()).toEqual({ received: true });
  expect(received.headers.get("Server-Timing")).toBeNull();
  expect((await post(requestEvent(), "t=1,v1=00")).headers.get("Server-Timing")).toBeNull();
});

test("replayed: the same answer, one record", async () => {
  withSecret(SECRET);
  const body = requestEvent();
  const stripeId = (JSON.parse(body) as { data: { object: { id: string } } }).data.object.id;
  const answers = await Promise.all([post(body), post(body)]);
  for (const res of [...answers, await post(body)]) {
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ approved: true });
  }
  const rows = await handle.db
    .selectFrom("card_authorizations")
    .select("id")
    .where("stripe_authorization_id", "=", stripeId)
    .execute();
  expect(rows).toHaveLength(1);
});

test("unsigned, badly signed, stale or not JSON: 400, logged with the reason only", async () => {
  withSecret(SECRET);
  const body = requestEvent();
  const stale = Stripe.webhooks.generateTestHeaderString({
    payload: body,
    secret: SECRET,
    timestamp: Math.floor(Date.now() / 1000) - 301,
  });
  const wrong = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: "whsec_someone_else" });
  const cases: [string, string, string | null][] = [
    ["missing signature", body, null],
    ["bad signature", body, wrong],
    ["stale timestamp", body, stale],
    ["not JSON", "{not json", Stripe.webhooks.generateTestHeaderString({ payload: "{not json", secret: SECRET })],
  ];
  for (const [reason, payload, signature] of cases) {
    lines.length = 0;
    const res = await post(payload, signature);
    expect(res.status, reason).toBe(400);
    expect(await res.json()).toMatchObject({ error: reason, message: expect.stringContaining("Requête refusée") });
    expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ level: "warn", msg: "stripe webhook refused", reason }),
    ]);
    const logged = lines.join("\n");
    expect(logged).not.toContain(cardRef);
    expect(logged).not.toContain("Petit Café");
    if (signature) expect(logged).not.toContain(signature.split("v1=")[1]);
  }
});

test("an unknown event type: 200, recorded, ignored", async () => {
  withSecret(SECRET);
  const id = `evt_${crypto.randomUUID()}`;
  const body = JSON.stringify({
    id,
    object: "event",
    type: "issuing_dispute.created",
    data: { object: { id: "idp_1" } },
  });
  const res = await post(body);
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ received: true });
  const rows = await handle.db.selectFrom("stripe_webhook_events").select("type").where("id", "=", id).execute();
  expect(rows).toEqual([{ type: "issuing_dispute.created" }]);
});

/** A signed event of this type around this object (Stripe's shape), and its id. */
function signedEvent(type: string, object: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const id = `evt_${crypto.randomUUID()}`;
  return { id, body: JSON.stringify({ id, object: "event", type, data: { object }, ...extra }) };
}

test("a malformed Stripe-Signature (an empty v1, no t, a huge t): 400 'bad signature', never thrown (issue 28 §3)", async () => {
  withSecret(SECRET);
  const body = requestEvent();
  for (const signature of ["t=1,v1=", "t=1,v1", "v1=", "t=,v1=", "t=99999999999999999999,v1=00", ",,,", "="]) {
    lines.length = 0;
    const res = await post(body, signature);
    expect(res.status, signature).toBe(400);
    expect(await res.json()).toMatchObject({ error: "bad signature" });
    expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ level: "warn", msg: "stripe webhook refused", reason: "bad signature" }),
    ]);
  }
});

test("signed, out of range: a request is declined; an authorisation or transaction event is a 400 in French", async () => {
  withSecret(SECRET);
  const request = JSON.parse(requestEvent()) as { data: { object: Record<string, unknown> } };
  const outOfRange = signedEvent("issuing_authorization.request", { ...request.data.object, created: 1e20 });
  const declined = await post(outOfRange.body);
  expect(declined.status).toBe(200);
  expect(await declined.json()).toEqual({ approved: false });

  // A header value with a line break is not one: it used to make the answer itself fail (500).
  const version = signedEvent("issuing_authorization.request", request.data.object, { api_version: "x\r\ny: z" });
  const answered = await post(version.body);
  expect(answered.status).toBe(200);
  expect(answered.headers.get("Stripe-Version")).toBe(Stripe.API_VERSION);

  for (const [type, object] of [
    ["issuing_authorization.updated", { id: "iauth_x", approved: true, status: "reversed", created: 1e20 }],
    ["issuing_transaction.created", { id: "ipi_x", type: "capture", amount: -1e20, authorization: "iauth_x" }],
  ] as const) {
    lines.length = 0;
    const event = signedEvent(type, object);
    const res = await post(event.body);
    expect(res.status, type).toBe(400);
    expect(await res.json()).toEqual({
      error: "unreadable object",
      message: expect.stringMatching(/^Requête refusée/),
    });
    expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>)).toEqual([
      expect.objectContaining({
        level: "warn",
        msg: "stripe webhook refused",
        reason: "unreadable object",
        event: event.id,
      }),
    ]);
  }
});

test("a signed refund larger than the capture: 409 and an error logged, not 200", async () => {
  withSecret(SECRET);
  const request = JSON.parse(requestEvent()) as { data: { object: { id: string } } };
  expect(await (await post(JSON.stringify(request))).json()).toEqual({ approved: true });
  const authorization = request.data.object.id;
  const capture = signedEvent("issuing_transaction.created", {
    id: `ipi_${crypto.randomUUID()}`,
    type: "capture",
    amount: -1250,
    authorization,
  });
  expect((await post(capture.body)).status).toBe(200);
  lines.length = 0;
  const refund = signedEvent("issuing_transaction.created", {
    id: `ipi_${crypto.randomUUID()}`,
    type: "refund",
    amount: 1251,
    authorization,
  });
  const res = await post(refund.body);
  expect(res.status).toBe(409);
  expect(await res.json()).toEqual({
    error: "refund larger than the capture",
    message: expect.stringMatching(/^Requête refusée : ce remboursement dépasse/),
  });
  const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(logged).toContainEqual(
    expect.objectContaining({
      level: "error",
      msg: "stripe refund larger than the capture, refused",
      event: refund.id,
    }),
  );
  // Stripe's retry: the same refusal.
  expect((await post(refund.body)).status).toBe(409);
});
