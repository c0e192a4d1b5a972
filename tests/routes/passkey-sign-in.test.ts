import { RouterContextProvider } from "react-router";
import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import type { DatabaseHandle } from "~/.server/db";
import { createAccount, type CreatedAccount } from "../../app/.server/db/factories";
import { openTestDatabase } from "../support/test-database";
import { installTestPlatform } from "../support/test-platform";
import { softAuthenticator, type SoftAuthenticator } from "../support/soft-authenticator";
import { getPlatform } from "~/.server/platform";
import { codeSequence, setCodeGenerator, verifyCode } from "~/.server/services/codes";
import { finishRegistration, registrationOptions } from "~/.server/services/passkeys";
import { PENDING_LOGIN_TTL_MS, sendLoginCode, signInSubject } from "~/routes/+shared/auth.server";
import { PASSKEY_ANSWER_MAX } from "~/routes/+shared/passkey-ceremony.server";
import { sessionStorage } from "~/routes/+shared/request.server";
import { action } from "~/routes/auth/login-passkey";

/**
 * `/login/passkey` as React Router calls it (issue 32 item 2, decision 0061), with a software authenticator:
 * the passkey alone names its account and signs it in, the second factor only for the sign-in waiting in the
 * session and only with that account's passkeys; and the ceremony protocol's bad inputs (Contract P2): no
 * step, an unknown purpose, no options asked first, a replayed answer, an answer too long, a disabled account,
 * and the per-account guesses of decision 0014. SQLite, or PostgreSQL with TEST_DATABASE_URL.
 */
let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await openTestDatabase();
  installTestPlatform(handle, "passkey-sign-in-test-secret-0123456789abcdef");
});
afterAll(() => handle.close());

let me: CreatedAccount;
let other: CreatedAccount;
let myDevice: SoftAuthenticator;
let otherDevice: SoftAuthenticator;
let restoreCodes: () => void;

/** A passkey registered for `account` through the service, as the settings add it. */
async function registered(account: CreatedAccount): Promise<SoftAuthenticator> {
  const { db, relyingParty } = await getPlatform();
  const device = softAuthenticator({ origin: "http://localhost", rpId: "localhost" });
  const person = { id: account.userId, email: account.email, firstName: "Test", lastName: null };
  const options = await registrationOptions(db, relyingParty, person, "b");
  const done = await finishRegistration(db, relyingParty, account.userId, "b", device.register(options), "Phone");
  expect(done.kind).toBe("ok");
  return device;
}

beforeEach(async () => {
  const suffix = Math.random().toString(36).slice(2);
  me = await createAccount(handle.db, { email: `sign-${suffix}@example.com`, passwordHash: "x" });
  other = await createAccount(handle.db, { email: `sign-other-${suffix}@example.com`, passwordHash: "x" });
  myDevice = await registered(me);
  otherDevice = await registered(other);
  restoreCodes = setCodeGenerator(codeSequence("123456"));
});
afterEach(() => restoreCodes());

/** An anonymous session's cookie, or one whose sign-in waits for `userId`'s second factor (a code sent too). */
async function sessionCookie(waitingFor?: string): Promise<string> {
  const storage = await sessionStorage();
  const session = await storage.getSession();
  if (waitingFor) {
    const expiresAt = new Date(Date.now() + PENDING_LOGIN_TTL_MS).toISOString();
    session.set("pendingLogin", { userId: waitingFor, redirectTo: "/wallets", expiresAt, method: "passkey" });
    await sendLoginCode(session, (key) => key);
  }
  return (await storage.commitSession(session)).split(";")[0]!;
}

/** Posts the form; the cookie follows what the answer sets, as a browser's would. */
async function post(jar: { cookie: string }, form: Record<string, string>): Promise<Response> {
  const request = new Request("http://localhost/login/passkey", {
    method: "POST",
    headers: { Cookie: jar.cookie },
    body: new URLSearchParams(form),
  });
  const answer = (await action({ request, context: new RouterContextProvider(), params: {} } as never)) as Response;
  const set = answer.headers.get("Set-Cookie");
  if (set) jar.cookie = set.split(";")[0]!;
  return answer;
}

/** The options step, then the device's answer (with the knobs of a bad one) posted as the verify step. */
async function ceremony(jar: { cookie: string }, use: string, device: SoftAuthenticator, extra = {}) {
  const asked = await post(jar, { for: use, step: "options", redirectTo: "/wallets" });
  expect(asked.status).toBe(200);
  const { options } = (await asked.json()) as { options: PublicKeyCredentialRequestOptionsJSON };
  const answer = JSON.stringify(device.assert(options, extra));
  return { answer, verified: await post(jar, { for: use, step: "verify", answer, redirectTo: "/wallets" }) };
}

const signedInUser = async (jar: { cookie: string }) =>
  (await (await sessionStorage()).getSession(jar.cookie)).get("userId") ?? null;

describe("the passkey alone (for=signIn)", () => {
  test("names its own account and signs it in, to the page asked for, in a new session", async () => {
    const jar = { cookie: await sessionCookie() };
    const before = jar.cookie;
    const { verified } = await ceremony(jar, "signIn", myDevice);
    expect(verified.status).toBe(200);
    expect(verified.headers.get("Cache-Control")).toBe("no-store");
    expect(await verified.json()).toEqual({ to: "/wallets" });
    expect(jar.cookie).not.toBe(before);
    expect(await signedInUser(jar)).toBe(me.userId);
  });

  test("another site's address to go back to is not followed", async () => {
    const jar = { cookie: await sessionCookie() };
    const asked = await post(jar, { for: "signIn", step: "options" });
    const { options } = (await asked.json()) as { options: PublicKeyCredentialRequestOptionsJSON };
    const answer = JSON.stringify(myDevice.assert(options));
    const verified = await post(jar, { for: "signIn", step: "verify", answer, redirectTo: "//evil.example/x" });
    expect(await verified.json()).toEqual({ to: "/cards" });
  });

  test("a disabled account is refused in the password step's words, and nothing is signed in", async () => {
    await handle.db.updateTable("users").set({ status: "disabled" }).where("id", "=", me.userId).execute();
    const jar = { cookie: await sessionCookie() };
    const { verified } = await ceremony(jar, "signIn", myDevice);
    expect(verified.status).toBe(403);
    expect(await verified.json()).toEqual({ error: "errors.accountDisabled" });
    expect(await signedInUser(jar)).toBeNull();
  });

  test("a replayed answer is refused: its challenge was spent, and was another session's", async () => {
    const jar = { cookie: await sessionCookie() };
    const { answer } = await ceremony(jar, "signIn", myDevice);
    // Another browser relays it, after asking for options of its own (so it has a binding).
    const thief = { cookie: await sessionCookie() };
    expect((await post(thief, { for: "signIn", step: "options" })).status).toBe(200);
    const replayed = await post(thief, { for: "signIn", step: "verify", answer });
    expect(replayed.status).toBe(400);
    expect(await replayed.json()).toEqual({ error: "passkeys.errors.challenge" });
    expect(await signedInUser(thief)).toBeNull();
  });
});

describe("the second factor (for=secondFactor)", () => {
  test("signs in the sign-in waiting in the session, and its code is good for nothing after", async () => {
    const jar = { cookie: await sessionCookie(me.userId) };
    const { verified } = await ceremony(jar, "secondFactor", myDevice);
    expect(await verified.json()).toEqual({ to: "/wallets" });
    expect(await signedInUser(jar)).toBe(me.userId);
    expect((await verifyCode(handle.db, signInSubject(me.userId), "123456")).kind).not.toBe("ok");
  });

  test("another person's passkey does not confirm this sign-in", async () => {
    const jar = { cookie: await sessionCookie(me.userId) };
    const { verified } = await ceremony(jar, "secondFactor", otherDevice, { credential: otherDevice.credentials[0] });
    expect(verified.status).toBe(400);
    expect(await verified.json()).toEqual({ error: "passkeys.errors.unknownCredential" });
    expect(await signedInUser(jar)).toBeNull();
  });

  test("without a sign-in waiting, the button is sent back to /login", async () => {
    const jar = { cookie: await sessionCookie() };
    const asked = await post(jar, { for: "secondFactor", step: "options" });
    expect(asked.status).toBe(200);
    expect(await asked.json()).toEqual({ to: "/login" });
  });

  test("failed answers spend the account's guesses like wrong codes: then 429 with the time to wait", async () => {
    const jar = { cookie: await sessionCookie(me.userId) };
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 12 && !statuses.includes(429); attempt++) {
      const { verified } = await ceremony(jar, "secondFactor", myDevice, { tamperSignature: true });
      statuses.push(verified.status);
      if (verified.status === 429) {
        const refused = (await verified.json()) as { error: string; retryAt: string };
        expect(refused.error).toBe("passkeys.errors.locked");
        expect(new Date(refused.retryAt).getTime()).toBeGreaterThan(Date.now());
      }
    }
    expect(statuses).toContain(429);
    // Even the right answer waits now.
    const { verified } = await ceremony(jar, "secondFactor", myDevice);
    expect(verified.status).toBe(429);
    expect(await signedInUser(jar)).toBeNull();
  });
});

describe("the protocol's bad inputs", () => {
  test.each([
    ["no purpose", { step: "options" }],
    ["an unknown purpose", { for: "reveal", step: "options" }],
    ["no step", { for: "signIn" }],
    ["an unknown step", { for: "signIn", step: "finish" }],
  ])("%s: 400, in French", async (_, form) => {
    const answer = await post({ cookie: await sessionCookie() }, form);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({
      error: "errors.unknownIntent",
      message: "Cette action n’est pas reconnue. Rechargez la page et réessayez",
    });
  });

  test("an answer without options asked first is refused as a challenge", async () => {
    const answer = await post({ cookie: await sessionCookie() }, { for: "signIn", step: "verify", answer: "{}" });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ error: "passkeys.errors.challenge" });
  });

  test.each([
    ["missing", undefined],
    ["not JSON", "{not json"],
    ["longer than 16 KB", JSON.stringify({ id: "x".repeat(PASSKEY_ANSWER_MAX) })],
  ])("an answer %s is invalid, and spends the options", async (_, answer) => {
    const jar = { cookie: await sessionCookie() };
    await post(jar, { for: "signIn", step: "options" });
    const refused = await post(jar, { for: "signIn", step: "verify", ...(answer === undefined ? {} : { answer }) });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: "passkeys.errors.invalid" });
    expect(await signedInUser(jar)).toBeNull();
  });
});
