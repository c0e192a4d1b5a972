import Database from "better-sqlite3";
import path from "node:path";
import Stripe from "stripe";
import { afterAll, beforeAll, expect, test } from "vitest";
import { testPort, startTestServer, stopTestServer, type TestServer } from "../support/test-server";

/**
 * Stripe's webhook on the real built server (decision 0036): the JSON body and the missing or foreign Origin go
 * through at exactly `/webhooks/stripe` and nowhere else, nothing reads the body before the route checks its
 * signature, and a refusal is logged with its reason only.
 */
const SECRET = "whsec_server_test_secret";
const NAME = "test-stripe-webhook";
const port = testPort(4601, 50);
let server: TestServer;
let cardRef: string;

beforeAll(async () => {
  server = await startTestServer(NAME, port, { STRIPE_WEBHOOK_SECRET: SECRET });
  const db = new Database(path.resolve(import.meta.dirname, `../../data/${NAME}.sqlite`), { readonly: true });
  const row = db
    .prepare(
      "select cards.issuer_ref as ref from cards join users on users.id = cards.user_id where users.email = ? and cards.last_four = '4242'",
    )
    .get("marie.martin@example.com") as { ref: string };
  db.close();
  cardRef = row.ref;
}, 60_000);
afterAll(() => stopTestServer(server));

/** 2 € at a bakery at 10:00 in Paris today: any wallet of marie's may pay (titres-restaurant except on Sundays). */
function requestEvent(fields: Record<string, unknown> = {}) {
  return JSON.stringify({
    id: `evt_${crypto.randomUUID()}`,
    object: "event",
    api_version: "2025-03-31.basil",
    type: "issuing_authorization.request",
    data: {
      object: {
        id: `iauth_${crypto.randomUUID()}`,
        object: "issuing.authorization",
        authorization_method: "contactless",
        card: { id: cardRef, object: "issuing.card" },
        created: Math.floor(Date.now() / 1000),
        merchant_data: { name: "Boulangerie Paul", city: "Paris", country: "FR", category_code: "5462" },
        pending_request: { amount: 200, currency: "eur" },
        status: "pending",
        ...fields,
      },
    },
  });
}

/** A signed `issuing_transaction.created` of marie's Stripe authorisation. */
function transactionEvent(authorization: string, type: "capture" | "refund", amount: number) {
  return JSON.stringify({
    id: `evt_${crypto.randomUUID()}`,
    object: "event",
    type: "issuing_transaction.created",
    data: { object: { id: `ipi_${crypto.randomUUID()}`, object: "issuing.transaction", type, amount, authorization } },
  });
}

const sign = (payload: string) => Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET });

const post = (pathname: string, body: string, headers: Record<string, string>) =>
  fetch(`${server.base}${pathname}`, { method: "POST", body, headers });

test("a signed request from Stripe (no Origin, or another site's): the decision, synchronously", async () => {
  const extras: Record<string, string>[] = [{}, { Origin: "https://hooks.stripe.com", "Sec-Fetch-Site": "cross-site" }];
  for (const extra of extras) {
    const body = requestEvent();
    const res = await post("/webhooks/stripe", body, {
      "Content-Type": "application/json; charset=utf-8",
      "Stripe-Signature": sign(body),
      ...extra,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("Stripe-Version")).toBe("2025-03-31.basil");
    expect(await res.json()).toHaveProperty("approved");
  }
});

test("unsigned or tampered: 400, logged with the reason, never the body nor the signature", async () => {
  const body = requestEvent();
  const signature = sign(body);
  const tampered = body.replace('"amount":200', '"amount":1');
  const res = await post("/webhooks/stripe", tampered, {
    "Content-Type": "application/json",
    "Stripe-Signature": signature,
  });
  expect(res.status).toBe(400);
  expect(await res.json()).toMatchObject({ error: "bad signature" });
  expect((await post("/webhooks/stripe", body, { "Content-Type": "application/json" })).status).toBe(400);
  await new Promise((r) => setTimeout(r, 200));
  const log = server.output();
  expect(log).toContain('"msg":"stripe webhook refused","reason":"bad signature"');
  expect(log).toContain('"msg":"stripe webhook refused","reason":"missing signature"');
  expect(log).not.toContain("Boulangerie Paul");
  expect(log).not.toContain(signature.split("v1=")[1]!);
});

test("the exemption is this path only: JSON elsewhere is a 415, a cross-site form elsewhere a 403", async () => {
  const body = requestEvent();
  const headers = { "Content-Type": "application/json", "Stripe-Signature": sign(body) };
  for (const pathname of ["/webhooks/stripe/", "/webhooks/stripe.data", "/webhooks/stripe2", "/login"]) {
    expect((await post(pathname, body, headers)).status, pathname).toBe(415);
  }
  const crossSite = await post("/login", "email=a", {
    "Content-Type": "application/x-www-form-urlencoded",
    Origin: "https://evil.example",
  });
  expect(crossSite.status).toBe(403);
});

test("a GET is a 404; another method a 405", async () => {
  expect((await fetch(`${server.base}/webhooks/stripe`)).status).toBe(404);
  expect((await fetch(`${server.base}/webhooks/stripe`, { method: "PUT", body: "{}" })).status).toBe(405);
});

test("malformed or out of range, never a 500 (issue 28 §3): an empty v1 unsigned is a 400 without a stack trace; created 1e20 signed is declined", async () => {
  const before = server.output().length;
  const body = requestEvent();
  for (const signature of ["t=1,v1=", "t=1,v1", "t=,v1=", `t=${"9".repeat(30)},v1=${"0".repeat(64)}`]) {
    const res = await post("/webhooks/stripe", body, {
      "Content-Type": "application/json",
      "Stripe-Signature": signature,
    });
    expect(res.status, signature).toBe(400);
    expect(await res.json()).toMatchObject({
      error: "bad signature",
      message: expect.stringMatching(/^Requête refusée/),
    });
  }
  const outOfRange = requestEvent({ created: 1e20 });
  const res = await post("/webhooks/stripe", outOfRange, {
    "Content-Type": "application/json",
    "Stripe-Signature": sign(outOfRange),
  });
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ approved: false });
  await new Promise((r) => setTimeout(r, 200));
  const log = server.output().slice(before);
  expect(log).toContain('"msg":"stripe webhook refused","reason":"bad signature"');
  expect(log).toContain("stripe authorisation request unreadable, declined");
  expect(log).not.toMatch(/"stack"|\n\s+at |"level":"error"/);
});

test("a signed refund larger than the capture: 409 and an error logged for an operator, each delivery; a smaller one applies", async () => {
  const request = requestEvent();
  const authorization = (JSON.parse(request) as { data: { object: { id: string } } }).data.object.id;
  const signed = (body: string) =>
    post("/webhooks/stripe", body, { "Content-Type": "application/json", "Stripe-Signature": sign(body) });
  expect(await (await signed(request)).json()).toEqual({ approved: true });
  expect((await signed(transactionEvent(authorization, "capture", -200))).status).toBe(200);
  const before = server.output().length;
  const tooMuch = transactionEvent(authorization, "refund", 300);
  const refused = await signed(tooMuch);
  expect(refused.status).toBe(409);
  expect(await refused.json()).toMatchObject({ error: "refund larger than the capture" });
  // Stripe's retry of it: refused alike; a refund within the capture still goes through.
  expect((await signed(tooMuch)).status).toBe(409);
  expect((await signed(transactionEvent(authorization, "refund", 200))).status).toBe(200);
  await new Promise((r) => setTimeout(r, 200));
  const log = server.output().slice(before);
  expect(log).toMatch(/"level":"error","msg":"stripe refund larger than the capture, refused"/);
  expect(log).not.toContain(cardRef);
});
