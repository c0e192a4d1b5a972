import { validateSplit, type SelectableWallet, type SplitError } from "~/domain/payment-methods";
import type { DB } from "../db";
import { newId } from "../ids";
import { linkedWalletSummaries } from "./wallets";

/**
 * Switching a transaction's payment methods (spec 000 §5 "Payment-method selection"): an approved
 * transaction that allows it is moved onto wallets of the card, in amounts the user chooses.
 */
export interface SwitchableTransaction {
  id: string;
  cardId: string;
  merchantName: string;
  transactionAt: string;
  amount: number;
  /** The card's wallets that can give something, with what they can give (wallets with nothing are left out). */
  wallets: (SelectableWallet & { name: string })[];
}

export async function getSwitchableTransaction(
  db: DB,
  userId: string,
  cardId: string,
  authorizationId: string,
): Promise<SwitchableTransaction | null> {
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
    ])
    .where("card_authorizations.id", "=", authorizationId)
    .where("cards.id", "=", cardId)
    .where("cards.user_id", "=", userId)
    .where("card_authorizations.can_switch_payment_methods", "=", 1)
    .where("card_authorizations.has_card_transactions", "=", 1)
    .executeTakeFirst();
  if (!row) return null;
  const accepted = acceptedWalletTypes(row.scopes);
  const wallets = (await linkedWalletSummaries(db, userId, cardId))
    // Spec 000 §5: wallets the supplier does not authorise are not offered.
    .filter((w) => accepted === null || accepted.includes(w.walletType))
    .map((w) => ({
      id: w.id,
      name: w.name,
      selectable: w.available === null ? row.amount : Math.max(0, Math.min(w.available, row.amount)),
    }))
    .filter((w) => w.selectable > 0);
  return {
    id: row.id,
    cardId: row.card_id,
    merchantName: row.merchant_name,
    transactionAt: row.transaction_at,
    amount: row.amount,
    wallets,
  };
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
  { kind: "ok" } | { kind: "notFound" } | { kind: "invalid"; errors: Record<string, SplitError>; total: number | null };

export async function switchPaymentMethods(
  db: DB,
  userId: string,
  cardId: string,
  authorizationId: string,
  typed: Record<string, string>,
): Promise<SwitchResult> {
  const transaction = await getSwitchableTransaction(db, userId, cardId, authorizationId);
  if (!transaction) return { kind: "notFound" };
  const split = validateSplit(transaction.amount, transaction.wallets, typed);
  if (!split.ok) return { kind: "invalid", errors: split.errors, total: split.total };
  const done = await db.transaction().execute(async (trx) => {
    // Once only: of two submits, the second finds the transaction already switched.
    const claimed = await trx
      .updateTable("card_authorizations")
      .set({ can_switch_payment_methods: 0 })
      .where("id", "=", transaction.id)
      .where("can_switch_payment_methods", "=", 1)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return false;
    const now = new Date().toISOString();
    await trx
      .insertInto("payment_method_switches")
      .values(
        split.parts.map((p) => ({
          id: newId("pms"),
          authorization_id: transaction.id,
          wallet_id: p.walletId,
          amount: p.amount,
          created_at: now,
        })),
      )
      .execute();
    return true;
  });
  return done ? { kind: "ok" } : { kind: "notFound" };
}
