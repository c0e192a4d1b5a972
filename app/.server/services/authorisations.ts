import {
  authorise as decideByRules,
  MEAL_DAILY_CAP,
  readDeclineDetail,
  type AuthorisationDecision,
  type DeclineCode,
  type DeclineDetail,
  type EntryMode,
  type Merchant,
  type PinCheck,
  type PinUpdate,
  type WalletState,
} from "~/domain/authorisation";
import type { Selectable } from "kysely";
import { OVERFLOW_DEFAULT_EUROS } from "~/domain/overflow";
import { inTransaction, type DB } from "../db";
import type { CardTable } from "../db/schema";
import { newId } from "../ids";
import { recordNotification } from "./notifications";
import { loadWalletFunds, spentTodayByWallet } from "./wallets";

/**
 * The authorisation engine (issue 17, decision 0035): loads a card's state in one transaction, asks
 * the pure rules (`~/domain/authorisation`) and writes their decision with its holds before commit.
 *
 * One payment of a person at a time: the transaction first locks the person's row (a no-op update, as
 * `createAllowance` does: a row lock on PostgreSQL held until commit; on SQLite one write transaction at
 * a time, `begin immediate`). Every wallet, card and meal allowance the decision reads belongs to that
 * person, so a second payment waits and then sees the first one's holds: a wallet never goes below zero
 * and two payments never spend the same euro.
 */

export interface AuthoriseDeps {
  db: DB;
}

export interface AuthoriseRequest {
  /** The portal's card id, or the issuer's reference for it (a Stripe Issuing card id). */
  card: { id: string } | { issuerRef: string };
  /** Cents. */
  amount: number;
  currency: string;
  merchant: Merchant;
  /** When the card was used (the terminal may set another day); the Paris day of it decides. */
  at: Date;
  entryMode: EntryMode;
  /** Chip and PIN only: what the terminal or the issuer found of the PIN typed. */
  pinCheck?: PinCheck;
  /**
   * Stripe Issuing's authorisation id (`iauth_…`) when Stripe asks (the webhook, decision 0036): stored on the
   * record for the later events; a request naming one already decided answers that decision, nothing written again.
   */
  stripeAuthorizationId?: string;
}

/** The saved card an overflow is charged to, with its payment intent. */
type OverflowPayment = { creditCardId: string; paymentIntentId: string };

export type AuthoriseResult =
  | { kind: "unknownCard" }
  | {
      kind: "approved";
      authorizationId: string;
      split: { walletId: string; amount: number }[];
      overflow: number;
      /** The saved card to charge the overflow to, with its payment intent (status `processing`). */
      overflowPayment: OverflowPayment | null;
    }
  | {
      kind: "declined";
      /** Null for a request too malformed to record (amount or category code). */
      authorizationId: string | null;
      code: DeclineCode;
      /** The figures of a decline decided at the wallets (issue 30 §3); null when decided before them. */
      detail: DeclineDetail | null;
    };

const NOT_RECORDED: DeclineCode[] = ["invalid_amount", "invalid_merchant_category"];
/** Column lengths kept for what a merchant or a terminal sends (anything longer is cut). */
const MAX_TEXT = 120;
const cut = (value: unknown, max = MAX_TEXT) => (typeof value === "string" ? value.slice(0, max) : "");

/** The card a request names, as the decision reads it. */
type CardRow = Pick<
  Selectable<CardTable>,
  "id" | "user_id" | "status" | "frozen" | "type" | "shipping_status" | "pin_can_update"
>;

/**
 * `notify`: the payment's notification row (`card_authorization_approved_notification` or `…_declined_…`, naming the
 * authorisation) is written in the decision's transaction, as the other producers do (decision 0030); the card
 * payment orchestrator (`services/card-payments.ts`) asks for it and delivers the e-mail and push after commit.
 */
export async function authorise(
  deps: AuthoriseDeps,
  request: AuthoriseRequest,
  { notify = false, now = new Date() }: { notify?: boolean; now?: Date } = {},
): Promise<AuthoriseResult> {
  return inTransaction(deps.db, async (trx): Promise<AuthoriseResult> => {
    const card = await cardOf(trx, request.card);
    if (!card) return { kind: "unknownCard" };
    await lockPerson(trx, card.user_id);
    // After the lock: a replay of the same Stripe request (even a simultaneous one) finds the first decision.
    if (request.stripeAuthorizationId) {
      const previous = await decisionOf(trx, request.stripeAuthorizationId);
      if (previous) return previous;
    }
    const { decision, creditCardId } = await decide(trx, card, request);
    if (decision.pin) await recordPinAttempt(trx, card, decision.pin, request.at);
    if (decision.kind === "declined" && NOT_RECORDED.includes(decision.code)) {
      return { kind: "declined", authorizationId: null, code: decision.code, detail: decision.detail };
    }
    const authorizationId = await recordAuthorisation(trx, card, request, decision);
    if (notify) await recordPaymentNotification(trx, card.user_id, authorizationId, request, decision, now);
    if (decision.kind === "declined") {
      return { kind: "declined", authorizationId, code: decision.code, detail: decision.detail };
    }
    await holdWallets(trx, authorizationId, request, decision.split);
    const overflowPayment =
      decision.overflow > 0 && creditCardId
        ? await openOverflowPayment(trx, authorizationId, creditCardId, decision.overflow, request.at)
        : null;
    return { kind: "approved", authorizationId, split: decision.split, overflow: decision.overflow, overflowPayment };
  });
}

/**
 * The payment's notification row, with its facts (issue 30 §4): the amount in cents, the merchant's name and, for a
 * decline, its code and figures — what the notification centre says even once the card is closed.
 */
async function recordPaymentNotification(
  trx: DB,
  userId: string,
  authorizationId: string,
  request: AuthoriseRequest,
  decision: AuthorisationDecision,
  now: Date,
): Promise<void> {
  const approved = decision.kind === "approved";
  const type = approved ? "card_authorization_approved_notification" : "card_authorization_declined_notification";
  const facts = {
    amount: request.amount,
    merchant: cut(request.merchant.name),
    ...(approved ? {} : { code: decision.code, detail: decision.detail }),
  };
  await recordNotification(trx, userId, type, authorizationId, now, facts);
}

/** The card by the portal's id or the issuer's reference, or undefined. */
function cardOf(trx: DB, card: AuthoriseRequest["card"]): Promise<CardRow | undefined> {
  const query = trx
    .selectFrom("cards")
    .select(["id", "user_id", "status", "frozen", "type", "shipping_status", "pin_can_update"]);
  return (
    "id" in card ? query.where("id", "=", card.id) : query.where("issuer_ref", "=", card.issuerRef)
  ).executeTakeFirst();
}

/** The lock: until commit, no other authorisation of this person reads or writes. */
async function lockPerson(trx: DB, userId: string): Promise<void> {
  await trx
    .updateTable("users")
    .set((eb) => ({ email: eb.ref("email") }))
    .where("id", "=", userId)
    .execute();
}

/** Loads what the rules read (card, PIN counter, wallets, overflow settings) and asks them; under the lock. */
async function decide(
  trx: DB,
  card: CardRow,
  request: AuthoriseRequest,
): Promise<{ decision: AuthorisationDecision; creditCardId: string | null }> {
  const [user, pinRow, creditCard, { wallets, mealSpentToday }] = await Promise.all([
    trx
      .selectFrom("users")
      .select("balance_overflow_authorized")
      .where("id", "=", card.user_id)
      .executeTakeFirstOrThrow(),
    trx.selectFrom("card_pin_attempts").selectAll().where("card_id", "=", card.id).executeTakeFirst(),
    trx
      .selectFrom("credit_cards")
      .select("id")
      .where("user_id", "=", card.user_id)
      .where("is_default", "=", 1)
      .orderBy("created_at", "desc")
      .executeTakeFirst(),
    loadWalletStates(trx, card.id, card.user_id, request.at),
  ]);
  const decision = decideByRules({
    amount: request.amount,
    currency: request.currency,
    merchant: request.merchant,
    at: request.at,
    entryMode: request.entryMode,
    pinCheck: request.pinCheck ?? "not_checked",
    card: {
      status: card.status,
      frozen: card.frozen === 1,
      // A physical card is activated once delivered (decision 0035); a virtual one at once.
      activated: card.type !== "physical" || card.shipping_status === null || card.shipping_status === "delivered",
      pinLocked: pinRow?.locked === 1,
      wrongPinCount: pinRow?.wrong_count ?? 0,
    },
    wallets,
    mealSpentToday,
    overflow: {
      creditCardId: creditCard?.id ?? null,
      // Never set: the panel's default (spec 000 §9), as `overflowAmount` reads it.
      authorizedMax: user.balance_overflow_authorized ?? OVERFLOW_DEFAULT_EUROS * 100,
    },
  });
  return { decision, creditCardId: creditCard?.id ?? null };
}

/** The PIN counter after this attempt; a PIN it locks is freed by choosing a new one (spec 000 §2, `chooseNewPin`). */
async function recordPinAttempt(trx: DB, card: CardRow, pin: PinUpdate, at: Date): Promise<void> {
  const values = {
    card_id: card.id,
    wrong_count: pin.wrongPinCount,
    locked: pin.locked ? 1 : 0,
    updated_at: at.toISOString(),
  };
  await trx
    .insertInto("card_pin_attempts")
    .values(values)
    .onConflict((oc) =>
      oc.column("card_id").doUpdateSet({
        wrong_count: values.wrong_count,
        locked: values.locked,
        updated_at: values.updated_at,
      }),
    )
    .execute();
  if (pin.locked && card.type === "physical" && card.pin_can_update !== 1) {
    await trx.updateTable("cards").set({ pin_can_update: 1 }).where("id", "=", card.id).execute();
  }
}

/** The authorisation's record, approved or declined; returns its id. */
async function recordAuthorisation(
  trx: DB,
  card: CardRow,
  request: AuthoriseRequest,
  decision: AuthorisationDecision,
): Promise<string> {
  const authorizationId = newId("auth");
  const approved = decision.kind === "approved";
  await trx
    .insertInto("card_authorizations")
    .values({
      id: authorizationId,
      card_id: card.id,
      amount: request.amount,
      merchant_name: cut(request.merchant.name),
      merchant_city: cut(request.merchant.city),
      merchant_country: cut(request.merchant.country, 3),
      // Spec 000 §4: pending and frozen while held; closed without card transactions is declined.
      status_name: approved ? "pending" : "closed",
      status_reason: approved ? null : decision.code,
      decline_detail: !approved && decision.detail ? JSON.stringify(decision.detail) : null,
      has_card_transactions: 0,
      frozen: approved ? 1 : 0,
      overflow_amount: approved ? decision.overflow : 0,
      can_switch_payment_methods: 0,
      transaction_at: request.at.toISOString(),
      scopes: null,
      currency: cut(request.currency, 8),
      merchant_category_code: request.merchant.categoryCode,
      entry_mode: cut(request.entryMode, 20),
      stripe_authorization_id: request.stripeAuthorizationId ?? null,
    })
    .execute();
  return authorizationId;
}

/** An approval's holds: what each wallet pays, frozen until the capture. */
async function holdWallets(
  trx: DB,
  authorizationId: string,
  request: AuthoriseRequest,
  split: { walletId: string; amount: number }[],
): Promise<void> {
  if (split.length === 0) return;
  await trx
    .insertInto("wallet_transactions")
    .values(
      split.map((part) => ({
        id: newId("wtx"),
        wallet_id: part.walletId,
        amount: -part.amount,
        main_comment: "withdraw",
        merchant_name: cut(request.merchant.name),
        status: "frozen",
        created_at: request.at.toISOString(),
        authorization_id: authorizationId,
      })),
    )
    .execute();
}

/** The overflow's payment intent on the default saved card, `processing` until `settleCardPayment` charges it. */
async function openOverflowPayment(
  trx: DB,
  authorizationId: string,
  creditCardId: string,
  amount: number,
  at: Date,
): Promise<OverflowPayment> {
  const paymentIntentId = newId("pi");
  await trx
    .insertInto("payment_intents")
    .values({
      id: paymentIntentId,
      authorization_id: authorizationId,
      credit_card_id: creditCardId,
      amount,
      latest_status: "processing",
      created_at: at.toISOString(),
      processor_ref: null,
    })
    .execute();
  return { creditCardId, paymentIntentId };
}

/**
 * The decision already recorded for a Stripe authorisation, as `authorise` answered it, or undefined: none.
 * A declined row keeps its code.
 */
export async function decisionOf(db: DB, stripeAuthorizationId: string): Promise<AuthoriseResult | undefined> {
  const row = await db
    .selectFrom("card_authorizations")
    .select([
      "id",
      "status_name",
      "status_reason",
      "has_card_transactions",
      "frozen",
      "overflow_amount",
      "decline_detail",
    ])
    .where("stripe_authorization_id", "=", stripeAuthorizationId)
    .executeTakeFirst();
  if (!row) return undefined;
  const declined = row.status_name === "closed" && row.has_card_transactions === 0;
  if (declined) {
    const code = (row.status_reason ?? "insufficient_funds") as DeclineCode;
    return { kind: "declined", authorizationId: row.id, code, detail: readDeclineDetail(row.decline_detail) };
  }
  const [parts, intent] = await Promise.all([
    db
      .selectFrom("wallet_transactions")
      .select(["wallet_id", "amount"])
      .where("authorization_id", "=", row.id)
      .where("main_comment", "=", "withdraw")
      .where("status", "in", ["frozen", "captured", "released"])
      .orderBy("created_at")
      .orderBy("id")
      .execute(),
    db
      .selectFrom("payment_intents")
      .select(["id", "credit_card_id"])
      .where("authorization_id", "=", row.id)
      .orderBy("created_at")
      .executeTakeFirst(),
  ]);
  return {
    kind: "approved",
    authorizationId: row.id,
    split: parts.map((p) => ({ walletId: p.wallet_id, amount: -p.amount })),
    overflow: row.overflow_amount,
    overflowPayment: intent?.credit_card_id
      ? { creditCardId: intent.credit_card_id, paymentIntentId: intent.id }
      : null,
  };
}

/**
 * The card's linked wallets as the rules read them (`WalletState`), in the card's priority order, and today's
 * titres-restaurant spending across all the person's meal wallets; inside the caller's transaction, under its lock.
 * `at` decides which balances are valid and which day's spending counts; the payments of `exceptAuthorizationId`
 * do not count in it (the payment-method switch splits that payment again, decision 0038).
 */
export async function loadWalletStates(
  trx: DB,
  cardId: string,
  userId: string,
  at: Date,
  exceptAuthorizationId?: string,
): Promise<{ wallets: WalletState[]; mealSpentToday: number }> {
  const [links, mealWallets] = await Promise.all([
    trx
      .selectFrom("card_wallets")
      .innerJoin("wallets", "wallets.id", "card_wallets.wallet_id")
      .innerJoin("groups", "groups.id", "wallets.group_id")
      .select([
        "wallets.id",
        "wallets.name as name",
        "wallets.wallet_type",
        "wallets.unlimited",
        "wallets.daily_spending_limit",
        "wallets.limit_per_transaction",
        "wallets.zero_limit_day",
        "groups.meal_sunday_workers",
      ])
      .where("card_wallets.card_id", "=", cardId)
      .where("wallets.user_id", "=", userId)
      .orderBy("card_wallets.position")
      .execute(),
    trx.selectFrom("wallets").select("id").where("user_id", "=", userId).where("wallet_type", "=", "meal").execute(),
  ]);
  const walletIds = links.map((w) => w.id);
  const mealIds = mealWallets.map((w) => w.id);
  const [funds, spent] = await Promise.all([
    loadWalletFunds(trx, walletIds),
    spentTodayByWallet(trx, [...new Set([...walletIds, ...mealIds])], at, exceptAuthorizationId),
  ]);

  const wallets: WalletState[] = links.map((w) => {
    const { balances, creditLimits, frozen, reserved } = funds(w.id);
    return {
      id: w.id,
      name: w.name,
      type: w.wallet_type,
      unlimited: w.unlimited === 1,
      balances,
      creditLimits,
      held: frozen + reserved,
      dailyLimit: w.daily_spending_limit,
      perTransactionLimit: w.limit_per_transaction,
      zeroLimitDay: w.zero_limit_day,
      spentToday: spent.get(w.id) ?? 0,
      funderAllowsSundays: w.meal_sunday_workers === 1,
    };
  });
  const mealSpentToday = mealIds.reduce((sum, id) => sum + (spent.get(id) ?? 0), 0);
  return { wallets, mealSpentToday };
}

/** What is left today of the 25 € of titres-restaurant, in cents (the wallet details show it). */
export async function mealAllowanceLeftToday(db: DB, userId: string, now = new Date()): Promise<number> {
  const meal = await db
    .selectFrom("wallets")
    .select("id")
    .where("user_id", "=", userId)
    .where("wallet_type", "=", "meal")
    .execute();
  const spent = await spentTodayByWallet(
    db,
    meal.map((w) => w.id),
    now,
  );
  const total = [...spent.values()].reduce((sum, cents) => sum + cents, 0);
  return Math.max(0, MEAL_DAILY_CAP - total);
}
