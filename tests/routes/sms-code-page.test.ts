import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";
import { startBrevoStandIn, type BrevoStandIn } from "../support/brevo-stand-in";
import type { DatabaseHandle } from "~/.server/db";
import { createAccount } from "../../app/.server/db/factories";
import { openTestDatabase } from "../support/test-database";
import { hashPassword } from "~/.server/passwords";
import { BrevoSmsMessenger } from "~/.server/providers/messaging/brevo";
import { ChannelMessenger } from "~/.server/providers/messaging/channels";
import { OutboxMessenger, RETRY_DELAYS_MS } from "~/.server/providers/messaging/outbox";
import { SandboxMessenger } from "~/.server/providers/messaging/sandbox";
import { codeSequence, setCodeGenerator } from "~/.server/services/codes";
import { getSession } from "~/routes/+shared/request.server";
import { action as loginAction } from "~/routes/auth/login";
import { action as loginCodeAction } from "~/routes/auth/login-code";
import { installTestPlatform } from "../support/test-platform";
import { loginCodePage, routePost } from "../support/route-calls";

/**
 * The sign-in's code sent by SMS through Brevo (decision 0062), seen from the code page, with Brevo's stand-in
 * answering 500, refusing the number, or down past the sign-in's end: the page says the SMS will leave by itself,
 * that the number cannot receive it, or that it could not leave in time (ask for a new code) — never "sent". The
 * route modules are called as React Router calls them; the outbox's clock can be moved.
 */
const PASSWORD = "Un-Mot-De-Passe-2026!";
let handle: DatabaseHandle;
let brevo: BrevoStandIn;
let outbox: OutboxMessenger;
let clock: Date | null = null;

beforeAll(async () => {
  handle = await openTestDatabase();
  const platform = installTestPlatform(handle, "sms-code-page-secret-0123456789abcdef");
  brevo = await startBrevoStandIn();
  const gateway = new BrevoSmsMessenger({
    apiKey: brevo.apiKey,
    baseUrl: brevo.url,
    sender: "Portail",
    timeoutMs: 2_000,
  });
  outbox = new OutboxMessenger(handle.db, {
    transport: new ChannelMessenger(new SandboxMessenger(handle.db), gateway),
    now: () => clock ?? new Date(),
  });
  platform.messenger = outbox;
});
afterAll(async () => {
  await outbox.stop();
  await brevo.stop();
  await handle.close();
});
beforeEach(() => {
  brevo.mode = "accept";
  brevo.refused.clear();
  brevo.received.length = 0;
  clock = null;
});

/** A person whose codes go by SMS to `phone` signs in with the password; the code is `code`. */
async function signIn(phone: string, code: string) {
  const email = `sms.${code}@example.com`;
  await createAccount(handle.db, { email, passwordHash: await hashPassword(PASSWORD), phone, mfa: "SMS" });
  const restore = setCodeGenerator(codeSequence(code));
  try {
    const response = (await loginAction(
      routePost("/login", { email, password: PASSWORD, redirectTo: "/cards" }) as never,
    )) as Response;
    expect(response.headers.get("Location")).toBe("/login/code");
    const cookie = response.headers.get("Set-Cookie")!.split(";")[0]!;
    const session = await getSession(new Request("http://localhost/login/code", { headers: { Cookie: cookie } }));
    return { cookie, flash: session.get("flash") as unknown };
  } finally {
    restore();
  }
}

test("Brevo answers 500: the page says the SMS will leave by itself; Brevo back, that code signs in", async () => {
  brevo.mode = "fail";
  const { cookie, flash } = await signIn("+33611000001", "271828");
  expect(flash).toEqual({ kind: "info", message: "sms.delayed" });
  expect(await loginCodePage(cookie)).toMatchObject({ channel: "sms", delivery: "delayed" });
  brevo.mode = "accept";
  expect(await outbox.deliverDue(new Date(Date.now() + RETRY_DELAYS_MS[0] + 1_000))).toBe(1);
  expect(brevo.received.map((sms) => [sms.recipient, sms.content.includes("271828")])).toEqual([["33611000001", true]]);
  expect(await loginCodePage(cookie)).toMatchObject({ delivery: null });
  const signedIn = (await loginCodeAction(
    routePost("/login/code", { intent: "verify", code: "271828" }, cookie) as never,
  )) as Response;
  expect(signedIn.headers.get("Location")).toBe("/cards");
});

test("Brevo refuses the number: the page says it cannot receive SMS, and nothing is tried again", async () => {
  brevo.refused.add("33611000002");
  const { cookie, flash } = await signIn("+33611000002", "161803");
  expect(flash).toEqual({ kind: "error", message: "sms.refused" });
  expect(await loginCodePage(cookie)).toMatchObject({ delivery: "refused" });
  expect(await outbox.deliverDue(new Date(Date.now() + RETRY_DELAYS_MS[4]))).toBe(0);
  expect(brevo.requests.filter((r) => r.status === 400)).toHaveLength(1);
});

test("Brevo down past the sign-in's end: the SMS is given up and the page asks for a new code", async () => {
  await brevo.stop();
  try {
    const sentAt = new Date();
    const { cookie } = await signIn("+33611000003", "141421");
    expect(await loginCodePage(cookie)).toMatchObject({ delivery: "delayed" });
    // The sender loop's passes at 10 s, 40 s, 1 min 40, 6 min 40: the next try (21 min 40) would come after the
    // sign-in's 15 minutes, so that fourth retry gives it up.
    for (const seconds of [11, 41, 101, 401]) {
      clock = new Date(sentAt.getTime() + seconds * 1000);
      await outbox.deliverDue(clock);
    }
    expect(
      await handle.db
        .selectFrom("mail_outbox")
        .select(["status", "body"])
        .where("recipient", "=", "+33611000003")
        .execute(),
    ).toEqual([{ status: "given_up", body: "" }]);
    expect(await loginCodePage(cookie)).toMatchObject({ delivery: "givenUp" });
  } finally {
    await brevo.start();
  }
  expect(brevo.received).toHaveLength(0);
});
