/**
 * The payment processor: the outside company that keeps the employee's saved credit cards and charges
 * them when a purchase costs more than the wallets hold (spec 000 §2 "Balance overflow panel", §4).
 * Card numbers are typed only into the processor's own fields, never into the portal.
 */
export interface SavedCard {
  /** The processor's reference for this payment method. */
  ref: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export interface Customer {
  /** The processor's reference, once known. */
  ref: string | null;
  userId: string;
  email: string;
  name: string;
}

/** How the browser enters a new card: a document the processor serves, or the processor's JS elements. */
export type CardSetup =
  | { kind: "hosted-fields"; url: string; setupRef: string }
  | { kind: "elements"; clientSecret: string; publishableKey: string; setupRef: string };

export type SetupStatus = "pending" | "succeeded" | "failed";

export type PaymentStatus = "succeeded" | "payment_failed" | "processing";

export class PaymentError extends Error {
  constructor(
    readonly code: "notFound" | "unavailable" | "rejected",
    message?: string,
  ) {
    super(message ?? code);
  }
}

export interface PaymentProcessor {
  readonly name: string;
  /**
   * Starts adding a card for this customer (creating the customer on first use). `returnUrl` is where
   * the processor's fields send the person once the card is saved.
   */
  startCardSetup(customer: Customer, returnUrl: string): Promise<{ customerRef: string; setup: CardSetup }>;
  /** How a setup ended, and the card it saved. Only the customer's own setups are found. */
  setupResult(customerRef: string, setupRef: string): Promise<{ status: SetupStatus; cardRef: string | null }>;
  /** The customer's saved cards, as the processor knows them now. */
  listCards(customerRef: string): Promise<SavedCard[]>;
  /** Removes a saved card from the customer. */
  detachCard(customerRef: string, cardRef: string): Promise<void>;
  /**
   * Charges `amount` cents again after a failed attempt, on `cardRef` (the customer's default card).
   * Returns the new status; a decline is "payment_failed", not an error.
   */
  retryPayment(customerRef: string, paymentRef: string, cardRef: string): Promise<PaymentStatus>;
  /**
   * Charges `amount` cents off-session (the person is not there) on `cardRef`, the customer's default saved card:
   * the overflow of an approved card payment. `idempotencyKey` is the portal's payment intent id, so a charge sent
   * twice is made once. A decline is an answer (`payment_failed`, with the processor's payment to retry when it
   * made one), not an error; an unreachable processor throws a PaymentError.
   */
  chargeOverflow(charge: {
    customerRef: string;
    cardRef: string;
    amount: number;
    idempotencyKey: string;
  }): Promise<{ paymentRef: string | null; status: PaymentStatus }>;
  /**
   * Gives back `amount` cents of a succeeded charge (a merchant refund, a partial capture, a reversal), once per
   * `idempotencyKey`. Throws a PaymentError when the processor refuses or cannot be reached.
   */
  refundPayment(refund: { paymentRef: string; amount: number; idempotencyKey: string }): Promise<{ refundRef: string }>;
}
