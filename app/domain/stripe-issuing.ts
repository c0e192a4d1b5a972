import type { EntryMode, Merchant } from "./authorisation";

/**
 * What the portal reads of Stripe Issuing's webhook events (issue 17 §6, decision 0036): pure functions from the
 * event's JSON (already verified against its signature) to the engine's request and the lifecycle's calls. Every
 * field is checked, never trusted to have Stripe's documented shape: anything missing gives `null`, and the caller
 * declines or ignores.
 */

/** The one path of the webhook: server/security.ts lets JSON and cross-site posts through here only. */
export const STRIPE_WEBHOOK_PATH = "/webhooks/stripe";

/** Stripe's `authorization_method` → how the card was used. */
const ENTRY_MODES: Record<string, EntryMode> = {
  chip: "chip_and_pin",
  // A magnetic stripe is read at a terminal too: a card-present payment (the PIN, if any, is Stripe's to check).
  swipe: "chip_and_pin",
  contactless: "contactless",
  online: "online",
  // Card number typed by the merchant (mail or telephone order): card not present, like online.
  keyed_in: "online",
};

export function entryModeOf(method: unknown): EntryMode {
  return (typeof method === "string" && ENTRY_MODES[method]) || "online";
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown) => (typeof value === "string" ? value : "");
/** An expandable reference: the id, or the expanded object's id. */
const idOf = (value: unknown): string | null =>
  typeof value === "string" && value ? value : isObject(value) && typeof value.id === "string" ? value.id : null;

/** A Stripe event as verified: its id, type, API version and object. */
export interface StripeEventLike {
  id: string;
  type: string;
  apiVersion: string | null;
  object: Json;
}

/** The verified JSON as an event, or null: not one (no id, type or object). */
export function eventOf(json: unknown): StripeEventLike | null {
  if (!isObject(json) || typeof json.id !== "string" || !json.id || typeof json.type !== "string") return null;
  const data = json.data;
  if (!isObject(data) || !isObject(data.object)) return null;
  return {
    id: json.id.slice(0, 255),
    type: json.type.slice(0, 120),
    apiVersion: typeof json.api_version === "string" ? json.api_version : null,
    object: data.object,
  };
}

/** What the engine is asked for an `issuing_authorization.request` (without the portal's card id). */
export interface StripeAuthorisationRequest {
  stripeAuthorizationId: string;
  cardRef: string;
  /** Cents, in the cardholder's currency (the card's: euros). */
  amount: number;
  /** ISO 4217, upper case as the engine expects it. */
  currency: string;
  merchant: Merchant;
  at: Date;
  entryMode: EntryMode;
}

/** Stripe's issuing authorisation (its `pending_request`) as the engine's request; null: not one. */
export function authorisationRequestOf(authorization: Json): StripeAuthorisationRequest | null {
  const stripeAuthorizationId = idOf(authorization.id);
  const cardRef = idOf(authorization.card);
  const pending = authorization.pending_request;
  if (!stripeAuthorizationId || !cardRef || !isObject(pending)) return null;
  return {
    stripeAuthorizationId,
    cardRef,
    // The engine refuses what is not a whole number of cents from 1 to its maximum.
    amount: typeof pending.amount === "number" ? pending.amount : NaN,
    currency: text(pending.currency).toUpperCase(),
    merchant: merchantOf(authorization),
    at: createdAt(authorization),
    entryMode: entryModeOf(authorization.authorization_method),
  };
}

/** What `issuing_authorization.created` / `.updated` tell the records. */
export interface StripeAuthorisationState {
  stripeAuthorizationId: string;
  cardRef: string | null;
  approved: boolean;
  /** pending, closed, reversed, expired. */
  status: string;
  amount: number;
  currency: string;
  merchant: Merchant;
  at: Date;
  entryMode: EntryMode;
}

export function authorisationStateOf(authorization: Json): StripeAuthorisationState | null {
  const stripeAuthorizationId = idOf(authorization.id);
  if (!stripeAuthorizationId || typeof authorization.approved !== "boolean") return null;
  return {
    stripeAuthorizationId,
    cardRef: idOf(authorization.card),
    approved: authorization.approved,
    status: text(authorization.status),
    amount: typeof authorization.amount === "number" ? authorization.amount : NaN,
    currency: text(authorization.currency).toUpperCase(),
    merchant: merchantOf(authorization),
    at: createdAt(authorization),
    entryMode: entryModeOf(authorization.authorization_method),
  };
}

/**
 * Whether Stripe's authorisation no longer holds anything without having been captured: reversed by the merchant,
 * expired, or closed declined (Stripe turned it down after the portal approved, e.g. the answer came too late).
 * A closed approved one is being captured: its `issuing_transaction.created` says how much.
 */
export function releasedWithoutCapture(state: Pick<StripeAuthorisationState, "approved" | "status">): boolean {
  return state.status === "reversed" || state.status === "expired" || (state.status === "closed" && !state.approved);
}

/** What `issuing_transaction.created` tells the records. */
export interface StripeTransaction {
  id: string;
  type: "capture" | "refund";
  stripeAuthorizationId: string | null;
  /** Cents, positive whatever Stripe's sign (a capture is negative in Stripe's balance, a refund positive). */
  amount: number;
}

export function transactionOf(transaction: Json): StripeTransaction | null {
  const id = idOf(transaction.id);
  const type = transaction.type;
  if (!id || (type !== "capture" && type !== "refund") || typeof transaction.amount !== "number") return null;
  return {
    id,
    type,
    stripeAuthorizationId: idOf(transaction.authorization),
    amount: Math.abs(transaction.amount),
  };
}

/** Stripe's `merchant_data` as the engine's merchant (missing fields are empty: the engine refuses a bad code). */
function merchantOf(authorization: Json): Merchant {
  const merchant = isObject(authorization.merchant_data) ? authorization.merchant_data : {};
  return {
    name: text(merchant.name),
    city: text(merchant.city),
    country: text(merchant.country),
    categoryCode: text(merchant.category_code),
  };
}

/** When the card was used: Stripe's `created` (seconds), or now when it is missing. */
function createdAt(authorization: Json): Date {
  const created = typeof authorization.created === "number" ? authorization.created : NaN;
  return Number.isFinite(created) ? new Date(created * 1000) : new Date();
}
