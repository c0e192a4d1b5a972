import {
  allocatePartialCapture,
  allocateRefund,
  maxCapture,
  STALE_AFTER_DAYS,
  type Part,
} from "~/domain/authorisation-lifecycle";
import { MAX_AUTHORISATION_AMOUNT, payFromWallets } from "~/domain/authorisation";
import { todayInParis } from "~/domain/dates";
import { inTransaction, type DB } from "../db";
import { newId } from "../ids";
import { loadWalletStates, type AuthoriseDeps } from "./authorisations";
import { creditWallet, debitWallet } from "./wallets";

/**
 * The lifecycle of an approved card authorisation (issue 17 §2, decision 0035 "Lifecycle"): capture, reversal,
 * expiry and merchant refunds. Each runs in one transaction that first locks the person's row, as `authorise`
 * does, so that a capture, a refund and a new payment of the same person are applied one at a time and each
 * sees what the previous one wrote.
 *
 * States of a `card_authorizations` row written by the engine (spec 000 §4):
 * - approved and held: `pending`, `frozen` 1; its wallet parts are `withdraw` rows with status `frozen`;
 * - captured: `closed`, `has_card_transactions` 1, `frozen` 0, `amount` the captured amount; the holds become
 *   `captured` and each wallet's payment is a processed `withdraw` row naming the authorisation;
 * - reversed or expired: `reversed`, `frozen` 0, `status_reason` `reversed` or `expired`; the holds `released`.
 * Only processed and frozen `withdraw` rows count in today's spending (`spentTodayByWallet`), so captured and
 * released holds stop counting, and the processed rows replace them.
 */

const MAX_REFERENCE = 120;
const isAmount = (value: unknown): value is number =>
  typeof value === "number" && Number.isSafeInteger(value) && value >= 1 && value <= MAX_AUTHORISATION_AMOUNT;

type Trx = DB;

/**
 * Locks the person the authorisation belongs to, then reads it (after the lock: the state is current). Also the
 * payment-method switch's lock (decision 0038).
 */
export async function lockAuthorisation(trx: Trx, authorisationId: string) {
  const owner = await trx
    .selectFrom("card_authorizations")
    .innerJoin("cards", "cards.id", "card_authorizations.card_id")
    .select(["cards.user_id"])
    .where("card_authorizations.id", "=", authorisationId)
    .executeTakeFirst();
  if (!owner) return undefined;
  await trx
    .updateTable("users")
    .set((eb) => ({ email: eb.ref("email") }))
    .where("id", "=", owner.user_id)
    .execute();
  const auth = await trx
    .selectFrom("card_authorizations")
    .selectAll()
    .where("id", "=", authorisationId)
    .executeTakeFirstOrThrow();
  return { ...auth, userId: owner.user_id };
}

type Locked = NonNullable<Awaited<ReturnType<typeof lockAuthorisation>>>;

const isHeld = (a: Locked) => a.status_name === "pending" && a.frozen === 1;
const isCaptured = (a: Locked) => a.has_card_transactions === 1;

/** The wallets' positions on the card: holds and payments are read in the card's priority order. */
async function positions(trx: Trx, cardId: string): Promise<Map<string, number>> {
  const links = await trx
    .selectFrom("card_wallets")
    .select(["wallet_id", "position"])
    .where("card_id", "=", cardId)
    .execute();
  return new Map(links.map((l) => [l.wallet_id, l.position]));
}

/** Sums rows per wallet, in the card's priority order (a wallet no longer linked comes last). */
function byPriority(rows: { wallet_id: string; amount: number }[], order: Map<string, number>): Part[] {
  const sums = new Map<string, number>();
  for (const r of rows) sums.set(r.wallet_id, (sums.get(r.wallet_id) ?? 0) + Math.abs(r.amount));
  return [...sums.entries()]
    .map(([walletId, amount]) => ({ walletId, amount }))
    .sort((a, b) => (order.get(a.walletId) ?? Infinity) - (order.get(b.walletId) ?? Infinity));
}

/** The overflow's payment intent, when the engine created one. */
async function overflowIntent(trx: Trx, authorisationId: string) {
  return trx
    .selectFrom("payment_intents")
    .select(["id", "amount", "latest_status"])
    .where("authorization_id", "=", authorisationId)
    .orderBy("created_at", "desc")
    .executeTakeFirst();
}

/**
 * The overflow now due is `due` cents: a payment intent not charged yet (`processing`) is lowered, or cancelled
 * at zero; one already charged gives back the difference through the processor — returned for the caller.
 */
export async function settleOverflow(trx: Trx, authorisationId: string, due: number): Promise<number> {
  const intent = await overflowIntent(trx, authorisationId);
  if (!intent || intent.amount <= due) return 0;
  // Not charged (yet, or the charge failed and waits for "Relancer le paiement"): the intent itself is lowered.
  if (intent.latest_status === "processing" || intent.latest_status === "payment_failed") {
    await trx
      .updateTable("payment_intents")
      .set(due > 0 ? { amount: due } : { latest_status: "canceled" })
      .where("id", "=", intent.id)
      .execute();
    return 0;
  }
  return intent.latest_status === "succeeded" ? intent.amount - due : 0;
}

export type CaptureResult =
  | { kind: "invalid" }
  | { kind: "notFound" }
  /** Idempotent: this authorisation was captured before; nothing changed. */
  | { kind: "alreadyCaptured"; amount: number }
  /** Declined, reversed or expired: nothing to capture. */
  | { kind: "notCapturable"; status: string }
  | { kind: "overTolerance"; max: number }
  /** Above the authorised amount and the wallets cannot pay the difference: refused, nothing changed. */
  | { kind: "insufficientFunds" }
  | {
      kind: "captured";
      amount: number;
      /** What each wallet paid, in the card's priority order. */
      wallets: Part[];
      overflow: number;
      /** Of an overflow already charged, what the processor must give back (a partial capture). */
      overflowToRefund: number;
    };

/**
 * The merchant's capture of `amount` cents: the holds become processed payments (`debitWallet`, dated at the
 * authorisation so that the day's spending and the 25 € of titres-restaurant stay on the payment's day). Less than
 * authorised: the rest is released (`allocatePartialCapture`). More: only within `maxCapture`, the difference taken
 * from the card's wallets by the engine's own rules (`payFromWallets`, without the overflow: the saved card is not
 * charged for a tip nobody authorised), never below zero; otherwise refused.
 */
export async function capture(deps: AuthoriseDeps, authorisationId: string, amount: number): Promise<CaptureResult> {
  if (!isAmount(amount)) return { kind: "invalid" };
  return inTransaction(deps.db, async (trx): Promise<CaptureResult> => {
    const auth = await lockAuthorisation(trx, authorisationId);
    if (!auth) return { kind: "notFound" };
    if (isCaptured(auth)) return { kind: "alreadyCaptured", amount: auth.amount };
    if (!isHeld(auth)) return { kind: "notCapturable", status: auth.status_name };

    const max = maxCapture(auth.amount, auth.merchant_category_code);
    if (amount > max) return { kind: "overTolerance", max };

    const order = await positions(trx, auth.card_id);
    const holdRows = await trx
      .selectFrom("wallet_transactions")
      .select(["id", "wallet_id", "amount"])
      .where("authorization_id", "=", authorisationId)
      .where("status", "=", "frozen")
      .execute();
    const holds = byPriority(holdRows, order);
    const at = new Date(auth.transaction_at);

    let wallets: Part[];
    let overflow: number;
    if (amount <= auth.amount) {
      ({ wallets, overflow } = allocatePartialCapture(holds, auth.overflow_amount, amount));
    } else {
      // The difference is a payment of its own at the same merchant on the same day: the engine's walk
      // (`payFromWallets`: the card's order, the category, Sundays and holidays, the day's 25 €, the limits, the
      // balance less what is held — this payment's holds included, so never below zero), without the overflow.
      // A row written before the engine has no category: refused.
      const code = auth.merchant_category_code;
      if (!code) return { kind: "insufficientFunds" };
      const { wallets: states, mealSpentToday } = await loadWalletStates(trx, auth.card_id, auth.userId, at);
      const extra = payFromWallets({
        amount: amount - auth.amount,
        wallets: states,
        day: todayInParis(at),
        categoryCode: code,
        mealSpentToday,
      });
      if (extra.remaining > 0) return { kind: "insufficientFunds" };
      wallets = byPriority(
        [...holds, ...extra.split].map((p) => ({ wallet_id: p.walletId, amount: p.amount })),
        order,
      );
      overflow = auth.overflow_amount;
    }

    await trx
      .updateTable("wallet_transactions")
      .set({ status: "captured" })
      .where("authorization_id", "=", authorisationId)
      .where("status", "=", "frozen")
      .execute();
    for (const part of wallets) {
      if (part.amount > 0) {
        await debitWallet(trx, part.walletId, part.amount, "withdraw", auth.merchant_name, at, authorisationId);
      }
    }
    const overflowToRefund = await settleOverflow(trx, authorisationId, overflow);
    await trx
      .updateTable("card_authorizations")
      .set({ status_name: "closed", has_card_transactions: 1, frozen: 0, amount, overflow_amount: overflow })
      .where("id", "=", authorisationId)
      .execute();
    return { kind: "captured", amount, wallets: wallets.filter((w) => w.amount > 0), overflow, overflowToRefund };
  });
}

export type ReverseResult =
  | { kind: "notFound" }
  /** Idempotent: reversed or expired before; nothing changed. */
  | { kind: "alreadyReleased"; reason: string | null }
  /** Captured: a merchant gives money back with a refund, not a reversal. */
  | { kind: "captured" }
  /** Declined: nothing was held. */
  | { kind: "notReversible"; status: string }
  | { kind: "reversed"; released: Part[]; overflowToRefund: number };

async function release(
  deps: AuthoriseDeps,
  authorisationId: string,
  reason: "reversed" | "expired",
  staleBefore?: string,
): Promise<ReverseResult> {
  return deps.db.transaction().execute(async (trx): Promise<ReverseResult> => {
    const auth = await lockAuthorisation(trx, authorisationId);
    if (!auth) return { kind: "notFound" };
    if (isCaptured(auth)) return { kind: "captured" };
    if (auth.status_name === "reversed") return { kind: "alreadyReleased", reason: auth.status_reason };
    if (!isHeld(auth)) return { kind: "notReversible", status: auth.status_name };
    // The expiry job re-checks the age under the lock (a capture may have come in between).
    if (staleBefore && auth.transaction_at >= staleBefore) return { kind: "notReversible", status: auth.status_name };
    const order = await positions(trx, auth.card_id);
    const holdRows = await trx
      .selectFrom("wallet_transactions")
      .select(["wallet_id", "amount"])
      .where("authorization_id", "=", authorisationId)
      .where("status", "=", "frozen")
      .execute();
    await trx
      .updateTable("wallet_transactions")
      .set({ status: "released" })
      .where("authorization_id", "=", authorisationId)
      .where("status", "=", "frozen")
      .execute();
    const overflowToRefund = await settleOverflow(trx, authorisationId, 0);
    await trx
      .updateTable("card_authorizations")
      .set({ status_name: "reversed", status_reason: reason, frozen: 0 })
      .where("id", "=", authorisationId)
      .execute();
    return { kind: "reversed", released: byPriority(holdRows, order), overflowToRefund };
  });
}

/** The merchant (or the issuer) cancels an approval not captured: its holds are released. Idempotent. */
export function reverse(deps: AuthoriseDeps, authorisationId: string): Promise<ReverseResult> {
  return release(deps, authorisationId, "reversed");
}

/**
 * The job releasing approvals held for more than 7 days without a capture (issue 17 §2); each in its own
 * transaction under its person's lock. Returns those it released, with the overflow charged already (for the
 * caller to refund through the processor: `expireStaleCardPayments`).
 */
export async function expireStale(deps: AuthoriseDeps, now: Date): Promise<{ id: string; overflowToRefund: number }[]> {
  const before = new Date(now.getTime() - STALE_AFTER_DAYS * 24 * 60 * 60 * 1000).toISOString();
  const stale = await deps.db
    .selectFrom("card_authorizations")
    .select("id")
    .where("status_name", "=", "pending")
    .where("frozen", "=", 1)
    .where("transaction_at", "<", before)
    .orderBy("transaction_at")
    .execute();
  const expired: { id: string; overflowToRefund: number }[] = [];
  for (const { id } of stale) {
    const result = await release(deps, id, "expired", before);
    if (result.kind === "reversed") expired.push({ id, overflowToRefund: result.overflowToRefund });
  }
  return expired;
}

export type RefundResult =
  | { kind: "invalid" }
  | { kind: "notFound" }
  /** Only a captured payment can be refunded. */
  | { kind: "notCaptured" }
  /** Idempotent: this reference was applied before (whatever amount is sent again); nothing changed. */
  | { kind: "alreadyRefunded"; refundId: string; amount: number }
  /** More than what is left to refund of the capture: refused, nothing changed. */
  | { kind: "tooMuch"; refundable: number }
  | { kind: "refunded"; refundId: string; wallets: Part[]; overflow: number };

/**
 * A merchant refund of `amount` cents of a captured payment, once per `reference`: the wallets are credited back
 * (`creditWallet`, a processed `refund` row) in the reverse of the card's order after the overflow
 * (`allocateRefund`); the overflow's part is returned for the caller to refund through the processor. Refunds
 * together never exceed what was captured.
 */
export async function refundFromMerchant(
  deps: AuthoriseDeps,
  authorisationId: string,
  amount: number,
  reference: string,
  now = new Date(),
): Promise<RefundResult> {
  if (!isAmount(amount) || typeof reference !== "string") return { kind: "invalid" };
  const ref = reference.trim();
  if (ref.length === 0 || ref.length > MAX_REFERENCE) return { kind: "invalid" };
  return deps.db.transaction().execute(async (trx): Promise<RefundResult> => {
    const auth = await lockAuthorisation(trx, authorisationId);
    if (!auth) return { kind: "notFound" };
    const previous = await trx
      .selectFrom("card_authorization_refunds")
      .selectAll()
      .where("authorization_id", "=", authorisationId)
      .execute();
    const same = previous.find((r) => r.reference === ref);
    if (same) return { kind: "alreadyRefunded", refundId: same.id, amount: same.amount };
    if (!isCaptured(auth)) return { kind: "notCaptured" };

    const order = await positions(trx, auth.card_id);
    const movements = await trx
      .selectFrom("wallet_transactions")
      .select(["wallet_id", "amount", "main_comment"])
      .where("authorization_id", "=", authorisationId)
      .where("status", "=", "processed")
      .execute();
    // What each wallet paid: its payments, less what a payment-method switch gave back (decision 0038).
    const paidNet = new Map<string, number>();
    for (const m of movements.filter((m) => m.main_comment !== "refund"))
      paidNet.set(m.wallet_id, (paidNet.get(m.wallet_id) ?? 0) - m.amount);
    const paid = byPriority(
      [...paidNet].filter(([, cents]) => cents > 0).map(([wallet_id, amount]) => ({ wallet_id, amount })),
      order,
    );
    const refundedWallets = new Map(
      byPriority(
        movements.filter((m) => m.main_comment === "refund"),
        order,
      ).map((p) => [p.walletId, p.amount]),
    );
    const refundedOverflow = previous.reduce((s, r) => s + r.overflow_amount, 0);
    const refundable = auth.amount - previous.reduce((s, r) => s + r.amount, 0);
    const split =
      amount <= refundable
        ? allocateRefund(amount, paid, auth.overflow_amount, { wallets: refundedWallets, overflow: refundedOverflow })
        : null;
    if (!split) return { kind: "tooMuch", refundable: Math.max(0, refundable) };

    for (const part of split.wallets) {
      await creditWallet(trx, part.walletId, part.amount, "refund", auth.merchant_name, now, authorisationId);
    }
    const refundId = newId("aref");
    await trx
      .insertInto("card_authorization_refunds")
      .values({
        id: refundId,
        authorization_id: authorisationId,
        reference: ref,
        amount,
        overflow_amount: split.overflow,
        created_at: now.toISOString(),
      })
      .execute();
    return { kind: "refunded", refundId, wallets: split.wallets, overflow: split.overflow };
  });
}
