import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createAccount, type CreatedAccount } from "../../app/.server/db/factories";
import type { DatabaseHandle } from "~/.server/db";
import { openTestDatabase } from "../support/test-database";
import { getAccount } from "~/.server/services/accounts";
import { newRequestId } from "~/.server/services/card-creation";
import { accountContext } from "~/routes/+shared/auth.server";
import { action } from "~/routes/cards/new-card";
import { installTestPlatform } from "../support/test-platform";

/**
 * The card creation wizard's action (routes/cards/new-card.tsx, flow in routes/cards/wizard.server.ts)
 * called as React Router calls it: a real urlencoded `Request`, a context holding the signed-in account
 * (as the signed-in layout's middleware leaves it), a test database (SQLite, or PostgreSQL with
 * TEST_DATABASE_URL) and the sandbox issuer.
 */
let handle: DatabaseHandle;
let account: CreatedAccount;

beforeAll(async () => {
  handle = await openTestDatabase();
  installTestPlatform(handle, "card-wizard-test-secret-0123456789abcdef");
  account = await createAccount(handle.db, {
    email: "wizard@example.com",
    passwordHash: "unused",
    cards: [{ type: "physical", lastFour: "4242" }],
    freeLicences: ["physical_card", "virtual_card"],
  });
});
afterAll(() => handle.close());

const cardPath = () => `/cards/${account.cards["4242"]}`;

/** POSTs this form to the wizard of the account's card, as the browser does without JavaScript. */
async function post(form: Record<string, string>): Promise<unknown> {
  const request = new Request(`http://localhost${cardPath()}/new-card`, {
    method: "POST",
    body: new URLSearchParams(form),
  });
  const context = new RouterContextProvider();
  context.set(accountContext, (await getAccount(handle.db, account.userId))!);
  try {
    return await action({
      request,
      url: new URL(request.url),
      pattern: "/cards/:cardId/new-card",
      params: { cardId: account.cards["4242"]! },
      context,
    });
  } catch (thrown) {
    // A request the page cannot take at all (an unknown step) is thrown, as React Router lets actions do.
    return thrown;
  }
}

/**
 * What the action answered: a redirect (status and Location), or a refusal (status and the fields'
 * error keys). The one place that reads the form's error shape: adapt it when the wizard moves to
 * conform's `submission.reply()`.
 */
function answerOf(result: unknown): { status: number; location?: string | null; errors?: Record<string, unknown> } {
  if (result instanceof Response) return { status: result.status, location: result.headers.get("Location") };
  // A refusal is conform's reply (decision 0021): each field's first message.
  // A thrown refusal carries one message for the whole form.
  const refused = result as {
    init?: ResponseInit | null;
    data?: { message?: string; lastResult?: { error?: Record<string, string[] | null> } };
  };
  if (refused.data?.message) return { status: refused.init?.status ?? 200, errors: { form: refused.data.message } };
  const error = refused.data?.lastResult?.error;
  // Form-level messages are conform's "" key.
  const errors = error
    ? Object.fromEntries(
        Object.entries(error).flatMap(([field, messages]) => (messages?.[0] ? [[field || "form", messages[0]]] : [])),
      )
    : undefined;
  return { status: refused.init?.status ?? 200, errors };
}

const cardsOf = () =>
  handle.db.selectFrom("cards").selectAll().where("user_id", "=", account.userId).orderBy("created_at").execute();
const freeLicences = async (type: "physical_card" | "virtual_card") =>
  (
    await handle.db
      .selectFrom("licences")
      .select("id")
      .where("user_id", "=", account.userId)
      .where("license_type", "=", type)
      .where("used_at", "is", null)
      .execute()
  ).length;

test("a physical card: choice, PIN (a bad one is a 400), address, summary, then the redirect to the new card", async () => {
  const request = newRequestId();
  const step = (name: string) => `${cardPath()}/new-card?step=${name}&request=${request}`;

  expect(answerOf(await post({ step: "card", request, group: account.groupId, type: "physical" }))).toEqual({
    status: 302,
    location: step("pin"),
  });

  // A PIN that is not 4 digits, or not typed twice the same: 400 on the field, nothing saved.
  expect(answerOf(await post({ step: "pin", request, pin: "12a4", confirmation: "12a4" }))).toMatchObject({
    status: 400,
    errors: { pin: "errors.pinFormat" },
  });
  expect(answerOf(await post({ step: "pin", request, pin: "2580", confirmation: "2581" }))).toMatchObject({
    status: 400,
    errors: { confirmation: "errors.pinMismatch" },
  });
  const draft = await handle.db
    .selectFrom("card_requests")
    .selectAll()
    .where("id", "=", request)
    .executeTakeFirstOrThrow();
  expect([draft.status, draft.pin_ciphertext]).toEqual(["draft", null]);

  expect(answerOf(await post({ step: "pin", request, pin: "2580", confirmation: "2580" }))).toEqual({
    status: 302,
    location: step("address"),
  });
  expect(
    answerOf(
      await post({
        step: "address",
        request,
        line1: "12 rue de la République",
        line2: "",
        zipcode: "69002",
        city: "Lyon",
        country: "FR",
      }),
    ),
  ).toEqual({
    status: 302,
    location: step("summary"),
  });
  expect(await cardsOf()).toHaveLength(1);

  const done = answerOf(await post({ step: "summary", request }));
  const cards = await cardsOf();
  expect(cards).toHaveLength(2);
  const created = cards.find((c) => c.id !== account.cards["4242"])!;
  expect(done).toEqual({ status: 302, location: `/cards/${created.id}` });
  expect([created.type, created.shipping_zipcode, created.shipping_city]).toEqual(["physical", "69002", "Lyon"]);
  expect(await freeLicences("physical_card")).toBe(0);

  // The same summary sent again (a double click, Back then resubmit): a 400, nothing new.
  expect(answerOf(await post({ step: "summary", request }))).toMatchObject({
    status: 400,
    errors: { form: "cards.create.alreadyCreated" },
  });
  expect(await cardsOf()).toHaveLength(2);
});

test("a virtual card is made at the first step; a forged funder, an unknown step or request is a 400", async () => {
  expect(
    answerOf(await post({ step: "card", request: newRequestId(), group: "grp_not_mine", type: "virtual" })),
  ).toMatchObject({ status: 400, errors: { group: "errors.funderUnknown" } });
  expect(answerOf(await post({ step: "card", request: newRequestId(), group: account.groupId }))).toMatchObject({
    status: 400,
    errors: { type: "errors.cardTypeRequired" },
  });
  expect(answerOf(await post({ step: "teleport", request: newRequestId() }))).toMatchObject({
    status: 400,
    errors: { form: "errors.unknownIntent" },
  });
  expect(
    answerOf(await post({ step: "card", request: "creq_forged", group: account.groupId, type: "virtual" })),
  ).toMatchObject({ status: 400, errors: { form: "cards.create.unknownRequest" } });
  const before = (await cardsOf()).length;

  const answer = answerOf(
    await post({ step: "card", request: newRequestId(), group: account.groupId, type: "virtual" }),
  );
  const cards = await cardsOf();
  expect(cards).toHaveLength(before + 1);
  const virtual = cards.find((c) => c.type === "virtual")!;
  expect(answer).toEqual({ status: 302, location: `/cards/${virtual.id}` });
  expect(await freeLicences("virtual_card")).toBe(0);

  // No licence left: refused on the type.
  expect(
    answerOf(await post({ step: "card", request: newRequestId(), group: account.groupId, type: "virtual" })),
  ).toMatchObject({ status: 400, errors: { type: "errors.noLicenceForType" } });
  expect(await cardsOf()).toHaveLength(before + 1);
});
