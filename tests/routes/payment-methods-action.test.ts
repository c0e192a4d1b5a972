import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createAccount, type CreatedAccount } from "../../app/.server/db/factories";
import type { DatabaseHandle } from "~/.server/db";
import { openTestDatabase } from "../support/test-database";
import { getAccount } from "~/.server/services/accounts";
import { capture } from "~/.server/services/authorisation-lifecycle";
import { authorise } from "~/.server/services/authorisations";
import { accountContext } from "~/routes/+shared/auth.server";
import { action } from "~/routes/cards/transaction-payment-methods";
import { installTestPlatform } from "../support/test-platform";

/**
 * The payment-method switch's action (routes/cards/transaction-payment-methods.tsx, decision 0038) called as React
 * Router calls it, without JavaScript: an amount above what the engine's rules allow on the payment's day is the
 * form's French error (400, conform's reply) and nothing is written. SQLite, or PostgreSQL with TEST_DATABASE_URL.
 */
let handle: DatabaseHandle;
let account: CreatedAccount;
let other: CreatedAccount;
/** Tuesday 24 November 2026, 12:30 and 20:00 in Paris. */
const LUNCH = new Date("2026-11-24T11:30:00Z");
const DINNER = new Date("2026-11-24T19:00:00Z");
const RESTAURANT = { name: "Le Petit Café", city: "Lyon", country: "FR", categoryCode: "5812" };
let dinner: string;

async function captured(amount: number, at: Date): Promise<string> {
  const result = await authorise(
    { db: handle.db },
    {
      card: { id: account.cards["4242"]! },
      amount,
      currency: "EUR",
      merchant: RESTAURANT,
      at,
      entryMode: "contactless",
    },
  );
  if (result.kind !== "approved") throw new Error(`expected an approval, got ${JSON.stringify(result)}`);
  await capture({ db: handle.db }, result.authorizationId, amount);
  return result.authorizationId;
}

beforeAll(async () => {
  handle = await openTestDatabase();
  installTestPlatform(handle, "switch-action-test-secret-0123456789abcdef");
  const wallets = [
    { name: "Titres-restaurant", type: "meal", balance: 10000 },
    { name: "Cadeaux", type: "gift", balance: 5000 },
  ];
  const card = { type: "physical" as const, lastFour: "4242", wallets: wallets.map((w) => w.name) };
  account = await createAccount(
    handle.db,
    { email: "switch-action@example.com", passwordHash: "x", wallets, cards: [card] },
    LUNCH,
  );
  other = await createAccount(
    handle.db,
    { email: "switch-other@example.com", passwordHash: "x", wallets, cards: [card] },
    LUNCH,
  );
  // Lunch, 15 € of titres-restaurant; dinner, 20 €: 10 € left of the day's 25 €, Cadeaux the rest.
  await captured(1500, LUNCH);
  dinner = await captured(2000, DINNER);
  await handle.db
    .updateTable("card_authorizations")
    .set({ can_switch_payment_methods: 1 })
    .where("id", "=", dinner)
    .execute();
});
afterAll(() => handle.close());

/** POSTs the amounts (by wallet name) as the browser does without JavaScript, signed in as `who`. */
async function post(who: CreatedAccount, amounts: Record<string, string>): Promise<unknown> {
  const cardId = account.cards["4242"]!;
  const request = new Request(`http://localhost/cards/${cardId}/transactions/${dinner}/payment-methods`, {
    method: "POST",
    body: new URLSearchParams(
      Object.entries(amounts).map(([name, value]) => [`amount-${account.wallets[name]}`, value]),
    ),
  });
  const context = new RouterContextProvider();
  context.set(accountContext, (await getAccount(handle.db, who.userId))!);
  try {
    return await action({
      request,
      url: new URL(request.url),
      pattern: "/cards/:cardId/transactions/:authorizationId/payment-methods",
      params: { cardId, authorizationId: dinner },
      context,
    });
  } catch (thrown) {
    return thrown;
  }
}

/** A redirect (status, Location) or a refusal (status, each field's first message). */
function answerOf(result: unknown): { status: number; location?: string | null; errors?: Record<string, string> } {
  if (result instanceof Response) return { status: result.status, location: result.headers.get("Location") };
  // A refusal is conform's reply (`refuse`, decision 0021); form-level messages are its "" key.
  const refused = result as { init?: ResponseInit | null; data?: { error?: Record<string, string[] | null> } };
  const error = refused.data?.error ?? {};
  return {
    status: refused.init?.status ?? 200,
    errors: Object.fromEntries(Object.entries(error).flatMap(([f, m]) => (m?.[0] ? [[f || "form", m[0]]] : []))),
  };
}

const movements = async () =>
  (await handle.db.selectFrom("wallet_transactions").select("id").where("authorization_id", "=", dinner).execute())
    .length;

test("more titres-restaurant than the day's 25 € leave: the form's error, 400, nothing written", async () => {
  const before = await movements();
  expect(answerOf(await post(account, { "Titres-restaurant": "10,01", Cadeaux: "9,99" }))).toEqual({
    status: 400,
    errors: { [`amount-${account.wallets["Titres-restaurant"]}`]: "errors.switchTooMuch" },
  });
  expect(await movements()).toBe(before);
});

test("another person's ids change nothing; within the rules the money moves", async () => {
  const before = await movements();
  const foreign = answerOf(await post(other, { "Titres-restaurant": "10", Cadeaux: "10" }));
  expect(foreign.status).toBe(302);
  expect(foreign.location).toBe("/cards");
  expect(await movements()).toBe(before);

  const done = answerOf(await post(account, { "Titres-restaurant": "10", Cadeaux: "10" }));
  expect(done).toMatchObject({ status: 302, location: `/cards/${account.cards["4242"]}` });
  expect(await movements()).toBeGreaterThan(before);
});
