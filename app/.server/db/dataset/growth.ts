import { addCalendarDays } from "../../../domain/calendar";
import { todayInParis } from "../../../domain/dates";
import { loadWalletStates } from "../../services/authorisations";
import type { DatabaseHandle, DB } from "../index";
import { type BulkWriter } from "./bulk";
import { Ledger, writeDeposit, writePayment, type LedgerWallet } from "./ledger";
import { IdMaker, Random } from "./random";
import { dayAttempts, dayFacts, HEAVY, ParisClock, type PlannedAttempt } from "./shops";
import type { GrowthOptions } from "./index";

const HOUR = 3_600_000;

/**
 * `options.payments` settled card payments on the card, on the days before its oldest payment or movement (so the
 * demo's own stay the newest), decided by the engine's rules from balances funded as a funder would have funded
 * them then: titres-restaurant reloaded each month, the mobility wallet's yearly credit, the other wallets each
 * month too. Those past deposits are written as the movements they were, not as balances: they were spent or ended
 * long ago, and what counts today (wallet_balances, credit_limits, what is held) is left as it is.
 */
export async function growCard(handle: DatabaseHandle, writer: BulkWriter, options: GrowthOptions): Promise<void> {
  const { db } = handle;
  const card = await db
    .selectFrom("cards")
    .select(["id", "user_id"])
    .where("id", "=", options.cardId)
    .where("user_id", "=", options.userId)
    .executeTakeFirst();
  if (!card) throw new Error(`growHistory: card ${options.cardId} is not ${options.userId}'s`);
  const wallets = await cardWallets(db, card.id, card.user_id, options.now);
  const oldest = await oldestOfCard(
    db,
    card.id,
    wallets.map((w) => w.id),
    options.now,
  );
  const days = planDays(new Random(options.seed), addCalendarDays(todayInParis(oldest), -1), options.payments);
  const ids = new IdMaker(`g${options.seed.toString(36)}.`);
  const ledger = new Ledger(wallets);
  const clock = new ParisClock();
  const owner = { userId: card.user_id, cardId: card.id };
  for (const { day, attempts } of days) {
    fund(writer, ids, clock, card.user_id, wallets, day);
    for (const planned of attempts) {
      const attempt = { ...planned, day, at: clock.at(day, planned.minutes) };
      writePayment(writer, ids, owner, attempt, ledger.decide(attempt), 2 * HOUR);
    }
    await writer.maybeFlush();
  }
}

/**
 * The card's wallets in its priority order, as the engine loads them (`loadWalletStates`), with no funds yet: the
 * past is replayed from empty wallets, its deposits written as it goes.
 */
async function cardWallets(db: DB, cardId: string, userId: string, now: Date): Promise<LedgerWallet[]> {
  const { wallets } = await loadWalletStates(db, cardId, userId, now);
  return wallets.map((w) => ({
    ...w,
    balances: [],
    creditLimits: [],
    held: 0,
    zeroLimitDay: null,
    spentToday: 0,
  }));
}

/** The instant before which the card's history is free: its oldest payment, or its wallets' oldest movement. */
async function oldestOfCard(db: DB, cardId: string, walletIds: string[], now: Date): Promise<Date> {
  const payment = await db
    .selectFrom("card_authorizations")
    .select((eb) => eb.fn.min("transaction_at").as("at"))
    .where("card_id", "=", cardId)
    .executeTakeFirst();
  const movement =
    walletIds.length === 0
      ? undefined
      : await db
          .selectFrom("wallet_transactions")
          .select((eb) => eb.fn.min("created_at").as("at"))
          .where("wallet_id", "in", walletIds)
          .executeTakeFirst();
  const instants = [payment?.at, movement?.at].filter((at): at is string => typeof at === "string");
  return new Date(Math.min(now.getTime(), ...instants.map((at) => Date.parse(at))));
}

/** Days going back from `lastDay` until they hold `count` attempts, oldest first; the oldest day gives up its extra. */
function planDays(random: Random, lastDay: string, count: number): { day: string; attempts: PlannedAttempt[] }[] {
  const days: { day: string; attempts: PlannedAttempt[] }[] = [];
  let total = 0;
  for (let day = lastDay; total < count; day = addCalendarDays(day, -1)) {
    const attempts = dayAttempts(random, dayFacts(day), HEAVY);
    days.push({ day, attempts });
    total += attempts.length;
  }
  days.reverse();
  if (days[0]) days[0].attempts = days[0].attempts.slice(total - count);
  return days;
}

/**
 * A funder's money arriving on `day`, before the day's payments: each month's titres-restaurant (valid until the
 * end of the next month), the mobility wallet's yearly credit on 1 January (or on the history's first day), a
 * monthly deposit on the others (valid a year).
 */
function fund(
  writer: BulkWriter,
  ids: IdMaker,
  clock: ParisClock,
  userId: string,
  wallets: LedgerWallet[],
  day: string,
): void {
  const first = day.slice(8) === "01";
  for (const wallet of wallets) {
    if (wallet.unlimited) continue;
    const fresh = wallet.balances.length === 0 && wallet.creditLimits.length === 0;
    if (wallet.type === "mobility") {
      if (fresh || day.slice(5) === "01-01") wallet.creditLimits.push(yearlyCredit(day));
      continue;
    }
    if (!fresh && !first) continue;
    const amount = wallet.type === "meal" ? 55000 : 50000;
    const endDate = wallet.type === "meal" ? endOfNextMonth(day) : addCalendarDays(day, 365);
    wallet.balances.push({ id: "", balance: amount, deposit: amount, startDate: day, endDate });
    const balanceAfter = wallet.balances
      .filter((b) => b.startDate <= day && day <= b.endDate)
      .reduce((sum, b) => sum + b.balance, 0);
    const owner = { userId, walletId: wallet.id, walletName: wallet.name };
    writeDeposit(writer, ids, owner, { amount, at: clock.at(day, 7 * 60), endDate, balanceAfter }, 5 * HOUR);
  }
}

/** A calendar year's mobility credit (600 €), opening as the demo's do: Paris midnight, 1 January, in UTC. */
function yearlyCredit(day: string) {
  const year = Number(day.slice(0, 4));
  return {
    id: "",
    initial: 60000,
    remainingAmount: 60000,
    creditStartedAt: `${year - 1}-12-31T23:00:00.000Z`,
    creditEndedAt: `${year}-12-31T22:59:59.999Z`,
  };
}

function endOfNextMonth(day: string): string {
  const [year, month] = day.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(year, month + 1, 0)).toISOString().slice(0, 10);
}
