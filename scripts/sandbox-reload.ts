/**
 * The funder's deposit on a wallet in the sandbox, from a shell (a "reload": a new balance, its line in the
 * wallet's history, and the wallet_reload_notification with its e-mail and push per the person's preferences):
 *   npm run sandbox:reload -- <wallet id> <amount in cents> [end YYYY-MM-DD]   (default: 31 December next year)
 * The balance is valid from today (Paris). Uses DATABASE_URL like the server (default data/portal.sqlite);
 * e-mails go through the configured messenger, pushes through the push provider (the sandbox outbox).
 */
import { openCommandDatabase } from "./command-database";
import { createMessenger } from "../app/.server/providers/messaging";
import { createPushSender } from "../app/.server/providers/push";
import { reloadWallet } from "../app/.server/services/wallets";
import { todayInParis } from "../app/domain/dates";

const USAGE = "usage: npm run sandbox:reload -- <wallet id> <amount in cents> [end YYYY-MM-DD]";

async function main() {
  const [walletId, amountText, end] = process.argv.slice(2);
  if (!walletId || !amountText || !/^\d+$/.test(amountText)) {
    console.error(USAGE);
    process.exit(2);
  }
  const today = todayInParis();
  const endDate = end ?? `${Number(today.slice(0, 4)) + 1}-12-31`;
  const { env, handle } = await openCommandDatabase();
  try {
    const result = await reloadWallet(
      { db: handle.db, messenger: createMessenger(env, handle.db), push: createPushSender(env, handle.db) },
      walletId,
      { amount: Number(amountText), startDate: today, endDate },
    );
    console.log(result.kind === "reloaded" ? `reloaded: balance ${result.balanceId} until ${endDate}` : result.kind);
    if (result.kind !== "reloaded") process.exitCode = 1;
  } finally {
    await handle.close();
  }
}

void main();
