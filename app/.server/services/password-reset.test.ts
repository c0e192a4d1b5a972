import { afterAll, beforeAll, expect, test } from "vitest";
import type { DatabaseHandle } from "../db";
import { seedDemo } from "../db/seed";
import { openTestDatabase } from "../../../tests/support/test-database";
import { listOutbox, SandboxMessenger } from "../providers/messaging/sandbox";
import { newPasswordSchema } from "~/domain/schemas";
import { authenticateWithPassword } from "./accounts";
import { requestPasswordReset, resetLinkIsLive, resetPassword, RESET_RESEND_MS, RESET_TTL_MS } from "./password-reset";

/** Lost and reset password on a real database, the link read from the sandbox outbox. */
let handle: DatabaseHandle;
let messenger: SandboxMessenger;
const mail = { subject: "Choisir un nouveau mot de passe", text: (link: string) => `Lien : ${link}` };
const CLAIRE = "claire.petit@example.com";

beforeAll(async () => {
  handle = await openTestDatabase();
  messenger = new SandboxMessenger(handle.db);
  await seedDemo(handle.db, messenger, { now: new Date(), baseUrl: "http://localhost" });
}, 30_000);
afterAll(() => handle.close());

async function lastLink(email: string): Promise<{ token: string; email: string } | null> {
  const message = (await listOutbox(handle.db)).find((m) => m.recipient === email && m.subject === mail.subject);
  const match = message && /\/reset-password\/([\w-]+)\?email=([^\s]+)/.exec(message.body);
  return match ? { token: match[1]!, email: decodeURIComponent(match[2]!) } : null;
}
const resetMails = async () => (await listOutbox(handle.db)).filter((m) => m.subject === mail.subject).length;

test("the rules: 8 characters, upper, lower, digit, special; both typed the same", () => {
  const check = (password: string, confirmation = password) => {
    const r = newPasswordSchema.safeParse({ password, confirmation });
    return r.success ? "ok" : r.error.issues[0]!.message;
  };
  expect(check("Nouveau-Mot2passe")).toBe("ok");
  expect(check("Ab1!")).toBe("errors.passwordRule.length");
  expect(check("nouveau-mot2passe")).toBe("errors.passwordRule.upper");
  expect(check("NOUVEAU-MOT2PASSE")).toBe("errors.passwordRule.lower");
  expect(check("Nouveau-Motdepasse")).toBe("errors.passwordRule.digit");
  expect(check("NouveauMot2passe")).toBe("errors.passwordRule.special");
  expect(check("Nouveau-Mot2passe", "Nouveau-Mot2passf")).toBe("errors.passwordMismatch");
});

test("an unknown address gets the same (silent) treatment and no e-mail", async () => {
  const before = await resetMails();
  await requestPasswordReset(handle.db, messenger, "personne@example.com", "http://localhost", mail);
  expect(await resetMails()).toBe(before);
});

test("a link resets once; the old password and every session end; a second use is refused", async () => {
  const now = new Date();
  await requestPasswordReset(handle.db, messenger, ` ${CLAIRE.toUpperCase()} `, "http://localhost", mail, now);
  const link = (await lastLink(CLAIRE))!;
  expect(link.email).toBe(CLAIRE);
  expect(await resetLinkIsLive(handle.db, link.token, link.email)).toBe(true);
  // Another address in the URL does not open claire's link.
  expect(await resetLinkIsLive(handle.db, link.token, "marie.martin@example.com")).toBe(false);

  const claire = (
    await handle.db.selectFrom("users").select("id").where("email", "=", CLAIRE).executeTakeFirstOrThrow()
  ).id;
  await handle.db
    .insertInto("sessions")
    .values({
      id_hash: "open-session",
      user_id: claire,
      data: "{}",
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
      created_at: now.toISOString(),
    })
    .execute();
  expect(await resetPassword(handle.db, link.token, link.email, "Nouveau-Mot2passe")).toEqual({ kind: "ok" });
  expect(await authenticateWithPassword(handle.db, CLAIRE, "Nouveau-Mot2passe")).toBe(claire);
  expect(await authenticateWithPassword(handle.db, CLAIRE, "Demo-Portail-2026!")).toBeNull();
  expect(await handle.db.selectFrom("sessions").select("id_hash").where("user_id", "=", claire).execute()).toEqual([]);

  expect(await resetPassword(handle.db, link.token, link.email, "Encore-Autre3")).toEqual({ kind: "invalid" });
  expect(await resetLinkIsLive(handle.db, link.token, link.email)).toBe(false);
  expect(await authenticateWithPassword(handle.db, CLAIRE, "Nouveau-Mot2passe")).toBe(claire);
});

test("a link expires after an hour; a new one is sent at most once a minute", async () => {
  const start = new Date(Date.now() + 10 * RESET_RESEND_MS);
  const before = await resetMails();
  await requestPasswordReset(handle.db, messenger, CLAIRE, "http://localhost", mail, start);
  await requestPasswordReset(
    handle.db,
    messenger,
    CLAIRE,
    "http://localhost",
    mail,
    new Date(start.getTime() + 30_000),
  );
  expect(await resetMails()).toBe(before + 1);
  const link = (await lastLink(CLAIRE))!;
  expect(
    await resetLinkIsLive(handle.db, link.token, link.email, new Date(start.getTime() + RESET_TTL_MS - 1000)),
  ).toBe(true);
  expect(
    await resetPassword(
      handle.db,
      link.token,
      link.email,
      "Expire-Trop1tard",
      new Date(start.getTime() + RESET_TTL_MS + 1000),
    ),
  ).toEqual({ kind: "invalid" });
  await requestPasswordReset(
    handle.db,
    messenger,
    CLAIRE,
    "http://localhost",
    mail,
    new Date(start.getTime() + RESET_RESEND_MS + 1000),
  );
  expect(await resetMails()).toBe(before + 2);
});

test("a forged token is refused", async () => {
  expect(await resetPassword(handle.db, "not-a-real-token", CLAIRE, "Nouveau-Mot2passe")).toEqual({ kind: "invalid" });
});
