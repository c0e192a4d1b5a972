import { RouterContextProvider } from "react-router";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import type { PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/server";
import type { DatabaseHandle } from "~/.server/db";
import { createAccount, type CreatedAccount } from "../../app/.server/db/factories";
import { openTestDatabase } from "../support/test-database";
import { installTestPlatform } from "../support/test-platform";
import { softAuthenticator } from "../support/soft-authenticator";
import { getAccount } from "~/.server/services/accounts";
import { codeSequence, setCodeGenerator } from "~/.server/services/codes";
import { listPasskeys } from "~/.server/services/passkeys";
import { listOutbox } from "~/.server/providers/messaging/sandbox";
import { accountContext } from "~/routes/+shared/auth.server";
import { sessionStorage } from "~/routes/+shared/request.server";
import { action as ceremony } from "~/routes/settings/passkey-ceremony";
import { action as addPanel, loader as addPanelLoader } from "~/routes/settings/passkey-new";
import { ENROLMENT_TTL_MS } from "~/routes/settings/passkey-enrolment.server";

/**
 * The enrolment rule of issue 32 item 1, as React Router calls the routes: a passkey is registered only within
 * 10 minutes of a fresh confirmation of this same account (its code, or one of its passkeys), and that
 * confirmation serves one registration. Without one, with an expired one or with another person's, the
 * registration's options are refused before any challenge is made. SQLite, or PostgreSQL with TEST_DATABASE_URL.
 */
let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await openTestDatabase();
  installTestPlatform(handle, "passkey-enrolment-test-secret-0123456789abcdef");
});
afterAll(() => handle.close());

let me: CreatedAccount;
let other: CreatedAccount;
let restoreCodes: () => void;

beforeEach(async () => {
  const suffix = Math.random().toString(36).slice(2);
  const card = { type: "virtual" as const, lastFour: "4242" };
  me = await createAccount(handle.db, { email: `enrol-${suffix}@example.com`, passwordHash: "x", cards: [card] });
  other = await createAccount(handle.db, {
    email: `enrol-other-${suffix}@example.com`,
    passwordHash: "x",
    cards: [card],
  });
  restoreCodes = setCodeGenerator(codeSequence("123456"));
});
afterEach(() => restoreCodes());

/** A signed-in session of `account`'s cookie, holding this enrolment (or none). */
async function sessionCookie(account: CreatedAccount, enrolment?: { userId: string; expiresAt: Date }) {
  const storage = await sessionStorage();
  const session = await storage.getSession();
  session.set("userId", account.userId);
  if (enrolment) session.set("passkeyEnrolment", { ...enrolment, expiresAt: enrolment.expiresAt.toISOString() });
  return (await storage.commitSession(session)).split(";")[0]!;
}

async function argsOf(account: CreatedAccount, cookie: string, path: string, form?: Record<string, string>) {
  const context = new RouterContextProvider();
  context.set(accountContext, (await getAccount(handle.db, account.userId))!);
  const request = new Request(`http://localhost${path}`, {
    method: form ? "POST" : "GET",
    headers: { Cookie: cookie },
    body: form ? new URLSearchParams(form) : undefined,
  });
  return { request, context, params: {} } as never;
}

const CEREMONY = "/settings/security/passkeys/ceremony";
const post = async (account: CreatedAccount, cookie: string, form: Record<string, string>) =>
  (await ceremony(await argsOf(account, cookie, CEREMONY, form))) as Response;

const challengesOf = (account: CreatedAccount) =>
  handle.db.selectFrom("passkey_challenges").select("id").where("user_id", "=", account.userId).execute();

describe("the registration's options", () => {
  const register = { for: "register", step: "options", name: "Mon téléphone" };
  const inAMinute = () => new Date(Date.now() + 60_000);

  test.each([
    ["no confirmation", () => undefined],
    ["a confirmation expired", () => ({ userId: me.userId, expiresAt: new Date(Date.now() - 1000) })],
    ["another person's confirmation", () => ({ userId: other.userId, expiresAt: inAMinute() })],
  ])("with %s: 403, no challenge made", async (_, enrolment) => {
    const answer = await post(me, await sessionCookie(me, enrolment()), register);
    expect(answer.status).toBe(403);
    expect(await answer.json()).toEqual({ error: "passkeys.settings.new.confirmFirst" });
    expect(answer.headers.get("Cache-Control")).toBe("no-store");
    expect(await challengesOf(me)).toEqual([]);
  });

  test("with a bad name: 400 with the name's words, no challenge made", async () => {
    const cookie = await sessionCookie(me, { userId: me.userId, expiresAt: inAMinute() });
    for (const [name, error] of [
      ["   ", "passkeys.errors.nameRequired"],
      ["x".repeat(61), "passkeys.errors.nameTooLong"],
      ["Mon\ttéléphone", "passkeys.errors.nameFormat"],
    ]) {
      const answer = await post(me, cookie, { ...register, name: name! });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({ error });
    }
    expect(await challengesOf(me)).toEqual([]);
  });

  test("within a live confirmation: one passkey is registered, named, told by e-mail; the confirmation is spent", async () => {
    const cookie = await sessionCookie(me, { userId: me.userId, expiresAt: inAMinute() });
    const options = await post(me, cookie, register);
    expect(options.status).toBe(200);
    const { options: creation } = (await options.json()) as { options: PublicKeyCredentialCreationOptionsJSON };
    const authenticator = softAuthenticator({ origin: "http://localhost", rpId: "localhost" });
    const answer = JSON.stringify(authenticator.register(creation));

    const verified = await post(me, cookie, { for: "register", step: "verify", name: "  Mon téléphone ", answer });
    expect(verified.status).toBe(200);
    expect(await verified.json()).toEqual({ to: "/settings/security" });
    expect(await listPasskeys(handle.db, me.userId)).toMatchObject([{ name: "Mon téléphone", lastUsedAt: null }]);
    const [mail] = await listOutbox(handle.db);
    expect(mail).toMatchObject({ recipient: me.email, subject: "Une clé d’accès a été ajoutée à votre compte" });
    expect(mail?.body).toContain("« Mon téléphone »");

    // The same session cannot add another without confirming again.
    const again = await post(me, cookie, register);
    expect(again.status).toBe(403);
    expect(await listPasskeys(handle.db, other.userId)).toEqual([]);
  });
});

describe("the confirmation by code", () => {
  const NEW = "/settings/security/passkeys/new";

  test("a right code of this account's grants the enrolment for 10 minutes; the add step opens with it", async () => {
    const cookie = await sessionCookie(me);
    const sent = (await addPanel(await argsOf(me, cookie, NEW, { intent: "send" }))) as Response;
    expect(sent.headers.get("Location")).toBe(`${NEW}?step=code`);
    const [mail] = await listOutbox(handle.db);
    expect(mail).toMatchObject({ recipient: me.email, subject: "Votre code pour ajouter une clé d’accès" });

    const before = Date.now();
    const verified = (await addPanel(
      await argsOf(me, cookie, `${NEW}?step=code`, { intent: "verify", code: "123 456" }),
    )) as Response;
    expect(verified.headers.get("Location")).toBe(`${NEW}?step=add`);
    const storage = await sessionStorage();
    const enrolment = (await storage.getSession(cookie)).get("passkeyEnrolment");
    expect(enrolment?.userId).toBe(me.userId);
    const lasts = new Date(enrolment!.expiresAt).getTime() - before;
    expect(lasts).toBeGreaterThanOrEqual(ENROLMENT_TTL_MS - 1000);
    expect(lasts).toBeLessThanOrEqual(ENROLMENT_TTL_MS + 1000);

    const page = (await addPanelLoader(await argsOf(me, cookie, `${NEW}?step=add`))) as { data: { step: string } };
    expect(page.data.step).toBe("add");
    expect((await post(me, cookie, { for: "register", step: "options", name: "Mon téléphone" })).status).toBe(200);
  });

  test("another person's session, even with a live enrolment of its own, does not open the add step", async () => {
    const cookie = await sessionCookie(other, { userId: other.userId, expiresAt: new Date(Date.now() + 60_000) });
    // The same session read for `me` (another person now signed in in that browser): back to the first step.
    let thrown: unknown;
    try {
      await addPanelLoader(await argsOf(me, cookie, `${NEW}?step=add`));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).headers.get("Location")).toBe(NEW);
  });
});
