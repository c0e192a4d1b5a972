import Database from "better-sqlite3";
import path from "node:path";
import Stripe from "stripe";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startTestServer, stopTestServer, type TestServer } from "./test-server";

/**
 * Stripe's webhook on the real built server (decision 0036): the JSON body and the missing or foreign Origin go
 * through at exactly `/webhooks/stripe` and nowhere else, nothing reads the body before the route checks its
 * signature, and a refusal is logged with its reason only.
 */
const SECRET = "whsec_server_test_secret";
const NAME = "test-stripe-webhook";
const port = 4601 + Math.floor(Math.random() * 50);
let server: TestServer;
let cardRef: string;

beforeAll(async () => {
  server = await startTestServer(NAME, port, { STRIPE_WEBHOOK_SECRET: SECRET });
  const db = new Database(path.resolve(import.meta.dirname, `../data/${NAME}.sqlite`), { readonly: true });
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
function requestEvent() {
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
      },
    },
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
