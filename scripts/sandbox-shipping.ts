/**
 * Moves a physical card's delivery forward in the sandbox issuer, as its carrier would:
 *   npm run sandbox:ship -- <card id or last four digits> <submit|ship|deliver|return|fail>
 * Uses DATABASE_URL like the server (default data/portal.sqlite).
 */
import { openCommandDatabase } from "./command-database";
import { SandboxIssuer } from "../app/.server/providers/issuer/sandbox";

const STEPS = ["submit", "ship", "deliver", "return", "fail"] as const;
type Step = (typeof STEPS)[number];

async function main() {
  const [cardArg, stepArg] = process.argv.slice(2);
  if (!cardArg || !STEPS.includes(stepArg as Step)) {
    console.error(`usage: npm run sandbox:ship -- <card id or last four> <${STEPS.join("|")}>`);
    process.exit(2);
  }
  const { env, handle } = await openCommandDatabase();
  try {
    const cards = await handle.db
      .selectFrom("cards")
      .select(["id", "issuer_ref", "last_four", "type"])
      .where((eb) => eb.or([eb("id", "=", cardArg), eb("last_four", "=", cardArg)]))
      .execute();
    const physical = cards.filter((c) => c.type === "physical");
    if (physical.length !== 1) {
      console.error(physical.length === 0 ? "no physical card matches" : "several cards match: give the card id");
      process.exit(1);
    }
    const card = physical[0]!;
    await new SandboxIssuer(handle.db, env.SANDBOX_ISSUER_KEY_FILE).advanceShipping(card.issuer_ref, stepArg as Step);
    console.log(`card •••• ${card.last_four} (${card.id}): ${stepArg} done`);
  } finally {
    await handle.close();
  }
}

void main();
