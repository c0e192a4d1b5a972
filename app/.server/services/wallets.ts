import { sql, type ExpressionBuilder, type Selectable } from "kysely";
import type { CreditLimitTable, Database, WalletBalanceTable, WalletTable } from "../db/schema";
import { prepared, preparedList, type Argument } from "../db/prepared";
import type { DB } from "../db";
import { newId } from "../ids";
import { deliverNotification, recordNotification, type NotificationFacts, type NotifyDeps } from "./notifications";
import {
  currentBalances,
  daysBetween,
  reservedAmounts,
  spendingGuide,
  validityElapsedPercent,
  walletBalance,
  walletTransactionLabel,
} from "~/domain/wallets";
import { todayInParis, parisDayOf } from "~/domain/dates";
import type { WalletSummary, WalletDetail, WalletTransactionView, WalletLicence } from "~/domain/wallets";
import { isCalendarDay } from "~/domain/calendar";
import { MEAL_DAILY_CAP, mealDayRestriction, type MealDay } from "~/domain/authorisation";

/** What stands behind one wallet: its dated balances and credit limits, and what payments and refunds hold. */
export interface WalletFunds {
  balances: { balance: number; startDate: string; endDate: string }[];
  creditLimits: { remainingAmount: number; creditStartedAt: string; creditEndedAt: string }[];
  /** Card payments approved and not yet captured (frozen withdrawals), in cents. */
  frozen: number;
  /** Refund payouts held on the wallet, in cents. */
  reserved: number;
}

/** The rows behind wallets' funds: their balances and credit limits as stored, what payments and refunds hold. */
interface FundRows {
  balances: Selectable<WalletBalanceTable>[];
  creditLimits: Selectable<CreditLimitTable>[];
  /** Cents held by frozen card payments, by wallet (positive). */
  frozen: Map<string, number>;
  /** Cents held by refund payouts, by wallet. */
  reserved: Map<string, number>;
}

/**
 * The funds of these wallets in four queries (none without a wallet): their balances and credit limits through
 * their wallet_id indexes, and what payments and refunds hold as sums the database makes through the
 * (wallet_id, status…) indexes (migrations 010, 024): never a wallet's whole history. The card and wallet pages read
 * the same by card or by user, each query compiled once (linkedWalletSummaries, walletPage).
 */
async function loadFundRows(db: DB, ids: string[]): Promise<FundRows> {
  if (ids.length === 0) return { balances: [], creditLimits: [], frozen: new Map(), reserved: new Map() };
  const [balances, creditLimits, frozen, reservations] = await Promise.all([
    db.selectFrom("wallet_balances").selectAll().where("wallet_id", "in", ids).execute(),
    db.selectFrom("credit_limits").selectAll().where("wallet_id", "in", ids).orderBy("credit_started_at").execute(),
    db
      .selectFrom("wallet_transactions")
      .select((eb) => ["wallet_id", eb.fn.sum<number | string>("amount").as("frozen_sum")])
      .where("wallet_id", "in", ids)
      .where("status", "=", "frozen")
      .groupBy("wallet_id")
      .execute(),
    db
      .selectFrom("wallet_reservations")
      .select((eb) => ["wallet_id", eb.fn.sum<number | string>("amount").as("held_sum")])
      .where("wallet_id", "in", ids)
      .where("status", "=", "held")
      .groupBy("wallet_id")
      .execute(),
  ]);
  return heldRows(balances, creditLimits, frozen, reservations);
}

/**
 * What payments and refunds hold on a wallet `w`, summed through the (wallet_id, status…) indexes (migrations 010,
 * 024): never a wallet's whole history.
 */
function heldSums(eb: ExpressionBuilder<Database & { w: WalletTable }, "w">) {
  return [
    eb
      .selectFrom("wallet_transactions as wt")
      .select((sub) => sub.fn.sum<number | string>("wt.amount").as("s"))
      .whereRef("wt.wallet_id", "=", "w.id")
      .where("wt.status", "=", "frozen")
      .as("frozen_sum"),
    eb
      .selectFrom("wallet_reservations as wr")
      .select((sub) => sub.fn.sum<number | string>("wr.amount").as("s"))
      .whereRef("wr.wallet_id", "=", "w.id")
      .where("wr.status", "=", "held")
      .as("held_sum"),
  ] as const;
}

/** The fund rows from what was read: the sums of frozen payments and of refund holds, by wallet. */
function heldRows(
  balances: FundRows["balances"],
  creditLimits: FundRows["creditLimits"],
  frozen: Omit<HeldSums, "held_sum">[],
  reservations: Omit<HeldSums, "frozen_sum">[] = frozen as HeldSums[],
): FundRows {
  // PostgreSQL's sum of integers is a bigint, which its driver reads as a string. A frozen withdrawal is negative
  // on the wallet: what it holds is its opposite (0 rather than -0).
  return {
    balances,
    creditLimits,
    frozen: new Map(frozen.map((r) => [r.wallet_id, 0 - Number(r.frozen_sum) || 0])),
    reserved: new Map(reservations.map((r) => [r.wallet_id, Number(r.held_sum) || 0])),
  };
}

/** What frozen payments and refund holds take from a wallet, as sums read with the wallet (heldSums). */
interface HeldSums {
  wallet_id: string;
  frozen_sum: number | string | null;
  held_sum: number | string | null;
}

/** One wallet's funds from the rows read for several. */
function fundsOf(rows: FundRows, walletId: string): WalletFunds {
  return {
    balances: rows.balances
      .filter((b) => b.wallet_id === walletId)
      .map((b) => ({ balance: b.balance, startDate: b.start_date, endDate: b.end_date })),
    creditLimits: rows.creditLimits
      .filter((c) => c.wallet_id === walletId)
      .map((c) => ({
        remainingAmount: c.remaining_amount,
        creditStartedAt: c.credit_started_at,
        creditEndedAt: c.credit_ended_at,
      })),
    frozen: rows.frozen.get(walletId) ?? 0,
    reserved: rows.reserved.get(walletId) ?? 0,
  };
}

/**
 * The funds of these wallets in four queries (loadFundRows), for the wallet pages and the authorisation engine
 * alike; answers a look-up by wallet id. Pass a transaction to read them under its lock.
 */
export async function loadWalletFunds(db: DB, ids: string[]): Promise<(walletId: string) => WalletFunds> {
  const rows = await loadFundRows(db, ids);
  return (walletId) => fundsOf(rows, walletId);
}

/** A wallet's part of a card payment: what it holds (approved, not captured) or paid (captured), in cents. */
export interface WalletPart {
  walletId: string;
  walletName: string;
  amount: number;
}

// Driven by the movements naming these authorisations (their index); the card of each, for its priority, is a
// look-up by primary key — a join on card_authorizations let PostgreSQL hash the card's whole history (issue 35).
// Prepared by length of the list (db/prepared.ts): the card page asks for it on every request.
const walletPartRows = preparedList((db: DB, _arg: Argument<Record<string, never>>, authorizationIds) =>
  db
    .selectFrom("wallet_transactions")
    .innerJoin("wallets", "wallets.id", "wallet_transactions.wallet_id")
    .leftJoin("card_wallets", (join) =>
      join
        .onRef("card_wallets.wallet_id", "=", "wallet_transactions.wallet_id")
        .on((eb) =>
          eb(
            "card_wallets.card_id",
            "=",
            eb
              .selectFrom("card_authorizations")
              .select("card_authorizations.card_id")
              .whereRef("card_authorizations.id", "=", "wallet_transactions.authorization_id"),
          ),
        ),
    )
    .select([
      "wallet_transactions.authorization_id as authorizationId",
      "wallet_transactions.wallet_id as walletId",
      "wallets.name as walletName",
      "wallet_transactions.amount",
      "card_wallets.position",
    ])
    .where("wallet_transactions.authorization_id", "in", authorizationIds)
    .where("wallet_transactions.status", "in", ["frozen", "processed"])
    .where("wallet_transactions.main_comment", "!=", "refund")
    // Named in the `in` list: never null.
    .$narrowType<{ authorizationId: string }>(),
);

/**
 * What each wallet holds or paid of these card authorisations, in one query, by authorisation, in the card's
 * priority order (a wallet no longer linked last): the engine's frozen holds and the processed payments naming the
 * authorisation, net of a payment-method switch's credits (decision 0038); merchant refunds are apart. Captured and
 * released holds are neither (the processed payment replaces a captured hold). The caller scopes the ids.
 */
export async function walletPartsOf(db: DB, authorizationIds: string[]): Promise<Map<string, WalletPart[]>> {
  const parts = new Map<string, WalletPart[]>();
  if (authorizationIds.length === 0) return parts;
  const rows = await walletPartRows.all(db, {}, authorizationIds);
  const net = new Map<string, WalletPart & { authorizationId: string; position: number }>();
  for (const r of rows) {
    const key = `${r.authorizationId} ${r.walletId}`;
    const part = net.get(key) ?? {
      authorizationId: r.authorizationId,
      walletId: r.walletId,
      walletName: r.walletName,
      amount: 0,
      position: r.position ?? Number.MAX_SAFE_INTEGER,
    };
    // A payment or a hold is negative on the wallet; a switch's credit back positive.
    part.amount -= r.amount;
    net.set(key, part);
  }
  for (const { authorizationId, position: _, ...part } of [...net.values()]
    .filter((p) => p.amount > 0)
    .sort((a, b) => a.position - b.position || a.walletName.localeCompare(b.walletName))) {
    parts.set(authorizationId, [...(parts.get(authorizationId) ?? []), part]);
  }
  return parts;
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

/** The user's wallets by name only, in the same order: what the navigation of every page needs. */
const walletNames = prepared((db, arg: Argument<{ userId: string }>) =>
  db
    .selectFrom("wallets")
    .select(["id", "name"])
    .where("user_id", "=", arg("userId"))
    .orderBy("created_at")
    .orderBy("name"),
);

export async function listWalletNames(db: DB, userId: string): Promise<{ id: string; name: string }[]> {
  return walletNames.all(db, { userId });
}

/** Same as listWallets, for the given wallet ids only (still scoped to the user). */
export async function walletSummaries(
  db: DB,
  userId: string,
  walletIds: string[],
  now = new Date(),
): Promise<WalletSummary[]> {
  if (walletIds.length === 0) return [];
  const wallets = await db
    .selectFrom("wallets")
    .select(["id", "name", "wallet_type", "unlimited"])
    .where("user_id", "=", userId)
    .where("id", "in", walletIds)
    .execute();
  return summarise(db, wallets, now);
}

async function summarise(db: DB, wallets: SummaryRow[], now: Date): Promise<WalletSummary[]> {
  if (wallets.length === 0) return [];
  const rows = await loadFundRows(
    db,
    wallets.map((w) => w.id),
  );
  const today = todayInParis(now);
  return wallets.map((w) => summaryOf(w, rows, today));
}

type SummaryRow = { id: string; name: string; wallet_type: string; unlimited: number };

/** A wallet's amounts today from its fund rows: what it holds less everything reserved (null: unlimited). */
function summaryOf(w: SummaryRow, rows: FundRows, today: string): WalletSummary {
  const { balances, creditLimits, frozen, reserved } = fundsOf(rows, w.id);
  const balance = walletBalance({ unlimited: w.unlimited === 1, today, balances, creditLimits });
  const held = reservedAmounts({ frozen, refundHolds: reserved });
  return {
    id: w.id,
    name: w.name,
    walletType: w.wallet_type,
    available: balance === null ? null : balance - held.reserved,
    ...held,
  };
}

/**
 * The wallets linked to this card of this user, in the card's debit order, with what they hold: the links and the
 * wallets in one query (someone else's card links none of this user's wallets), then their funds.
 */
export async function linkedWalletSummaries(
  db: DB,
  userId: string,
  cardId: string,
  now = new Date(),
): Promise<WalletSummary[]> {
  const args = { userId, cardId };
  const [wallets, parts] = await Promise.all([linkedWallets.all(db, args), linkedFundParts.all(db, args)]);
  const { balances, creditLimits } = splitFundParts(parts);
  const rows = heldRows(balances, creditLimits, wallets);
  const today = todayInParis(now);
  // The card's debit order, made here: a sort in a query reading movements would read as a history's.
  return wallets.sort((a, b) => a.position - b.position).map((w) => summaryOf(w, rows, today));
}

/** The links of this card to this user's wallets `w` (someone else's card links none of them). */
function cardWalletsOf(db: DB, arg: Argument<{ userId: string; cardId: string }>) {
  return db
    .selectFrom("card_wallets")
    .innerJoin("wallets as w", "w.id", "card_wallets.wallet_id")
    .where("card_wallets.card_id", "=", arg("cardId"))
    .where("w.user_id", "=", arg("userId"));
}

/** The card's wallets, with their place in its debit order and what payments and refunds hold on each. */
const linkedWallets = prepared((db, arg: Argument<{ userId: string; cardId: string }>) =>
  cardWalletsOf(db, arg).select((eb) => [
    "w.id",
    "w.name",
    "w.wallet_type",
    "w.unlimited",
    "w.id as wallet_id",
    "card_wallets.position",
    ...heldSums(eb),
  ]),
);

/** The dated balances and credit limits of the card's wallets, in one statement (fundParts). */
const linkedFundParts = prepared((db, arg: Argument<{ userId: string; cardId: string }>) => fundParts(db, arg, "card"));

/**
 * The dated balances and the credit limits of the wallets of a card (`cardId`, as cardWalletsOf) or of a user, in
 * one statement: each row says which it is, its columns under common names, read through wallet_balances' and
 * credit_limits' wallet indexes for the wallets' ids. splitFundParts makes them FundRows' again.
 */
function fundParts(db: DB, arg: Argument<{ userId: string; cardId: string }>, of: "card" | "user") {
  const walletIds = () =>
    of === "card"
      ? cardWalletsOf(db, arg).select("w.id")
      : db.selectFrom("wallets as w").where("w.user_id", "=", arg("userId")).select("w.id");
  const none = sql<string | null>`null`;
  return db
    .selectFrom("wallet_balances as b")
    .select([
      sql<FundPart["kind"]>`'balance'`.as("kind"),
      "b.id",
      "b.wallet_id",
      "b.balance as amount",
      "b.deposit_amount as initial",
      "b.start_date as starts",
      "b.end_date as ends",
      none.as("eligible_from"),
      none.as("eligible_until"),
    ])
    .where("b.wallet_id", "in", walletIds())
    .unionAll(
      db
        .selectFrom("credit_limits as l")
        .select([
          sql<FundPart["kind"]>`'credit'`.as("kind"),
          "l.id",
          "l.wallet_id",
          "l.remaining_amount as amount",
          "l.initial_amount as initial",
          "l.credit_started_at as starts",
          "l.credit_ended_at as ends",
          "l.eligibility_started_at as eligible_from",
          "l.eligibility_ended_at as eligible_until",
        ])
        .where("l.wallet_id", "in", walletIds()),
    );
}

interface FundPart {
  kind: "balance" | "credit";
  id: string;
  wallet_id: string;
  amount: number;
  initial: number;
  starts: string;
  ends: string;
  eligible_from: string | null;
  eligible_until: string | null;
}

/** fundParts' rows as FundRows' balances and credit limits (these in loadFundRows' order: by their start). */
function splitFundParts(parts: FundPart[]): Pick<FundRows, "balances" | "creditLimits"> {
  const balances: FundRows["balances"] = [];
  const creditLimits: FundRows["creditLimits"] = [];
  for (const p of parts)
    if (p.kind === "balance")
      balances.push({
        id: p.id,
        wallet_id: p.wallet_id,
        balance: p.amount,
        deposit_amount: p.initial,
        start_date: p.starts,
        end_date: p.ends,
      });
    else
      creditLimits.push({
        id: p.id,
        wallet_id: p.wallet_id,
        initial_amount: p.initial,
        remaining_amount: p.amount,
        eligibility_started_at: p.eligible_from!,
        eligibility_ended_at: p.eligible_until!,
        credit_started_at: p.starts,
        credit_ended_at: p.ends,
      });
  creditLimits.sort((a, b) =>
    a.credit_started_at < b.credit_started_at ? -1 : a.credit_started_at > b.credit_started_at ? 1 : 0,
  );
  return { balances, creditLimits };
}

/** One wallet of this user, or null for an unknown id or someone else's wallet. */
export async function getWalletDetail(
  db: DB,
  userId: string,
  walletId: string,
  now = new Date(),
): Promise<WalletDetail | null> {
  const wallet = await db
    .selectFrom("wallets")
    .selectAll()
    .where("id", "=", walletId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!wallet) return null;
  const [rows, spent] = await Promise.all([
    loadFundRows(db, [wallet.id]),
    spentTodayByWallet(db, wallet.daily_spending_limit === null ? [] : [wallet.id], now),
  ]);
  return detailOf(wallet, rows, spent.get(wallet.id) ?? 0, todayInParis(now));
}

/** A wallet's page figures from its row, its fund rows and what it paid today (for its daily limit). */
function detailOf(wallet: Selectable<WalletTable>, rows: FundRows, spentToday: number, today: string): WalletDetail {
  const summary = summaryOf(wallet, rows, today);
  const balances = currentBalances(
    rows.balances
      .filter((b) => b.wallet_id === wallet.id)
      .map((b) => ({
        id: b.id,
        balance: b.balance,
        deposit: b.deposit_amount,
        startDate: b.start_date,
        endDate: b.end_date,
      })),
    today,
  ).map((b) => ({
    ...b,
    elapsedPercent: validityElapsedPercent(b.startDate, b.endDate, today),
    daysLeft: daysBetween(today, b.endDate),
  }));
  const held = reservedAmounts(summary);
  const available = summary.available;
  const daily = wallet.daily_spending_limit;
  const leftToday = daily === null ? null : Math.max(0, daily - spentToday);
  return {
    id: wallet.id,
    name: wallet.name,
    walletType: wallet.wallet_type,
    guide: spendingGuide(wallet.wallet_type, wallet.subtype),
    sourceName: wallet.source_name,
    unlimited: wallet.unlimited === 1,
    available,
    total: available === null ? null : available + held.reserved,
    spendable: leftToday === null ? available : available === null ? leftToday : Math.min(available, leftToday),
    ...held,
    dailySpendingLimit: wallet.daily_spending_limit,
    autoExtend: wallet.auto_extend_deposit === 1,
    balances,
    // Read in credit_started_at order (loadFundRows).
    creditLimits: rows.creditLimits
      .filter((c) => c.wallet_id === wallet.id)
      .map((c) => ({
        id: c.id,
        initial: c.initial_amount,
        remaining: c.remaining_amount,
        eligibleFrom: c.eligibility_started_at,
        eligibleUntil: c.eligibility_ended_at,
        creditFrom: c.credit_started_at,
        creditUntil: c.credit_ended_at,
      })),
    singleExpiry: balances.length === 1 ? balances[0]!.endDate : null,
  };
}

/**
 * The withdrawals of these wallets within a day and a half of now, each way (spentTodayByWallet), without or with
 * one authorisation's left out: each compiled once per length of the list of wallets (a person's, a handful).
 */
function spentRowsQuery(except: boolean) {
  return preparedList((db: DB, arg: Argument<{ since: string; until: string; except?: string }>, walletIds) =>
    db
      .selectFrom("wallet_transactions")
      .select(["wallet_id", "amount", "created_at"])
      .where("wallet_id", "in", walletIds)
      .where("main_comment", "=", "withdraw")
      .where("status", "in", ["processed", "frozen"])
      .where("created_at", ">=", arg("since"))
      .where("created_at", "<=", arg("until"))
      .$if(except, (q) =>
        q.where((eb) => eb.or([eb("authorization_id", "is", null), eb("authorization_id", "!=", arg("except")!)])),
      ),
  );
}

const spentRows = spentRowsQuery(false);
const spentRowsExcept = spentRowsQuery(true);

/**
 * Cents paid with each of these wallets today (the Paris day of `now`): payments processed and amounts
 * held (`withdraw` movements, processed or frozen). Read by the wallet page and the authorisation engine.
 */
export async function spentTodayByWallet(
  db: DB,
  walletIds: string[],
  now: Date,
  /** A card authorisation whose own payments do not count (the payment-method switch re-splits it). */
  exceptAuthorizationId?: string,
): Promise<Map<string, number>> {
  const spent = new Map(walletIds.map((id) => [id, 0]));
  if (walletIds.length === 0) return spent;
  const today = todayInParis(now);
  // A Paris day starts at most 2 h before its UTC date: a day and a half each side holds all of it.
  const since = new Date(now.getTime() - 36 * 60 * 60 * 1000).toISOString();
  const until = new Date(now.getTime() + 36 * 60 * 60 * 1000).toISOString();
  const rows =
    exceptAuthorizationId === undefined
      ? await spentRows.all(db, { since, until }, walletIds)
      : await spentRowsExcept.all(db, { since, until, except: exceptAuthorizationId }, walletIds);
  for (const r of rows) {
    if (parisDayOf(new Date(r.created_at)) === today) {
      spent.set(r.wallet_id, (spent.get(r.wallet_id) ?? 0) + Math.abs(r.amount));
    }
  }
  return spent;
}

export const WALLET_TRANSACTIONS_PAGE_SIZE = 7;
export const WALLET_FROZEN_PAGE_SIZE = 5;

/** A wallet's processed movements and frozen amounts as its page lists them, and where each "Voir plus" lands. */
export interface WalletTransactionPages {
  processed: WalletTransactionView[];
  processedNextId: string | null;
  frozen: WalletTransactionView[];
  frozenNextId: string | null;
}

/**
 * The wallet's processed transactions (newest first) and its frozen amounts, each as many as asked
 * ("Voir plus" asks for one page more). Amounts of frozen entries are shown as the sum they hold.
 */
export async function listWalletTransactions(
  db: DB,
  userId: string,
  walletId: string,
  limits: { processed: number; frozen: number },
): Promise<WalletTransactionPages | null> {
  const wallet = await db
    .selectFrom("wallets")
    .select("id")
    .where("id", "=", walletId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return wallet ? transactionPages(db, wallet.id, limits) : null;
}

/**
 * Both lists of a wallet the caller has found to be the user's, in one statement of two reads through the
 * (wallet_id, status, created_at, id) index (migration 032): each reads its `limit + 1` newest rows and no more, whatever the
 * wallet's history. The limits are the URL's, already capped (clampLimit).
 */
/** A wallet's two lists, each one more than its page, in one statement (compiled once, prepared.ts). */
const walletTransactionRows = prepared((db, arg: Argument<{ walletId: string; processed: number; frozen: number }>) => {
  // Each list is a subquery of its own (SQLite takes no ORDER BY or LIMIT on a compound's arms), both in one statement.
  const page = (status: "processed" | "frozen") =>
    db
      .selectFrom(
        db
          .selectFrom("wallet_transactions")
          .select(["id", "amount", "main_comment", "merchant_name", "created_at", "status"])
          .where("wallet_id", "=", arg("walletId"))
          .where("status", "=", status)
          .orderBy("created_at", "desc")
          .orderBy("id", "desc")
          .limit(arg(status))
          .as("t"),
      )
      .selectAll();
  return page("processed").unionAll(page("frozen"));
});

async function transactionPages(
  db: DB,
  walletId: string,
  limits: { processed: number; frozen: number },
): Promise<WalletTransactionPages> {
  const rows = await walletTransactionRows.all(db, {
    walletId,
    processed: limits.processed + 1,
    frozen: limits.frozen + 1,
  });
  // Each arm keeps its order in the compound's result, but nothing says so: ordered again here, newest first.
  const newest = (a: { created_at: string; id: string }, b: { created_at: string; id: string }) =>
    a.created_at !== b.created_at ? (a.created_at > b.created_at ? -1 : 1) : a.id > b.id ? -1 : a.id < b.id ? 1 : 0;
  const processed = rows.filter((r) => r.status === "processed").sort(newest);
  const frozen = rows.filter((r) => r.status === "frozen").sort(newest);
  const view = (rows: typeof processed, negate: boolean) =>
    rows.map((r) => ({
      id: r.id,
      amount: negate ? -r.amount : r.amount,
      label: walletTransactionLabel({ mainComment: r.main_comment, merchantName: r.merchant_name }),
      createdAt: r.created_at,
    }));
  return {
    processed: view(processed.slice(0, limits.processed), false),
    // The first item of the next page, where "Voir plus" lands; null when this page is the last.
    processedNextId: processed[limits.processed]?.id ?? null,
    // Spec 000 §2: frozen amounts are shown negated.
    frozen: view(frozen.slice(0, limits.frozen), true),
    frozenNextId: frozen[limits.frozen]?.id ?? null,
  };
}

/** The user's wallets with their funder's Sunday rule and what payments and refunds hold on each (heldSums). */
const userWallets = prepared((db: DB, arg: Argument<{ userId: string }>) =>
  db
    .selectFrom("wallets as w")
    .innerJoin("groups as g", "g.id", "w.group_id")
    .selectAll("w")
    .select((eb) => ["g.meal_sunday_workers", "w.id as wallet_id", ...heldSums(eb)])
    .where("w.user_id", "=", arg("userId")),
);

/** The dated balances and credit limits of all the user's wallets, through wallets' user index (fundParts). */
const userFundParts = prepared((db, arg: Argument<{ userId: string }>) =>
  // A user's wallets: fundParts reads no card id then.
  fundParts(db, arg as Argument<{ userId: string; cardId: string }>, "user"),
);

/** Everything a wallet's page shows (spec 000 §2 "Wallets page"). */
export interface WalletPage {
  /** The strip of all the user's wallets, in listWallets' order. */
  strip: { id: string; name: string; available: number | null }[];
  wallet: WalletDetail;
  transactions: WalletTransactionPages;
  licences: WalletLicence[];
  /** A meal wallet's 25 € a day and Sundays, by the engine's rules (null for other wallets). */
  mealDay: MealDay | null;
}

/**
 * A wallet's page in five or six queries whatever the user's history: the user's wallets with their funder's
 * Sunday rule and what payments and refunds hold on each (one), their balances and credit limits (one,
 * fundParts), this wallet's two lists (one, transactionPages), the licences, and — for a wallet with a daily limit or a meal wallet — what was paid today (one, through the
 * (wallet_id, created_at) index: a day's movements). `firstWalletId` alone when the wallet is not the user's (or
 * does not exist): where the page sends them.
 */
export async function walletPage(
  db: DB,
  userId: string,
  walletId: string,
  limits: { processed: number; frozen: number },
  now = new Date(),
): Promise<{ firstWalletId: string | null; page: WalletPage | null }> {
  // With what payments and refunds hold on each (heldSums).
  const wallets = await userWallets.all(db, { userId });
  // listWallets' order (creation, then name), made here: a sort in a query reading movements would read as a history's.
  wallets.sort((a, b) =>
    a.created_at !== b.created_at
      ? a.created_at < b.created_at
        ? -1
        : 1
      : a.name < b.name
        ? -1
        : a.name > b.name
          ? 1
          : 0,
  );
  const wallet = wallets.find((w) => w.id === walletId);
  if (!wallet) return { firstWalletId: wallets[0]?.id ?? null, page: null };
  const meal = wallet.wallet_type === "meal";
  // The meal day's 25 € count every meal wallet of the person's (mealAllowanceLeftToday's rule).
  const mealIds = meal ? wallets.filter((w) => w.wallet_type === "meal").map((w) => w.id) : [];
  const spentIds = new Set([...mealIds, ...(wallet.daily_spending_limit === null ? [] : [wallet.id])]);
  const [parts, transactions, licences, spent] = await Promise.all([
    userFundParts.all(db, { userId }),
    transactionPages(db, wallet.id, limits),
    availableWalletLicences(db, userId),
    spentTodayByWallet(db, [...spentIds], now),
  ]);
  const { balances, creditLimits } = splitFundParts(parts);
  const rows = heldRows(balances, creditLimits, wallets);
  const today = todayInParis(now);
  const mealSpent = mealIds.reduce((sum, id) => sum + (spent.get(id) ?? 0), 0);
  return {
    firstWalletId: wallets[0]!.id,
    page: {
      strip: wallets.map((w) => {
        const { id, name, available } = summaryOf(w, rows, today);
        return { id, name, available };
      }),
      wallet: detailOf(wallet, rows, spent.get(wallet.id) ?? 0, today),
      transactions,
      licences,
      mealDay: meal
        ? {
            left: Math.max(0, MEAL_DAILY_CAP - mealSpent),
            closed: mealDayRestriction(today, wallet.meal_sunday_workers === 1),
          }
        : null,
    },
  };
}

/** wallet_activation licences this user can still use (spec 000 §6). */
const walletLicences = prepared((db, arg: Argument<{ userId: string }>) =>
  db
    .selectFrom("licences")
    .innerJoin("groups", "groups.id", "licences.group_id")
    .select(["licences.id", "licences.metadata", "groups.name"])
    .where("licences.user_id", "=", arg("userId"))
    .where("licences.license_type", "=", "wallet_activation")
    .where("licences.used_at", "is", null)
    .orderBy("licences.id"),
);

export async function availableWalletLicences(db: DB, userId: string): Promise<WalletLicence[]> {
  const rows = await walletLicences.all(db, { userId });
  return rows.map((r) => ({ id: r.id, groupName: r.name, walletType: licenceWalletType(r.metadata) }));
}

function licenceWalletType(metadata: string): string {
  try {
    const parsed = JSON.parse(metadata) as { front?: { types?: { technical_name?: string }[] } };
    return parsed.front?.types?.[0]?.technical_name ?? "general";
  } catch {
    return "general";
  }
}

/** Wallet names by type, for a wallet made from a licence. */
const WALLET_NAMES: Record<string, string> = {
  meal: "Titres-restaurant",
  gift: "Cadeaux",
  mobility: "Mobilité",
  culture: "Culture",
  sport: "Sport",
  holidays: "Vacances",
};

export type CreateWalletResult = { kind: "created"; walletId: string } | { kind: "refused" };

/** Activates a wallet from one of the user's licences; the licence serves once (refused: used, another's or unknown). */
export async function createWalletFromLicence(
  db: DB,
  userId: string,
  licenceId: string,
  now = new Date(),
): Promise<CreateWalletResult> {
  return db.transaction().execute(async (trx) => {
    const licence = await trx
      .selectFrom("licences")
      .innerJoin("groups", "groups.id", "licences.group_id")
      .select(["licences.id", "licences.group_id", "licences.metadata", "groups.name as group_name"])
      .where("licences.id", "=", licenceId)
      .where("licences.user_id", "=", userId)
      .where("licences.license_type", "=", "wallet_activation")
      .executeTakeFirst();
    if (!licence) return { kind: "refused" } as const;
    const taken = await trx
      .updateTable("licences")
      .set({ used_at: now.toISOString() })
      .where("id", "=", licence.id)
      .where("used_at", "is", null)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) return { kind: "refused" } as const;
    const walletType = licenceWalletType(licence.metadata);
    const id = newId("wal");
    await trx
      .insertInto("wallets")
      .values({
        id,
        user_id: userId,
        group_id: licence.group_id,
        name: WALLET_NAMES[walletType] ?? "Portefeuille",
        wallet_type: walletType,
        subtype: null,
        unlimited: 0,
        daily_spending_limit: null,
        auto_extend_deposit: 0,
        source_name: licence.group_name,
        created_at: now.toISOString(),
      })
      .execute();
    return { kind: "created", walletId: id } as const;
  });
}

/**
 * Takes `amount` cents from a wallet inside the caller's transaction, as a processed operation of kind
 * `mainComment`: from the open credit limit when the wallet has one, else from its current balances,
 * soonest expiry first; an unlimited wallet only records the operation.
 */
export async function debitWallet(
  trx: DB,
  walletId: string,
  amount: number,
  mainComment: string,
  merchantName: string | null,
  now = new Date(),
  authorizationId: string | null = null,
): Promise<void> {
  await applyToWallet(
    trx,
    walletId,
    -amount,
    { mainComment, merchantName, now, authorizationId },
    async (rows, today) => {
      let left = amount;
      const current = currentBalances(
        rows.map((b) => ({
          id: b.id,
          balance: b.balance,
          deposit: b.deposit_amount,
          startDate: b.start_date,
          endDate: b.end_date,
        })),
        today,
      );
      for (const b of current) {
        if (left <= 0) break;
        const take = Math.min(left, b.balance);
        await trx
          .updateTable("wallet_balances")
          .set({ balance: b.balance - take })
          .where("id", "=", b.id)
          .execute();
        left -= take;
      }
      // A reservation was checked against the balance: anything left is taken from the latest balance.
      const last = current[current.length - 1];
      if (left > 0 && last) {
        await trx
          .updateTable("wallet_balances")
          .set((eb) => ({ balance: eb("balance", "-", left) }))
          .where("id", "=", last.id)
          .execute();
      }
    },
  );
}

/**
 * Gives `amount` cents back to a wallet inside the caller's transaction, as a processed operation of kind
 * `mainComment` (a merchant's refund): to the open credit limit when the wallet has one, else to its current
 * balance that expires last (none current: the one that expired last, so money given back after its end date
 * expires as the rest of it did); an unlimited wallet only records the operation.
 */
export async function creditWallet(
  trx: DB,
  walletId: string,
  amount: number,
  mainComment: string,
  merchantName: string | null,
  now: Date,
  authorizationId: string | null = null,
): Promise<void> {
  await applyToWallet(
    trx,
    walletId,
    amount,
    { mainComment, merchantName, now, authorizationId },
    async (rows, today) => {
      const byEnd = [...rows].sort((a, b) => b.end_date.localeCompare(a.end_date));
      const target = byEnd.find((b) => b.start_date <= today && today <= b.end_date) ?? byEnd[0];
      if (target) {
        await trx
          .updateTable("wallet_balances")
          .set((eb) => ({ balance: eb("balance", "+", amount) }))
          .where("id", "=", target.id)
          .execute();
      }
    },
  );
}

/**
 * What a debit and a credit share: `delta` cents on the open credit limit when the wallet has one, else the
 * wallet's balances handed to `onBalances` (unlimited wallets: neither), then the processed operation recorded.
 */
async function applyToWallet(
  trx: DB,
  walletId: string,
  delta: number,
  operation: { mainComment: string; merchantName: string | null; now: Date; authorizationId: string | null },
  onBalances: (rows: Selectable<WalletBalanceTable>[], today: string) => Promise<void>,
): Promise<void> {
  const wallet = await trx
    .selectFrom("wallets")
    .select(["unlimited"])
    .where("id", "=", walletId)
    .executeTakeFirstOrThrow();
  const today = todayInParis(operation.now);
  if (wallet.unlimited !== 1) {
    const limits = await trx.selectFrom("credit_limits").selectAll().where("wallet_id", "=", walletId).execute();
    const open = limits.find(
      (c) => c.credit_started_at.slice(0, 10) <= today && today <= c.credit_ended_at.slice(0, 10),
    );
    if (open) {
      await trx
        .updateTable("credit_limits")
        .set({ remaining_amount: open.remaining_amount + delta })
        .where("id", "=", open.id)
        .execute();
    } else {
      await onBalances(
        await trx.selectFrom("wallet_balances").selectAll().where("wallet_id", "=", walletId).execute(),
        today,
      );
    }
  }
  await trx
    .insertInto("wallet_transactions")
    .values({
      id: newId("wtx"),
      wallet_id: walletId,
      amount: delta,
      main_comment: operation.mainComment,
      merchant_name: operation.merchantName,
      status: "processed",
      created_at: operation.now.toISOString(),
      authorization_id: operation.authorizationId,
    })
    .execute();
}

/** The largest single deposit accepted, in cents (100 000 €): anything above is a typing error. */
export const MAX_RELOAD_AMOUNT = 10_000_000;

export type ReloadWalletResult = { kind: "reloaded"; balanceId: string } | { kind: "notFound" } | { kind: "invalid" };

/**
 * A funder's deposit on a wallet (a "reload", spec 000 §7; in the sandbox `npm run sandbox:reload` stands for the
 * funder): a new balance of `amount` cents valid from `startDate` to `endDate` (Paris days), its "deposit" line in
 * the wallet's history and a wallet_reload_notification, in one transaction; then the notification's e-mail and
 * push, per the person's wallets preference. An unlimited wallet has no balance to add to: invalid.
 */
export async function reloadWallet(
  deps: NotifyDeps,
  walletId: string,
  deposit: { amount: number; startDate: string; endDate: string },
  now = new Date(),
): Promise<ReloadWalletResult> {
  const { amount, startDate, endDate } = deposit;
  if (!Number.isSafeInteger(amount) || amount <= 0 || amount > MAX_RELOAD_AMOUNT) return { kind: "invalid" };
  if (!isCalendarDay(startDate) || !isCalendarDay(endDate) || endDate < startDate || endDate < todayInParis(now))
    return { kind: "invalid" };
  const wallet = await deps.db
    .selectFrom("wallets")
    .select(["id", "user_id", "unlimited"])
    .where("id", "=", walletId)
    .executeTakeFirst();
  if (!wallet) return { kind: "notFound" };
  if (wallet.unlimited === 1) return { kind: "invalid" };
  const balanceId = newId("bal");
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .insertInto("wallet_balances")
      .values({
        id: balanceId,
        wallet_id: wallet.id,
        balance: amount,
        deposit_amount: amount,
        start_date: startDate,
        end_date: endDate,
      })
      .execute();
    await trx
      .insertInto("wallet_transactions")
      .values({
        id: newId("wtx"),
        wallet_id: wallet.id,
        amount,
        main_comment: "deposit",
        merchant_name: null,
        status: "processed",
        created_at: now.toISOString(),
      })
      .execute();
    const facts = await reloadFacts(trx, wallet, deposit, now);
    await recordNotification(trx, wallet.user_id, "wallet_reload_notification", wallet.id, now, facts);
  });
  const facts = await reloadFacts(deps.db, wallet, deposit, now);
  await deliverNotification(deps, wallet.user_id, "wallet_reload_notification", wallet.id, { facts });
  return { kind: "reloaded", balanceId };
}

/** A reload's notification facts (issue 30 §4): the wallet's name, the deposit, what it holds after it, until when. */
async function reloadFacts(
  db: DB,
  wallet: { id: string; user_id: string },
  deposit: { amount: number; endDate: string },
  now: Date,
): Promise<NotificationFacts> {
  const [summary] = await walletSummaries(db, wallet.user_id, [wallet.id], now);
  return {
    wallet: summary?.name ?? "",
    amount: deposit.amount,
    balance: summary?.available ?? deposit.amount,
    endDate: deposit.endDate,
  };
}
