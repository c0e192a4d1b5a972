import type { DB } from "../db";
import { newId } from "../ids";
import { hashPassword } from "../passwords";
import type { Messenger } from "../providers/messaging/port";
import { hashSecret, newSecretToken } from "../tokens";
import { normaliseEmail } from "./accounts";
import { clearGuesses } from "./guess-limits";

/**
 * Lost password (spec 001 §2.1): a single-use link by e-mail, valid one hour. The answer never says
 * whether the address has an account; a new link is sent at most once a minute per account.
 */
export const RESET_TTL_MS = 60 * 60 * 1000;
export const RESET_RESEND_MS = 60 * 1000;

export interface ResetMail {
  subject: string;
  text: (link: string) => string;
}

export async function requestPasswordReset(
  db: DB,
  messenger: Messenger,
  email: string,
  baseUrl: string,
  mail: ResetMail,
  now = new Date(),
): Promise<void> {
  const address = normaliseEmail(email);
  const user = await db.selectFrom("users").select(["id", "status"]).where("email", "=", address).executeTakeFirst();
  if (!user || user.status !== "active") return;
  const recent = await db
    .selectFrom("action_tokens")
    .select("id")
    .where("user_id", "=", user.id)
    .where("purpose", "=", "reset_password")
    .where("used_at", "is", null)
    .where("created_at", ">", new Date(now.getTime() - RESET_RESEND_MS).toISOString())
    .executeTakeFirst();
  if (recent) return;
  const token = newSecretToken();
  const expiresAt = new Date(now.getTime() + RESET_TTL_MS);
  await db
    .insertInto("action_tokens")
    .values({
      id: newId("tok"),
      user_id: user.id,
      purpose: "reset_password",
      token_hash: hashSecret(token),
      expires_at: expiresAt.toISOString(),
      used_at: null,
      created_at: now.toISOString(),
    })
    .execute();
  const link = `${baseUrl.replace(/\/+$/, "")}/reset-password/${token}?email=${encodeURIComponent(address)}`;
  // The link is no use after its hour: the outbox never sends it later (decision 0042).
  await messenger.send({ channel: "email", to: address, subject: mail.subject, text: mail.text(link), expiresAt });
}

async function liveToken(db: DB, token: string, email: string, now: Date) {
  return db
    .selectFrom("action_tokens")
    .innerJoin("users", "users.id", "action_tokens.user_id")
    .select(["action_tokens.id", "action_tokens.user_id"])
    .where("action_tokens.token_hash", "=", hashSecret(token))
    .where("action_tokens.purpose", "=", "reset_password")
    .where("action_tokens.used_at", "is", null)
    .where("action_tokens.expires_at", ">", now.toISOString())
    .where("users.email", "=", normaliseEmail(email))
    .where("users.status", "=", "active")
    .executeTakeFirst();
}

/** Whether the link can still be used (the page then shows the form, else says the link is spent). */
export async function resetLinkIsLive(db: DB, token: string, email: string, now = new Date()): Promise<boolean> {
  return (await liveToken(db, token, email, now)) !== undefined;
}

/**
 * Sets the new password (already checked against the rules) and spends the link; every open session of
 * the account ends, so whoever knew the old password is signed out, and a wait on its password guesses
 * ends too.
 */
export async function resetPassword(
  db: DB,
  token: string,
  email: string,
  password: string,
  now = new Date(),
): Promise<{ kind: "ok" } | { kind: "invalid" }> {
  const live = await liveToken(db, token, email, now);
  if (!live) return { kind: "invalid" };
  const hash = await hashPassword(password);
  return db.transaction().execute(async (trx) => {
    const spent = await trx
      .updateTable("action_tokens")
      .set({ used_at: now.toISOString() })
      .where("id", "=", live.id)
      .where("used_at", "is", null)
      .executeTakeFirst();
    if (Number(spent.numUpdatedRows) !== 1) return { kind: "invalid" } as const;
    await trx.updateTable("users").set({ password_hash: hash }).where("id", "=", live.user_id).execute();
    await trx.deleteFrom("sessions").where("user_id", "=", live.user_id).execute();
    // The link proved the mailbox: wrong passwords typed by others no longer hold the new one back.
    await clearGuesses(trx, "password", normaliseEmail(email));
    return { kind: "ok" } as const;
  });
}
