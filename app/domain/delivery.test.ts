import { expect, test } from "vitest";
import { deliveryHint, deliveryStepOf, isDeliveryDanger, isDeliveryProblem } from "./delivery";

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
