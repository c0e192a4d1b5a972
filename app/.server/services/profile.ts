import type { DB } from "../db";
import { newId } from "../ids";
import type { Channel, Messenger } from "../providers/messaging";
import { normaliseEmail } from "./accounts";
import {
  issueCode,
  verifyCode,
  withdrawCodes,
  type CodeMessage,
  type CodeRefusal,
  type CodeSubject,
  type IssueResult,
} from "./codes";

/**
 * The profile settings (spec 001 §2.4, §3, §5 "Profile save"): names are read-only; e-mail and phone
 * changes wait as pending changes until a 6-digit code sent to the *new* address or number confirms
 * them; terms can be accepted, never withdrawn here.
 */
export type ContactField = "email" | "phone";
export const CONTACT_FIELDS: readonly ContactField[] = ["email", "phone"];

export function isContactField(value: unknown): value is ContactField {
  return value === "email" || value === "phone";
}

/** The codes of a pending change: the account's, for this field (decision 0022). */
export function contactChangeSubject(userId: string, field: ContactField): CodeSubject {
  return { userId, purpose: "contactChange", target: field };
}

export interface ProfileSettings {
  firstName: string | null;
  lastName: string | null;
  email: string;
  phone: string | null;
  termsConfirmed: boolean;
  pending: Partial<Record<ContactField, string>>;
}

export async function pendingChanges(db: DB, userId: string): Promise<Partial<Record<ContactField, string>>> {
  const rows = await db
    .selectFrom("pending_changes")
    .select(["field_name", "new_value"])
    .where("user_id", "=", userId)
    .execute();
  const pending: Partial<Record<ContactField, string>> = {};
  for (const row of rows) if (isContactField(row.field_name)) pending[row.field_name] = row.new_value;
  return pending;
}

/** The fields with a change waiting for its code, e-mail first. */
export async function pendingFields(db: DB, userId: string): Promise<ContactField[]> {
  const pending = await pendingChanges(db, userId);
  return CONTACT_FIELDS.filter((field) => pending[field] !== undefined);
}

export async function getProfileSettings(db: DB, userId: string): Promise<ProfileSettings | null> {
  const row = await db
    .selectFrom("users")
    .select(["first_name", "last_name", "email", "phone", "terms_confirmed_at"])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    phone: row.phone,
    termsConfirmed: row.terms_confirmed_at !== null,
    pending: await pendingChanges(db, userId),
  };
}

/** What the code message to a new address or number says; the routes give it in the person's language. */
export type PendingChangeMessages = Record<ContactField, (newValue: string) => CodeMessage>;

export interface ProfileUpdate {
  /** Already valid; absent when the form did not carry it (a change is pending). */
  email?: string;
  /** E.164, already valid; absent as above. */
  phone?: string;
  acceptTerms: boolean;
}

export type ProfileUpdateResult =
  | { kind: "unchanged" }
  /** The new e-mail is another account's. */
  | { kind: "emailTaken" }
  | {
      kind: "saved";
      pendingFields: ContactField[];
      /** A code's e-mail or SMS could not leave yet (decision 0042). */
      delayed: boolean;
      /** The SMS gateway refused the new number for good: no code will come (decision 0062). */
      refused: boolean;
      /** The channel of the code that was delayed or refused, so the page names the e-mail or the SMS. */
      channel?: Channel;
    };

/**
 * Saves what changed. A new e-mail or phone becomes a pending change and its code goes to the new
 * address or number; nothing is written when nothing changed, or when the new e-mail belongs to
 * someone else.
 */
export async function updateProfile(
  db: DB,
  messenger: Messenger,
  userId: string,
  update: ProfileUpdate,
  messages: PendingChangeMessages,
  now = new Date(),
): Promise<ProfileUpdateResult> {
  const current = await getProfileSettings(db, userId);
  if (!current) return { kind: "unchanged" };
  const changes: Partial<Record<ContactField, string>> = {};
  if (update.email !== undefined && !current.pending.email && normaliseEmail(update.email) !== current.email)
    changes.email = normaliseEmail(update.email);
  if (update.phone !== undefined && !current.pending.phone && update.phone !== current.phone)
    changes.phone = update.phone;
  const acceptTerms = update.acceptTerms && !current.termsConfirmed;
  if (!changes.email && !changes.phone && !acceptTerms) return { kind: "unchanged" };

  if (changes.email && (await emailTaken(db, userId, changes.email))) return { kind: "emailTaken" };

  const pendingFields = CONTACT_FIELDS.filter((field) => changes[field] !== undefined);
  await db.transaction().execute(async (trx) => {
    if (acceptTerms)
      await trx
        .updateTable("users")
        .set({ terms_confirmed_at: now.toISOString() })
        .where("id", "=", userId)
        .where("terms_confirmed_at", "is", null)
        .execute();
    for (const field of pendingFields) {
      await trx.deleteFrom("pending_changes").where("user_id", "=", userId).where("field_name", "=", field).execute();
      await trx
        .insertInto("pending_changes")
        .values({
          id: newId("pch"),
          user_id: userId,
          field_name: field,
          new_value: changes[field]!,
          created_at: now.toISOString(),
        })
        .execute();
    }
  });
  // Codes go out once the changes are recorded, each to the new destination.
  const outcome: { delayed: boolean; refused: boolean; channel?: Channel } = { delayed: false, refused: false };
  for (const field of pendingFields) {
    const sent = await sendPendingChangeCode(
      db,
      messenger,
      userId,
      field,
      changes[field]!,
      messages[field](changes[field]!),
      now,
    );
    if (sent.kind === "sent" && (sent.delayed || sent.refused)) {
      outcome.delayed ||= sent.delayed;
      outcome.refused ||= sent.refused;
      outcome.channel = sent.channel;
    }
  }
  return { kind: "saved", pendingFields, ...outcome };
}

async function emailTaken(db: DB, userId: string, email: string): Promise<boolean> {
  const owner = await db
    .selectFrom("users")
    .select("id")
    .where("email", "=", email)
    .where("id", "!=", userId)
    .executeTakeFirst();
  return owner !== undefined;
}

function sendPendingChangeCode(
  db: DB,
  messenger: Messenger,
  userId: string,
  field: ContactField,
  destination: string,
  message: CodeMessage,
  now: Date,
): Promise<IssueResult> {
  return issueCode(
    db,
    messenger,
    {
      subject: contactChangeSubject(userId, field),
      channel: field === "email" ? "email" : "sms",
      destination,
      message,
    },
    { now },
  );
}

/** A new code for this pending change (60 s apart), or `none` when nothing is pending. */
export async function resendPendingChangeCode(
  db: DB,
  messenger: Messenger,
  userId: string,
  field: ContactField,
  messages: PendingChangeMessages,
  now = new Date(),
): Promise<IssueResult | { kind: "none" }> {
  const pending = (await pendingChanges(db, userId))[field];
  if (!pending) return { kind: "none" };
  return sendPendingChangeCode(db, messenger, userId, field, pending, messages[field](pending), now);
}

export async function cancelPendingChange(
  db: DB,
  userId: string,
  field: ContactField,
  now = new Date(),
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const removed = await trx
      .deleteFrom("pending_changes")
      .where("user_id", "=", userId)
      .where("field_name", "=", field)
      .executeTakeFirst();
    // The code sent for it must not confirm anything any more.
    await withdrawCodes(trx, contactChangeSubject(userId, field), now);
    return Number(removed.numDeletedRows) > 0;
  });
}

export type ApplyResult = { kind: "ok" } | { kind: "none" } | { kind: "taken" };
export type ConfirmResult = ApplyResult | CodeRefusal;

/**
 * What a verified code does (decision 0022): the new value becomes the account's. An e-mail taken by
 * someone else meanwhile is refused and the change dropped.
 */
export async function applyPendingChange(
  db: DB,
  userId: string,
  field: ContactField,
  now = new Date(),
): Promise<ApplyResult> {
  const pending = (await pendingChanges(db, userId))[field];
  if (!pending) return { kind: "none" };
  if (field === "email" && (await emailTaken(db, userId, pending))) {
    await cancelPendingChange(db, userId, field, now);
    return { kind: "taken" };
  }
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("users")
      .set(field === "email" ? { email: pending } : { phone: pending })
      .where("id", "=", userId)
      .execute();
    await trx.deleteFrom("pending_changes").where("user_id", "=", userId).where("field_name", "=", field).execute();
  });
  return { kind: "ok" };
}

/** Checks the code of a pending change (only while one waits) and, when right, applies it. */
export async function confirmPendingChange(
  db: DB,
  userId: string,
  field: ContactField,
  code: string,
  now = new Date(),
): Promise<ConfirmResult> {
  if (!(await pendingChanges(db, userId))[field]) return { kind: "none" };
  const verified = await verifyCode(db, contactChangeSubject(userId, field), code, { now });
  if (verified.kind !== "ok") return verified;
  return applyPendingChange(db, userId, field, now);
}

/**
 * `/user-confirmation?email=&code=` (spec 001 §2.1): the link in the e-mail sent to a new address.
 * Whether the address is unknown, not pending or the code wrong, the answer is the same "invalid".
 */
export async function confirmEmailByLink(
  db: DB,
  email: string,
  code: string,
  now = new Date(),
): Promise<{ kind: "ok" } | { kind: "invalid" }> {
  const row = await db
    .selectFrom("pending_changes")
    .select("user_id")
    .where("field_name", "=", "email")
    .where("new_value", "=", normaliseEmail(email))
    .orderBy("created_at", "desc")
    .executeTakeFirst();
  if (!row) return { kind: "invalid" };
  return (await confirmPendingChange(db, row.user_id, "email", code, now)).kind === "ok"
    ? { kind: "ok" }
    : { kind: "invalid" };
}

/** The light version's choice (decision 0040), on this person's own account row. */
export async function saveLightVersion(db: DB, userId: string, on: boolean): Promise<void> {
  await db
    .updateTable("users")
    .set({ light_version: on ? 1 : 0 })
    .where("id", "=", userId)
    .execute();
}
