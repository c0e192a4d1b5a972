/**
 * The funder's review of refund requests in the sandbox, from a shell (the page /dev/expense-requests does
 * the same):
 *   npm run sandbox:review -- <request id> approve
 *   npm run sandbox:review -- <request id> refuse|correct <reason…>
 *   npm run sandbox:review -- pay-due [YYYY-MM-DD]     (default: today in Paris)
 * Uses DATABASE_URL like the server (default data/portal.sqlite); e-mails go through the configured messenger,
 * pushes through the push provider (the sandbox outbox).
 */
import { openCommandDatabase } from "./command-database";
import { createMessenger } from "../app/.server/providers/messaging";
import { createPushSender } from "../app/.server/providers/push";
import { payDuePayouts } from "../app/.server/services/refunds/payouts";
import { reviewRefund, type ReviewDecision } from "../app/.server/services/refunds/review";
import { todayInParis } from "../app/domain/dates";

const USAGE = "usage: npm run sandbox:review -- <request id> approve|refuse|correct [reason]  |  pay-due [YYYY-MM-DD]";

async function main() {
  const [first, second, ...rest] = process.argv.slice(2);
  if (!first) {
    console.error(USAGE);
    process.exit(2);
  }
  const { env, handle } = await openCommandDatabase();
  const messenger = createMessenger(env, handle.db);
  const push = createPushSender(env, handle.db);
  try {
    if (first === "pay-due") {
      const today = second ?? todayInParis();
      if (!/^\d{4}-\d{2}-\d{2}$/.test(today)) {
        console.error(USAGE);
        process.exitCode = 2;
        return;
      }
      const { paid } = await payDuePayouts(handle.db, messenger, today, { push });
      console.log(paid.length === 0 ? "no payout due" : `paid: ${paid.join(", ")}`);
      return;
    }
    const reason = rest.join(" ");
    const decision: ReviewDecision | null =
      second === "approve"
        ? { kind: "approve" }
        : second === "refuse"
          ? { kind: "refuse", reason }
          : second === "correct"
            ? { kind: "askCorrection", reason }
            : null;
    if (!decision) {
      console.error(USAGE);
      process.exitCode = 2;
      return;
    }
    const result = await reviewRefund(handle.db, messenger, first, decision, { push });
    console.log(result.kind === "approved" ? `approved: payout on ${result.payoutDate}` : result.kind);
    if (!["approved", "refused", "toCorrect"].includes(result.kind)) process.exitCode = 1;
  } finally {
    await handle.close();
  }
}

void main();
