import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { DatabaseHandle } from "~/.server/db";
import type { Platform } from "~/.server/platform";
import { createAccount, createPendingChange } from "../../app/.server/db/factories";
import { openTestDatabase } from "../support/test-database";
import { getAccount } from "~/.server/services/accounts";
import { accountContext } from "~/routes/+shared/auth.server";
import { action as settingsAction, loader as settingsLoader } from "~/routes/settings/security-mfa";
import { loader as securityLoader } from "~/routes/settings/security";
import { action as stepAction, loader as stepLoader } from "~/routes/secure-account/second-factor";
import { installTestPlatform } from "../support/test-platform";

/**
 * Choosing the codes by SMS (spec 001 §2.4, §4; decision 0062) as React Router calls the actions: refused with the
 * form contract's 400 and the reason when the number is not a mobile of a country offered, or when no text message
 * can be delivered here (then SMS is not offered at all); accepted for a mobile. SQLite, or PostgreSQL with
 * TEST_DATABASE_URL.
 */
let handle: DatabaseHandle;
let platform: Platform;

beforeAll(async () => {
  handle = await openTestDatabase();
  platform = installTestPlatform(handle, "sms-choice-test-secret-0123456789abcdef");
});
afterAll(() => handle.close());

type Answer = { status: number; location: string | null; formErrors: string[] | null };

function answerOf(result: unknown): Answer {
  if (result instanceof Response)
    return { status: result.status, location: result.headers.get("Location"), formErrors: null };
  const refusal = result as { init?: { status?: number } | null; data?: { error?: Record<string, string[] | null> } };
  return { status: refusal.init?.status ?? 200, location: null, formErrors: refusal.data?.error?.[""] ?? null };
}

async function person(phone: string, mfa: "EMAIL" | null = "EMAIL") {
  const suffix = Math.random().toString(36).slice(2);
  const created = await createAccount(handle.db, {
    email: `sms-${suffix}@example.com`,
    passwordHash: "x",
    phone,
    mfa,
    cards: [{ type: "virtual", lastFour: "4242" }],
  });
  const context = new RouterContextProvider();
  context.set(accountContext, (await getAccount(handle.db, created.userId))!);
  return { userId: created.userId, context };
}

type Args<F extends (...a: never[]) => unknown> = Parameters<F>[0];

async function call<F extends (args: never) => unknown>(fn: F, args: object): Promise<Answer> {
  try {
    return answerOf(await fn(args as Args<F>));
  } catch (thrown) {
    return answerOf(thrown);
  }
}

const post = (path: string, form: Record<string, string>) =>
  new Request(`http://localhost${path}`, { method: "POST", body: new URLSearchParams(form) });

async function chooseInSettings(phone: string, channel: "SMS" | "EMAIL" = "SMS") {
  const { userId, context } = await person(phone);
  const request = post(`/settings/security/mfa/${channel}`, { channel });
  return { userId, answer: await call(settingsAction, { request, params: { channel }, context }) };
}

const preferred = async (userId: string) =>
  (await handle.db.selectFrom("users").select("mfa_preferred").where("id", "=", userId).executeTakeFirstOrThrow())
    .mfa_preferred;

test("settings: a French landline, a box number, a foreign landline are refused (400) with the reason", async () => {
  for (const phone of ["+33145678901", "+33912345678", "+3221234567"]) {
    const { userId, answer } = await chooseInSettings(phone);
    expect(answer, phone).toMatchObject({ status: 400, formErrors: ["sms.errors.notMobile"] });
    expect(await preferred(userId)).toBe("EMAIL");
  }
});

test("settings: a number of a country outside the list, and one that is not E.164, are refused", async () => {
  expect((await chooseInSettings("+12025550123")).answer).toMatchObject({
    status: 400,
    formErrors: ["sms.errors.otherCountry"],
  });
  expect((await chooseInSettings("0612345678")).answer).toMatchObject({
    status: 400,
    formErrors: ["sms.errors.invalid"],
  });
});

test("settings: a mobile (France, Belgium) is accepted; e-mail is never refused for the phone's sake", async () => {
  for (const phone of ["+33712345678", "+32470123456"]) {
    const { userId, answer } = await chooseInSettings(phone);
    expect(answer, phone).toMatchObject({ status: 302, location: "/settings/security" });
    expect(await preferred(userId)).toBe("SMS");
  }
  const { answer } = await chooseInSettings("+33145678901", "EMAIL");
  expect(answer).toMatchObject({ status: 302, location: "/settings/security" });
});

test("a phone change waiting for its code comes first: its step, not the landline's refusal", async () => {
  const { userId, context } = await person("+33145678901");
  await createPendingChange(handle.db, {
    user_id: userId,
    field_name: "phone",
    new_value: "+33698765432",
    created_at: new Date().toISOString(),
  });
  const answer = await call(settingsAction, {
    request: post("/settings/security/mfa/SMS", { channel: "SMS" }),
    params: { channel: "SMS" },
    context,
  });
  expect(answer).toMatchObject({ status: 302, location: "/settings/profile/confirm/phone" });
  expect(await preferred(userId)).toBe("EMAIL");
});

test("secure-account step: a landline is refused there too, a mobile opens the portal", async () => {
  const landline = await person("+33145678901", null);
  const refused = await call(stepAction, {
    request: post("/secure-account/second-factor", { channel: "SMS" }),
    params: {},
    context: landline.context,
  });
  expect(refused).toMatchObject({ status: 400, formErrors: ["sms.errors.notMobile"] });
  const mobile = await person("+33612345678", null);
  const accepted = await call(stepAction, {
    request: post("/secure-account/second-factor", { channel: "SMS" }),
    params: {},
    context: mobile.context,
  });
  expect(accepted.status).toBe(302);
  expect(accepted.location).toMatch(/^\/cards\//);
});

test("without any SMS delivery, SMS is neither offered nor accepted", async () => {
  platform.smsAvailable = false;
  try {
    const mobile = await person("+33612345678", null);
    expect(await securityLoader({ context: mobile.context } as never)).toMatchObject({ smsAvailable: false });
    const confirm = await call(settingsLoader, {
      request: new Request("http://localhost/settings/security/mfa/SMS"),
      params: { channel: "SMS" },
      context: mobile.context,
    });
    expect(confirm).toMatchObject({ status: 302, location: "/settings/security" });
    const step = await call(stepLoader, {
      request: new Request("http://localhost/secure-account/second-factor?channel=SMS"),
      params: {},
      context: mobile.context,
    });
    expect(step).toMatchObject({ status: 302, location: "/secure-account/second-factor" });
    const refused = await call(stepAction, {
      request: post("/secure-account/second-factor", { channel: "SMS" }),
      params: {},
      context: mobile.context,
    });
    expect(refused).toMatchObject({ status: 400, formErrors: ["sms.errors.unavailable"] });
    expect(await preferred(mobile.userId)).not.toBe("SMS");
  } finally {
    platform.smsAvailable = true;
  }
});
