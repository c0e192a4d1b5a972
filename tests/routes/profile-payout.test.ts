import { RouterContextProvider } from "react-router";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import type { DatabaseHandle } from "~/.server/db";
import { createAccount, type CreatedAccount } from "../../app/.server/db/factories";
import { openTestDatabase } from "../support/test-database";
import { getAccount } from "~/.server/services/accounts";
import { codeSequence, setCodeGenerator } from "~/.server/services/codes";
import { IBAN_CHANGED_NOTIFICATION } from "~/.server/services/payout-details";
import { listOutbox } from "~/.server/providers/messaging/sandbox";
import { accountContext } from "~/routes/+shared/auth.server";
import { action } from "~/routes/settings/profile";
import { action as confirmAction, loader as confirmLoader } from "~/routes/settings/profile-confirm";
import { installTestPlatform } from "../support/test-platform";

/**
 * The profile's bank details and postal address (issue 31 §1, decision 0054) as React Router calls the actions: an
 * IBAN refused on its field (foreign outside SEPA, wrong checksum, the same as saved), a change that waits for the
 * code sent to the person's second factor and applies only with it, five wrong codes that refuse even the right one,
 * another person who never reaches the change, and the address saved at once or refused whole.
 * SQLite, or PostgreSQL with TEST_DATABASE_URL.
 */
let handle: DatabaseHandle;
const SAVED = "FR7630006000011234567890189";
const NEW = "DE89370400440532013000";

beforeAll(async () => {
  handle = await openTestDatabase();
  installTestPlatform(handle, "profile-payout-test-secret-0123456789abcdef");
});
afterAll(() => handle.close());

let me: CreatedAccount;
let other: CreatedAccount;
let restoreCodes: () => void;

beforeEach(async () => {
  const suffix = Math.random().toString(36).slice(2);
  const card = { type: "virtual" as const, lastFour: "4242" };
  me = await createAccount(handle.db, {
    email: `payout-${suffix}@example.com`,
    passwordHash: "x",
    cards: [card],
    payoutIban: SAVED,
  });
  other = await createAccount(handle.db, {
    email: `payout-other-${suffix}@example.com`,
    passwordHash: "x",
    cards: [card],
    mfa: "SMS",
    phone: "+33699000000",
  });
  restoreCodes = setCodeGenerator(codeSequence("111111", "222222", "333333", "444444"));
});
afterEach(() => restoreCodes());

async function contextOf(account: CreatedAccount) {
  const context = new RouterContextProvider();
  context.set(accountContext, (await getAccount(handle.db, account.userId))!);
  return context;
}

type Answer = { status: number; location: string | null; errors: Record<string, string[]> | undefined };

/** What an action answered or threw: its status, where it leads, and conform's field errors of a refusal. */
function answerOf(result: unknown): Answer {
  if (result instanceof Response)
    return { status: result.status, location: result.headers.get("Location"), errors: undefined };
  const refusal = result as { init?: { status?: number } | null; data?: { error?: Record<string, string[]> } };
  return { status: refusal.init?.status ?? 200, location: null, errors: refusal.data?.error };
}

async function call(run: () => Promise<unknown>): Promise<Answer> {
  try {
    return answerOf(await run());
  } catch (thrown) {
    return answerOf(thrown);
  }
}

const requestOf = (path: string, form: Record<string, string>) =>
  new Request(`http://localhost${path}`, { method: "POST", body: new URLSearchParams(form) });

async function postProfile(account: CreatedAccount, form: Record<string, string>) {
  const context = await contextOf(account);
  return call(() =>
    action({ request: requestOf("/settings/profile", form), params: {}, context } as unknown as Parameters<
      typeof action
    >[0]),
  );
}

async function postConfirm(account: CreatedAccount, form: Record<string, string>) {
  const context = await contextOf(account);
  const args = { request: requestOf("/settings/profile/confirm/iban", form), params: { field: "iban" }, context };
  return call(() => confirmAction(args as unknown as Parameters<typeof confirmAction>[0]));
}

const savedIban = async (account: CreatedAccount) =>
  (await handle.db.selectFrom("users").select("payout_iban").where("id", "=", account.userId).executeTakeFirstOrThrow())
    .payout_iban;

const pendingRows = (account: CreatedAccount) =>
  handle.db
    .selectFrom("pending_changes")
    .select("new_value")
    .where("user_id", "=", account.userId)
    .where("field_name", "=", "iban")
    .execute();

describe("a new IBAN on the profile (intent iban)", () => {
  test.each([
    ["a foreign IBAN outside SEPA", "BR1800360305000010009795493C1", "refunds.errors.ibanNotSepa"],
    ["a wrong checksum", "FR7630006000011234567890188", "refunds.errors.ibanChecksum"],
    ["a country that does not exist", "ZZ7630006000011234567890189", "refunds.errors.ibanCountry"],
    ["nothing", "  ", "refunds.errors.ibanRequired"],
    ["the account already saved", "fr76 3000 6000 0112 3456 7890 189", "settings.profile.payout.unchanged"],
  ])("%s is refused with 400 on its field, nothing waits and nothing is sent", async (_, iban, error) => {
    const before = (await listOutbox(handle.db)).length;
    const answer = await postProfile(me, { intent: "iban", iban });
    expect(answer.status).toBe(400);
    expect(answer.errors?.iban).toEqual([error]);
    expect(await pendingRows(me)).toEqual([]);
    expect(await savedIban(me)).toBe(SAVED);
    expect((await listOutbox(handle.db)).length).toBe(before);
  });

  test("a valid one waits for the code sent to the person's e-mail (their second factor); nothing is saved before", async () => {
    const answer = await postProfile(me, { intent: "iban", iban: "de89 3704 0044 0532 0130 00" });
    expect(answer.status).toBe(302);
    expect(answer.location).toBe("/settings/profile/confirm/iban");
    expect(await pendingRows(me)).toEqual([{ new_value: NEW }]);
    expect(await savedIban(me)).toBe(SAVED);
    const [sent] = await listOutbox(handle.db);
    expect(sent).toMatchObject({
      channel: "email",
      recipient: me.email,
      subject: "Confirmez votre nouveau compte bancaire",
    });
    expect(sent?.body).toContain("111111");
    expect(sent?.body).toContain("se terminant par 3000");
  });

  test("the code goes by SMS to a person whose second factor is SMS", async () => {
    expect((await postProfile(other, { intent: "iban", iban: NEW })).status).toBe(302);
    const [sent] = await listOutbox(handle.db);
    expect(sent).toMatchObject({ channel: "sms", recipient: "+33699000000" });
  });
});

describe("confirming the change (/settings/profile/confirm/iban)", () => {
  test("five wrong codes refuse the sixth try even with the right code; the IBAN never changes", async () => {
    await postProfile(me, { intent: "iban", iban: NEW });
    const refusals = [];
    for (let i = 0; i < 5; i++) {
      const wrong = await postConfirm(me, { intent: "verify", code: "999999" });
      expect(wrong.status).toBe(400);
      refusals.push(wrong.errors?.code?.[0]);
    }
    expect(refusals).toEqual([...Array<string>(4).fill("errors.codeInvalid"), "errors.codeExhausted"]);
    const right = await postConfirm(me, { intent: "verify", code: "111111" });
    expect(right.status).toBe(400);
    expect(right.errors?.code).toEqual(["errors.codeExhausted"]);
    expect(await savedIban(me)).toBe(SAVED);
    expect(await pendingRows(me)).toEqual([{ new_value: NEW }]);
  });

  test("the right code saves the IBAN, once, and tells the person by a notification and an e-mail", async () => {
    await postProfile(me, { intent: "iban", iban: NEW });
    const answer = await postConfirm(me, { intent: "verify", code: "111111" });
    expect(answer).toMatchObject({ status: 302, location: "/settings/profile" });
    expect(await savedIban(me)).toBe(NEW);
    expect(await pendingRows(me)).toEqual([]);
    const notified = await handle.db
      .selectFrom("notifications")
      .select("type")
      .where("user_id", "=", me.userId)
      .execute();
    expect(notified).toEqual([{ type: IBAN_CHANGED_NOTIFICATION }]);
    const mail = (await listOutbox(handle.db)).find(
      (m) => m.recipient === me.email && m.subject === "Vos coordonnées bancaires ont été modifiées",
    );
    expect(mail?.body).toContain("se terminant par 3000");
    // Used up: the same code again finds nothing waiting.
    expect((await postConfirm(me, { intent: "verify", code: "111111" })).location).toBe("/settings/profile");
    expect(await savedIban(me)).toBe(NEW);
  });

  test("another person never reaches my change: their page and their code go nowhere, their cancel drops nothing", async () => {
    await postProfile(me, { intent: "iban", iban: NEW });
    const context = await contextOf(other);
    const args = {
      request: new Request("http://localhost/settings/profile/confirm/iban"),
      params: { field: "iban" },
      context,
    };
    const page = await call(() => confirmLoader(args as unknown as Parameters<typeof confirmLoader>[0]));
    expect(page.location).toBe("/settings/profile");
    expect((await postConfirm(other, { intent: "verify", code: "111111" })).location).toBe("/settings/profile");
    await postProfile(other, { intent: "cancel", field: "iban" });
    expect(await pendingRows(me)).toEqual([{ new_value: NEW }]);
    expect(await savedIban(me)).toBe(SAVED);
    expect(await savedIban(other)).toBeNull();
    // My code still confirms my change.
    expect((await postConfirm(me, { intent: "verify", code: "111111" })).location).toBe("/settings/profile");
    expect(await savedIban(me)).toBe(NEW);
  });

  test("cancelling drops the change and its code: the code confirms nothing afterwards", async () => {
    await postProfile(me, { intent: "iban", iban: NEW });
    expect((await postProfile(me, { intent: "cancel", field: "iban" })).status).toBe(302);
    expect(await pendingRows(me)).toEqual([]);
    expect((await postConfirm(me, { intent: "verify", code: "111111" })).location).toBe("/settings/profile");
    expect(await savedIban(me)).toBe(SAVED);
  });

  test("the e-mail and phone pages do not take the IBAN's code, nor the IBAN's page theirs", async () => {
    await postProfile(me, { intent: "iban", iban: NEW });
    const context = await contextOf(me);
    const args = {
      request: requestOf("/settings/profile/confirm/email", { intent: "verify", code: "111111" }),
      params: { field: "email" },
      context,
    };
    const answer = await call(() => confirmAction(args as unknown as Parameters<typeof confirmAction>[0]));
    expect(answer.location).toBe("/settings/profile");
    expect(await savedIban(me)).toBe(SAVED);
  });
});

describe("the postal address (intent address)", () => {
  const address = {
    intent: "address",
    line1: "12 quai Rambaud",
    line2: "",
    zipcode: "69002",
    city: "Lyon",
    country: "fr",
  };
  const row = (account: CreatedAccount) =>
    handle.db
      .selectFrom("users")
      .select(["address_line1", "address_line2", "address_zipcode", "address_city", "address_country"])
      .where("id", "=", account.userId)
      .executeTakeFirstOrThrow();

  test("is saved at once on the person's own row, without a code", async () => {
    const before = await row(other);
    const answer = await postProfile(me, address);
    expect(answer).toMatchObject({ status: 302, location: "/settings/profile" });
    expect(await row(me)).toEqual({
      address_line1: "12 quai Rambaud",
      address_line2: null,
      address_zipcode: "69002",
      address_city: "Lyon",
      address_country: "FR",
    });
    expect(await row(other)).toEqual(before);
  });

  test.each([
    ["a street without a number", { line1: "quai Rambaud" }, "line1", "errors.addStreetNumber"],
    ["a country outside the list", { country: "US" }, "country", "errors.countryInvalid"],
    ["no city", { city: "" }, "city", "errors.cityRequired"],
    ["a second line of 51 characters", { line2: "b".repeat(51) }, "line2", "errors.maxLength50"],
  ])("%s is refused with 400 on its field and nothing is saved", async (_, change, field, error) => {
    const before = await row(me);
    const answer = await postProfile(me, { ...address, ...change });
    expect(answer.status).toBe(400);
    expect(answer.errors?.[field]).toEqual([error]);
    expect(await row(me)).toEqual(before);
  });
});
