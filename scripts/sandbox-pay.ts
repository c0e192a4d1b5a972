/**
 * The sandbox payment terminal from a shell (issue 17 §5, decision 0037), as /dev/terminal:
 *   npm run sandbox:pay -- pay --card 4242 --amount 12,50 [--holder marie.martin@example.com]
 *        [--merchant restaurant|bakery|supermarket|trainStation|fuelStation|bookshop|cinema|onlineShop|custom]
 *        [--code 5812] [--name "Le Bistrot"] [--city Lyon] [--date YYYY-MM-DD] [--time HH:MM] (Paris, default now)
 *        [--entry contactless|chip_and_pin|online] [--pin 1234] [--currency EUR] [--fail-next-charge]
 *   npm run sandbox:pay -- capture <authorisation id> <amount in euros>
 *   npm run sandbox:pay -- reverse <authorisation id>
 *   npm run sandbox:pay -- refund <authorisation id> <amount in euros> [merchant's reference]
 * Prints the decision (its split, the overflow's charge) or the refusal. Sandbox mode only; DATABASE_URL like the
 * server (default data/portal.sqlite); e-mails and pushes go where the server's go (the sandbox outbox).
 */
import { parseArgs } from "node:util";
import { openCommandDatabase } from "./command-database";
import { createLogger } from "../app/.server/logger";
import { newId } from "../app/.server/ids";
import { createCardIssuer } from "../app/.server/providers/issuer";
import { createMessenger } from "../app/.server/providers/messaging";
import { createPaymentProcessor } from "../app/.server/providers/payments";
import { createPushSender } from "../app/.server/providers/push";
import { captureCardPayment, refundCardPayment, reverseCardPayment } from "../app/.server/services/card-payments";
import {
  lifecycleOutcome,
  listTerminalAuthorisations,
  terminalPay,
  type TerminalAuthorisation,
} from "../app/.server/services/sandbox-terminal";
import { formatDateTime, parisNow } from "../app/domain/dates";
import { formatCents } from "../app/domain/money";
import { parseTerminalAmount } from "../app/domain/terminal";
import { terminalPaymentSchema } from "../app/domain/terminal-schemas";
import { translatorFor } from "../app/i18n";
import resources from "../app/i18n/catalogues";

const USAGE = `usage:
  npm run sandbox:pay -- pay --card 4242 --amount 12,50 [--holder e-mail] [--merchant restaurant] [--code 5812]
       [--name …] [--city …] [--date YYYY-MM-DD] [--time HH:MM] [--entry contactless|chip_and_pin|online] [--pin 1234]
       [--currency EUR] [--fail-next-charge]
  npm run sandbox:pay -- capture <authorisation id> <amount in euros>
  npm run sandbox:pay -- reverse <authorisation id>
  npm run sandbox:pay -- refund <authorisation id> <amount in euros> [reference]`;

const t = translatorFor(resources.fr.translation);

function describe(a: TerminalAuthorisation): string {
  const lines = [
    `${a.id}  ${t(`terminal.state.${a.state}`)}  ${formatCents(a.amount)}  ${a.merchantName} (${a.merchantCity})  ${formatDateTime(a.transactionAt)}  •••• ${a.lastFour} ${a.holder}`,
  ];
  if (a.reason)
    lines.push(
      `  ${t("cards.transactions.statusWithReason", {
        status: t("cards.transactions.status.declined"),
        reason: t(`cards.transactions.reasons.${a.reason}`, { defaultValue: a.reason }),
      })}`,
    );
  for (const p of a.parts) lines.push(`  ${t("terminal.part", { wallet: p.wallet, amount: formatCents(p.amount) })}`);
  if (a.overflow > 0)
    lines.push(
      `  ${t("terminal.overflow", {
        amount: formatCents(a.overflow),
        status: t(`terminal.charge.${a.overflowStatus ?? "processing"}`, { defaultValue: a.overflowStatus ?? "" }),
      })}`,
    );
  return lines.join("\n");
}

function fail(message: string, code = 1): never {
  console.error(message);
  process.exit(code);
}

function euros(text: string | undefined): number {
  const parsed = parseTerminalAmount(text ?? "");
  if ("error" in parsed) fail(t(parsed.error), 2);
  return parsed.cents;
}

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  if (!command || !["pay", "capture", "reverse", "refund"].includes(command)) fail(USAGE, 2);
  const { env, handle } = await openCommandDatabase();
  try {
    if (!env.sandbox) fail("sandbox:pay works in sandbox mode only (APP_MODE=sandbox).", 2);
    const logger = createLogger(env.LOG_LEVEL);
    const deps = {
      db: handle.db,
      payments: createPaymentProcessor(env, handle.db),
      issuer: createCardIssuer(env, handle.db),
      messenger: createMessenger(env, handle.db),
      push: createPushSender(env, handle.db),
      logger,
    };
    const show = async (id: string) => {
      const [row] = await listTerminalAuthorisations(handle.db, { id });
      if (row) console.log(describe(row));
    };

    if (command === "pay") {
      let parsedArgs;
      try {
        parsedArgs = parseArgs({
          args: rest,
          options: {
            card: { type: "string" },
            holder: { type: "string" },
            amount: { type: "string" },
            merchant: { type: "string", default: "restaurant" },
            code: { type: "string" },
            name: { type: "string" },
            city: { type: "string" },
            date: { type: "string" },
            time: { type: "string" },
            entry: { type: "string", default: "contactless" },
            pin: { type: "string" },
            currency: { type: "string", default: "EUR" },
            "fail-next-charge": { type: "boolean", default: false },
          },
        });
      } catch (err) {
        // An unknown option, or a value starting with "-" (write --amount=-1).
        fail(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`, 2);
      }
      const { values } = parsedArgs;
      const now = parisNow();
      const parsed = terminalPaymentSchema.safeParse({
        card: values.card,
        holder: values.holder,
        amount: values.amount,
        currency: values.currency,
        merchant: values.merchant,
        categoryCode: values.code,
        merchantName: values.name,
        merchantCity: values.city,
        day: values.date ?? now.day,
        time: values.time ?? now.time,
        entryMode: values.entry,
        pin: values.pin,
        failNextCharge: values["fail-next-charge"] ? "on" : undefined,
      });
      if (!parsed.success) fail(parsed.error.issues.map((i) => `${i.path.join(".")}: ${t(i.message)}`).join("\n"), 2);
      const result = await terminalPay(deps, parsed.data);
      if (result.kind === "unknownCard") fail(t("terminal.errors.cardUnknown"));
      if (result.kind === "ambiguousCard") fail(t("terminal.errors.cardAmbiguous"));
      if (result.kind === "invalid") fail(result.sentence);
      await show(result.authorizationId);
      return;
    }

    const [id, amount, reference] = rest;
    if (!id) fail(USAGE, 2);
    const step = command as "capture" | "reverse" | "refund";
    const result =
      step === "capture"
        ? await captureCardPayment(deps, id, euros(amount))
        : step === "reverse"
          ? await reverseCardPayment(deps, id)
          : await refundCardPayment(deps, id, euros(amount), reference ?? newId("mref"));
    const outcome = lifecycleOutcome(result, step);
    console.log(t(outcome.kind === "done" ? `terminal.${outcome.code}` : `terminal.errors.${outcome.code}`));
    if (outcome.kind !== "done") process.exitCode = 1;
    await show(id);
  } finally {
    await handle.close();
  }
}

void main();
