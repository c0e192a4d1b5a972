import type { MfaChannel, MfaStatus } from "~/domain/mfa";
import type { DB } from "../db";
import { hashPassword, verifyPassword } from "../passwords";
import { hashSecret } from "../tokens";
import type { Account } from "./accounts";
import { pendingFields, type ContactField } from "./profile";

/**
 * Security settings (spec 001 §2.4, §3 "MFA", §6): a second factor by e-mail (recommended) or SMS is
 * mandatory unless the account has the bypassMFA permission; passwords change with the current one.
 */
export function mfaStatus(account: Account): MfaStatus {
  return {
    enabled: account.mfaEnabled,
    preferred: account.mfaPreferred,
    destinations: { EMAIL: account.email, SMS: account.phone },
  };
}

/**
 * Spec 001 §4 "MFA-required": an onboarded account without a second factor and without bypassMFA is held.
 * A passkey is a second factor (decision 0061): an account with one signs in with it after its password.
 */
export function mustSetUpMfa(account: Pick<Account, "mfaEnabled" | "hasPasskeys" | "permissions">): boolean {
  return !account.mfaEnabled && !account.hasPasskeys && !account.permissions.includes("bypassMFA");
}

/**
 * Whether a sign-in that proved who it is without the password (a passkey, decision 0061) may go on:
 * `disabled` is said as the password step says it (the account is under review, spec 001 §1); any
 * other state but active is `unknown`, told as an unknown passkey.
 */
export async function passkeySignInState(db: DB, userId: string): Promise<"active" | "disabled" | "unknown"> {
  const row = await db.selectFrom("users").select("status").where("id", "=", userId).executeTakeFirst();
  if (row?.status === "active" || row?.status === "disabled") return row.status;
  return "unknown";
}

export type EnableMfaResult =
  { kind: "ok" } | { kind: "noDestination" } | { kind: "pendingChange"; field: ContactField };

/**
 * Turns the second factor on with this channel as the preferred one; SMS needs a phone number. While
 * an e-mail or phone change waits for its code, nothing changes: that change is settled first (codes
 * must not go to an address or number the person has not confirmed, nor skip its confirmation).
 */
export async function enableMfa(db: DB, account: Account, channel: MfaChannel): Promise<EnableMfaResult> {
  const [field] = await pendingFields(db, account.id);
  if (field) return { kind: "pendingChange", field };
  if (!mfaStatus(account).destinations[channel]) return { kind: "noDestination" };
  await db.updateTable("users").set({ mfa_enabled: 1, mfa_preferred: channel }).where("id", "=", account.id).execute();
  return { kind: "ok" };
}

/**
 * Sets a new password after checking the current one. Every other session of the account ends (a
 * stolen session does not outlive a password change); the one making the change stays.
 */
export async function changePassword(
  db: DB,
  userId: string,
  currentPassword: string,
  newPassword: string,
  keepSessionId: string,
): Promise<{ kind: "ok" } | { kind: "wrongCurrent" }> {
  const row = await db.selectFrom("users").select("password_hash").where("id", "=", userId).executeTakeFirst();
  if (!row?.password_hash || !(await verifyPassword(currentPassword, row.password_hash)))
    return { kind: "wrongCurrent" };
  const hash = await hashPassword(newPassword);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("users")
      .set({ password_hash: hash, password_change_required: 0 })
      .where("id", "=", userId)
      .execute();
    await trx
      .deleteFrom("sessions")
      .where("user_id", "=", userId)
      .where("id_hash", "!=", hashSecret(keepSessionId))
      .execute();
  });
  return { kind: "ok" };
}

/** Whether this account signed in with a temporary password and must choose its own first. */
export async function passwordChangeRequired(db: DB, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom("users")
    .select("password_change_required")
    .where("id", "=", userId)
    .executeTakeFirst();
  return row?.password_change_required === 1;
}

/** `/force-change-password`: the new password replaces the temporary one; all sessions end. */
export async function replaceTemporaryPassword(
  db: DB,
  userId: string,
  newPassword: string,
): Promise<{ kind: "ok" } | { kind: "notRequired" }> {
  const hash = await hashPassword(newPassword);
  return db.transaction().execute(async (trx) => {
    const done = await trx
      .updateTable("users")
      .set({ password_hash: hash, password_change_required: 0 })
      .where("id", "=", userId)
      .where("password_change_required", "=", 1)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) return { kind: "notRequired" } as const;
    await trx.deleteFrom("sessions").where("user_id", "=", userId).execute();
    return { kind: "ok" } as const;
  });
}
