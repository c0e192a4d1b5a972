import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { DatabaseHandle, DB } from "~/.server/db";
import { generateCompany, growHistory } from "~/.server/db/dataset";
import { engineRequest, Ledger, type LedgerWallet } from "~/.server/db/dataset/ledger";
import { Random } from "~/.server/db/dataset/random";
import { dayAttempts, dayFacts, HEAVY, ParisClock } from "~/.server/db/dataset/shops";
import { authorise } from "~/domain/authorisation";
import { addCalendarDays } from "~/domain/calendar";
import { DEMO_EMAILS, registerDemoCards, registerDemoPayments, seedDemo } from "~/.server/db/seed";
import { SandboxIssuer } from "~/.server/providers/issuer/sandbox";
import { SandboxMessenger } from "~/.server/providers/messaging/sandbox";
import { SandboxPaymentProcessor } from "~/.server/providers/payments/sandbox";
import { countUnread, listNotifications } from "~/.server/services/notifications";
import { listCardTransactions, listFrozenAuthorizations } from "~/.server/services/transactions";
import { getWalletDetail, listWalletTransactions, listWallets } from "~/.server/services/wallets";
import { openTestDatabase } from "../support/test-database";

/**
 * Contract D's generators at small figures, on SQLite and (in scripts/test.sh's list) on PostgreSQL: the same seed
 * makes the same rows, another seed others; what the demo's pages show is what it was; every generated row belongs
 * where it should; the balances agree with the movements.
 */

const NOW = new Date("2026-11-18T10:30:00.000Z");
const handles: DatabaseHandle[] = [];

/** A migrated database holding the demo, seeded at NOW (so two of them hold the same rows, ids apart). */
async function demoDatabase(): Promise<DatabaseHandle> {
  const handle = await openTestDatabase();
  handles.push(handle);
  await seedDemo(handle.db, new SandboxMessenger(handle.db), { now: NOW, baseUrl: "http://localhost" });
  await registerDemoCards(handle.db, new SandboxIssuer(handle.db, "data/sandbox-issuer.key"));
  await registerDemoPayments(handle.db, new SandboxPaymentProcessor(handle.db));
  return handle;
}

afterAll(async () => {
  for (const handle of handles) await handle.close();
});

async function marie(db: DB): Promise<{ userId: string; cardId: string }> {
  const row = await db
    .selectFrom("cards")
    .innerJoin("users", "users.id", "cards.user_id")
    .select(["cards.id", "cards.user_id"])
    .where("users.email", "=", DEMO_EMAILS.marie)
    .where("cards.last_four", "=", "4242")
    .executeTakeFirstOrThrow();
  return { userId: row.user_id, cardId: row.id };
}

/**
 * What marie's card, wallet and notification pages show, through their services: the amounts, and the items of each
 * list as the page lists them (a longer history only adds items after them: `expectSameTop`).
 */
async function mariePages(db: DB) {
  const { userId, cardId } = await marie(db);
  const wallets = await listWallets(db, userId, NOW);
  const movements = await Promise.all(
    wallets.map((w) => listWalletTransactions(db, userId, w.id, { processed: 7, frozen: 5 })),
  );
  return {
    amounts: {
      wallets,
      details: await Promise.all(wallets.map((w) => getWalletDetail(db, userId, w.id, NOW))),
      unread: await countUnread(db, userId),
    },
    // Each page's lists, as the page lists them.
    lists: {
      processed: movements.map((m) => m!.processed),
      frozen: movements.map((m) => m!.frozen),
      approved: [(await listCardTransactions(db, userId, cardId, { tab: "approved", limit: 10 }))!.items],
      declined: [(await listCardTransactions(db, userId, cardId, { tab: "declined", limit: 10 }))!.items],
      held: [(await listFrozenAuthorizations(db, userId, cardId, { limit: 5 }))!.items],
      notifications: [(await listNotifications(db, userId, { unreadOnly: false, page: 1 }))!.items],
    } as Record<string, unknown[][]>,
  };
}

type Pages = Awaited<ReturnType<typeof mariePages>>;

/** The same amounts, and each list's items as before at its top (a list that was short may go on with older ones). */
function expectSameTop(after: Pages, before: Pages): void {
  expect(after.amounts).toEqual(before.amounts);
  for (const [name, lists] of Object.entries(before.lists)) {
    lists.forEach((items, i) => expect(after.lists[name]![i]!.slice(0, items.length), name).toEqual(items));
  }
}

async function count(db: DB, query: string): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`${sql.raw(query)}`.execute(db);
  return Number(rows[0]!.n);
}

/** Rows of the history tables outside marie's card 4242 (the rows growHistory copies). */
async function otherHistory(db: DB, cardId: string) {
  return {
    payments: await count(db, `select count(*) as n from card_authorizations where card_id != '${cardId}'`),
    movements: await count(
      db,
      `select count(*) as n from wallet_transactions wt left join card_authorizations ca on ca.id = wt.authorization_id
       where wt.authorization_id is null or ca.card_id != '${cardId}'`,
    ),
    notifications: await count(
      db,
      `select count(*) as n from notifications n left join card_authorizations ca on ca.id = n.data_id
       where ca.id is null or ca.card_id != '${cardId}'`,
    ),
  };
}

describe("growHistory", () => {
  const options = { payments: 300, factor: 3, seed: 7, now: NOW };
  let grown: DatabaseHandle;
  let before: Pages;
  let historyBefore: Awaited<ReturnType<typeof otherHistory>>;
  let cardPaymentsBefore: number;

  beforeAll(async () => {
    grown = await demoDatabase();
    const { userId, cardId } = await marie(grown.db);
    before = await mariePages(grown.db);
    historyBefore = await otherHistory(grown.db, cardId);
    cardPaymentsBefore = await count(
      grown.db,
      `select count(*) as n from card_authorizations where card_id = '${cardId}'`,
    );
    await growHistory(grown, { ...options, userId, cardId });
  }, 60_000);

  test("marie's pages show what they showed: the same balances, the same first items, the same unread count", async () => {
    expectSameTop(await mariePages(grown.db), before);
  });

  test("the card gains the payments asked for, all older than its own, each approval with its movements on the card's wallets", async () => {
    const { userId, cardId } = await marie(grown.db);
    const payments = await grown.db
      .selectFrom("card_authorizations")
      .select(["id", "transaction_at", "has_card_transactions", "status_reason", "decline_detail"])
      .where("card_id", "=", cardId)
      .orderBy("transaction_at")
      .execute();
    expect(payments).toHaveLength(cardPaymentsBefore + options.payments);
    const generated = payments.slice(0, options.payments);
    // The demo's own payments stay the newest.
    expect(new Set(payments.slice(options.payments).map((p) => p.id)).size).toBe(cardPaymentsBefore);
    expect(generated.every((p) => p.id.startsWith("auth_g7."))).toBe(true);
    expect(generated.some((p) => p.has_card_transactions === 0 && p.status_reason && p.decline_detail)).toBe(true);
    const strayMovements = await count(
      grown.db,
      `select count(*) as n from wallet_transactions wt join card_authorizations ca on ca.id = wt.authorization_id
       where ca.card_id = '${cardId}' and wt.wallet_id not in (select wallet_id from card_wallets where card_id = '${cardId}')`,
    );
    expect(strayMovements).toBe(0);
    const notified = await count(
      grown.db,
      `select count(*) as n from notifications n join card_authorizations ca on ca.id = n.data_id
       where ca.card_id = '${cardId}' and n.user_id = '${userId}' and ca.id like 'auth_g%.%' and n.read_at is not null`,
    );
    expect(notified).toBe(options.payments);
  });

  test("every other payment, movement and notification is there `factor` times", async () => {
    const { cardId } = await marie(grown.db);
    const after = await otherHistory(grown.db, cardId);
    // The card's generated deposits and their notifications are history of the card's wallets, beside the copies.
    const deposits = await count(
      grown.db,
      `select count(*) as n from wallet_transactions where id like 'wtx_g%.%' and authorization_id is null`,
    );
    expect(after.payments).toBe(historyBefore.payments * options.factor);
    expect(after.movements).toBe(historyBefore.movements * options.factor + deposits);
    expect(after.notifications).toBe(historyBefore.notifications * options.factor + deposits);
  });

  test("the same seed grows the same history; another seed another", async () => {
    const twin = await demoDatabase();
    const other = await demoDatabase();
    await growHistory(twin, { ...options, ...(await marie(twin.db)) });
    await growHistory(other, { ...options, seed: 8, ...(await marie(other.db)) });
    const generated = (db: DB) =>
      db
        .selectFrom("card_authorizations")
        .select(["id", "amount", "merchant_name", "transaction_at", "status_reason"])
        .where("id", "like", "auth_g%.%")
        .orderBy("id")
        .execute();
    expect(await generated(twin.db)).toEqual(await generated(grown.db));
    expect(await generated(other.db)).not.toEqual(await generated(grown.db));
  }, 60_000);
});

describe("generateCompany", () => {
  const options = { seed: 11, employees: 30, months: 3, now: NOW };
  let company: DatabaseHandle;
  let before: Pages;
  let demoRows: Record<string, number>;
  let report: Awaited<ReturnType<typeof generateCompany>>;
  let indexes: string[];

  /** Every index of the database as its definition (PostgreSQL drops the history tables' during the load). */
  const indexDefinitions = async (handle: DatabaseHandle): Promise<string[]> => {
    const query =
      handle.kind === "postgres"
        ? sql<{ definition: string }>`select indexdef as definition from pg_indexes where schemaname = current_schema()`
        : sql<{ definition: string }>`select coalesce(sql, name) as definition from sqlite_master where type = 'index'`;
    return (await query.execute(handle.db)).rows.map((row) => row.definition).sort();
  };

  /** Rows of every history table that belong to the demo's people. */
  const demoHistory = async (db: DB) => ({
    users: await count(db, "select count(*) as n from users"),
    payments: await count(db, "select count(*) as n from card_authorizations"),
    movements: await count(db, "select count(*) as n from wallet_transactions"),
    notifications: await count(db, "select count(*) as n from notifications"),
    balances: await count(db, "select count(*) as n from wallet_balances"),
  });

  beforeAll(async () => {
    company = await demoDatabase();
    before = await mariePages(company.db);
    demoRows = await demoHistory(company.db);
    indexes = await indexDefinitions(company);
    report = await generateCompany(company, options);
  }, 60_000);

  test("the indexes end as the migrations made them", async () => {
    expect(await indexDefinitions(company)).toEqual(indexes);
  });

  test("a funder of the employees asked for, each with a membership, a card and three linked wallets", async () => {
    const { db } = company;
    expect(report.rows.groups).toBe(1);
    expect(report.rows.users).toBe(options.employees);
    const employees = await db
      .selectFrom("memberships")
      .innerJoin("users", "users.id", "memberships.user_id")
      .select("users.email")
      .where("memberships.group_id", "=", report.funderId)
      .orderBy("users.email")
      .execute();
    expect(employees.map((e) => e.email)).toEqual(
      Array.from({ length: options.employees }, (_, i) => `e${String(i + 1).padStart(6, "0")}@acme-industries.example`),
    );
    expect(report.rows.cards).toBe(options.employees);
    expect(report.rows.wallets).toBe(3 * options.employees);
    expect(report.rows.card_wallets).toBe(3 * options.employees);
    for (const table of [
      "card_authorizations",
      "wallet_transactions",
      "notifications",
      "expense_requests",
      "allowances",
    ])
      expect(report.rows[table], table).toBeGreaterThan(0);
  });

  test("nothing of the demo changes: marie's pages, and the demo people's rows", async () => {
    expect(await mariePages(company.db)).toEqual(before);
    const demoUsers = `(select id from users where email not like '%@acme-industries.example')`;
    const demoCards = `(select id from cards where user_id in ${demoUsers})`;
    const demoWallets = `(select id from wallets where user_id in ${demoUsers})`;
    expect({
      users: await count(company.db, `select count(*) as n from users where id in ${demoUsers}`),
      payments: await count(company.db, `select count(*) as n from card_authorizations where card_id in ${demoCards}`),
      movements: await count(
        company.db,
        `select count(*) as n from wallet_transactions where wallet_id in ${demoWallets}`,
      ),
      notifications: await count(company.db, `select count(*) as n from notifications where user_id in ${demoUsers}`),
      balances: await count(company.db, `select count(*) as n from wallet_balances where wallet_id in ${demoWallets}`),
    }).toEqual(demoRows);
  });

  test("every row's owner is right: a card's wallets are its holder's, movements and notifications their owner's", async () => {
    const mismatches = [
      `select count(*) as n from card_wallets cw join cards c on c.id = cw.card_id join wallets w on w.id = cw.wallet_id
       where c.user_id != w.user_id`,
      `select count(*) as n from wallet_transactions wt join card_authorizations ca on ca.id = wt.authorization_id
       join cards c on c.id = ca.card_id join wallets w on w.id = wt.wallet_id where c.user_id != w.user_id`,
      `select count(*) as n from notifications n join card_authorizations ca on ca.id = n.data_id
       join cards c on c.id = ca.card_id where c.user_id != n.user_id`,
      `select count(*) as n from notifications n join expense_requests er on er.id = n.data_id where er.user_id != n.user_id`,
      `select count(*) as n from expense_request_payment_methods m join expense_requests er on er.id = m.request_id
       join wallets w on w.id = m.wallet_id where w.user_id != er.user_id`,
      `select count(*) as n from wallet_reservations r join expense_requests er on er.id = r.expense_request_id
       join wallets w on w.id = r.wallet_id where w.user_id != er.user_id`,
      `select count(*) as n from allowances a join memberships m on m.user_id = a.user_id and m.group_id = a.group_id
       right join allowances b on b.id = a.id where a.id is null`,
    ];
    for (const query of mismatches) expect(await count(company.db, query), query).toBe(0);
  });

  test("the balances agree with the movements: deposits less payments on each balance wallet, spending on each yearly credit", async () => {
    const company = await employeesWallets();
    for (const wallet of company) {
      if (wallet.wallet_type === "mobility") {
        expect(wallet.credit_used + wallet.movements, wallet.id).toBe(0);
      } else {
        expect(wallet.balances, wallet.id).toBe(wallet.movements);
      }
    }
  });

  async function employeesWallets() {
    const { rows } = await sql<{
      id: string;
      wallet_type: string;
      movements: number | string;
      balances: number | string;
      credit_used: number | string;
    }>`
      select w.id, w.wallet_type,
        (select coalesce(sum(amount), 0) from wallet_transactions t where t.wallet_id = w.id and t.status = 'processed') as movements,
        (select coalesce(sum(balance), 0) from wallet_balances b where b.wallet_id = w.id) as balances,
        (select coalesce(sum(initial_amount - remaining_amount), 0) from credit_limits c where c.wallet_id = w.id) as credit_used
      from wallets w where w.group_id = ${report.funderId}`.execute(company.db);
    return rows.map((r) => ({
      ...r,
      movements: Number(r.movements),
      balances: Number(r.balances),
      credit_used: Number(r.credit_used),
    }));
  }

  test("the same seed makes the same rows; another seed others", async () => {
    const twin = await demoDatabase();
    const twinReport = await generateCompany(twin, options);
    expect(twinReport.rows).toEqual(report.rows);
    const payments = (db: DB) =>
      db
        .selectFrom("card_authorizations")
        .select(["id", "card_id", "amount", "merchant_name", "transaction_at", "status_reason", "decline_detail"])
        .where("id", "like", "auth_c%.%")
        .orderBy("id")
        .execute();
    const twinPayments = await payments(twin.db);
    // Wallet ids in a decline's figures are the generator's: equal too.
    expect(twinPayments).toEqual(await payments(company.db));
    const other = await demoDatabase();
    await generateCompany(other, { ...options, seed: 12 });
    expect(await payments(other.db)).not.toEqual(twinPayments);
  }, 90_000);
});

describe("the ledger's quick approvals", () => {
  test("answer as the engine's rules would, payment after payment", () => {
    const wallet = (id: string, type: string, dailyLimit: number | null): LedgerWallet => ({
      id,
      name: id,
      type,
      unlimited: false,
      balances:
        type === "mobility"
          ? []
          : [{ id: "", balance: 90000, deposit: 90000, startDate: "2025-01-01", endDate: "2025-12-31" }],
      creditLimits:
        type === "mobility"
          ? [
              {
                id: "",
                initial: 60000,
                remainingAmount: 60000,
                creditStartedAt: "2024-12-31T23:00:00.000Z",
                creditEndedAt: "2025-12-31T22:59:59.999Z",
              },
            ]
          : [],
      held: 0,
      dailyLimit,
      perTransactionLimit: null,
      zeroLimitDay: null,
      spentToday: 0,
      funderAllowsSundays: false,
    });
    const ledger = new Ledger([
      wallet("meal", "meal", 2500),
      wallet("mobility", "mobility", null),
      wallet("gift", "gift", null),
    ]);
    const random = new Random(3);
    const clock = new ParisClock();
    let decided = 0;
    for (let day = "2025-01-02"; day < "2025-12-31"; day = addCalendarDays(day, 1)) {
      for (const planned of dayAttempts(random, dayFacts(day), HEAVY)) {
        const attempt = { ...planned, day, at: clock.at(day, planned.minutes) };
        // The engine reads the day's figures as the ledger has them before this payment.
        const expected = authorise(
          engineRequest(
            attempt,
            structuredClone(ledger.wallets).map((w) => (ledgerDay(ledger) === day ? w : { ...w, spentToday: 0 })),
            ledgerDay(ledger) === day ? mealSpent(ledger) : 0,
          ),
        );
        expect(ledger.decide(attempt), `${day} ${attempt.merchant} ${attempt.amount}`).toEqual(expected);
        decided += 1;
      }
    }
    expect(decided).toBeGreaterThan(1000);
  });
});

/** The ledger's day and the titres-restaurant paid on it (private fields, read for the comparison only). */
const ledgerDay = (ledger: Ledger) => (ledger as unknown as { day: string }).day;
const mealSpent = (ledger: Ledger) => (ledger as unknown as { mealSpentToday: number }).mealSpentToday;
