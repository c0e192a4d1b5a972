/**
 * The funder's review of mobility allowances in the sandbox, from a shell (the page /dev/allowances does
 * the same):
 *   npm run sandbox:allowances -- list
 *   npm run sandbox:allowances -- <allowance id> approve
 *   npm run sandbox:allowances -- <allowance id> refuse <reason…>
 *   npm run sandbox:allowances -- pay-due [YYYY-MM-DD]     (default: today in Paris)
 * Uses DATABASE_URL like the server (default data/portal.sqlite); e-mails go through the configured messenger,
 * pushes through the push provider (the sandbox outbox).
 */
import { openCommandDatabase } from "./command-database";
import { createMessenger } from "../app/.server/providers/messaging";
import { createPushSender } from "../app/.server/providers/push";
import { payDueAllowancePayouts } from "../app/.server/services/allowances/payouts";
import {
  listAllowancesAwaitingReview,
  reviewAllowance,
  type AllowanceDecision,
} from "../app/.server/services/allowances/review";
import { todayInParis } from "../app/domain/dates";

const USAGE =
  "usage: npm run sandbox:allowances -- list  |  <allowance id> approve|refuse [reason]  |  pay-due [YYYY-MM-DD]";

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
    if (first === "list") {
      const awaiting = await listAllowancesAwaitingReview(handle.db);
      if (awaiting.length === 0) console.log("no allowance waiting");
      for (const a of awaiting)
        console.log(`${a.id}  ${a.type}  ${a.userEmail}  ${a.groupName}  ${a.startAt}…${a.endsAt}  ${a.amount} cents`);
      return;
    }
    if (first === "pay-due") {
      const today = second ?? todayInParis();
      if (!/^\d{4}-\d{2}-\d{2}$/.test(today)) {
        console.error(USAGE);
        process.exitCode = 2;
        return;
      }
      const { paid, finished } = await payDueAllowancePayouts(handle.db, today, { messenger, push });
      console.log(
        paid.length === 0
          ? "no payout due"
          : `paid ${paid.length} payout(s)${finished.length ? `; fully paid: ${finished.join(", ")}` : ""}`,
      );
      return;
    }
    const decision: AllowanceDecision | null =
      second === "approve"
        ? { kind: "approve" }
        : second === "refuse"
          ? { kind: "refuse", reason: rest.join(" ") }
          : null;
    if (!decision) {
      console.error(USAGE);
      process.exitCode = 2;
      return;
    }
    const result = await reviewAllowance(handle.db, first, decision, { messenger, push });
    if (result.kind === "approved") {
      console.log("approved; monthly payouts:");
      for (const p of result.payouts) console.log(`  ${p.month}: ${p.amount} cents on ${p.scheduledFor}`);
    } else console.log(result.kind);
    if (result.kind !== "approved" && result.kind !== "refused") process.exitCode = 1;
  } finally {
    await handle.close();
  }
}

void main();
