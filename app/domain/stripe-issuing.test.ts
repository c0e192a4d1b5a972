import { expect, test } from "vitest";
import {
  authorisationRequestOf,
  authorisationStateOf,
  entryModeOf,
  eventOf,
  releasedWithoutCapture,
  transactionOf,
} from "./stripe-issuing";

test("authorization_method → entry mode: card present at a terminal, contactless, or not present", () => {
  expect(["chip", "swipe", "contactless", "online", "keyed_in", "telepathy", 42].map(entryModeOf)).toEqual([
    "chip_and_pin",
    "chip_and_pin",
    "contactless",
    "online",
    "online",
    "online",
    "online",
  ]);
});

test("a request: the card (id or expanded), the pending amount and currency, the merchant, the time", () => {
  const request = authorisationRequestOf({
    id: "iauth_1",
    card: "ic_1",
    created: 1_795_000_000,
    authorization_method: "chip",
    merchant_data: { name: "Café", city: "Lyon", country: "FR", category_code: "5812" },
    pending_request: { amount: 1250, currency: "eur" },
  });
  expect(request).toEqual({
    stripeAuthorizationId: "iauth_1",
    cardRef: "ic_1",
    amount: 1250,
    currency: "EUR",
    merchant: { name: "Café", city: "Lyon", country: "FR", categoryCode: "5812" },
    at: new Date(1_795_000_000_000),
    entryMode: "chip_and_pin",
  });
  expect(authorisationRequestOf({ id: "iauth_1", card: "ic_1", pending_request: null })).toBeNull();
  expect(authorisationRequestOf({ id: "iauth_1", pending_request: { amount: 1 } })).toBeNull();
  // A missing amount is not a number: the engine refuses it.
  expect(authorisationRequestOf({ id: "iauth_1", card: { id: "ic_2" }, pending_request: {} })?.amount).toBeNaN();
});

test("transactions: positive amounts whatever Stripe's sign; only captures and refunds", () => {
  expect(transactionOf({ id: "ipi_1", type: "capture", amount: -1250, authorization: "iauth_1" })).toEqual({
    id: "ipi_1",
    type: "capture",
    stripeAuthorizationId: "iauth_1",
    amount: 1250,
  });
  expect(transactionOf({ id: "ipi_2", type: "refund", amount: 500, authorization: { id: "iauth_1" } })?.amount).toBe(
    500,
  );
  expect(transactionOf({ id: "ipi_3", type: "dispute", amount: 5 })).toBeNull();
});

test("released without capture: reversed, expired, or closed declined; not pending nor closed approved", () => {
  expect(releasedWithoutCapture({ status: "reversed", approved: true })).toBe(true);
  expect(releasedWithoutCapture({ status: "expired", approved: true })).toBe(true);
  expect(releasedWithoutCapture({ status: "closed", approved: false })).toBe(true);
  expect(releasedWithoutCapture({ status: "closed", approved: true })).toBe(false);
  expect(releasedWithoutCapture({ status: "pending", approved: true })).toBe(false);
});

test("an event needs an id, a type and an object", () => {
  expect(eventOf({ id: "evt_1", type: "x", data: { object: {} } })).toMatchObject({ id: "evt_1", apiVersion: null });
  expect(eventOf({ id: "evt_1", type: "x", data: {} })).toBeNull();
  expect(eventOf([1, 2])).toBeNull();
  expect(eventOf(null)).toBeNull();
});

test("a time out of range, or not whole seconds, is no request and no state (issue 28 §3); a missing one is now", () => {
  const request = (fields: Record<string, unknown>) =>
    authorisationRequestOf({
      id: "iauth_1",
      card: "ic_1",
      pending_request: { amount: 100, currency: "eur" },
      ...fields,
    });
  const state = (fields: Record<string, unknown>) =>
    authorisationStateOf({ id: "iauth_1", card: "ic_1", approved: true, status: "pending", amount: 100, ...fields });
  for (const created of [1e20, -1, 0, 946_684_799, 4_102_444_801, 1.5, "1795000000", Number.MAX_VALUE, true, {}]) {
    expect(request({ created }), String(created)).toBeNull();
    expect(state({ created }), String(created)).toBeNull();
  }
  expect(request({ created: 1_795_000_000 })?.at).toEqual(new Date(1_795_000_000_000));
  const before = Date.now();
  expect(request({})?.at.getTime()).toBeGreaterThanOrEqual(before);
  expect(state({ created: null })?.at.getTime()).toBeGreaterThanOrEqual(before);
});

test("ids are Stripe's: short, of letters, digits, _ and -; anything else is no id", () => {
  for (const id of ["", "x".repeat(121), "iauth 1", "iauth_\u0000", "iauth_é", 42, null, ["iauth_1"], { id: 42 }]) {
    const request = authorisationRequestOf({ id, card: "ic_1", pending_request: { amount: 100, currency: "eur" } });
    expect(request, JSON.stringify(id)).toBeNull();
    expect(
      authorisationRequestOf({ id: "iauth_1", card: id, pending_request: { amount: 1, currency: "eur" } }),
    ).toBeNull();
    expect(transactionOf({ id, type: "capture", amount: -100, authorization: "iauth_1" })).toBeNull();
    expect(eventOf({ id, type: "ping", data: { object: {} } })).toBeNull();
  }
  // A malformed authorisation is not "none" (a force capture).
  expect(transactionOf({ id: "ipi_1", type: "refund", amount: 100, authorization: "x".repeat(500) })).toBeNull();
  expect(transactionOf({ id: "ipi_1", type: "refund", amount: 100, authorization: { id: "iauth 1" } })).toBeNull();
  expect(transactionOf({ id: "ipi_1", type: "refund", amount: 100, authorization: null })?.stripeAuthorizationId).toBe(
    null,
  );
  expect(
    authorisationRequestOf({ id: "iauth_1", card: { id: "ic_x-1" }, pending_request: { amount: 1 } })?.cardRef,
  ).toBe("ic_x-1");
});

test("a transaction's amount is whole cents, not zero, within the engine's maximum (either sign)", () => {
  const amount = (value: unknown) =>
    transactionOf({ id: "ipi_1", type: "capture", amount: value, authorization: "iauth_1" });
  for (const value of [1e20, -1e20, 0, 1.5, "100", null, 1_000_001, -1_000_001, Number.MAX_SAFE_INTEGER + 2]) {
    expect(amount(value), String(value)).toBeNull();
  }
  expect(amount(-1_000_000)?.amount).toBe(1_000_000);
  expect(amount(1)?.amount).toBe(1);
});

test("an event: a type and an API version of Stripe's shape; an API version that is not one is left out", () => {
  const event = (fields: Record<string, unknown>) =>
    eventOf({ id: "evt_1", type: "issuing_authorization.request", data: { object: {} }, ...fields });
  for (const type of ["", "x".repeat(121), "Issuing Authorization", "a\u0000b", 42, null]) {
    expect(event({ type }), JSON.stringify(type)).toBeNull();
  }
  expect(event({ api_version: "2025-03-31.basil" })?.apiVersion).toBe("2025-03-31.basil");
  // It is answered in the Stripe-Version header: a line break there would make the answer itself fail.
  for (const api_version of ["2025\r\nSet-Cookie: x=1", "x".repeat(65), "é", 20250331]) {
    expect(event({ api_version })?.apiVersion, JSON.stringify(api_version)).toBeNull();
  }
  expect(event({ data: { object: [] } })).toBeNull();
  expect(event({ data: [] })).toBeNull();
  expect(eventOf("evt_1")).toBeNull();
});

test("a state needs a status of Stripe's shape; texts lose their control characters and are bounded", () => {
  const state = (status: unknown) => authorisationStateOf({ id: "iauth_1", approved: false, status });
  for (const status of ["", "x".repeat(41), "Pending", "closed\u0000", 3, null]) {
    expect(state(status), JSON.stringify(status)).toBeNull();
  }
  expect(state("closed")?.status).toBe("closed");
  const request = authorisationRequestOf({
    id: "iauth_1",
    card: "ic_1",
    merchant_data: {
      name: `Café\u0000\u0007 du coin${"x".repeat(1000)}`,
      city: 42,
      country: "F\nR",
      category_code: ["5812"],
    },
    pending_request: { amount: 100, currency: "e\u0000ur" },
  });
  expect(request?.merchant.name.startsWith("Café du coin")).toBe(true);
  expect(request?.merchant.name.length).toBeLessThanOrEqual(200);
  expect(request?.merchant).toMatchObject({ city: "", country: "FR", categoryCode: "" });
  expect(request?.currency).toBe("EUR");
});
