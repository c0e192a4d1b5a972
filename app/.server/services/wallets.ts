import type { DB } from "../db";
import { todayInParis, walletBalance } from "~/domain/wallets";

export interface WalletSummary {
  id: string;
  name: string;
  walletType: string;
  /** Cents available today (balance less frozen amounts), or null when unlimited. */
  available: number | null;
  frozen: number;
}

/** The user's wallets with today's amounts, in a stable order (creation, then name). */
export async function listWallets(db: DB, userId: string, now = new Date()): Promise<WalletSummary[]> {
  const wallets = await db
    .selectFrom("wallets")
    .select(["id", "name", "wallet_type", "unlimited"])
    .where("user_id", "=", userId)
    .orderBy("created_at")
    .orderBy("name")
    .execute();
  return summarise(db, wallets, now);
}

/** Same as listWallets, for the given wallet ids only (still scoped to the user). */
export async function walletSummaries(db: DB, userId: string, walletIds: string[], now = new Date()): Promise<WalletSummary[]> {
  if (walletIds.length === 0) return [];
  const wallets = await db
    .selectFrom("wallets")
    .select(["id", "name", "wallet_type", "unlimited"])
    .where("user_id", "=", userId)
    .where("id", "in", walletIds)
    .execute();
  return summarise(db, wallets, now);
}

async function summarise(
  db: DB,
  wallets: { id: string; name: string; wallet_type: string; unlimited: number }[],
  now: Date,
): Promise<WalletSummary[]> {
  if (wallets.length === 0) return [];
  const ids = wallets.map((w) => w.id);
  const [balances, limits, frozen] = await Promise.all([
    db.selectFrom("wallet_balances").selectAll().where("wallet_id", "in", ids).execute(),
    db.selectFrom("credit_limits").selectAll().where("wallet_id", "in", ids).execute(),
    db
      .selectFrom("wallet_transactions")
      .select(["wallet_id", "amount"])
      .where("wallet_id", "in", ids)
      .where("status", "=", "frozen")
      .execute(),
  ]);
  const today = todayInParis(now);
  return wallets.map((w) => {
    const frozenAmount = frozen.filter((f) => f.wallet_id === w.id).reduce((sum, f) => sum + Math.abs(f.amount), 0);
    const balance = walletBalance({
      unlimited: w.unlimited === 1,
      today,
      balances: balances
        .filter((b) => b.wallet_id === w.id)
        .map((b) => ({ balance: b.balance, startDate: b.start_date, endDate: b.end_date })),
      creditLimits: limits
        .filter((c) => c.wallet_id === w.id)
        .map((c) => ({ remainingAmount: c.remaining_amount, creditStartedAt: c.credit_started_at, creditEndedAt: c.credit_ended_at })),
    });
    return {
      id: w.id,
      name: w.name,
      walletType: w.wallet_type,
      available: balance === null ? null : balance - frozenAmount,
      frozen: frozenAmount,
    };
  });
}
