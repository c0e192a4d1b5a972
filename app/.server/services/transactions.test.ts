import { afterAll, beforeAll, expect, test } from "vitest";
import { sql } from "kysely";
import type { DatabaseHandle } from "../db";
import { seedDemo } from "../db/seed";
import { openTestDatabase } from "../../../tests/support/test-database";
import { newId } from "../ids";
import { SandboxMessenger } from "../providers/messaging/sandbox";
import { transactionsQuery } from "~/domain/transactions";
import {
  getReportableTransaction,
  listCardTransactions,
  listFrozenAuthorizations,
  loadTransactionsForCard,
  reportProblem,
} from "./transactions";

let handle: DatabaseHandle;
let marie: string;
let claire: string;
let card4242: string;
let card5556: string;
let claireCard: string;

beforeAll(async () => {
  handle = await openTestDatabase();
  await seedDemo(handle.db, new SandboxMessenger(handle.db), { now: new Date(), baseUrl: "http://localhost" });
  const user = (email: string) =>
    handle.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
  marie = (await user("marie.martin@example.com")).id;
  claire = (await user("claire.petit@example.com")).id;
  const card = (userId: string, lastFour: string) =>
    handle.db
      .selectFrom("cards")
      .select("id")
      .where("user_id", "=", userId)
      .where("last_four", "=", lastFour)
      .executeTakeFirstOrThrow();
  card4242 = (await card(marie, "4242")).id;
  card5556 = (await card(marie, "5556")).id;
  claireCard = (await card(claire, "7777")).id;
}, 30_000);
afterAll(() => handle.close());

/** What the card page reads from its URL (the route parses it; the service takes plain values). */
const url = (search: string) => transactionsQuery(new URL(`http://localhost/cards/x${search}`).searchParams);

test("marie's 4242: the 2 approvals waiting for capture, then 12 captured; 3 declined; 2 frozen; newest first, with the §4 statuses", async () => {
  const approved = (await listCardTransactions(handle.db, marie, card4242, { tab: "approved", limit: 500 }))!;
  const declined = (await listCardTransactions(handle.db, marie, card4242, { tab: "declined", limit: 500 }))!;
  const frozen = (await listFrozenAuthorizations(handle.db, marie, card4242, { limit: 500 }))!;
  expect(approved.items).toHaveLength(14);
  expect(declined.items).toHaveLength(3);
  expect(frozen.items).toHaveLength(2);
  expect([approved.hasMore, declined.hasMore, frozen.hasMore]).toEqual([false, false, false]);
  // Issue 30 §2: what waits for the merchant's capture comes first, whatever its date, then what was captured.
  const waiting = approved.items.slice(0, 2);
  const captured = approved.items.slice(2);
  expect(waiting.map((i) => [i.merchantName, i.status])).toEqual([
    ["Le Petit Café", "pending"],
    ["SNCF Connect", "pending"],
  ]);
  expect(captured.every((i) => i.status === "approved")).toBe(true);
  expect(declined.items.map((i) => [i.status, i.statusReason])).toEqual([
    ["declined", "meal_sunday"],
    ["declined", "merchant_not_allowed"],
    ["declined", "insufficient_funds"],
  ]);
  // The engine's declines carry their figures; nothing else does.
  expect(declined.items.map((i) => i.declineDetail?.amount)).toEqual(declined.items.map((i) => i.amount));
  expect(approved.items.every((i) => i.declineDetail === null)).toBe(true);
  // Frozen holds are pending and never settled: the rule shows their raw status.
  expect(frozen.items.map((i) => [i.merchantName, i.status])).toEqual([
    ["Le Petit Café", "pending"],
    ["SNCF Connect", "pending"],
  ]);
  for (const list of [waiting, captured, declined.items, frozen.items]) {
    const dates = list.map((i) => i.transactionAt);
    expect(dates).toEqual([...dates].sort().reverse());
  }
  expect(captured[0]).toMatchObject({
    merchantName: "Le Bistrot des Halles",
    merchantCity: "Lyon",
    merchantCountry: "FR",
    amount: 1250,
    canSwitchPaymentMethods: true,
  });
  const overflowed = approved.items.find((i) => i.overflowAmount > 0);
  expect(overflowed).toMatchObject({
    merchantName: "Le Comptoir Lyonnais",
    overflowAmount: 1850,
    latestPaymentStatus: "payment_failed",
  });
  expect(approved.items.filter((i) => i.latestPaymentStatus !== null)).toHaveLength(1);
});

test("the newest payment intent gives the latest payment status", async () => {
  const approved = (await listCardTransactions(handle.db, marie, card4242, { tab: "approved", limit: 14 }))!;
  const target = approved.items.find((i) => i.overflowAmount > 0)!;
  await handle.db
    .insertInto("payment_intents")
    .values({
      id: newId("pi"),
      authorization_id: target.id,
      credit_card_id: null,
      amount: 1850,
      latest_status: "succeeded",
      created_at: new Date().toISOString(),
    })
    .execute();
  const again = (await listCardTransactions(handle.db, marie, card4242, { tab: "approved", limit: 14 }))!;
  expect(again.items.find((i) => i.id === target.id)?.latestPaymentStatus).toBe("succeeded");
});

test("pages: 7 and more, then the rest and no more", async () => {
  const first = (await listCardTransactions(handle.db, marie, card4242, { tab: "approved", limit: 7 }))!;
  expect(first.items).toHaveLength(7);
  expect(first.hasMore).toBe(true);
  const second = (await listCardTransactions(handle.db, marie, card4242, { tab: "approved", limit: 14 }))!;
  expect(second.items).toHaveLength(14);
  expect(second.hasMore).toBe(false);
  expect(second.nextId).toBeNull();
  // The second page starts where the first said it would, and the first page is unchanged.
  expect(second.items.slice(0, 7)).toEqual(first.items);
  expect(second.items[7]?.id).toBe(first.nextId);
  // Exactly as many as exist: no further page.
  const exact = (await listCardTransactions(handle.db, marie, card4242, { tab: "approved", limit: 14 }))!;
  expect([exact.items.length, exact.hasMore]).toEqual([14, false]);
  const thirteen = (await listCardTransactions(handle.db, marie, card4242, { tab: "approved", limit: 13 }))!;
  expect([thirteen.items.length, thirteen.hasMore]).toEqual([13, true]);
  // Pages that end at, or just before, the last approval waiting for capture: the next starts where it should.
  for (const limit of [1, 2, 3]) {
    const page = (await listCardTransactions(handle.db, marie, card4242, { tab: "approved", limit }))!;
    expect(page.items.map((i) => i.id)).toEqual(second.items.slice(0, limit).map((i) => i.id));
    expect([page.hasMore, page.nextId]).toEqual([true, second.items[limit]?.id]);
  }

  const frozen = (await listFrozenAuthorizations(handle.db, marie, card4242, { limit: 5 }))!;
  expect([frozen.items.length, frozen.hasMore]).toEqual([2, false]);
  const oneFrozen = (await listFrozenAuthorizations(handle.db, marie, card4242, { limit: 1 }))!;
  expect([oneFrozen.items.length, oneFrozen.hasMore, oneFrozen.nextId]).toEqual([1, true, frozen.items[1]?.id]);

  // An empty card: empty lists, no more.
  expect(await listCardTransactions(handle.db, marie, card5556, { tab: "approved", limit: 7 })).toEqual({
    items: [],
    hasMore: false,
    nextId: null,
  });
  expect(await listFrozenAuthorizations(handle.db, marie, card5556, { limit: 5 })).toEqual({
    items: [],
    hasMore: false,
    nextId: null,
  });
});

test("the URL decides the tab and the limits, safely", async () => {
  const first = (await loadTransactionsForCard(handle.db, marie, card4242, url("")))!;
  expect(first).toMatchObject({ cardId: card4242, tab: "approved", limit: 7, frozenLimit: 5, hasMore: true });
  expect(first.items).toHaveLength(7);
  expect(first.frozen.items).toHaveLength(2);

  const more = (await loadTransactionsForCard(handle.db, marie, card4242, url("?limit=14")))!;
  expect([more.limit, more.items.length, more.hasMore, more.items[7]?.id]).toEqual([14, 14, false, first.nextId]);

  const declined = (await loadTransactionsForCard(
    handle.db,
    marie,
    card4242,
    url("?tab=declined&limit=abc&frozenLimit=3"),
  ))!;
  expect(declined).toMatchObject({ tab: "declined", limit: 7, frozenLimit: 5, hasMore: false });
  expect(declined.items).toHaveLength(3);

  for (const junk of ["0", "-14", "1e3", "14.5", "%00", "99999999999999999999"]) {
    expect(
      (await loadTransactionsForCard(handle.db, marie, card4242, url(`?limit=${junk}&frozenLimit=${junk}`)))!,
    ).toMatchObject({ limit: 7, frozenLimit: 5 });
  }
  expect(await loadTransactionsForCard(handle.db, marie, card4242, url("?tab=<script>&limit=15"))).toMatchObject({
    tab: "approved",
    limit: 21,
  });
  expect(
    await loadTransactionsForCard(handle.db, marie, card4242, url("?limit=100000&frozenLimit=100000")),
  ).toMatchObject({ limit: 140, frozenLimit: 100 });
});

test("the panel's one statement gives the same pages as the lists read one by one", async () => {
  for (const tab of ["approved", "declined"] as const)
    for (const [limit, frozenLimit] of [
      [1, 1],
      [2, 5],
      [3, 2],
      [7, 5],
      [14, 1],
    ] as const) {
      const panel = (await loadTransactionsForCard(handle.db, marie, card4242, { tab, limit, frozenLimit }))!;
      const page = (await listCardTransactions(handle.db, marie, card4242, { tab, limit }))!;
      const frozen = (await listFrozenAuthorizations(handle.db, marie, card4242, { limit: frozenLimit }))!;
      expect({ items: panel.items, hasMore: panel.hasMore, nextId: panel.nextId }, `${tab} ${limit}`).toEqual(page);
      expect(panel.frozen, `${tab} frozen ${frozenLimit}`).toEqual(frozen);
    }
});

test("another user's card, or an unknown one, gives nothing", async () => {
  expect(await listCardTransactions(handle.db, claire, card4242, { tab: "approved", limit: 7 })).toBeNull();
  expect(await listCardTransactions(handle.db, claire, card4242, { tab: "declined", limit: 7 })).toBeNull();
  expect(await listFrozenAuthorizations(handle.db, claire, card4242, { limit: 5 })).toBeNull();
  expect(await loadTransactionsForCard(handle.db, claire, card4242, url(""))).toBeNull();
  expect(await loadTransactionsForCard(handle.db, marie, claireCard, url(""))).toBeNull();
  expect(await loadTransactionsForCard(handle.db, marie, "card_unknown", url(""))).toBeNull();
});

test("a problem report needs 10 characters and the user's own approved or declined transaction, and is stored", async () => {
  const approved = (await listCardTransactions(handle.db, marie, card4242, { tab: "approved", limit: 7 }))!.items.find(
    (i) => i.status === "approved",
  )!;
  const declined = (await listCardTransactions(handle.db, marie, card4242, { tab: "declined", limit: 7 }))!.items[0]!;
  const frozen = (await listFrozenAuthorizations(handle.db, marie, card4242, { limit: 5 }))!.items[0]!;
  const valid = "Montant débité deux fois";

  expect(await reportProblem(handle.db, marie, approved.id, "   123456789   ")).toEqual({ kind: "tooShort" });
  expect(await reportProblem(handle.db, marie, approved.id, "")).toEqual({ kind: "tooShort" });
  expect(await reportProblem(handle.db, marie, approved.id, "x".repeat(1001))).toEqual({ kind: "tooLong" });
  expect(await reportProblem(handle.db, marie, frozen.id, valid)).toEqual({ kind: "notFound" });
  expect(await reportProblem(handle.db, claire, approved.id, valid)).toEqual({ kind: "notFound" });
  expect(await reportProblem(handle.db, marie, "auth_unknown", valid)).toEqual({ kind: "notFound" });
  expect(await handle.db.selectFrom("problem_reports").selectAll().execute()).toHaveLength(0);

  expect(await getReportableTransaction(handle.db, marie, approved.id)).toMatchObject({
    id: approved.id,
    cardId: card4242,
    status: "approved",
  });
  expect(await getReportableTransaction(handle.db, marie, frozen.id)).toBeNull();
  expect(await getReportableTransaction(handle.db, claire, approved.id)).toBeNull();

  expect(await reportProblem(handle.db, marie, approved.id, "  1234567890  ")).toEqual({ kind: "ok" });
  expect(await reportProblem(handle.db, marie, declined.id, `  ${valid}\n`)).toEqual({ kind: "ok" });
  expect(await reportProblem(handle.db, marie, declined.id, "x".repeat(1000))).toEqual({ kind: "ok" });
  const rows = await handle.db
    .selectFrom("problem_reports")
    .selectAll()
    .where("user_id", "=", marie)
    .orderBy("message")
    .execute();
  expect(rows.map((r) => [r.card_id, r.authorization_id, r.message])).toEqual([
    [card4242, approved.id, "1234567890"],
    [card4242, declined.id, valid],
    [card4242, declined.id, "x".repeat(1000)],
  ]);
});

test("an authorization neither settled nor closed shows its raw status in the declined tab and cannot be reported", async () => {
  const id = newId("auth");
  await handle.db
    .insertInto("card_authorizations")
    .values({
      id,
      card_id: card5556,
      amount: 990,
      merchant_name: "Librairie Decitre",
      merchant_city: "Lyon",
      merchant_country: "FR",
      status_name: "reversed",
      status_reason: null,
      has_card_transactions: 0,
      frozen: 0,
      overflow_amount: 0,
      can_switch_payment_methods: 0,
      transaction_at: new Date().toISOString(),
    })
    .execute();
  const declined = (await listCardTransactions(handle.db, marie, card5556, { tab: "declined", limit: 7 }))!;
  expect(declined.items.map((i) => [i.id, i.status])).toEqual([[id, "reversed"]]);
  expect((await listCardTransactions(handle.db, marie, card5556, { tab: "approved", limit: 7 }))!.items).toEqual([]);
  expect(await reportProblem(handle.db, marie, id, "Montant débité deux fois")).toEqual({ kind: "notFound" });
});

// Skipped on PostgreSQL, with its reason: this reads SQLite's EXPLAIN QUERY PLAN; PostgreSQL's planner picks a
// sequential scan on a test's few rows whatever the indexes: its plans tell something on a company-sized
// dataset (issue 35).
test.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
  "each tab's page is read from the card's list index, in its order, without sorting the card's history",
  async () => {
    for (const [frozen, settled] of [
      [1, 0],
      [0, 1],
      [0, 0],
    ]) {
      const plan = await sql<{ detail: string }>`explain query plan
        select * from card_authorizations where card_id = ${card4242} and frozen = ${frozen}
        and has_card_transactions = ${settled} order by transaction_at desc, id desc limit 8`.execute(handle.db);
      const steps = plan.rows.map((r) => r.detail).join("\n");
      expect(steps).toContain("card_auth_card_list_idx");
      expect(steps).not.toContain("TEMP B-TREE");
    }
  },
);
