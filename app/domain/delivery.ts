/**
 * Delivery rules of spec 000 §4: steps pending → shipped → delivered; submitted counts as pending;
 * canceled, failure (and returned) are problems, shown in the danger style and in words.
 */
export const DELIVERY_STEPS = ["pending", "shipped", "delivered"] as const;
export type DeliveryStep = (typeof DELIVERY_STEPS)[number];

export function deliveryStepOf(status: string): DeliveryStep | null {
  if (status === "submitted" || status === "pending") return "pending";
  if (status === "shipped" || status === "delivered") return status;
  return null;
}

export function isDeliveryProblem(status: string): boolean {
  return status === "canceled" || status === "failure" || status === "returned";
}

/** The card tooltip: the estimated date only while shipped with a future date; else the status, except delivered. */
export function deliveryHint(status: string, eta: string | null, today: string): { kind: "eta"; date: string } | { kind: "status"; status: string } | null {
  if (status === "delivered") return null;
  if (status === "shipped" && eta && eta > today) return { kind: "eta", date: eta };
  return { kind: "status", status };
}
