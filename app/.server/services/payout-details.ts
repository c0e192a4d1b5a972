import type { DB } from "../db";
import { newId } from "../ids";
import type { Channel, Messenger } from "../providers/messaging";
import { ibanProblem, maskIban, normaliseIban, type IbanProblem } from "~/domain/iban";
import { IBAN_FIELD } from "~/domain/payout-iban";
import { issueCode, withdrawCodes, type CodeMessage, type CodeSubject, type IssueResult } from "./codes";
import { notify, type NotificationMail, type NotifyDeps } from "./notifications";

/**
 * What the portal already knows to pay a person (issue 31 §1, decision 0054): the IBAN saved in their
 * profile and their postal address (the card's delivery address, users.address_*). The refund and allowance
 * wizards start from them instead of asking again. Every read and write is scoped to the signed-in user.
 */

export interface PostalAddress {
  line1: string;
  line2: string | null;
  zipcode: string;
  city: string;
  country: string;
}

export interface PayoutDetails {
  /** The saved IBAN, normalised; null when none is saved. */
  iban: string | null;
  /** The postal address when complete (line 1, postcode, city, country), else null. */
  address: PostalAddress | null;
}

const filled = (text: string | null): text is string => text !== null && text.trim() !== "";

export async function getPayoutDetails(db: DB, userId: string): Promise<PayoutDetails> {
  const row = await db
    .selectFrom("users")
    .select(["payout_iban", "address_line1", "address_line2", "address_zipcode", "address_city", "address_country"])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!row) return { iban: null, address: null };
  const { address_line1: line1, address_zipcode: zipcode, address_city: city, address_country: country } = row;
  const complete = filled(line1) && filled(zipcode) && filled(city) && filled(country);
  return {
    iban: row.payout_iban,
    address: complete
      ? { line1, line2: filled(row.address_line2) ? row.address_line2 : null, zipcode, city, country }
      : null,
  };
}

/**
 * Saves the IBAN of a person's first request to their profile, only when none is saved yet: a saved IBAN
 * changes only through the profile, with a confirmation code (decision 0054), never from a wizard.
 * Answers whether it saved it. An IBAN that is not a valid SEPA IBAN is never saved.
 */
export async function rememberFirstIban(db: DB, userId: string, iban: string): Promise<boolean> {
  const normalised = normaliseIban(iban);
  if (ibanProblem(normalised) !== null) return false;
  const result = await db
    .updateTable("users")
    .set({ payout_iban: normalised })
    .where("id", "=", userId)
    .where("payout_iban", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

// ---------------------------------------------------------------------------------------------
// Changing the saved IBAN: a pending change confirmed by a code (decision 0054, spec 001 §4)
// ---------------------------------------------------------------------------------------------

/**
 * The codes of an IBAN change: the account's, for the field "iban" (decision 0022). Apart from the e-mail's
 * and the phone's, so that no code of one confirms the other.
 */
export function ibanChangeSubject(userId: string): CodeSubject {
  return { userId, purpose: "contactChange", target: IBAN_FIELD };
}

/** The new IBAN waiting for its code, normalised, or null. */
export async function pendingIban(db: DB, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom("pending_changes")
    .select("new_value")
    .where("user_id", "=", userId)
    .where("field_name", "=", IBAN_FIELD)
    .executeTakeFirst();
  return row?.new_value ?? null;
}

/**
 * Where an IBAN change's code goes: the person's second factor (the IBAN is no address to prove): a text to
 * their phone when they chose SMS and have one, else an e-mail to their address.
 */
export async function secondFactorOf(
  db: DB,
  userId: string,
): Promise<{ channel: Channel; destination: string } | null> {
  const user = await db
    .selectFrom("users")
    .select(["email", "phone", "mfa_preferred"])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!user) return null;
  if (user.mfa_preferred === "SMS" && user.phone) return { channel: "sms", destination: user.phone };
  return { channel: "email", destination: user.email };
}

export type IbanChangeResult =
  | { kind: "invalid"; problem: IbanProblem }
  /** The IBAN typed is the one saved already. */
  | { kind: "unchanged" }
  /** A change already waits for its code: confirm or cancel it first. */
  | { kind: "pending" }
  | { kind: "sent"; channel: Channel; delayed: boolean }
  | { kind: "throttled"; retryAt: Date };

/**
 * Asks to change the saved IBAN: checked (SEPA, checksum, country format), then kept as a pending change and a
 * code sent to the person's second factor. The saved IBAN changes only when that code is given back
 * (`applyPendingIban` through the pending-change step): never from this call.
 */
export async function requestIbanChange(
  db: DB,
  messenger: Messenger,
  userId: string,
  typed: string,
  message: CodeMessage,
  now = new Date(),
): Promise<IbanChangeResult> {
  const iban = normaliseIban(typed);
  const problem = ibanProblem(iban);
  if (problem) return { kind: "invalid", problem };
  const [{ iban: saved }, waiting, factor] = await Promise.all([
    getPayoutDetails(db, userId),
    pendingIban(db, userId),
    secondFactorOf(db, userId),
  ]);
  if (!factor) return { kind: "unchanged" };
  if (waiting !== null) return { kind: "pending" };
  if (saved === iban) return { kind: "unchanged" };
  await db
    .insertInto("pending_changes")
    .values({
      id: newId("pch"),
      user_id: userId,
      field_name: IBAN_FIELD,
      new_value: iban,
      created_at: now.toISOString(),
    })
    .execute();
  return sendIbanCode(db, messenger, userId, factor, message, now);
}

async function sendIbanCode(
  db: DB,
  messenger: Messenger,
  userId: string,
  factor: { channel: Channel; destination: string },
  message: CodeMessage,
  now: Date,
): Promise<IbanChangeResult> {
  const sent = await issueCode(db, messenger, { subject: ibanChangeSubject(userId), ...factor, message }, { now });
  return sent.kind === "sent" ? { kind: "sent", channel: factor.channel, delayed: sent.delayed } : sent;
}

/** A new code for the IBAN change waiting (60 s apart), or `none` when nothing waits. */
export async function resendIbanCode(
  db: DB,
  messenger: Messenger,
  userId: string,
  message: CodeMessage,
  now = new Date(),
): Promise<IssueResult | { kind: "none" }> {
  const factor = await secondFactorOf(db, userId);
  if (!factor || (await pendingIban(db, userId)) === null) return { kind: "none" };
  return issueCode(db, messenger, { subject: ibanChangeSubject(userId), ...factor, message }, { now });
}

/** Drops the IBAN change waiting, and its code with it. Answers whether one waited. */
export async function cancelIbanChange(db: DB, userId: string, now = new Date()): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const removed = await trx
      .deleteFrom("pending_changes")
      .where("user_id", "=", userId)
      .where("field_name", "=", IBAN_FIELD)
      .executeTakeFirst();
    await withdrawCodes(trx, ibanChangeSubject(userId), now);
    return Number(removed.numDeletedRows) > 0;
  });
}

/**
 * What a verified code does (the code step's `verified`): the IBAN waiting becomes the saved one, and the person
 * is told by a notification and an e-mail, as a bank does, so that a change they did not make is seen at once.
 * `mail` says it with the new account's last four. Answers the new IBAN, or null when nothing waited.
 */
export async function applyPendingIban(
  deps: NotifyDeps,
  userId: string,
  mail: IbanChangedMail,
  now = new Date(),
): Promise<string | null> {
  const applied = await deps.db.transaction().execute(async (trx) => {
    const iban = await pendingIban(trx, userId);
    if (iban === null) return null;
    await trx.updateTable("users").set({ payout_iban: iban }).where("id", "=", userId).execute();
    await trx
      .deleteFrom("pending_changes")
      .where("user_id", "=", userId)
      .where("field_name", "=", IBAN_FIELD)
      .execute();
    return iban;
  });
  if (applied !== null)
    await notify(deps, userId, IBAN_CHANGED_NOTIFICATION, null, { mail: mail(maskIban(applied)), now });
  return applied;
}

/** The e-mail saying the saved IBAN changed, given the new account's last four (the route words it). */
export type IbanChangedMail = (lastFour: string) => NotificationMail;

/** The notification of a saved IBAN changed; always sent (no preference silences a security message). */
export const IBAN_CHANGED_NOTIFICATION = "payout_iban_changed_notification";

// ---------------------------------------------------------------------------------------------
// The postal address: saved at once (decision 0054)
// ---------------------------------------------------------------------------------------------

/**
 * Saves the postal address (already checked by the delivery address's rules, domain/schemas.ts): the person's own
 * row only. No code: an address receives nothing of value from the portal that the card's own delivery does not
 * already confirm (decision 0054).
 */
export async function savePostalAddress(db: DB, userId: string, address: PostalAddress): Promise<void> {
  await db
    .updateTable("users")
    .set({
      address_line1: address.line1,
      address_line2: address.line2,
      address_zipcode: address.zipcode,
      address_city: address.city,
      address_country: address.country,
    })
    .where("id", "=", userId)
    .execute();
}
