import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";
import type { DatabaseHandle } from "~/.server/db";
import { createAccount, createPendingChange, type CreatedAccount } from "../../app/.server/db/factories";
import { openTestDatabase } from "../support/test-database";
import { getAccount } from "~/.server/services/accounts";
import { accountContext } from "~/routes/+shared/auth.server";
import { action } from "~/routes/settings/profile";
import { installTestPlatform } from "../support/test-platform";

/**
 * The profile's contact details saved (spec 001 §5 "Profile save", issue 33's audit) as React Router calls the
 * action: an e-mail or a phone the form sent empty is refused on its field (400, conform's reply) instead of being
 * read as "not changed"; a field the form did not send (its change waiting for a code) is left as it is; a phone
 * typed with its country's code but no + ("33612345678") is stored once, "+33612345678". SQLite, or PostgreSQL
 * with TEST_DATABASE_URL.
 */
let handle: DatabaseHandle;
let me: CreatedAccount;
const PHONE = "+33612345678";

beforeAll(async () => {
  handle = await openTestDatabase();
  installTestPlatform(handle, "profile-save-test-secret-0123456789abcdef");
});
afterAll(() => handle.close());

beforeEach(async () => {
  const suffix = Math.random().toString(36).slice(2);
  me = await createAccount(handle.db, {
    email: `profile-${suffix}@example.com`,
    passwordHash: "x",
    phone: PHONE,
    cards: [{ type: "virtual", lastFour: "4242" }],
  });
});

type Answer = { status: number; location: string | null; errors: Record<string, string[] | null> | undefined };

/** What the action answered or threw: its status, where it leads, and conform's errors of a refusal. */
function answerOf(result: unknown): Answer {
  if (result instanceof Response)
    return { status: result.status, location: result.headers.get("Location"), errors: undefined };
  const refusal = result as { init?: { status?: number } | null; data?: { error?: Record<string, string[] | null> } };
  return { status: refusal.init?.status ?? 200, location: null, errors: refusal.data?.error };
}

async function save(form: Record<string, string>): Promise<Answer> {
  const context = new RouterContextProvider();
  context.set(accountContext, (await getAccount(handle.db, me.userId))!);
  const request = new Request("http://localhost/settings/profile", {
    method: "POST",
    body: new URLSearchParams({ intent: "save", ...form }),
  });
  try {
    return answerOf(await action({ request, params: {}, context } as unknown as Parameters<typeof action>[0]));
  } catch (thrown) {
    return answerOf(thrown);
  }
}

const pendingOf = async (field: string) =>
  (
    await handle.db
      .selectFrom("pending_changes")
      .select("new_value")
      .where("user_id", "=", me.userId)
      .where("field_name", "=", field)
      .executeTakeFirst()
  )?.new_value ?? null;

test("an empty e-mail sent with a phone is refused on the e-mail, not read as nothing changed", async () => {
  const answer = await save({ email: "", phoneCountry: "FR", phone: "06 12 34 56 78" });
  expect(answer.status).toBe(400);
  expect(answer.errors?.email).toEqual(["errors.emailRequired"]);
  expect(answer.errors?.[""] ?? null).toBeNull();
  // Spaces alone are no address either (the sign-in form's words).
  expect((await save({ email: "   ", phoneCountry: "FR", phone: "06 12 34 56 78" })).errors?.email).toEqual([
    "errors.emailInvalid",
  ]);
  expect(await pendingOf("email")).toBeNull();
});

test("an empty phone sent with the e-mail is refused on the phone", async () => {
  const answer = await save({ email: me.email, phoneCountry: "FR", phone: "" });
  expect(answer.status).toBe(400);
  expect(answer.errors?.phone).toEqual(["errors.phoneRequired"]);
  const both = await save({ email: "", phoneCountry: "FR", phone: "" });
  expect(both.errors).toMatchObject({ email: ["errors.emailRequired"], phone: ["errors.phoneRequired"] });
});

test("a field the form did not send (its change waits for a code) stays as it is", async () => {
  await createPendingChange(handle.db, {
    user_id: me.userId,
    field_name: "phone",
    new_value: "+33698765432",
    created_at: new Date().toISOString(),
  });
  // The form has no phone field while its change waits: the e-mail alone is compared.
  const unchanged = await save({ email: me.email });
  expect(unchanged.status).toBe(400);
  expect(unchanged.errors?.[""]).toEqual(["settings.profile.unchanged"]);
  expect(await pendingOf("phone")).toBe("+33698765432");
  const emailed = await save({ email: `nouvelle-${me.email}` });
  expect(emailed.status).toBe(302);
  expect(await pendingOf("email")).toBe(`nouvelle-${me.email}`);
});

test("the same number typed another way is not a change; 33612345678 is +33612345678", async () => {
  for (const phone of ["33612345678", "0033612345678", "+33 6 12 34 56 78", "06 12 34 56 78"]) {
    const answer = await save({ email: me.email, phoneCountry: "FR", phone });
    expect(answer.status, phone).toBe(400);
    expect(answer.errors?.[""], phone).toEqual(["settings.profile.unchanged"]);
  }
  const changed = await save({ email: me.email, phoneCountry: "FR", phone: "33698765432" });
  expect(changed.status).toBe(302);
  expect(changed.location).toBe("/settings/profile/confirm/phone");
  expect(await pendingOf("phone")).toBe("+33698765432");
});
