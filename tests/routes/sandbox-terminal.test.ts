import { afterAll, beforeAll, expect, test } from "vitest";
import type { DatabaseHandle } from "~/.server/db";
import { createAccount, type CreatedAccount } from "../../app/.server/db/factories";
import { openTestDatabase } from "../support/test-database";
import type { Platform } from "~/.server/platform";
import { action, loader } from "~/routes/sandbox/terminal";
import { installTestPlatform } from "../support/test-platform";

/**
 * /dev/terminal (routes/sandbox/terminal.tsx, decision 0037) as React Router calls it: a 404 outside sandbox mode,
 * bad inputs refused with a 400 and their fields' messages (never a 500), a payment redirected to its decision, the
 * capture's amount checked.
 */
let handle: DatabaseHandle;
let platform: Platform;
let account: CreatedAccount;

beforeAll(async () => {
  handle = await openTestDatabase();
  platform = installTestPlatform(handle, "sandbox-terminal-test-secret-0123456789");
  account = await createAccount(handle.db, {
    email: `terminal-${Math.random().toString(36).slice(2)}@example.com`,
    passwordHash: "x",
    wallets: [{ name: "Titres-restaurant", type: "meal", balance: 10000 }],
    cards: [{ type: "physical", lastFour: "9191", wallets: ["Titres-restaurant"] }],
  });
});
afterAll(() => handle.close());

type Args = Parameters<typeof action>[0];
const post = (fields: Record<string, string>, search = "") =>
  action({
    request: new Request(`http://localhost/dev/terminal${search}`, {
      method: "POST",
      body: new URLSearchParams(fields),
    }),
    params: {},
    context: undefined,
  } as unknown as Args);

/** A redirect's status and Location, or a refusal's status and its fields' first messages. */
function answerOf(result: unknown) {
  if (result instanceof Response) return { status: result.status, location: result.headers.get("Location") };
  const refused = result as {
    init?: ResponseInit | null;
    data?: { error?: Record<string, string[] | null>; lifecycleError?: string };
  };
  const errors = refused.data?.lifecycleError
    ? { form: refused.data.lifecycleError }
    : Object.fromEntries(
        Object.entries(refused.data?.error ?? {}).flatMap(([field, messages]) =>
          messages?.[0] ? [[field || "form", messages[0]]] : [],
        ),
      );
  return { status: refused.init?.status ?? 200, errors };
}

const payment = {
  intent: "pay",
  card: "9191",
  amount: "12,50",
  currency: "EUR",
  merchant: "restaurant",
  day: "2026-11-24",
  time: "12:30",
  entryMode: "contactless",
};

test("outside sandbox mode the terminal is a 404, page and form", async () => {
  const sandbox = platform.env;
  platform.env = { ...sandbox, sandbox: false };
  try {
    await expect(loader({ request: new Request("http://localhost/dev/terminal") } as never)).rejects.toMatchObject({
      init: { status: 404 },
    });
    await expect(post(payment)).rejects.toMatchObject({ init: { status: 404 } });
  } finally {
    platform.env = sandbox;
  }
});

test("bad inputs: 400 with each field's message, nothing recorded", async () => {
  expect(
    answerOf(await post({ ...payment, amount: "0", currency: "ZZZ", merchant: "custom", categoryCode: "12345" })),
  ).toEqual({
    status: 400,
    errors: {
      amount: "terminal.errors.amountPositive",
      currency: "terminal.errors.currency",
      categoryCode: "terminal.errors.categoryCode",
    },
  });
  expect(answerOf(await post({ ...payment, amount: "99999999" }))).toMatchObject({
    status: 400,
    errors: { amount: "terminal.errors.amountFormat" },
  });
  expect(answerOf(await post({ ...payment, card: "0000" }))).toEqual({
    status: 400,
    errors: { card: "terminal.errors.cardUnknown" },
  });
  expect(answerOf(await post({ ...payment, entryMode: "chip_and_pin" }))).toEqual({
    status: 400,
    errors: { pin: "terminal.errors.pin" },
  });
  expect(answerOf(await post({ ...payment, day: "2026-02-31" }))).toEqual({
    status: 400,
    errors: { day: "terminal.errors.dateTime" },
  });
  const rows = await handle.db.selectFrom("card_authorizations").select("id").execute();
  expect(rows).toEqual([]);
});

test("a payment leads to its decision; its capture checks the amount", async () => {
  const paid = answerOf(await post(payment));
  expect(paid.status).toBe(302);
  const location = new URL(paid.location!, "http://localhost");
  expect(location.pathname).toBe("/dev/terminal");
  expect(location.searchParams.get("holder")).toBe(account.email);
  const id = location.searchParams.get("authorization")!;

  const page = (await loader({ request: new Request(`http://localhost${paid.location}`) } as never)) as unknown as {
    data: { decision: { state: string; parts: { wallet: string; amount: number }[] } };
  };
  expect(page.data.decision).toMatchObject({
    state: "approved",
    parts: [{ wallet: "Titres-restaurant", amount: 1250 }],
  });

  expect(answerOf(await post({ intent: "capture", authorization: id, amount: "douze" }))).toEqual({
    status: 400,
    errors: { form: "terminal.errors.amountFormat" },
  });
  expect(answerOf(await post({ intent: "capture", authorization: id, amount: "12,50" }))).toMatchObject({
    status: 302,
  });
  expect(answerOf(await post({ intent: "reverse", authorization: id }))).toMatchObject({ status: 302 });
  const row = await handle.db
    .selectFrom("card_authorizations")
    .select(["has_card_transactions", "status_name"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  // The reversal of a captured payment changed nothing.
  expect(row).toEqual({ has_card_transactions: 1, status_name: "closed" });
});
