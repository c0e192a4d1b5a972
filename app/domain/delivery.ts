/**
 * Delivery rules of spec 000 §4: steps pending → shipped → delivered; submitted counts as pending;
 * canceled, failure and returned are off the steps and said in words; only canceled and failure are
 * shown in the danger style.
 */
export const DELIVERY_STEPS = ["pending", "shipped", "delivered"] as const;
export type DeliveryStep = (typeof DELIVERY_STEPS)[number];

export function deliveryStepOf(status: string): DeliveryStep | null {
  if (status === "submitted" || status === "pending") return "pending";
  if (status === "shipped" || status === "delivered") return status;
  return null;
}

/** Off the steps: the card will not arrive as planned (the panel says to contact the support). */
export function isDeliveryProblem(status: string): boolean {
  return status === "canceled" || status === "failure" || status === "returned";
}

/** Spec 000 §4: "Canceled and failure appear in danger colour" — those two only. */
export function isDeliveryDanger(status: string): boolean {
  return status === "canceled" || status === "failure";
}

/** The card tooltip: the estimated date only while shipped with a future date; else the status, except delivered. */
export function deliveryHint(
  status: string,
  eta: string | null,
  today: string,
): { kind: "eta"; date: string } | { kind: "status"; status: string } | null {
  if (status === "delivered") return null;
  if (status === "shipped" && eta && eta > today) return { kind: "eta", date: eta };
  return { kind: "status", status };
}
