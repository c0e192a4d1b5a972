/**
 * The daily job of spec 000 §7: a notification (and, per each person's preferences, an e-mail and a push)
 * for every wallet with a balance left that ends within 30 days. Run it once a day (cron, a scheduler):
 *   npm run notifications:expiring
 * Idempotent: a wallet already told about within the last 30 days is not told again, so a second run, or a
 * run the next day, adds nothing. Uses DATABASE_URL like the server (default data/portal.sqlite).
 */
import { openCommandDatabase } from "./command-database";
import { createMessenger } from "../app/.server/providers/messaging";
import { createPushSender } from "../app/.server/providers/push";
import { notifyExpiringBalances } from "../app/.server/services/notifications";

async function main() {
  const { env, handle } = await openCommandDatabase();
  try {
    const count = await notifyExpiringBalances({
      db: handle.db,
      messenger: createMessenger(env, handle.db),
      push: createPushSender(env, handle.db),
    });
    console.log(count === 0 ? "no balance expiring without a notification" : `notified: ${count} wallet(s)`);
  } finally {
    await handle.close();
  }
}

void main();
