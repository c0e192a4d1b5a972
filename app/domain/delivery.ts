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

/** What the card page needs to know of a card to word its state (a `CardDetail` fits). */
export interface CardStateFacts {
  type: "physical" | "virtual";
  blocked: boolean;
  frozen: boolean;
  pinCanUpdate: boolean;
  /** A physical card's delivery; null for a virtual card (or a physical one made before tracking). */
  shipping: { status: string; eta: string | null } | null;
}

/**
 * One fact of the card's state, in the words of the card page (issue 30 §1): whether it can pay (blocked,
 * frozen, active) and, for a physical card still on its way, where it is. A card in preparation or in
 * transit is never called active: it cannot pay in a shop yet.
 */
export type CardState =
  | { kind: "blocked" }
  | { kind: "frozen" }
  | { kind: "active" }
  | { kind: "preparing" }
  | { kind: "shipped"; eta: string | null }
  | { kind: "deliveryProblem"; status: "canceled" | "failure" | "returned" };

/** True while a physical card has not reached its holder (delivered, or no tracking, means it has). */
export function isUndelivered(card: Pick<CardStateFacts, "type" | "shipping">): boolean {
  return card.type === "physical" && card.shipping !== null && card.shipping.status !== "delivered";
}

/**
 * The card's states, most important first: a blocked card is only blocked (its delivery no longer
 * matters); a frozen one says so, then where it is if it has not arrived; otherwise an undelivered card
 * says where it is (spec 000 §4: the date only while shipped with a date still ahead), and a delivered or
 * virtual card is active. `today` is the Paris day (YYYY-MM-DD).
 */
export function cardStates(card: CardStateFacts, today: string): CardState[] {
  if (card.blocked) return [{ kind: "blocked" }];
  const delivery = card.shipping && isUndelivered(card) ? deliveryState(card.shipping, today) : null;
  if (card.frozen) return delivery ? [{ kind: "frozen" }, delivery] : [{ kind: "frozen" }];
  return [delivery ?? { kind: "active" }];
}

function deliveryState(shipping: { status: string; eta: string | null }, today: string): CardState {
  const { status } = shipping;
  if (status === "canceled" || status === "failure" || status === "returned")
    return { kind: "deliveryProblem", status };
  if (deliveryStepOf(status) === "shipped") {
    const hint = deliveryHint(status, shipping.eta, today);
    return { kind: "shipped", eta: hint?.kind === "eta" ? hint.date : null };
  }
  // Submitted, pending, or a status the issuer may add later: the card is not on its way yet.
  return { kind: "preparing" };
}

/**
 * Spec 000 §4: a PIN blocked after 3 wrong entries is unlocked by choosing a new one "when can_update_pin".
 * A PIN can only be blocked at a terminal once the physical card has reached its holder, so only then (and
 * never on a blocked card) is the unlock offered: a card in preparation gets no such action.
 */
export function canUnlockPin(card: CardStateFacts): boolean {
  return card.type === "physical" && !card.blocked && card.pinCanUpdate && !isUndelivered(card);
}
