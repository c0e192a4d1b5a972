import { ruleAllowance, type WalletState } from "~/domain/authorisation";
import { validateSplit, type SelectableWallet, type SplitError, type SplitResult } from "~/domain/payment-methods";
import { todayInParis } from "~/domain/dates";
import type { DB } from "../db";
import { newId } from "../ids";
import { lockAuthorisation, settleOverflow } from "./authorisation-lifecycle";
import { loadWalletStates } from "./authorisations";
import { creditWallet, debitWallet, linkedWalletSummaries, walletPartsOf, type WalletPart } from "./wallets";

/**
 * Switching a transaction's payment methods (spec 000 §5 "Payment-method selection", decision 0038): a captured
 * payment that allows it is moved onto wallets of the card, in amounts the user chooses. The money really moves:
 * each wallet that paid is credited back its part, the chosen wallets are debited the chosen amounts, and an
 * overflow already charged to the saved card is given back — once, under the person's lock, never below zero.
 */
export interface SwitchableTransaction {
  id: string;
  cardId: string;
  merchantName: string;
  transactionAt: string;
  amount: number;
  /**
   * The card's wallets that can give something, with what they can give: the least of what they hold (with what
   * they paid of it) and what the engine's rules let them pay of it on its day (wallets with nothing are left out).
   */
  wallets: (SelectableWallet & { name: string })[];
}

/** What the engine's rules read of the payment's day (decision 0035): the wallets' states, without its own parts. */
interface PaymentDay {
  day: string;
  categoryCode: string | null;
  states: Map<string, WalletState>;
  /** Titres-restaurant paid that day across the person's meal wallets, this payment apart. */
  mealSpentToday: number;
}

interface Switchable {
  transaction: SwitchableTransaction;
  paid: WalletPart[];
  rules: PaymentDay;
}

/** The switchable transaction and what each wallet paid of it; read inside the switch's transaction too. */
async function readSwitchable(
  db: DB,
  userId: string,
  cardId: string,
  authorizationId: string,
): Promise<Switchable | null> {
  const row = await db
    .selectFrom("card_authorizations")
    .innerJoin("cards", "cards.id", "card_authorizations.card_id")
    .select([
      "card_authorizations.id",
      "card_authorizations.card_id",
      "card_authorizations.merchant_name",
      "card_authorizations.transaction_at",
      "card_authorizations.amount",
      "card_authorizations.scopes",
      "card_authorizations.merchant_category_code",
    ])
    .where("card_authorizations.id", "=", authorizationId)
    .where("cards.id", "=", cardId)
    .where("cards.user_id", "=", userId)
    .where("card_authorizations.can_switch_payment_methods", "=", 1)
    // Captured payments only: a held amount may still change at the capture (decision 0038).
    .where("card_authorizations.has_card_transactions", "=", 1)
    .executeTakeFirst();
  if (!row) return null;
  // A payment the merchant refunded in part is no longer the amount to split: not switchable.
  const refunded = await db
    .selectFrom("card_authorization_refunds")
    .select("id")
    .where("authorization_id", "=", row.id)
    .executeTakeFirst();
  if (refunded) return null;
  const paid = (await walletPartsOf(db, [row.id])).get(row.id) ?? [];
  const accepted = acceptedWalletTypes(row.scopes);
  // The engine's rules on the payment's own Paris day, as if it were paid again: its own parts do not count.
  const at = new Date(row.transaction_at);
  const { wallets: states, mealSpentToday } = await loadWalletStates(db, cardId, userId, at, row.id);
  const rules: PaymentDay = {
    day: todayInParis(at),
    categoryCode: row.merchant_category_code,
    states: new Map(states.map((w) => [w.id, w])),
    mealSpentToday,
  };
  const wallets = (await linkedWalletSummaries(db, userId, cardId))
    // Spec 000 §5: wallets the supplier does not authorise are not offered.
    .filter((w) => accepted === null || accepted.includes(w.walletType))
    .map((w) => {
      // What it paid of this transaction comes back to it first.
      const back = paid.find((p) => p.walletId === w.id)?.amount ?? 0;
      const holds = w.available === null ? row.amount : Math.max(0, Math.min(w.available + back, row.amount));
      return { id: w.id, name: w.name, selectable: Math.min(holds, allowance(rules, w.id, row.amount, 0)) };
    })
    // Nothing to give, or the rules exclude it that day (category, Sunday, holiday, "today zero", limits used up).
    .filter((w) => w.selectable > 0);
  return {
    transaction: {
      id: row.id,
      cardId: row.card_id,
      merchantName: row.merchant_name,
      transactionAt: row.transaction_at,
      amount: row.amount,
      wallets,
    },
    paid,
    rules,
  };
}

/**
 * What the engine's rules (`ruleAllowance`, decision 0035) let this wallet pay of the payment on its day, when the
 * other chosen wallets already take `mealTaken` of the day's titres-restaurant; 0 for a wallet the rules do not know.
 */
function allowance(rules: PaymentDay, walletId: string, amount: number, mealTaken: number): number {
  const wallet = rules.states.get(walletId);
  if (!wallet) return 0;
  return ruleAllowance({
    amount,
    wallet,
    day: rules.day,
    categoryCode: rules.categoryCode,
    mealSpentToday: rules.mealSpentToday + mealTaken,
  });
}

/**
 * The typed split checked against what each wallet can give (`validateSplit`), then together against the day's 25 €
 * of titres-restaurant, which all the meal wallets share: in the card's order, a meal wallet's amount beyond what the
 * earlier ones leave is "too much".
 */
function checkSplit(switchable: Switchable, typed: Record<string, string>): SplitResult {
  const { transaction, rules } = switchable;
  const split = validateSplit(transaction.amount, transaction.wallets, typed);
  if (split.kind === "invalid") return split;
  const errors: Record<string, SplitError> = {};
  let mealTaken = 0;
  for (const part of split.parts) {
    if (part.amount > allowance(rules, part.walletId, transaction.amount, mealTaken)) errors[part.walletId] = "tooMuch";
    if (rules.states.get(part.walletId)?.type === "meal") mealTaken += part.amount;
  }
  return Object.keys(errors).length > 0 ? { kind: "invalid", errors, total: null } : split;
}

export async function getSwitchableTransaction(
  db: DB,
  userId: string,
  cardId: string,
  authorizationId: string,
): Promise<SwitchableTransaction | null> {
  return (await readSwitchable(db, userId, cardId, authorizationId))?.transaction ?? null;
}

/** The supplier's accepted wallet types; null when it accepts every wallet. An unreadable list accepts none. */
function acceptedWalletTypes(scopes: string | null): string[] | null {
  if (scopes === null) return null;
  try {
    const parsed: unknown = JSON.parse(scopes);
    return Array.isArray(parsed) ? parsed.filter((s): s is string => typeof s === "string") : [];
  } catch {
    return [];
  }
}

export type SwitchResult =
  | {
      kind: "ok";
      /** Of an overflow already charged to the saved card, what the processor must give back (cents; 0: none). */
      overflowToRefund: number;
    }
  | { kind: "notFound" }
  | { kind: "invalid"; errors: Record<string, SplitError>; total: number | null };

/** The wallet movement of a credit given back by a switch (listed as "Changement de moyens de paiement"). */
export const SWITCH_CREDIT = "payment_method_switch";

/**
 * Moves a captured payment onto the amounts typed per wallet (decision 0038), in one transaction under the
 * person's lock (as the engine, decision 0035): the split is checked again under the lock against what each wallet
 * holds now (a payment made meanwhile makes it a form error, never a negative balance), the transaction is marked
 * switched (once only: a second submit answers notFound), each wallet that paid is credited back its part
 * (`creditWallet`), the chosen wallets are debited (`debitWallet`), both naming the authorisation, and the overflow
 * is settled: a card payment not charged yet or failed is cancelled, one charged is returned as `overflowToRefund`.
 * On any refusal nothing is written.
 */
export async function switchPaymentMethods(
  db: DB,
  userId: string,
  cardId: string,
  authorizationId: string,
  typed: Record<string, string>,
  now = new Date(),
): Promise<SwitchResult> {
  // A quick answer outside the lock for what the person typed wrong; the lock checks again.
  const before = await readSwitchable(db, userId, cardId, authorizationId);
  if (!before) return { kind: "notFound" };
  const first = checkSplit(before, typed);
  if (first.kind === "invalid") return first;

  return db.transaction().execute(async (trx): Promise<SwitchResult> => {
    const auth = await lockAuthorisation(trx, authorizationId);
    if (!auth || auth.userId !== userId || auth.card_id !== cardId) return { kind: "notFound" };
    const current = await readSwitchable(trx, userId, cardId, authorizationId);
    // Once only: of two submits, the second finds the transaction already switched.
    if (!current) return { kind: "notFound" };
    const split = checkSplit(current, typed);
    if (split.kind === "invalid") return split;

    await trx
      .updateTable("card_authorizations")
      .set({ can_switch_payment_methods: 0, overflow_amount: 0 })
      .where("id", "=", authorizationId)
      .execute();
    const merchant = auth.merchant_name;
    for (const part of current.paid) {
      await creditWallet(trx, part.walletId, part.amount, SWITCH_CREDIT, merchant, now, authorizationId);
    }
    for (const part of split.parts) {
      await debitWallet(trx, part.walletId, part.amount, "withdraw", merchant, now, authorizationId);
    }
    // The wallets now pay it all: the saved card pays nothing.
    const overflowToRefund = await settleOverflow(trx, authorizationId, 0);
    await trx
      .updateTable("payment_intents")
      .set({ latest_status: "canceled" })
      .where("authorization_id", "=", authorizationId)
      .where("latest_status", "=", "payment_failed")
      .execute();
    await trx
      .insertInto("payment_method_switches")
      .values(
        split.parts.map((p) => ({
          id: newId("pms"),
          authorization_id: authorizationId,
          wallet_id: p.walletId,
          amount: p.amount,
          created_at: now.toISOString(),
        })),
      )
      .execute();
    return { kind: "ok", overflowToRefund };
  });
}
