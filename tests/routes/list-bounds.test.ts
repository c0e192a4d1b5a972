import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { DatabaseHandle } from "~/.server/db";
import {
  buildAllowance,
  buildAuthorization,
  buildRefund,
  buildWalletTransaction,
  createAccount,
  type CreatedAccount,
} from "~/.server/db/factories";
import { getAccount } from "~/.server/services/accounts";
import { countUnread, NOTIFICATIONS_MAX_PAGE, NOTIFICATIONS_PAGE_SIZE } from "~/.server/services/notifications";
import { loadTransactionsForCard } from "~/.server/services/transactions";
import { ALLOWANCES_MAX_PAGE, ALLOWANCES_PAGE_SIZE } from "~/.server/services/allowances/requests";
import { EXPENSE_REQUESTS_MAX_PAGE, EXPENSE_REQUESTS_PAGE_SIZE } from "~/domain/refunds";
import { UNREAD_COUNT_MAX } from "~/domain/notification-count";
import { MAX_PAGES, transactionsQuery } from "~/domain/transactions";
import { accountContext } from "~/routes/+shared/auth.server";
import { loader as allowancesLoader } from "~/routes/allowances/list";
import { loader as notificationsLoader } from "~/routes/notifications/panel";
import { loader as refundsLoader } from "~/routes/refunds/list";
import { loader as walletLoader } from "~/routes/wallets/wallet";
import { openTestDatabase } from "../support/test-database";
import { installTestPlatform } from "../support/test-platform";

/**
 * Issue 35's bad input on the lists (the wallet page, the notification centre and its bell, the refund and allowance
 * lists, the card page's transactions): a person with 100,000 card payments, a wallet of 50,000 movements, 30,000
 * unread notifications, years of requests and allowances, and « Voir plus » URLs asking for page 1,000,000 or a limit
 * of 10,000,000 (negative, not a number, twenty digits). Each answer is bounded — at most the capped number of pages —
 * and costs what page 1 costs: the same queries, and no more rows from the database than the cap allows (never the
 * history). Never a 500. The loaders are called as React Router calls them, on SQLite, or PostgreSQL with
 * TEST_DATABASE_URL.
 */
let handle: DatabaseHandle;
/** The test database as the loaders see it: every query and row counted into `seen`. */
let counted: DatabaseHandle["db"];
let me: CreatedAccount;
let walletId: string;
let cardId: string;
/** What the database answered since the last `measure`: queries run, rows returned. */
const seen = { queries: 0, rows: 0 };

const PAYMENTS = 100_000;
const MOVEMENTS = 50_000;
const FROZEN = 40;
const NOTIFICATIONS = 30_000;
const REFUNDS = 3_000;
const ALLOWANCES = 1_000;

/** Rows inserted a thousand at a time (PostgreSQL takes at most 65,535 parameters a statement). */
async function insertMany<T>(table: "card_authorizations" | "wallet_transactions" | "notifications", rows: T[]) {
  for (let i = 0; i < rows.length; i += 1000)
    await handle.db
      .insertInto(table)
      .values(rows.slice(i, i + 1000) as never)
      .execute();
}

/** `i` hours before 2026: the history, older than anything the factories make today. */
const past = (i: number) => new Date(Date.UTC(2026, 0, 1) - i * 3_600_000).toISOString();

beforeAll(async () => {
  handle = await openTestDatabase();
  counted = handle.db.withPlugin({
    transformQuery: (args) => {
      seen.queries++;
      return args.node;
    },
    transformResult: async (args) => {
      seen.rows += args.result.rows.length;
      return args.result;
    },
  });
  installTestPlatform({ ...handle, db: counted }, "list-bounds-test-secret-0123456789abcdef");
  me = await createAccount(handle.db, {
    email: `bounds-${Math.random().toString(36).slice(2)}@example.com`,
    passwordHash: "x",
    wallets: [{ name: "Titres-restaurant", type: "meal", balance: 50_000, dailyLimit: 2_500 }],
    cards: [{ type: "virtual", lastFour: "4242", wallets: ["Titres-restaurant"] }],
  });
  walletId = me.wallets["Titres-restaurant"]!;
  cardId = me.cards["4242"]!;
  const payments = Array.from({ length: PAYMENTS }, (_, i) =>
    buildAuthorization({
      card_id: cardId,
      amount: 500 + (i % 700),
      merchant_name: "Boulangerie",
      merchant_city: "Paris",
      transaction_at: past(i),
      kind: "approved",
    }),
  );
  await insertMany("card_authorizations", payments);
  // The wallet's movements: the first 50,000 payments' shares, the oldest 40 still held (frozen) — the frozen list
  // must find them without walking the wallet's history.
  await insertMany(
    "wallet_transactions",
    payments.slice(0, MOVEMENTS).map((p, i) => ({
      ...buildWalletTransaction(
        walletId,
        -p.amount,
        p.transaction_at,
        "Boulangerie",
        i >= MOVEMENTS - FROZEN ? "frozen" : "processed",
      ),
      authorization_id: p.id,
    })),
  );
  await insertMany(
    "notifications",
    Array.from({ length: NOTIFICATIONS }, (_, i) => ({
      id: `ntf_bounds_${i}`,
      user_id: me.userId,
      type: "wallet_reload_notification",
      data_id: walletId,
      created_at: past(i),
      read_at: null,
      facts: null,
    })),
  );
  const type = { id: `ext_bounds_${Math.random().toString(36).slice(2)}` };
  await handle.db
    .insertInto("expense_types")
    .values({
      ...type,
      technical_name: "culture",
      name_fr: "Culture",
      name_en: "Culture",
      name_nl: "Cultuur",
      front_disabled: 0,
      position: 1,
    })
    .execute();
  const statuses = [
    ...["paid", "refused", "cancelled", "paid", "paid", "sent", "paid", "approved", "paid", "to_correct"],
  ] as const;
  for (let i = 0; i < REFUNDS; i += 1000)
    await handle.db
      .insertInto("expense_requests")
      .values(
        Array.from({ length: 1000 }, (_, j) =>
          buildRefund({
            user_id: me.userId,
            type_id: type.id,
            amount: 1000,
            status: statuses[(i + j) % statuses.length]!,
            created_at: past(i + j),
          }),
        ),
      )
      .execute();
  // An allowance row has 35 columns: 500 of them a statement keeps within SQLite's 32,766 parameters.
  for (let i = 0; i < ALLOWANCES; i += 500)
    await handle.db
      .insertInto("allowances")
      .values(
        Array.from({ length: 500 }, (_, j) =>
          buildAllowance({ user_id: me.userId, group_id: me.groupId, status: "paid", created_at: past(i + j) }),
        ),
      )
      .execute();
}, 240_000);
afterAll(() => handle.close());

async function contextOf() {
  const context = new RouterContextProvider();
  context.set(accountContext, (await getAccount(handle.db, me.userId))!);
  return context;
}

/** A loader's answer or what it threw, with the queries it ran and the rows the database gave back. */
async function measure<T>(run: () => Promise<T>): Promise<{ answer: T | unknown; queries: number; rows: number }> {
  seen.queries = 0;
  seen.rows = 0;
  let answer: T | unknown;
  try {
    answer = await run();
  } catch (thrown) {
    answer = thrown;
  }
  return { answer, queries: seen.queries, rows: seen.rows };
}

/** The status of what a loader threw (a refusal is `data(…, { status })`, a redirect a Response); 200 otherwise. */
function statusOf(answer: unknown): number {
  if (answer instanceof Response) return answer.status;
  if (answer instanceof Error) return 500;
  const init = (answer as { init?: { status?: number } | null } | null)?.init;
  return init?.status ?? 200;
}

const HOSTILE = ["1000000", "10000000", "-5", "abc", "99999999999999999999", "1e9", "7.5", ""];

async function load(loader: (args: never) => Promise<unknown>, path: string, params: Record<string, string> = {}) {
  const context = await contextOf();
  return measure(() => loader({ request: new Request(`http://localhost${path}`), params, context } as never));
}

describe("the wallet page of a wallet with 50,000 movements", () => {
  type WalletData = { transactions: { processed: unknown[]; frozen: unknown[]; processedNextId: string | null } };
  const page = (search: string) => load(walletLoader as never, `/wallets/${walletId}${search}`, { walletId });

  test("page 1: seven movements, five held amounts, and where « Voir plus » lands", async () => {
    const first = await page("");
    const data = first.answer as WalletData;
    expect(data.transactions.processed).toHaveLength(7);
    expect(data.transactions.frozen).toHaveLength(5);
    expect(data.transactions.processedNextId).not.toBeNull();
    // One row more than each list shows, the wallets, their funds and licences: never the history.
    expect(first.rows).toBeLessThan(40);
  });

  test.each(HOSTILE)("limit=%s and frozenLimit=%s: at most 20 pages, the same queries as page 1", async (value) => {
    const first = await page("");
    const hostile = await page(`?limit=${value}&frozenLimit=${value}`);
    expect(statusOf(hostile.answer)).toBe(200);
    const data = hostile.answer as WalletData;
    expect(data.transactions.processed.length).toBeLessThanOrEqual(MAX_PAGES * 7);
    expect(data.transactions.frozen.length).toBeLessThanOrEqual(FROZEN);
    expect(hostile.queries).toBe(first.queries);
    expect(hostile.rows).toBeLessThanOrEqual(first.rows + MAX_PAGES * 7 + FROZEN);
  });
});

describe("the card page's transactions of a person with 100,000 payments", () => {
  const list = (search: string) =>
    measure(() => loadTransactionsForCard(counted, me.userId, cardId, transactionsQuery(new URLSearchParams(search))));

  test.each(HOSTILE)("limit=%s: at most 20 pages of 7, the same queries as page 1", async (value) => {
    const first = await list("");
    const hostile = await list(`limit=${value}&frozenLimit=${value}&tab=approved`);
    const data = hostile.answer as { items: unknown[]; limit: number; frozenLimit: number };
    expect(data.limit).toBeLessThanOrEqual(MAX_PAGES * 7);
    expect(data.frozenLimit).toBeLessThanOrEqual(MAX_PAGES * 5);
    expect(data.items.length).toBeLessThanOrEqual(MAX_PAGES * 7);
    expect(hostile.queries).toBe(first.queries);
    // The listed payments, their wallet shares and payment attempts: a page's worth, never the 100,000.
    expect(hostile.rows).toBeLessThan(5 * MAX_PAGES * 7);
  });
});

describe("the notification centre of a person with 30,000 unread notifications", () => {
  type Centre = { items: unknown[]; nextId: string | null; unread: number };
  const centre = (search: string) =>
    load(notificationsLoader as never, `/notifications?back=%2Fcards&observe=1${search}`);

  test("the bell counts to 100 at most: « 99+ »", async () => {
    const counted = await measure(() => countUnread(handle.db, me.userId));
    expect(counted.answer).toBe(UNREAD_COUNT_MAX + 1);
  });

  test("the last page « Voir plus » reaches shows 20 pages and offers no more; beyond it, a 404", async () => {
    const first = await centre("");
    expect((first.answer as Centre).items).toHaveLength(NOTIFICATIONS_PAGE_SIZE);
    const last = await centre(`&page=${NOTIFICATIONS_MAX_PAGE}`);
    expect((last.answer as Centre).items).toHaveLength(NOTIFICATIONS_MAX_PAGE * NOTIFICATIONS_PAGE_SIZE);
    expect((last.answer as Centre).nextId).toBeNull();
    expect(last.queries).toBe(first.queries);
    expect(last.rows).toBeLessThanOrEqual(first.rows + NOTIFICATIONS_MAX_PAGE * NOTIFICATIONS_PAGE_SIZE);
  });

  test.each([...HOSTILE.filter((v) => v !== ""), "9999", String(NOTIFICATIONS_MAX_PAGE + 1)])(
    "page=%s: a 404 (a page past the last), never a 500",
    async (value) => {
      const hostile = await centre(`&page=${value}`);
      expect(statusOf(hostile.answer)).toBe(404);
      // Refused before anything is read.
      expect(hostile.queries).toBe(0);
    },
  );
});

describe("the refund list of a person with 3,000 requests", () => {
  type List = { items: unknown[]; page: number; hasMore: boolean };

  test.each(["", "&tab=finished"])("tab %s: a hostile page reads at most 20 pages of each status", async (tab) => {
    const first = await load(refundsLoader as never, `/plans/expense-requests?page=1${tab}`);
    expect((first.answer as List).items).toHaveLength(EXPENSE_REQUESTS_PAGE_SIZE);
    for (const value of HOSTILE) {
      const hostile = await load(refundsLoader as never, `/plans/expense-requests?page=${value}${tab}`);
      expect(statusOf(hostile.answer)).toBe(200);
      const data = hostile.answer as List;
      expect(data.page).toBeLessThanOrEqual(EXPENSE_REQUESTS_MAX_PAGE);
      expect(data.items.length).toBeLessThanOrEqual(EXPENSE_REQUESTS_MAX_PAGE * EXPENSE_REQUESTS_PAGE_SIZE);
      expect(hostile.queries).toBe(first.queries);
      // Each of the tab's three statuses reads its shown rows and one more.
      expect(hostile.rows).toBeLessThanOrEqual(3 * (EXPENSE_REQUESTS_MAX_PAGE * EXPENSE_REQUESTS_PAGE_SIZE + 1));
    }
  });
});

describe("the allowance list of a person with 1,000 allowances", () => {
  type List = { items: unknown[]; page: number };

  test.each(HOSTILE)("page=%s: at most 20 pages, the same queries as page 1", async (value) => {
    const first = await load(allowancesLoader as never, "/plans/allowances");
    const hostile = await load(allowancesLoader as never, `/plans/allowances?page=${value}`);
    expect(statusOf(hostile.answer)).toBe(200);
    const data = hostile.answer as List;
    expect(data.page).toBeLessThanOrEqual(ALLOWANCES_MAX_PAGE);
    expect(data.items.length).toBeLessThanOrEqual(ALLOWANCES_MAX_PAGE * ALLOWANCES_PAGE_SIZE);
    expect(hostile.queries).toBe(first.queries);
    expect(hostile.rows).toBeLessThanOrEqual(first.rows + ALLOWANCES_MAX_PAGE * ALLOWANCES_PAGE_SIZE * 2);
  });
});
