import { afterAll, beforeAll, expect, test } from "vitest";
import type { DatabaseHandle } from "../db";
import { seedDemo } from "../db/seed";
import { openTestDatabase } from "../../../tests/support/test-database";
import { listOutbox, SandboxMessenger } from "../providers/messaging/sandbox";
import { activationSchema } from "~/domain/schemas";
import { authenticateWithPassword, getAccount } from "./accounts";
import { activateAccount, invitationEmail, invitationIsLive } from "./activation";

/** Nina's invitation (DEMO.md): the link from the outbox activates her account once. */
let handle: DatabaseHandle;
const NINA = "nina.roux@example.com";
const details = {
  firstName: "Nina",
  lastName: "Roux",
  phone: "+33622334455",
  password: "Premier-Mot2passe",
  marketingEmails: true,
};

beforeAll(async () => {
  handle = await openTestDatabase();
  await seedDemo(handle.db, new SandboxMessenger(handle.db), { now: new Date(), baseUrl: "http://localhost" });
}, 30_000);
afterAll(() => handle.close());

async function invitation() {
  const message = (await listOutbox(handle.db)).find((m) => m.recipient === NINA);
  const match = /\/activate\/([\w-]+)\?email=([^\s]+)/.exec(message!.body)!;
  return { token: match[1]!, email: decodeURIComponent(match[2]!) };
}

test("the form: names, phone, terms and a password by the rules; marketing optional", () => {
  const ok = {
    firstName: "Nina",
    lastName: "Roux",
    phone: "06 22 33 44 55",
    terms: "on",
    password: "Premier-Mot2passe",
    confirmation: "Premier-Mot2passe",
  };
  expect(activationSchema.safeParse(ok).success).toBe(true);
  expect(activationSchema.safeParse({ ...ok, marketing: "on" }).success).toBe(true);
  const broken = activationSchema.safeParse({ ...ok, terms: undefined, password: "court", confirmation: "autre" });
  expect(broken.success ? [] : broken.error.issues.map((i) => `${String(i.path[0])}:${i.message}`)).toEqual(
    expect.arrayContaining(["terms:errors.termsRequired", "password:errors.passwordRule.length"]),
  );
});

test("a wrong address, an altered token or an expired link is refused, nothing changes", async () => {
  const { token, email } = await invitation();
  expect(await invitationIsLive(handle.db, token, email)).toBe(true);
  expect(await invitationIsLive(handle.db, token, "marie.martin@example.com")).toBe(false);
  expect(await activateAccount(handle.db, `${token}x`, email, details)).toEqual({ kind: "invalid" });
  expect(await activateAccount(handle.db, token, email, details, new Date(Date.now() + 8 * 86_400_000))).toEqual({
    kind: "invalid",
  });
  const nina = await handle.db
    .selectFrom("users")
    .select(["status", "password_hash"])
    .where("email", "=", NINA)
    .executeTakeFirstOrThrow();
  expect(nina).toEqual({ status: "invited", password_hash: null });
});

test("the onboarding link (/onboarding/:token) finds the invited address from a live token only", async () => {
  const { token, email } = await invitation();
  expect(await invitationEmail(handle.db, token)).toBe(email);
  expect(await invitationEmail(handle.db, `${token}x`)).toBeNull();
  expect(await invitationEmail(handle.db, "")).toBeNull();
  expect(await invitationEmail(handle.db, token, new Date(Date.now() + 8 * 86_400_000))).toBeNull();
});

test("the link activates nina once; she can then sign in with her password", async () => {
  const { token, email } = await invitation();
  const result = await activateAccount(handle.db, token, email, details);
  if (result.kind !== "activated") throw new Error(`expected an activation, got ${result.kind}`);
  const userId = result.userId;
  const account = (await getAccount(handle.db, userId))!;
  expect(account).toMatchObject({ firstName: "Nina", lastName: "Roux", phone: "+33622334455", termsConfirmed: true });
  expect(await authenticateWithPassword(handle.db, NINA, "Premier-Mot2passe")).toBe(userId);
  const row = await handle.db
    .selectFrom("users")
    .select("marketing_emails")
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  expect(row.marketing_emails).toBe(1);
  expect(await activateAccount(handle.db, token, email, { ...details, password: "Autre-Mot3passe" })).toEqual({
    kind: "invalid",
  });
  expect(await invitationIsLive(handle.db, token, email)).toBe(false);
  expect(await invitationEmail(handle.db, token)).toBeNull();
  expect(await authenticateWithPassword(handle.db, NINA, "Premier-Mot2passe")).toBe(userId);
});
