import { afterAll, beforeAll, expect, test } from "vitest";
import { RouterContextProvider } from "react-router";
import { migrateToLatest, openDatabase, type DatabaseHandle } from "~/.server/db";
import { seedDemo } from "~/.server/db/seed";
import { SandboxMessenger } from "~/.server/providers/messaging/sandbox";
import { loadTransactionsForCard } from "~/.server/services/transactions";
import { transactionsQuery } from "~/domain/transactions";
import { cardsOf, relistCards } from "~/routes/+shared/auth.server";

/**
 * Issue 35 §3: the card page and the signed-in layout share one listing of the person's cards per request, and the
 * transactions panel reads its ownership from that listing instead of a query of its own.
 */
let handle: DatabaseHandle;
let queries: string[] = [];
let marie: string;
let marieCard: string;
let paulCard: string;

beforeAll(async () => {
  handle = openDatabase(":memory:", { log: (query) => queries.push(query.sql) });
  await migrateToLatest(handle.db);
  await seedDemo(handle.db, new SandboxMessenger(handle.db), { now: new Date(), baseUrl: "http://localhost" });
  const cardOf = async (email: string) =>
    handle.db
      .selectFrom("cards")
      .innerJoin("users", "users.id", "cards.user_id")
      .select(["cards.id", "users.id as userId"])
      .where("users.email", "=", email)
      .orderBy("cards.created_at")
      .executeTakeFirstOrThrow();
  const own = await cardOf("marie.martin@example.com");
  marie = own.userId;
  marieCard = own.id;
  paulCard = (await cardOf("paul.durand@example.com")).id;
});

afterAll(() => handle.close());

const cardListings = () => queries.filter((sql) => /from "cards" where "user_id" = \?/.test(sql)).length;

test("a request lists the person's cards once, whoever asks; a new request, or a recorded card, reads them again", async () => {
  const context = new RouterContextProvider();
  queries = [];
  const [first, second] = await Promise.all([cardsOf(context, handle.db, marie), cardsOf(context, handle.db, marie)]);
  expect(await cardsOf(context, handle.db, marie)).toBe(first);
  expect(second).toBe(first);
  expect(first.map((card) => card.id)).toContain(marieCard);
  expect(cardListings()).toBe(1);

  relistCards(context, handle.db, marie);
  expect(await cardsOf(context, handle.db, marie)).toEqual(first);
  expect(cardListings()).toBe(2);

  await cardsOf(new RouterContextProvider(), handle.db, marie);
  expect(cardListings()).toBe(3);
});

test("the transactions panel takes its ownership from the person's listing: someone else's card is null, unread", async () => {
  const cards = await cardsOf(new RouterContextProvider(), handle.db, marie);
  const query = transactionsQuery(new URLSearchParams());
  queries = [];
  expect(await loadTransactionsForCard(handle.db, marie, paulCard, query, cards)).toBeNull();
  expect(queries).toEqual([]);

  const panel = await loadTransactionsForCard(handle.db, marie, marieCard, query, cards);
  expect(queries.some((sql) => /from "cards"/.test(sql))).toBe(false);
  // The same panel as the one that checks the card with a query of its own.
  expect(panel).toEqual(await loadTransactionsForCard(handle.db, marie, marieCard, query));
  expect(await loadTransactionsForCard(handle.db, marie, paulCard, query)).toBeNull();
});
