import Stripe from "stripe";
import {
  authorisationRequestOf,
  authorisationStateOf,
  eventOf,
  releasedWithoutCapture,
  transactionOf,
  type StripeAuthorisationState,
  type StripeEventLike,
  type StripeTransaction,
} from "~/domain/stripe-issuing";
import { inTransaction, type DB } from "../db";
import { newId } from "../ids";
import { observeAuthorisation } from "../metrics";
import { authorise, type AuthoriseRequest } from "./authorisations";
import {
  captureCardPayment,
  payWithCard,
  refundCardPayment,
  reverseCardPayment,
  settleCardPayment,
  type CardPaymentDeps,
} from "./card-payments";

/**
 * Stripe Issuing's webhook (issue 17 §6, decision 0036). `verifyStripeEvent` checks the signature of the raw body
 * (`stripe.webhooks.constructEvent`, 300 s of tolerance); `handleStripeEvent` applies a verified event once:
 * its id is recorded (`stripe_webhook_events`, insert-or-nothing: of two simultaneous deliveries one applies it, the
 * other answers as a replay) — in the decision's transaction for an authorisation request, first otherwise and
 * forgotten again if applying it fails — so that Stripe's retry of a failure applies it.
 */

/** Stripe's own default: an event signed more than 5 minutes ago is refused (a replayed capture of the traffic). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export type RefusalReason =
  "missing signature" | "bad signature" | "stale timestamp" | "future timestamp" | "not JSON" | "not an event";

export type Verified = { kind: "event"; event: StripeEventLike } | { kind: "refused"; reason: RefusalReason };

/** HMAC-SHA256 in lower-case hex, as Stripe writes its `v1` signatures. */
const V1_SIGNATURE = /^[0-9a-f]{64}$/;
/** Unix seconds: at most 12 digits (year 33658), so that no timestamp is out of a number's or a date's range. */
const TIMESTAMP = /^\d{1,12}$/;

/**
 * The `Stripe-Signature` header (`t=…,v1=…[,v1=…][,v0=…]`) read strictly, or null when it cannot be checked: exactly
 * one `t` of whole seconds and at least one `v1` of 64 hexadecimal digits. Other parts (`v0`, Stripe's test-mode
 * scheme, or anything unknown) are ignored, and so are `v1` parts of another shape. Stripe's own parser passes an
 * empty `v1` (`t=1,v1=`) to its comparison, which throws instead of refusing (issue 28 §3).
 */
export function signatureHeaderOf(header: string): { timestamp: number; signatures: string[] } | null {
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const equals = part.indexOf("=");
    if (equals < 0) continue;
    const key = part.slice(0, equals).trim();
    const value = part.slice(equals + 1).trim();
    if (key === "t") {
      if (timestamp !== null || !TIMESTAMP.test(value)) return null;
      timestamp = Number(value);
    } else if (key === "v1" && V1_SIGNATURE.test(value)) signatures.push(value);
  }
  return timestamp === null || signatures.length === 0 ? null : { timestamp, signatures };
}

/**
 * The raw body as Stripe signed it, checked against the `Stripe-Signature` header; never parsed before. The header is
 * read strictly first (`signatureHeaderOf`), and only its well-formed parts go to Stripe's check; a signature made
 * more than the tolerance ahead of `now` is refused too (Stripe's check only looks back).
 */
export function verifyStripeEvent(
  rawBody: Buffer,
  signature: string | null,
  secret: string,
  tolerance = SIGNATURE_TOLERANCE_SECONDS,
  now = Date.now(),
): Verified {
  if (!signature) return { kind: "refused", reason: "missing signature" };
  const header = signatureHeaderOf(signature);
  if (!header) return { kind: "refused", reason: "bad signature" };
  const wellFormed = [`t=${header.timestamp}`, ...header.signatures.map((s) => `v1=${s}`)].join(",");
  let json: unknown;
  try {
    json = Stripe.webhooks.constructEvent(rawBody, wellFormed, secret, tolerance, undefined, now);
  } catch (err) {
    if (err instanceof Stripe.errors.StripeSignatureVerificationError) {
      return { kind: "refused", reason: /tolerance/i.test(err.message) ? "stale timestamp" : "bad signature" };
    }
    // Signed by Stripe but not JSON (constructEvent parses after checking).
    if (err instanceof SyntaxError) return { kind: "refused", reason: "not JSON" };
    throw err;
  }
  if (header.timestamp > Math.floor(now / 1000) + tolerance) return { kind: "refused", reason: "future timestamp" };
  const event = eventOf(json);
  return event ? { kind: "event", event } : { kind: "refused", reason: "not an event" };
}

/**
 * Why a verified event is refused rather than applied: an object of a type the portal reads (authorisation,
 * transaction) that is malformed or out of range, or a merchant refund larger than what is left of the capture.
 */
export type EventRefusal = "unreadable object" | "refund larger than the capture";

/**
 * What the route answers: the decision of an authorisation request (Stripe's synchronous webhook), received, or
 * refused (nothing applied, nothing recorded: every delivery of the event is refused the same way).
 */
export type WebhookAnswer =
  | { kind: "decision"; approved: boolean; stripeVersion: string }
  | { kind: "received" }
  | { kind: "refused"; reason: EventRefusal };

export type WebhookDeps = CardPaymentDeps;

/** An event's object as read before anything is recorded; null: unreadable. */
type Lifecycle =
  | { kind: "authorisation"; state: StripeAuthorisationState }
  | { kind: "transaction"; transaction: StripeTransaction }
  | { kind: "other" };

function lifecycleOf(event: StripeEventLike): Lifecycle | null {
  if (event.type === "issuing_authorization.created" || event.type === "issuing_authorization.updated") {
    const state = authorisationStateOf(event.object);
    return state ? { kind: "authorisation", state } : null;
  }
  if (event.type === "issuing_transaction.created") {
    const transaction = transactionOf(event.object);
    return transaction ? { kind: "transaction", transaction } : null;
  }
  return { kind: "other" };
}

/**
 * Applies a verified event once by its id. An authorisation request is always answered with a decision (an
 * unreadable one is declined); an authorisation or transaction event whose object is unreadable is refused before
 * its id is recorded; an over-refund is refused and its id forgotten, so that each delivery is refused alike. Throws
 * when applying fails (the route answers 500, Stripe retries).
 */
export async function handleStripeEvent(
  deps: WebhookDeps,
  event: StripeEventLike,
  now = new Date(),
): Promise<WebhookAnswer> {
  if (event.type === "issuing_authorization.request") {
    const approved = await decide(deps, event, now);
    return { kind: "decision", approved, stripeVersion: event.apiVersion ?? Stripe.API_VERSION };
  }
  const lifecycle = lifecycleOf(event);
  if (!lifecycle) return { kind: "refused", reason: "unreadable object" };
  const first = await claim(deps.db, event, now);
  const forget = () => deps.db.deleteFrom("stripe_webhook_events").where("id", "=", event.id).execute();
  try {
    if (!first) {
      deps.logger.info("stripe webhook replayed", { event: event.id, type: event.type });
      return { kind: "received" };
    }
    if (lifecycle.kind === "authorisation") await applyAuthorisation(deps, event, lifecycle.state);
    else if (lifecycle.kind === "transaction") {
      const answer = await applyTransaction(deps, event, lifecycle.transaction);
      if (answer.kind === "refused") await forget();
      return answer;
    } else deps.logger.info("stripe webhook ignored", { event: event.id, type: event.type });
    return { kind: "received" };
  } catch (err) {
    if (first) await forget();
    throw err;
  }
}

/** Records the event; false: it was recorded before (a replay, or a simultaneous delivery of the same event). */
async function claim(db: DB, event: StripeEventLike, now: Date): Promise<boolean> {
  const result = await db
    .insertInto("stripe_webhook_events")
    .values({ id: event.id, type: event.type, received_at: now.toISOString() })
    .onConflict((oc) => oc.column("id").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * `issuing_authorization.request`: the engine's decision, answered at once. The event's id is recorded in the
 * decision's own transaction (one write transaction per request; a failure rolls both back, so Stripe's retry
 * decides again). The first delivery decides with its notification row (`authorise` with `notify`, as
 * `payWithCard` does) and, after commit, settles — the overflow's charge, the notification — without being
 * awaited (Stripe waits 2 s at most). A replay, or a simultaneous delivery of the same event (it waits for the
 * first one's commit on the event's row: the write lock in SQLite, the unique index in PostgreSQL), finds the
 * decision by Stripe's id under the person's lock and settles nothing again.
 */
async function decide(deps: WebhookDeps, event: StripeEventLike, now: Date): Promise<boolean> {
  const mapped = authorisationRequestOf(event.object);
  let request: AuthoriseRequest | undefined;
  if (mapped) {
    const { cardRef, ...rest } = mapped;
    request = { ...rest, card: { issuerRef: cardRef } };
  }
  const startedAt = performance.now();
  const { first, result } = await inTransaction(deps.db, async (trx) => {
    const first = await claim(trx, event, now);
    const result = request ? await authorise({ ...deps, db: trx }, request, { notify: first }) : undefined;
    return { first, result };
  });
  observeAuthorisation(result, startedAt, { replay: !first });
  if (!request || !result) {
    deps.logger.warn("stripe authorisation request unreadable, declined", { event: event.id });
    return false;
  }
  // Not awaited: Stripe has the answer first. Never rejects (it logs).
  if (first) void settleCardPayment(deps, request, result);
  if (result.kind === "unknownCard") {
    deps.logger.warn("stripe authorisation request for an unknown card, declined", { event: event.id });
    return false;
  }
  deps.logger.info("stripe authorisation request", {
    event: event.id,
    replay: !first,
    decision: result.kind,
    ...(result.kind === "declined" ? { reason: result.code } : {}),
  });
  return result.kind === "approved";
}

/** Our record of a Stripe authorisation, or undefined. */
function recordOf(deps: WebhookDeps, stripeAuthorizationId: string) {
  return deps.db
    .selectFrom("card_authorizations")
    .select(["id", "status_name", "has_card_transactions", "frozen"])
    .where("stripe_authorization_id", "=", stripeAuthorizationId)
    .executeTakeFirst();
}

/**
 * `issuing_authorization.created` / `.updated`: our record brought in line. One Stripe decided without us (our
 * answer came too late, Stripe was unreachable…) is recorded — an approval through the engine, which holds what the
 * wallets can pay; a decline as a declined row. A reversal, an expiry, or a decline after our approval releases our
 * holds (`reverseCardPayment`, idempotent). Anything else (pending, closed while captured) changes nothing here.
 */
async function applyAuthorisation(
  deps: WebhookDeps,
  event: StripeEventLike,
  state: StripeAuthorisationState,
): Promise<void> {
  const record = await recordOf(deps, state.stripeAuthorizationId);
  if (!record) {
    await recordDecidedWithoutUs(deps, event, state);
    return;
  }
  if (!releasedWithoutCapture(state)) return;
  const result = await reverseCardPayment(deps, record.id);
  deps.logger.info("stripe authorisation released", { event: event.id, status: state.status, outcome: result.kind });
}

async function recordDecidedWithoutUs(
  deps: WebhookDeps,
  event: StripeEventLike,
  state: StripeAuthorisationState,
): Promise<void> {
  const card = state.cardRef
    ? await deps.db.selectFrom("cards").select("id").where("issuer_ref", "=", state.cardRef).executeTakeFirst()
    : undefined;
  if (!card) {
    deps.logger.warn("stripe authorisation event for an unknown card, ignored", { event: event.id });
    return;
  }
  if (state.approved && state.status === "pending") {
    // Stripe approved without asking us (its timeout default): the engine holds what the wallets can pay.
    const { result } = await payWithCard(deps, {
      card: { id: card.id },
      amount: state.amount,
      currency: state.currency,
      merchant: state.merchant,
      at: state.at,
      entryMode: state.entryMode,
      stripeAuthorizationId: state.stripeAuthorizationId,
    });
    const level = result.kind === "approved" ? "info" : "error";
    deps.logger[level]("stripe authorisation approved without us, recorded", { event: event.id, engine: result.kind });
    return;
  }
  if (!state.approved) {
    await deps.db
      .insertInto("card_authorizations")
      .values({
        id: newId("auth"),
        card_id: card.id,
        amount: Number.isSafeInteger(state.amount) ? Math.abs(state.amount) : 0,
        merchant_name: state.merchant.name.slice(0, 120),
        merchant_city: state.merchant.city.slice(0, 120),
        merchant_country: state.merchant.country.slice(0, 3),
        status_name: "closed",
        status_reason: "declined_by_issuer",
        has_card_transactions: 0,
        frozen: 0,
        overflow_amount: 0,
        can_switch_payment_methods: 0,
        transaction_at: state.at.toISOString(),
        scopes: null,
        currency: state.currency.slice(0, 8),
        merchant_category_code: /^\d{4}$/.test(state.merchant.categoryCode) ? state.merchant.categoryCode : null,
        entry_mode: state.entryMode,
        stripe_authorization_id: state.stripeAuthorizationId,
      })
      .onConflict((oc) => oc.column("stripe_authorization_id").doNothing())
      .execute();
    deps.logger.info("stripe authorisation declined without us, recorded", { event: event.id });
    return;
  }
  // Approved but already reversed, expired or closed when we first hear of it: nothing held, nothing to record.
  deps.logger.warn("stripe authorisation unknown to us and no longer pending, ignored", {
    event: event.id,
    status: state.status,
  });
}

/**
 * `issuing_transaction.created`: a capture or a merchant refund of one of our authorisations. A refund larger than
 * what is left of the capture is refused (nothing credited) and logged as an error for an operator: money Stripe
 * says went back to the card that the portal cannot give back to the wallets.
 */
async function applyTransaction(
  deps: WebhookDeps,
  event: StripeEventLike,
  transaction: StripeTransaction,
): Promise<WebhookAnswer> {
  const record = transaction.stripeAuthorizationId
    ? await recordOf(deps, transaction.stripeAuthorizationId)
    : undefined;
  if (!record) {
    deps.logger.warn("stripe transaction of an authorisation unknown to us, ignored", {
      event: event.id,
      type: transaction.type,
    });
    return { kind: "received" };
  }
  const result =
    transaction.type === "capture"
      ? await captureCardPayment(deps, record.id, transaction.amount)
      : await refundCardPayment(deps, record.id, transaction.amount, transaction.id);
  if (result.kind === "tooMuch") {
    deps.logger.error("stripe refund larger than the capture, refused", { event: event.id, authorisation: record.id });
    return { kind: "refused", reason: "refund larger than the capture" };
  }
  const applied = result.kind === "captured" || result.kind === "refunded";
  deps.logger[applied ? "info" : "warn"]("stripe transaction", {
    event: event.id,
    type: transaction.type,
    outcome: result.kind,
  });
  return { kind: "received" };
}
