import type { DB } from "../db";
import { hashPassword } from "../passwords";
import { hashSecret } from "../tokens";
import { normaliseEmail } from "./accounts";

/**
 * Account activation (spec 001 §2.1 `/activate/:token?email=`): an invited person opens the link from
 * their invitation, gives their names, mobile phone, terms acceptance and a password. The link serves
 * once and only with the address it was sent to; every refusal reads the same.
 */
async function liveInvitation(db: DB, token: string, email: string, now: Date) {
  return db
    .selectFrom("action_tokens")
    .innerJoin("users", "users.id", "action_tokens.user_id")
    .select(["action_tokens.id", "action_tokens.user_id"])
    .where("action_tokens.token_hash", "=", hashSecret(token))
    .where("action_tokens.purpose", "=", "activation")
    .where("action_tokens.used_at", "is", null)
    .where("action_tokens.expires_at", ">", now.toISOString())
    .where("users.email", "=", normaliseEmail(email))
    .where("users.status", "=", "invited")
    .executeTakeFirst();
}

export async function invitationIsLive(db: DB, token: string, email: string, now = new Date()): Promise<boolean> {
  return (await liveInvitation(db, token, email, now)) !== undefined;
}

/**
 * The address a live invitation was sent to, from its token alone (the `/onboarding/:token` link,
 * spec 001 §2.1), or null: unknown, spent or expired. Whoever holds the token may activate the account,
 * so the address tells them nothing more.
 */
export async function invitationEmail(db: DB, token: string, now = new Date()): Promise<string | null> {
  const row = await db
    .selectFrom("action_tokens")
    .innerJoin("users", "users.id", "action_tokens.user_id")
    .select("users.email")
    .where("action_tokens.token_hash", "=", hashSecret(token))
    .where("action_tokens.purpose", "=", "activation")
    .where("action_tokens.used_at", "is", null)
    .where("action_tokens.expires_at", ">", now.toISOString())
    .where("users.status", "=", "invited")
    .executeTakeFirst();
  return row?.email ?? null;
}

export interface Activation {
  firstName: string;
  lastName: string;
  /** E.164 */
  phone: string;
  password: string;
  marketingEmails: boolean;
}

export type ActivationResult = { kind: "activated"; userId: string } | { kind: "invalid" };

/** The activated user, or "invalid" when the link is unknown, spent, expired or for another address. */
export async function activateAccount(
  db: DB,
  token: string,
  email: string,
  activation: Activation,
  now = new Date(),
): Promise<ActivationResult> {
  const invitation = await liveInvitation(db, token, email, now);
  if (!invitation) return { kind: "invalid" };
  const passwordHash = await hashPassword(activation.password);
  return db.transaction().execute(async (trx) => {
    const spent = await trx
      .updateTable("action_tokens")
      .set({ used_at: now.toISOString() })
      .where("id", "=", invitation.id)
      .where("used_at", "is", null)
      .executeTakeFirst();
    if (Number(spent.numUpdatedRows) !== 1) return { kind: "invalid" } as const;
    await trx
      .updateTable("users")
      .set({
        first_name: activation.firstName,
        last_name: activation.lastName,
        phone: activation.phone,
        password_hash: passwordHash,
        terms_confirmed_at: now.toISOString(),
        marketing_emails: activation.marketingEmails ? 1 : 0,
        status: "active",
      })
      .where("id", "=", invitation.user_id)
      .where("status", "=", "invited")
      .execute();
    return { kind: "activated", userId: invitation.user_id } as const;
  });
}
