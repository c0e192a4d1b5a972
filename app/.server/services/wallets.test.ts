import { afterAll, beforeAll, expect, test } from "vitest";
import type { DatabaseHandle } from "../db";
import { seedDemo } from "../db/seed";
import { openTestDatabase } from "../../../tests/support/test-database";
import { SandboxMessenger } from "../providers/messaging/sandbox";
import {
  availableWalletLicences,
  createWalletFromLicence,
  getWalletDetail,
  listWalletNames,
  listWallets,
  listWalletTransactions,
  linkedWalletSummaries,
  walletPage,
} from "./wallets";
import { listCards } from "./cards";

/** The wallets page's data on a real database (DEMO.md's wallets). */
let handle: DatabaseHandle;
const users: Record<string, string> = {};
const wallets: Record<string, string> = {};

beforeAll(async () => {
  handle = await openTestDatabase();
  await seedDemo(handle.db, new SandboxMessenger(handle.db), { now: new Date(), baseUrl: "http://localhost" });
  for (const [name, email] of Object.entries({
    marie: "marie.martin@example.com",
    paul: "paul.durand@example.com",
    claire: "claire.petit@example.com",
  })) {
    users[name] = (
      await handle.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()
    ).id;
  }
  for (const w of await listWallets(handle.db, users.marie!)) wallets[w.name] = w.id;
}, 30_000);
afterAll(() => handle.close());

test("marie's four wallets, in order; paul has none", async () => {
  expect(Object.keys(wallets)).toEqual(["Titres-restaurant", "Mobilité", "Cadeaux de Noël", "Culture"]);
  expect(await listWallets(handle.db, users.paul!)).toEqual([]);
  // The navigation's light list: the same wallets in the same order, names only.
  expect((await listWalletNames(handle.db, users.marie!)).map((w) => w.name)).toEqual(Object.keys(wallets));
  expect(await listWalletNames(handle.db, users.paul!)).toEqual([]);
});

test("Titres-restaurant: balance less the frozen meal, a daily limit, the total, one balance with its expiry", async () => {
  const meal = (await getWalletDetail(handle.db, users.marie!, wallets["Titres-restaurant"]!))!;
  expect(meal.total).toBe(15240);
  expect(meal.available).toBe(15240 - meal.frozen);
  expect(meal.frozen).toBeGreaterThan(0);
  expect(meal.dailySpendingLimit).toBe(2500);
  expect(meal.guide).toBe("meal");
  expect(meal.balances).toHaveLength(1);
  expect(meal.singleExpiry).toBe(meal.balances[0]!.endDate);
});

test("the spending limit is what the wallet can still pay today: its balance, capped by what the daily limit leaves", async () => {
  const id = wallets["Titres-restaurant"]!;
  // A day ahead of the demo's payments: nothing paid with it yet that day, so the daily limit (25 €) is whole.
  const day = new Date(Date.now() + 3 * 24 * 3600 * 1000);
  const before = (await getWalletDetail(handle.db, users.marie!, id, day))!;
  expect(before.available).toBeGreaterThan(2500);
  expect(before.spendable).toBe(2500);
  await handle.db
    .insertInto("wallet_transactions")
    .values({
      id: "wtx_spent_today",
      wallet_id: id,
      amount: -1800,
      main_comment: "withdraw",
      merchant_name: "Cantine",
      status: "processed",
      created_at: day.toISOString(),
    })
    .execute();
  try {
    expect((await getWalletDetail(handle.db, users.marie!, id, day))!.spendable).toBe(700);
    // The next day, the limit starts again.
    expect(
      (await getWalletDetail(handle.db, users.marie!, id, new Date(day.getTime() + 26 * 3600 * 1000)))!.spendable,
    ).toBe(2500);
  } finally {
    await handle.db.deleteFrom("wallet_transactions").where("id", "=", "wtx_spent_today").execute();
  }
  // Unlimited, no daily limit: unlimited.
  expect((await getWalletDetail(handle.db, users.marie!, wallets.Culture!))!.spendable).toBeNull();
  // A limited wallet without a daily limit: its balance.
  const gift = (await getWalletDetail(handle.db, users.marie!, wallets["Cadeaux de Noël"]!))!;
  expect(gift.spendable).toBe(gift.available);
});

test("Cadeaux de Noël: two valid balances, soonest expiry first, each with its progress; the gift guide", async () => {
  const gift = (await getWalletDetail(handle.db, users.marie!, wallets["Cadeaux de Noël"]!))!;
  expect(gift.balances.map((b) => b.balance)).toEqual([12000, 8000]);
  expect(gift.balances[0]!.endDate < gift.balances[1]!.endDate).toBe(true);
  expect(gift.balances[0]!.daysLeft).toBe(20);
  expect(gift.balances.every((b) => b.elapsedPercent > 0 && b.elapsedPercent < 100)).toBe(true);
  expect(gift.singleExpiry).toBeNull();
  expect(gift.total).toBe(20000);
  expect(gift.guide).toBe("gift");
});

test("Mobilité: the credit limit gives 420 of 600, less the frozen 12; auto-extension on", async () => {
  const mobility = (await getWalletDetail(handle.db, users.marie!, wallets["Mobilité"]!))!;
  expect(mobility.creditLimits).toEqual([expect.objectContaining({ initial: 60000, remaining: 42000 })]);
  expect(mobility.frozen).toBe(1200);
  expect(mobility.available).toBe(42000 - 1200);
  expect(mobility.autoExtend).toBe(true);
});

test("Culture: unlimited, no amount", async () => {
  const culture = (await getWalletDetail(handle.db, users.marie!, wallets.Culture!))!;
  expect(culture).toMatchObject({ unlimited: true, available: null, total: null, guide: "culture" });
});

test("nobody reads another user's wallet or its transactions", async () => {
  expect(await getWalletDetail(handle.db, users.paul!, wallets.Culture!)).toBeNull();
  expect(
    await listWalletTransactions(handle.db, users.paul!, wallets["Titres-restaurant"]!, { processed: 7, frozen: 5 }),
  ).toBeNull();
  expect(await getWalletDetail(handle.db, users.marie!, "wal_unknown")).toBeNull();
});

test("transactions page by 7, newest first; frozen amounts negated; a withdraw names its merchant", async () => {
  const first = (await listWalletTransactions(handle.db, users.marie!, wallets["Titres-restaurant"]!, {
    processed: 7,
    frozen: 5,
  }))!;
  expect(first.processed).toHaveLength(7);
  expect(first.processedNextId).not.toBeNull();
  const dates = first.processed.map((t) => t.createdAt);
  expect([...dates].sort().reverse()).toEqual(dates);
  expect(first.processed.find((t) => t.label.kind === "merchant")).toBeDefined();
  expect(first.frozen.length).toBeGreaterThan(0);
  expect(first.frozen.every((t) => t.amount > 0)).toBe(true);
  const all = (await listWalletTransactions(handle.db, users.marie!, wallets["Titres-restaurant"]!, {
    processed: 14,
    frozen: 5,
  }))!;
  expect(all.processed.length).toBeGreaterThanOrEqual(10);
  expect(all.processed.slice(0, 7)).toEqual(first.processed);
  expect(all.processed[7]!.id).toBe(first.processedNextId);
  expect(all.processedNextId).toBeNull();
  expect(all.processed.some((t) => t.label.kind === "comment" && t.label.key === "deposit")).toBe(true);
});

test("a wallet licence activates one wallet, once, even when used twice at once", async () => {
  const [licence] = await availableWalletLicences(handle.db, users.marie!);
  expect(licence).toMatchObject({ groupName: "Acme France", walletType: "mobility" });
  expect(await createWalletFromLicence(handle.db, users.paul!, licence!.id)).toEqual({ kind: "refused" });
  const results = await Promise.all([
    createWalletFromLicence(handle.db, users.marie!, licence!.id),
    createWalletFromLicence(handle.db, users.marie!, licence!.id),
  ]);
  expect(results.map((r) => r.kind).sort()).toEqual(["created", "refused"]);
  expect(await listWallets(handle.db, users.marie!)).toHaveLength(5);
  expect(await availableWalletLicences(handle.db, users.marie!)).toEqual([]);
  const made = results.find((r) => r.kind === "created");
  const created = (await getWalletDetail(handle.db, users.marie!, made!.kind === "created" ? made!.walletId : ""))!;
  expect(created).toMatchObject({ name: "Mobilité", walletType: "mobility", total: 0, sourceName: "Acme France" });
});

test("the pages' funds, read in one statement by user or by card, are those read wallet by wallet", async () => {
  const now = new Date();
  const summaries = await listWallets(handle.db, users.marie!, now);
  for (const [name, id] of Object.entries(wallets)) {
    const { page } = await walletPage(handle.db, users.marie!, id, { processed: 7, frozen: 5 }, now);
    const detail = (await getWalletDetail(handle.db, users.marie!, id, now))!;
    // Every balance and credit limit, in the same order, and the same figures.
    expect(page!.wallet, name).toEqual(detail);
    expect(page!.strip.find((w) => w.id === id)?.available, name).toBe(detail.available);
  }
  let compared = 0;
  for (const card of await listCards(handle.db, users.marie!)) {
    const linked = await linkedWalletSummaries(handle.db, users.marie!, card.id, now);
    for (const w of linked) expect(w, `${card.lastFour} ${w.name}`).toEqual(summaries.find((s) => s.id === w.id));
    compared += linked.length;
  }
  expect(compared).toBeGreaterThan(2);
  // Someone else's card links none of marie's wallets, and marie's none of claire's.
  const marieCard = (await listCards(handle.db, users.marie!))[0]!;
  expect(await linkedWalletSummaries(handle.db, users.claire!, marieCard.id, now)).toEqual([]);
});
