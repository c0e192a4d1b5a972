import { expect, test } from "vitest";
import { authorisationRequestOf, entryModeOf, eventOf, releasedWithoutCapture, transactionOf } from "./stripe-issuing";

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
