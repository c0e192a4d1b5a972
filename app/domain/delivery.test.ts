import { expect, test } from "vitest";
import {
  canUnlockPin,
  cardStates,
  deliveryHint,
  deliveryStepOf,
  isDeliveryDanger,
  isDeliveryProblem,
  isUndelivered,
} from "./delivery";

test("submitted and pending are the same first step; problems have no step", () => {
  expect(deliveryStepOf("submitted")).toBe("pending");
  expect(deliveryStepOf("pending")).toBe("pending");
  expect(deliveryStepOf("shipped")).toBe("shipped");
  expect(deliveryStepOf("delivered")).toBe("delivered");
  expect(deliveryStepOf("canceled")).toBeNull();
  expect(["canceled", "failure", "returned"].every(isDeliveryProblem)).toBe(true);
  expect(isDeliveryProblem("shipped")).toBe(false);
  // Spec 000 §4: only canceled and failure in the danger style.
  expect(["canceled", "failure"].every(isDeliveryDanger)).toBe(true);
  expect(["returned", "submitted", "pending", "shipped", "delivered"].some(isDeliveryDanger)).toBe(false);
});

test("the hint shows the date only while shipped with a date still ahead", () => {
  expect(deliveryHint("shipped", "2026-11-27", "2026-11-22")).toEqual({ kind: "eta", date: "2026-11-27" });
  expect(deliveryHint("shipped", "2026-11-20", "2026-11-22")).toEqual({ kind: "status", status: "shipped" });
  expect(deliveryHint("shipped", null, "2026-11-22")).toEqual({ kind: "status", status: "shipped" });
  expect(deliveryHint("submitted", "2026-11-27", "2026-11-22")).toEqual({ kind: "status", status: "submitted" });
  expect(deliveryHint("delivered", null, "2026-11-22")).toBeNull();
});

const physical = { type: "physical" as const, blocked: false, frozen: false, pinCanUpdate: true };
const today = "2026-11-22";

test("a card in preparation or on its way is never active: it says where it is", () => {
  for (const status of ["submitted", "pending", "some-new-status"])
    expect(cardStates({ ...physical, shipping: { status, eta: null } }, today)).toEqual([{ kind: "preparing" }]);
  expect(cardStates({ ...physical, shipping: { status: "shipped", eta: "2026-11-27" } }, today)).toEqual([
    { kind: "shipped", eta: "2026-11-27" },
  ]);
  // A date already past (or none) is not promised again.
  expect(cardStates({ ...physical, shipping: { status: "shipped", eta: "2026-11-20" } }, today)).toEqual([
    { kind: "shipped", eta: null },
  ]);
  for (const status of ["canceled", "failure", "returned"] as const)
    expect(cardStates({ ...physical, shipping: { status, eta: "2026-11-27" } }, today)).toEqual([
      { kind: "deliveryProblem", status },
    ]);
});

test("a delivered or virtual card is active; frozen and blocked win, a blocked card says nothing of its delivery", () => {
  expect(cardStates({ ...physical, shipping: { status: "delivered", eta: null } }, today)).toEqual([
    { kind: "active" },
  ]);
  expect(cardStates({ ...physical, shipping: null }, today)).toEqual([{ kind: "active" }]);
  expect(cardStates({ ...physical, type: "virtual", shipping: null }, today)).toEqual([{ kind: "active" }]);
  expect(cardStates({ ...physical, frozen: true, shipping: { status: "delivered", eta: null } }, today)).toEqual([
    { kind: "frozen" },
  ]);
  // Frozen while on its way: both facts, the one that stops payments first.
  expect(cardStates({ ...physical, frozen: true, shipping: { status: "pending", eta: null } }, today)).toEqual([
    { kind: "frozen" },
    { kind: "preparing" },
  ]);
  expect(
    cardStates({ ...physical, blocked: true, frozen: true, shipping: { status: "shipped", eta: "2026-11-27" } }, today),
  ).toEqual([{ kind: "blocked" }]);
});

test("the PIN unlock is offered only for a delivered physical card whose PIN can be changed", () => {
  const delivered = { ...physical, shipping: { status: "delivered", eta: null } };
  expect(canUnlockPin(delivered)).toBe(true);
  expect(canUnlockPin({ ...physical, shipping: null })).toBe(true);
  // Frozen still allows choosing a new PIN before unfreezing.
  expect(canUnlockPin({ ...delivered, frozen: true })).toBe(true);
  expect(canUnlockPin({ ...delivered, pinCanUpdate: false })).toBe(false);
  expect(canUnlockPin({ ...delivered, blocked: true })).toBe(false);
  expect(canUnlockPin({ ...delivered, type: "virtual", shipping: null })).toBe(false);
  for (const status of ["submitted", "pending", "shipped", "returned", "canceled", "failure"])
    expect(canUnlockPin({ ...physical, shipping: { status, eta: null } }), status).toBe(false);
  expect(isUndelivered({ type: "physical", shipping: { status: "shipped", eta: null } })).toBe(true);
  expect(isUndelivered({ type: "virtual", shipping: null })).toBe(false);
});
