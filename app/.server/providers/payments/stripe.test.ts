import { startStripeStandIn, type RecordedRequest } from "../../../../tests/support/stripe-stand-in";
import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";
import { parseEnv } from "../../env";
import { openTestDatabase } from "../../../../tests/support/test-database";
import { createPaymentProcessor } from "./index";
import { StripePaymentProcessor } from "./stripe";

/**
 * A small stand-in for api.stripe.com, started by the test: it records every request (method, path,
 * query, headers, form) and answers like Stripe (JSON objects, errors as { error: { type, code } }).
 */
let requests: RecordedRequest[] = [];
let port: number;
let closeStandIn: () => Promise<void>;

const error = (status: number, type: string, code?: string) => ({
  status,
  body: { error: { type, code, message: `${type} ${code ?? ""}` } },
});
const card = (id: string, customer: string, last4: string) => ({
  id,
  object: "payment_method",
  type: "card",
  customer,
  card: { brand: "visa", last4, exp_month: 9, exp_year: 2031 },
});

function answer(method: string, path: string, form: Record<string, string>): { status: number; body: unknown } {
  if (method === "POST" && path === "/v1/customers")
    return { status: 200, body: { id: "cus_new", object: "customer" } };
  if (method === "POST" && path === "/v1/setup_intents") {
    return {
      status: 200,
      body: {
        id: "seti_1",
        object: "setup_intent",
        client_secret: "seti_1_secret_x",
        customer: form.customer,
        status: "requires_payment_method",
      },
    };
  }
  if (method === "GET" && path === "/v1/setup_intents/seti_done") {
    return {
      status: 200,
      body: {
        id: "seti_done",
        object: "setup_intent",
        customer: "cus_1",
        status: "succeeded",
        payment_method: "pm_new",
      },
    };
  }
  if (method === "GET" && path === "/v1/setup_intents/seti_failed") {
    return {
      status: 200,
      body: {
        id: "seti_failed",
        object: "setup_intent",
        customer: "cus_1",
        status: "requires_payment_method",
        last_setup_error: { code: "card_declined" },
        payment_method: null,
      },
    };
  }
  if (method === "GET" && path === "/v1/payment_methods")
    return {
      status: 200,
      body: { object: "list", data: [card("pm_1", "cus_1", "4444"), card("pm_2", "cus_1", "5454")], has_more: false },
    };
  if (method === "GET" && path === "/v1/payment_methods/pm_1")
    return { status: 200, body: card("pm_1", "cus_1", "4444") };
  if (method === "GET" && path === "/v1/payment_methods/pm_other")
    return { status: 200, body: card("pm_other", "cus_other", "1111") };
  if (method === "POST" && path === "/v1/payment_methods/pm_1/detach")
    return { status: 200, body: { ...card("pm_1", "cus_1", "4444"), customer: null } };
  if (method === "GET" && path.startsWith("/v1/payment_intents/")) {
    const id = path.split("/").pop()!;
    if (id === "pi_down") return error(500, "api_error");
    return {
      status: 200,
      body: {
        id,
        object: "payment_intent",
        customer: id === "pi_other" ? "cus_other" : "cus_1",
        status: id === "pi_paid" ? "succeeded" : "requires_payment_method",
      },
    };
  }
  if (method === "POST" && path === "/v1/payment_intents/pi_failed/confirm")
    return { status: 200, body: { id: "pi_failed", object: "payment_intent", customer: "cus_1", status: "succeeded" } };
  if (method === "POST" && path === "/v1/payment_intents/pi_declined/confirm")
    return error(402, "card_error", "card_declined");
  if (method === "POST" && path === "/v1/payment_intents") {
    if (form.payment_method === "pm_declining")
      return {
        status: 402,
        body: {
          error: {
            type: "card_error",
            code: "card_declined",
            message: "declined",
            payment_intent: { id: "pi_declined_new", object: "payment_intent", status: "requires_payment_method" },
          },
        },
      };
    if (form.payment_method === "pm_down") return error(500, "api_error");
    return {
      status: 200,
      body: { id: "pi_new", object: "payment_intent", customer: form.customer, status: "succeeded" },
    };
  }
  if (method === "POST" && path === "/v1/refunds") {
    if (form.payment_intent === "pi_unpaid") return error(400, "invalid_request_error", "charge_already_refunded");
    return { status: 200, body: { id: "re_1", object: "refund", status: "succeeded", amount: Number(form.amount) } };
  }
  return error(404, "invalid_request_error", "resource_missing");
}

beforeAll(async () => {
  const standIn = await startStripeStandIn(answer);
  ({ port, requests, close: closeStandIn } = standIn);
});
afterAll(() => closeStandIn());
beforeEach(() => {
  requests.length = 0;
});

const processor = () =>
  new StripePaymentProcessor({
    secretKey: "sk_test_123",
    publishableKey: "pk_test_123",
    host: "127.0.0.1",
    port,
    protocol: "http",
    maxNetworkRetries: 0,
  });
const calls = () => requests.map((r) => `${r.method} ${r.path}`);

test("a first card setup creates the customer, then an off-session card SetupIntent for the browser's Payment Element", async () => {
  const result = await processor().startCardSetup(
    { ref: null, userId: "user_1", email: "marie@example.com", name: "Marie Martin" },
    "https://portal/x",
  );
  expect(result).toEqual({
    customerRef: "cus_new",
    setup: { kind: "elements", clientSecret: "seti_1_secret_x", publishableKey: "pk_test_123", setupRef: "seti_1" },
  });
  expect(calls()).toEqual(["POST /v1/customers", "POST /v1/setup_intents"]);
  expect(requests[0]!.headers.authorization).toBe("Bearer sk_test_123");
  expect(requests[0]!.form).toEqual({
    email: "marie@example.com",
    name: "Marie Martin",
    "metadata[user_id]": "user_1",
  });
  expect(requests[1]!.form).toEqual({
    customer: "cus_new",
    "allowed_payment_method_types[0]": "card",
    usage: "off_session",
    "metadata[user_id]": "user_1",
  });
});

test("a known customer is not created again", async () => {
  await processor().startCardSetup({ ref: "cus_1", userId: "user_1", email: "m@example.com", name: "M" }, "/x");
  expect(calls()).toEqual(["POST /v1/setup_intents"]);
  expect(requests[0]!.form.customer).toBe("cus_1");
});

test("setup results: succeeded with its card, failed after a decline, another customer's is not found", async () => {
  expect(await processor().setupResult("cus_1", "seti_done")).toEqual({ status: "succeeded", cardRef: "pm_new" });
  expect(await processor().setupResult("cus_1", "seti_failed")).toEqual({ status: "failed", cardRef: null });
  await expect(processor().setupResult("cus_other", "seti_done")).rejects.toMatchObject({ code: "notFound" });
  expect(calls()).toEqual([
    "GET /v1/setup_intents/seti_done",
    "GET /v1/setup_intents/seti_failed",
    "GET /v1/setup_intents/seti_done",
  ]);
});

test("the saved cards are the customer's card payment methods", async () => {
  expect(await processor().listCards("cus_1")).toEqual([
    { ref: "pm_1", brand: "visa", last4: "4444", expMonth: 9, expYear: 2031 },
    { ref: "pm_2", brand: "visa", last4: "5454", expMonth: 9, expYear: 2031 },
  ]);
  expect(calls()).toEqual(["GET /v1/payment_methods"]);
  expect(requests[0]!.query).toEqual({ customer: "cus_1", type: "card", limit: "100" });
});

test("detaching checks the owner first: another customer's card is never detached", async () => {
  await processor().detachCard("cus_1", "pm_1");
  expect(calls()).toEqual(["GET /v1/payment_methods/pm_1", "POST /v1/payment_methods/pm_1/detach"]);
  requests.length = 0;
  await expect(processor().detachCard("cus_1", "pm_other")).rejects.toMatchObject({ code: "notFound" });
  expect(calls()).toEqual(["GET /v1/payment_methods/pm_other"]);
});

test("retrying confirms the PaymentIntent off-session on the default card; a decline is an answer, not an error", async () => {
  expect(await processor().retryPayment("cus_1", "pi_failed", "pm_1")).toBe("succeeded");
  expect(calls()).toEqual(["GET /v1/payment_intents/pi_failed", "POST /v1/payment_intents/pi_failed/confirm"]);
  expect(requests[1]!.form).toEqual({ payment_method: "pm_1", off_session: "true" });

  expect(await processor().retryPayment("cus_1", "pi_declined", "pm_1")).toBe("payment_failed");
  requests.length = 0;
  expect(await processor().retryPayment("cus_1", "pi_paid", "pm_1")).toBe("succeeded");
  expect(calls()).toEqual(["GET /v1/payment_intents/pi_paid"]);
  requests.length = 0;
  await expect(processor().retryPayment("cus_1", "pi_other", "pm_1")).rejects.toMatchObject({ code: "notFound" });
  expect(calls()).toEqual(["GET /v1/payment_intents/pi_other"]);
  await expect(processor().retryPayment("cus_1", "pi_down", "pm_1")).rejects.toMatchObject({ code: "unavailable" });
});

test("the overflow is a PaymentIntent created and confirmed off-session on the saved card, keyed by our payment intent id", async () => {
  expect(
    await processor().chargeOverflow({
      customerRef: "cus_1",
      cardRef: "pm_1",
      amount: 750,
      idempotencyKey: "pi_ours_1",
    }),
  ).toEqual({ paymentRef: "pi_new", status: "succeeded" });
  expect(calls()).toEqual(["POST /v1/payment_intents"]);
  expect(requests[0]!.headers["idempotency-key"]).toBe("pi_ours_1");
  expect(requests[0]!.form).toEqual({
    amount: "750",
    currency: "eur",
    customer: "cus_1",
    payment_method: "pm_1",
    off_session: "true",
    confirm: "true",
    "metadata[payment_intent_id]": "pi_ours_1",
  });
});

test("a declined overflow charge is an answer with Stripe's PaymentIntent to retry; an unreachable Stripe is an error", async () => {
  expect(
    await processor().chargeOverflow({
      customerRef: "cus_1",
      cardRef: "pm_declining",
      amount: 750,
      idempotencyKey: "pi_ours_2",
    }),
  ).toEqual({ paymentRef: "pi_declined_new", status: "payment_failed" });
  await expect(
    processor().chargeOverflow({ customerRef: "cus_1", cardRef: "pm_down", amount: 750, idempotencyKey: "pi_ours_3" }),
  ).rejects.toMatchObject({ code: "unavailable" });
});

test("a refund names the PaymentIntent and the amount, with our idempotency key; a refusal is a PaymentError", async () => {
  expect(await processor().refundPayment({ paymentRef: "pi_new", amount: 300, idempotencyKey: "aref_1" })).toEqual({
    refundRef: "re_1",
  });
  expect(calls()).toEqual(["POST /v1/refunds"]);
  expect(requests[0]!.form).toEqual({ payment_intent: "pi_new", amount: "300" });
  expect(requests[0]!.headers["idempotency-key"]).toBe("aref_1");
  await expect(
    processor().refundPayment({ paymentRef: "pi_unpaid", amount: 300, idempotencyKey: "aref_2" }),
  ).rejects.toMatchObject({ code: "rejected" });
});

test("configuration: Stripe when STRIPE_SECRET_KEY is set, the sandbox otherwise, never the sandbox in production", async () => {
  const handle = await openTestDatabase();
  try {
    expect(createPaymentProcessor(parseEnv({}), handle.db).name).toBe("sandbox");
    expect(
      createPaymentProcessor(
        parseEnv({ STRIPE_SECRET_KEY: "sk_test_1", STRIPE_PUBLISHABLE_KEY: "pk_test_1" }),
        handle.db,
      ).name,
    ).toBe("stripe");
    expect(() => createPaymentProcessor(parseEnv({ STRIPE_SECRET_KEY: "sk_test_1" }), handle.db)).toThrow(
      /STRIPE_PUBLISHABLE_KEY/,
    );
    const production = parseEnv({
      APP_MODE: "production",
      SESSION_SECRET: "x".repeat(40),
      SMTP_URL: "smtp://localhost:25",
    });
    expect(() => createPaymentProcessor(production, handle.db)).toThrow(/STRIPE_SECRET_KEY/);
  } finally {
    await handle.close();
  }
});
