import type { DB } from "../db";

/**
 * Debit priority (spec 000 §2 "Wallets priority panel", §5): the order in which a card's linked
 * wallets pay. Only a reordering of exactly the card's wallets is accepted.
 */
export const MIN_WALLETS_FOR_PRIORITY = 2;

/** True when `proposed` holds each of `current` exactly once, and nothing else. */
export function isPermutation(current: readonly string[], proposed: readonly string[]): boolean {
  if (current.length !== proposed.length) return false;
  if (new Set(proposed).size !== proposed.length) return false;
  const known = new Set(current);
  return proposed.every((id) => known.has(id));
}

/** The order shown after moving one wallet up or down (the no-JS "Monter" / "Descendre" buttons). */
export function moveWallet(order: readonly string[], walletId: string, direction: "up" | "down"): string[] {
  const next = [...order];
  const index = next.indexOf(walletId);
  const target = direction === "up" ? index - 1 : index + 1;
  if (index < 0 || target < 0 || target >= next.length) return next;
  [next[index], next[target]] = [next[target]!, next[index]!];
  return next;
}

export async function linkedWalletIds(db: DB, userId: string, cardId: string): Promise<string[] | null> {
  const card = await db
    .selectFrom("cards")
    .select("id")
    .where("id", "=", cardId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!card) return null;
  const rows = await db
    .selectFrom("card_wallets")
    .select("wallet_id")
    .where("card_id", "=", card.id)
    .orderBy("position")
    .execute();
  return rows.map((r) => r.wallet_id);
}

export type PriorityResult = { kind: "ok" | "notFound" | "tooFew" | "notPermutation" };

export async function setWalletPriority(
  db: DB,
  userId: string,
  cardId: string,
  orderedWalletIds: string[],
): Promise<PriorityResult> {
  const current = await linkedWalletIds(db, userId, cardId);
  if (!current) return { kind: "notFound" };
  if (current.length < MIN_WALLETS_FOR_PRIORITY) return { kind: "tooFew" };
  if (!isPermutation(current, orderedWalletIds)) return { kind: "notPermutation" };
  await db.transaction().execute(async (trx) => {
    for (const [position, walletId] of orderedWalletIds.entries()) {
      await trx
        .updateTable("card_wallets")
        .set({ position })
        .where("card_id", "=", cardId)
        .where("wallet_id", "=", walletId)
        .execute();
    }
  });
  return { kind: "ok" };
}
