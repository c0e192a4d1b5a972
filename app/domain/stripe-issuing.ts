import { MAX_AUTHORISATION_AMOUNT, type EntryMode, type Merchant } from "./authorisation";

/**
 * What the portal reads of Stripe Issuing's webhook events (issue 17 §6, decision 0036): pure functions from the
 * event's JSON (already verified against its signature) to the engine's request and the lifecycle's calls. Every
 * field is checked, never trusted to have Stripe's documented shape (issue 28 §3): ids are short strings of Stripe's
 * alphabet, types and statuses short words, amounts whole cents within the engine's maximum, times whole seconds
 * between 2000 and 2100, texts without control characters; anything missing, of another type or out of range gives
 * `null`, and the caller declines or refuses.
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
/** Longest text kept of a merchant's field or a currency (the records cut to 120 characters anyway). */
const MAX_TEXT = 200;
/** A text field: control characters (NUL included, which PostgreSQL refuses) removed; anything else is empty. */
const text = (value: unknown) =>
  // eslint-disable-next-line no-control-regex
  typeof value === "string" ? value.slice(0, MAX_TEXT).replace(/[\u0000-\u001f\u007f]/g, "") : "";
/** Stripe's ids (`evt_…`, `iauth_…`, `ic_…`, `ipi_…`): letters, digits, `_` and `-`, at most 120 characters. */
const ID = /^[A-Za-z0-9_-]{1,120}$/;
const isId = (value: unknown): value is string => typeof value === "string" && ID.test(value);
/** An expandable reference: the id, or the expanded object's id; null when missing or not an id. */
const idOf = (value: unknown): string | null =>
  isId(value) ? value : isObject(value) && isId(value.id) ? value.id : null;
/** An event type (`issuing_authorization.request`), an API version (`2025-03-31.basil`), a status (`pending`). */
const TYPE = /^[a-z0-9_.]{1,120}$/;
const API_VERSION = /^[A-Za-z0-9_.-]{1,64}$/;
const STATUS = /^[a-z_]{1,40}$/;
/** Seconds since 1970: 2000-01-01 to 2100-01-01 (a payment's time; anything else is out of range). */
const MIN_SECONDS = 946_684_800;
const MAX_SECONDS = 4_102_444_800;

/** A Stripe event as verified: its id, type, API version and object. */
export interface StripeEventLike {
  id: string;
  type: string;
  apiVersion: string | null;
  object: Json;
}

/**
 * The verified JSON as an event, or null: not one (no id, type or object, or an id or type that is not one). An API
 * version that is not one (it is answered in a header) is left out, as a missing one is.
 */
export function eventOf(json: unknown): StripeEventLike | null {
  if (!isObject(json) || !isId(json.id) || typeof json.type !== "string" || !TYPE.test(json.type)) return null;
  const data = json.data;
  if (!isObject(data) || !isObject(data.object)) return null;
  return {
    id: json.id,
    type: json.type,
    apiVersion: typeof json.api_version === "string" && API_VERSION.test(json.api_version) ? json.api_version : null,
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

/**
 * Stripe's issuing authorisation (its `pending_request`) as the engine's request; null: not one (an id or the card
 * missing or malformed, no pending request, a time out of range).
 */
export function authorisationRequestOf(authorization: Json): StripeAuthorisationRequest | null {
  const stripeAuthorizationId = idOf(authorization.id);
  const cardRef = idOf(authorization.card);
  const pending = authorization.pending_request;
  const at = createdAt(authorization);
  if (!stripeAuthorizationId || !cardRef || !isObject(pending) || !at) return null;
  return {
    stripeAuthorizationId,
    cardRef,
    // The engine refuses what is not a whole number of cents from 1 to its maximum.
    amount: typeof pending.amount === "number" ? pending.amount : NaN,
    currency: text(pending.currency).toUpperCase(),
    merchant: merchantOf(authorization),
    at,
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

/** null: not one (its id, `approved` or `status` missing or malformed, a time out of range). */
export function authorisationStateOf(authorization: Json): StripeAuthorisationState | null {
  const stripeAuthorizationId = idOf(authorization.id);
  const status = authorization.status;
  const at = createdAt(authorization);
  if (!stripeAuthorizationId || typeof authorization.approved !== "boolean") return null;
  if (typeof status !== "string" || !STATUS.test(status) || !at) return null;
  return {
    stripeAuthorizationId,
    cardRef: idOf(authorization.card),
    approved: authorization.approved,
    status,
    amount: typeof authorization.amount === "number" ? authorization.amount : NaN,
    currency: text(authorization.currency).toUpperCase(),
    merchant: merchantOf(authorization),
    at,
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

/**
 * null: not one — its id malformed, another type than a capture or a refund, an amount that is not a whole number of
 * cents from 1 to the engine's maximum (either sign), or an authorisation that is there but not an id.
 */
export function transactionOf(transaction: Json): StripeTransaction | null {
  const id = idOf(transaction.id);
  const type = transaction.type;
  const amount = transaction.amount;
  if (!id || (type !== "capture" && type !== "refund")) return null;
  if (typeof amount !== "number" || !Number.isSafeInteger(amount) || amount === 0) return null;
  if (Math.abs(amount) > MAX_AUTHORISATION_AMOUNT) return null;
  const authorization = transaction.authorization;
  const stripeAuthorizationId = idOf(authorization);
  // None (a force capture) is Stripe's documented case; a malformed one is not.
  if (authorization !== null && authorization !== undefined && !stripeAuthorizationId) return null;
  return { id, type, stripeAuthorizationId, amount: Math.abs(amount) };
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

/**
 * When the card was used: Stripe's `created` (whole seconds), or now when it is missing; null when it is there but
 * not a time (another type, a fraction, before 2000 or after 2100 — `1e20` would be no date at all).
 */
function createdAt(authorization: Json): Date | null {
  const created = authorization.created;
  if (created === undefined || created === null) return new Date();
  if (typeof created !== "number" || !Number.isSafeInteger(created)) return null;
  return created >= MIN_SECONDS && created <= MAX_SECONDS ? new Date(created * 1000) : null;
}
