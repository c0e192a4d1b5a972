/**
 * The daily job of issue 17 §2: card approvals held more than 7 days without the merchant's capture are released
 * (their wallets' holds given back, "expirée" on the declined tab), and an overflow already charged for them is
 * refunded to the saved card. Run it once a day (cron, a scheduler):
 *   npm run payments:expire
 * Idempotent: a released approval is not released again. Uses DATABASE_URL like the server.
 */
import { openCommandDatabase } from "./command-database";
import { createLogger } from "../app/.server/logger";
import { createMessenger } from "../app/.server/providers/messaging";
import { createPaymentProcessor } from "../app/.server/providers/payments";
import { createPushSender } from "../app/.server/providers/push";
import { expireStaleCardPayments } from "../app/.server/services/card-payments";

async function main() {
  const { env, handle } = await openCommandDatabase();
  try {
    const count = await expireStaleCardPayments({
      db: handle.db,
      payments: createPaymentProcessor(env, handle.db),
      messenger: createMessenger(env, handle.db),
      push: createPushSender(env, handle.db),
      logger: createLogger(env.LOG_LEVEL),
    });
    console.log(count === 0 ? "no approval held more than 7 days" : `released: ${count} approval(s)`);
  } finally {
    await handle.close();
  }
}

void main();
