import { constants, generateKeyPairSync, privateDecrypt } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  startStripeStandIn,
  type RecordedRequest,
  type StripeStandIn,
} from "../../../../tests/support/stripe-stand-in";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { parseEnv } from "../../env";
import { createCardIssuer } from "./index";
import { encryptPin } from "./pin";
import { IssuerError } from "./port";
import { parseApiHost, StripeIssuer } from "./stripe";

/**
 * A small stand-in for api.stripe.com, started by the test: it records every request and answers
 * like Stripe does (form-encoded bodies in, JSON out, errors as { error: { type, code, message } }).
 */
let requests: RecordedRequest[] = [];
let port: number;
let closeStandIn: () => Promise<void>;
let standIn: StripeStandIn;
const pinKeys = generateKeyPairSync("rsa", { modulusLength: 2048 });
const pinPublicKeyPem = pinKeys.publicKey.export({ type: "spki", format: "pem" }).toString();
const EXPIRES = 1_900_000_000;

function stripeError(status: number, type: string, code: string | undefined, message: string) {
  return { status, body: { error: { type, code, message } } };
}

const CARD = { object: "issuing.card", last4: "4242", brand: "Visa", exp_month: 11, exp_year: 2029, status: "active" };

function answer(method: string, path: string, form: Record<string, string> = {}): { status: number; body: unknown } {
  if (method === "POST" && path === "/v1/issuing/cardholders") {
    if (form["billing[address][country]"] === "ZZ")
      return {
        status: 400,
        body: {
          error: { type: "invalid_request_error", message: "Invalid country", param: "billing[address][country]" },
        },
      };
    return { status: 200, body: { id: "ich_new", object: "issuing.cardholder" } };
  }
  if (method === "POST" && path === "/v1/issuing/cards") {
    if (form["shipping[address][postal_code]"] === "00000")
      return {
        status: 400,
        body: {
          error: {
            type: "invalid_request_error",
            message: "Invalid postal code",
            param: "shipping[address][postal_code]",
          },
        },
      };
    return { status: 200, body: { id: "ic_new", ...CARD, type: form.type } };
  }
  if (method === "GET" && path === "/v1/issuing/cards/ic_shipped") {
    return {
      status: 200,
      body: {
        id: "ic_shipped",
        ...CARD,
        type: "physical",
        shipping: { status: "shipped", eta: 1_900_000_000, service: "standard" },
      },
    };
  }
  if (method === "GET" && path === "/v1/issuing/cards/ic_submitted")
    return {
      status: 200,
      body: { id: "ic_submitted", ...CARD, type: "physical", shipping: { status: "submitted", eta: null } },
    };
  if (method === "GET" && path === "/v1/issuing/cards/ic_odd")
    return {
      status: 200,
      body: { id: "ic_odd", ...CARD, type: "physical", shipping: { status: "lost_at_sea", eta: null } },
    };
  if (method === "GET" && path === "/v1/issuing/cards/ic_virtual")
    return { status: 200, body: { id: "ic_virtual", ...CARD, type: "virtual", shipping: null } };
  if (path === "/v1/issuing/cards/ic_missing")
    return stripeError(404, "invalid_request_error", "resource_missing", "No such issuing card: 'ic_missing'");
  if (path === "/v1/issuing/cards/ic_canceled")
    return stripeError(
      400,
      "invalid_request_error",
      undefined,
      "This card has been canceled and can no longer be updated.",
    );
  if (path === "/v1/issuing/cards/ic_gone" && method === "POST")
    return stripeError(
      400,
      "invalid_request_error",
      undefined,
      "This card has been canceled and can no longer be updated.",
    );
  if (path === "/v1/issuing/cards/ic_gone")
    return { status: 200, body: { id: "ic_gone", ...CARD, status: "canceled" } };
  if (path === "/v1/issuing/cards/ic_down")
    return stripeError(500, "api_error", undefined, "An unknown error occurred");
  if (method === "POST" && path.startsWith("/v1/issuing/cards/")) {
    return { status: 200, body: { id: path.split("/").pop(), object: "issuing.card", status: "active" } };
  }
  if (method === "POST" && path === "/v1/ephemeral_keys") {
    return {
      status: 200,
      body: {
        id: "ephkey_1",
        object: "ephemeral_key",
        created: EXPIRES - 900,
        expires: EXPIRES,
        livemode: false,
        secret: "ek_test_secret",
      },
    };
  }
  return stripeError(404, "invalid_request_error", undefined, `Unrecognized request URL (${method}: ${path})`);
}

beforeAll(async () => {
  standIn = await startStripeStandIn(answer);
  ({ port, requests, close: closeStandIn } = standIn);
});
afterAll(() => closeStandIn());
beforeEach(() => {
  requests.length = 0;
});

function issuer(overrides: Partial<ConstructorParameters<typeof StripeIssuer>[0]> = {}) {
  return new StripeIssuer({
    secretKey: "sk_test_123",
    publishableKey: "pk_test_123",
    pinPublicKeyPem,
    pinKeyId: "stripe-pin-key-1",
    apiVersion: "2020-03-02",
    host: "127.0.0.1",
    port,
    protocol: "http",
    maxNetworkRetries: 0,
    ...overrides,
  });
}

function only(): RecordedRequest {
  expect(requests).toHaveLength(1);
  const request = requests[0]!;
  expect(request.headers.authorization).toBe("Bearer sk_test_123");
  expect(request.headers["content-type"]).toMatch(/^application\/x-www-form-urlencoded/);
  return request;
}

test("freeze: the card becomes inactive", async () => {
  await issuer().freeze("ic_123");
  const request = only();
  expect([request.method, request.path]).toEqual(["POST", "/v1/issuing/cards/ic_123"]);
  expect(request.form).toEqual({ status: "inactive" });
});

test("unfreeze: the card becomes active again", async () => {
  await issuer().unfreeze("ic_123");
  const request = only();
  expect([request.method, request.path]).toEqual(["POST", "/v1/issuing/cards/ic_123"]);
  expect(request.form).toEqual({ status: "active" });
});

test("cancel: canceled, with the reason lost or stolen", async () => {
  await issuer().cancel("ic_123", "stolen");
  let request = only();
  expect([request.method, request.path]).toEqual(["POST", "/v1/issuing/cards/ic_123"]);
  expect(request.form).toEqual({ status: "canceled", cancellation_reason: "stolen" });

  requests.length = 0;
  await issuer().cancel("ic_456", "lost");
  request = only();
  expect(request.path).toBe("/v1/issuing/cards/ic_456");
  expect(request.form).toEqual({ status: "canceled", cancellation_reason: "lost" });
});

test("updatePin: the PIN travels only encrypted, as pin[encrypted_number], and only Stripe's key opens it", async () => {
  const stripe = issuer();
  const key = await stripe.pinEncryptionKey();
  expect(key).toEqual({ keyId: "stripe-pin-key-1", publicKeyPem: pinPublicKeyPem });
  const encrypted = encryptPin("2580", key);
  await stripe.updatePin("ic_123", encrypted);
  const request = only();
  expect([request.method, request.path]).toEqual(["POST", "/v1/issuing/cards/ic_123"]);
  expect(request.form).toEqual({ "pin[encrypted_number]": encrypted });
  expect(JSON.stringify(request)).not.toContain("2580");
  const opened = privateDecrypt(
    { key: pinKeys.privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" },
    Buffer.from(request.form["pin[encrypted_number]"]!, "base64"),
  );
  expect(opened.toString()).toBe("2580");
});

test("without a configured PIN key, choosing a PIN is unavailable (and nothing is sent)", async () => {
  await expect(issuer({ pinPublicKeyPem: undefined, pinKeyId: undefined }).pinEncryptionKey()).rejects.toMatchObject({
    code: "unavailable",
  });
  await expect(issuer().updatePin("ic_123", "")).rejects.toMatchObject({ code: "invalid_pin" });
  expect(requests).toHaveLength(0);
});

test("createRevealSession: an ephemeral key for the card and the browser's nonce, at the Stripe.js API version", async () => {
  const session = await issuer().createRevealSession("ic_123", "details", "ephkn_pub_abc");
  const request = only();
  expect([request.method, request.path]).toEqual(["POST", "/v1/ephemeral_keys"]);
  expect(request.form).toEqual({ issuing_card: "ic_123", nonce: "ephkn_pub_abc" });
  expect(request.headers["stripe-version"]).toBe("2020-03-02");
  expect(session).toEqual({
    kind: "elements",
    ephemeralKeySecret: "ek_test_secret",
    nonce: "ephkn_pub_abc",
    cardRef: "ic_123",
    publishableKey: "pk_test_123",
    expiresAt: new Date(EXPIRES * 1000).toISOString(),
  });

  requests.length = 0;
  await issuer().createRevealSession("ic_123", "pin", "ephkn_pub_def");
  expect(only().form).toEqual({ issuing_card: "ic_123", nonce: "ephkn_pub_def" });
  await expect(issuer().createRevealSession("ic_123", "pin", "")).rejects.toMatchObject({ code: "rejected" });
});

test("other calls use the SDK's own API version", async () => {
  const { default: Stripe } = await import("stripe");
  await issuer().freeze("ic_123");
  expect(only().headers["stripe-version"]).toBe(Stripe.API_VERSION);
});

test("Stripe errors become IssuerErrors", async () => {
  const stripe = issuer();
  const missing = await stripe.freeze("ic_missing").catch((e: unknown) => e);
  expect(missing).toBeInstanceOf(IssuerError);
  expect(missing).toMatchObject({ code: "card_not_found" });
  await expect(stripe.cancel("ic_canceled", "lost")).rejects.toMatchObject({ code: "rejected" });
  await expect(stripe.unfreeze("ic_down")).rejects.toMatchObject({ code: "unavailable" });
  const encrypted = encryptPin("2580", await stripe.pinEncryptionKey());
  const pinError = await stripe.updatePin("ic_missing", encrypted).catch((e: unknown) => e);
  expect(pinError).toMatchObject({ code: "card_not_found" });
  // The message says what failed, never what was sent.
  expect(String((pinError as Error).message)).not.toContain(encrypted);
});

test("an unreachable Stripe is 'unavailable'", async () => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const closedPort = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  await expect(issuer({ port: closedPort }).freeze("ic_123")).rejects.toMatchObject({ code: "unavailable" });
});

test("a Stripe that answers too late: 'unavailable' with the outcome unknown, within the timeout and one retry", async () => {
  standIn.delayAnswers(2000);
  try {
    const started = Date.now();
    const late = await issuer({ timeoutMs: 200, maxNetworkRetries: 1 })
      .freeze("ic_123")
      .catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(late).toMatchObject({ code: "unavailable", outcomeUnknown: true });
    // The SDK's own retry: the same request, with the key the SDK gave it.
    expect(requests).toHaveLength(2);
    expect(requests[1]!.headers["idempotency-key"]).toBe(requests[0]!.headers["idempotency-key"]);
  } finally {
    standIn.delayAnswers(0);
  }
  // Stripe's own failure is an answer: the outcome is known (Stripe replays it for the key).
  await expect(issuer().unfreeze("ic_down")).rejects.toMatchObject({ code: "unavailable", outcomeUnknown: false });
});

test("cancelling a card Stripe already cancelled (an earlier answer lost) is card_canceled, not a refusal", async () => {
  await expect(issuer().cancel("ic_gone", "stolen")).rejects.toMatchObject({ code: "card_canceled" });
  expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
    "POST /v1/issuing/cards/ic_gone",
    "GET /v1/issuing/cards/ic_gone",
  ]);
});

test("the timeout and retries come from STRIPE_TIMEOUT_MS and STRIPE_NETWORK_RETRIES (4 s and 1 by default)", () => {
  expect(parseEnv({})).toMatchObject({ STRIPE_TIMEOUT_MS: 4000, STRIPE_NETWORK_RETRIES: 1 });
  expect(parseEnv({ STRIPE_TIMEOUT_MS: "300", STRIPE_NETWORK_RETRIES: "0" })).toMatchObject({
    STRIPE_TIMEOUT_MS: 300,
    STRIPE_NETWORK_RETRIES: 0,
  });
  expect(() => parseEnv({ STRIPE_TIMEOUT_MS: "0" })).toThrow(/STRIPE_TIMEOUT_MS/);
  expect(() => parseEnv({ STRIPE_NETWORK_RETRIES: "9" })).toThrow(/STRIPE_NETWORK_RETRIES/);
});

test("configuration: Stripe when STRIPE_SECRET_KEY is set, the sandbox otherwise, never the sandbox in production", () => {
  const db = {} as never;
  const stripeEnv = {
    STRIPE_SECRET_KEY: "sk_test_123",
    STRIPE_PUBLISHABLE_KEY: "pk_test_123",
    STRIPE_ISSUING_PIN_PUBLIC_KEY: pinPublicKeyPem.replace(/\n/g, "\\n"),
    STRIPE_ISSUING_PIN_KEY_ID: "k1",
    STRIPE_API_HOST: `http://127.0.0.1:${port}`,
  };
  expect(createCardIssuer(parseEnv(stripeEnv), db).name).toBe("stripe");
  expect(createCardIssuer(parseEnv({}), db).name).toBe("sandbox");
  expect(createCardIssuer(parseEnv({ STRIPE_SECRET_KEY: "  " }), db).name).toBe("sandbox");
  const production = { APP_MODE: "production", SESSION_SECRET: "s".repeat(32), SMTP_URL: "smtp://localhost:25" };
  expect(() => createCardIssuer(parseEnv(production), db)).toThrow(/STRIPE_SECRET_KEY/);
  expect(createCardIssuer(parseEnv({ ...production, ...stripeEnv }), db).name).toBe("stripe");
  expect(() => createCardIssuer(parseEnv({ STRIPE_SECRET_KEY: "sk_test_123" }), db)).toThrow(/STRIPE_PUBLISHABLE_KEY/);
  expect(() => createCardIssuer(parseEnv({ ...stripeEnv, STRIPE_ISSUING_PIN_KEY_ID: "" }), db)).toThrow(
    /STRIPE_ISSUING_PIN_KEY_ID/,
  );
});

test("the PEM from one environment line encrypts PINs Stripe's key opens", async () => {
  const env = parseEnv({
    STRIPE_SECRET_KEY: "sk_test_123",
    STRIPE_PUBLISHABLE_KEY: "pk_test_123",
    STRIPE_ISSUING_PIN_PUBLIC_KEY: pinPublicKeyPem.trim().replace(/\n/g, "\\n"),
    STRIPE_ISSUING_PIN_KEY_ID: "k1",
    STRIPE_API_HOST: `http://127.0.0.1:${port}`,
  });
  const configured = createCardIssuer(env, {} as never);
  await configured.updatePin("ic_env", encryptPin("1357", await configured.pinEncryptionKey()));
  const request = requests.find((r) => r.path === "/v1/issuing/cards/ic_env")!;
  const opened = privateDecrypt(
    { key: pinKeys.privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" },
    Buffer.from(request.form["pin[encrypted_number]"]!, "base64"),
  );
  expect(opened.toString()).toBe("1357");
});

test("STRIPE_API_HOST forms", () => {
  expect(parseApiHost("http://127.0.0.1:12111")).toEqual({ host: "127.0.0.1", port: 12111, protocol: "http" });
  expect(parseApiHost("https://stripe.internal")).toEqual({ host: "stripe.internal", port: 443, protocol: "https" });
  expect(parseApiHost("api.stripe.com")).toEqual({ host: "api.stripe.com" });
});

describe("making cards", () => {
  const cardholder = {
    ref: null,
    userId: "user_1",
    firstName: "Lucas",
    lastName: "Bernard",
    email: "lucas@example.com",
    phone: "+33611223344",
    billingAddress: { line1: "12 rue de la République", line2: null, zipcode: "69002", city: "Lyon", country: "FR" },
  };
  const shippingAddress = {
    line1: "12 rue de la République",
    line2: "Bâtiment B",
    zipcode: "69002",
    city: "Lyon",
    country: "FR",
  };

  test("a physical card: a cardholder first, then the card with its encrypted PIN and shipping, each idempotent", async () => {
    const encryptedPin = encryptPin("2580", { keyId: "k", publicKeyPem: pinPublicKeyPem });
    const made = await issuer().issueCard({
      requestKey: "creq_1:0",
      cardholder,
      type: "physical",
      brand: "visa",
      encryptedPin,
      shippingAddress,
    });
    expect(made).toEqual({ cardholderRef: "ich_new", issuerRef: "ic_new" });
    expect(requests.map((r) => [r.method, r.path])).toEqual([
      ["POST", "/v1/issuing/cardholders"],
      ["POST", "/v1/issuing/cards"],
    ]);
    const [holder, card] = requests;
    expect(holder!.headers["idempotency-key"]).toBe("creq_1:0:cardholder");
    expect(holder!.form).toEqual({
      type: "individual",
      name: "Lucas Bernard",
      email: "lucas@example.com",
      phone_number: "+33611223344",
      "individual[first_name]": "Lucas",
      "individual[last_name]": "Bernard",
      "billing[address][line1]": "12 rue de la République",
      "billing[address][city]": "Lyon",
      "billing[address][postal_code]": "69002",
      "billing[address][country]": "FR",
      "metadata[user_id]": "user_1",
    });
    expect(card!.headers["idempotency-key"]).toBe("creq_1:0");
    expect(card!.form).toEqual({
      cardholder: "ich_new",
      currency: "eur",
      type: "physical",
      status: "active",
      "pin[encrypted_number]": encryptedPin,
      "shipping[name]": "Lucas Bernard",
      "shipping[address][line1]": "12 rue de la République",
      "shipping[address][line2]": "Bâtiment B",
      "shipping[address][city]": "Lyon",
      "shipping[address][postal_code]": "69002",
      "shipping[address][country]": "FR",
      "shipping[service]": "standard",
      "metadata[request_key]": "creq_1:0",
    });
    expect(JSON.stringify(requests)).not.toContain("2580");
  });

  test("a virtual card for a known cardholder: no cardholder call, no PIN, no shipping", async () => {
    await issuer().issueCard({
      requestKey: "creq_2:0",
      cardholder: { ...cardholder, ref: "ich_known" },
      type: "virtual",
      brand: "visa",
    });
    const request = only();
    expect(request.path).toBe("/v1/issuing/cards");
    expect(request.form).toEqual({
      cardholder: "ich_known",
      currency: "eur",
      type: "virtual",
      status: "active",
      "metadata[request_key]": "creq_2:0",
    });
  });

  test("an address Stripe refuses names its field; a physical card without address or PIN is refused before any call", async () => {
    const pin = encryptPin("2580", { keyId: "k", publicKeyPem: pinPublicKeyPem });
    await expect(
      issuer().issueCard({
        requestKey: "r3",
        cardholder: { ...cardholder, ref: "ich_known" },
        type: "physical",
        brand: "visa",
        encryptedPin: pin,
        shippingAddress: { ...shippingAddress, zipcode: "00000" },
      }),
    ).rejects.toMatchObject({ code: "invalid_address", field: "zipcode" });
    await expect(
      issuer().issueCard({
        requestKey: "r4",
        cardholder: { ...cardholder, billingAddress: { ...cardholder.billingAddress, country: "ZZ" } },
        type: "virtual",
        brand: "visa",
      }),
    ).rejects.toMatchObject({ code: "invalid_address", field: "country" });
    requests.length = 0;
    await expect(
      issuer().issueCard({ requestKey: "r5", cardholder, type: "physical", brand: "visa", encryptedPin: pin }),
    ).rejects.toMatchObject({ code: "invalid_address" });
    await expect(
      issuer().issueCard({ requestKey: "r6", cardholder, type: "physical", brand: "visa", shippingAddress }),
    ).rejects.toMatchObject({ code: "invalid_pin" });
    expect(requests).toHaveLength(0);
  });

  test("issuedCard reads the card back: brand in lower case, Paris delivery date", async () => {
    expect(await issuer().issuedCard("ic_shipped")).toEqual({
      issuerRef: "ic_shipped",
      lastFour: "4242",
      brand: "visa",
      expMonth: 11,
      expYear: 2029,
      shipping: { status: "shipped", eta: "2030-03-17" },
    });
    expect(requests.map((r) => [r.method, r.path])).toEqual([["GET", "/v1/issuing/cards/ic_shipped"]]);
    expect(await issuer().issuedCard("ic_submitted")).toMatchObject({ shipping: { status: "submitted", eta: null } });
    // A status Stripe adds later still reads as a card on its way.
    expect(await issuer().issuedCard("ic_odd")).toMatchObject({ shipping: { status: "pending", eta: null } });
    expect(await issuer().issuedCard("ic_virtual")).toMatchObject({ shipping: null });
    await expect(issuer().issuedCard("ic_missing")).rejects.toMatchObject({ code: "card_not_found" });
  });
});
