import { createHash, randomInt, timingSafeEqual } from "node:crypto";
import type { DB } from "../db";
import { newId } from "../ids";
import type { Channel, Messenger } from "../providers/messaging";
import { guess, type GuessPolicy } from "./guess-limits";

/**
 * One-time codes (spec 001 §5 "Codes", §9; decision 0022): 6 digits, valid 1 hour, a new one 60 s
 * after the last, 5 tries each, and across codes the account's wrong codes wait (guess-limits.ts).
 *
 * A code is for one subject: whose (the user), for what (the purpose) and on what (the target: the
 * account for a sign-in, the card for a reveal, the pending field for a contact change). It is only
 * ever checked against that subject: another purpose, another target or another user finds nothing.
 */
export const CODE_LENGTH = 6;
export const CODE_TTL_MS = 60 * 60 * 1000;
export const RESEND_WAIT_MS = 60 * 1000;
export const MAX_ATTEMPTS = 5;

export type CodePurpose = "signIn" | "reveal" | "contactChange" | "passkeyAdd";

export interface CodeSubject {
  userId: string;
  purpose: CodePurpose;
  /**
   * The account id (signIn, and passkeyAdd: the fresh confirmation before adding a passkey, issue 32), the card
   * id (reveal), the pending field (contactChange).
   */
  target: string;
}

/**
 * `sent`, with `delayed` when the message could not leave yet: it waits in the outbox and leaves as soon as it can
 * (decision 0042); the page says so rather than "code sent". `refused`: the SMS gateway refused the number for good
 * (decision 0062), nothing will arrive. `channel` lets the page name the e-mail or the SMS.
 */
export type IssueResult =
  | { kind: "sent"; expiresAt: Date; delayed: boolean; refused: boolean; channel: Channel }
  | { kind: "throttled"; retryAt: Date };

/** `locked`: too many wrong codes for this account lately (any purpose); codes wait until `retryAt`. */
export type VerifyResult =
  | { kind: "ok" }
  | { kind: "invalid" }
  | { kind: "expired" }
  | { kind: "exhausted" }
  | { kind: "missing" }
  | { kind: "locked"; retryAt: Date };
export type CodeRefusal = Exclude<VerifyResult, { kind: "ok" }>;

export interface CodeMessage {
  subject: string;
  text: (code: string) => string;
  /** When the message is no use any more, if before the code's end (a sign-in's end): never sent after. */
  usefulUntil?: Date;
}

/** Makes the digits of each new code. */
export type CodeGenerator = () => string;

/** The real one: uniformly random, from the system's secure source. */
export const randomCode: CodeGenerator = () => String(randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, "0");

let generateCode: CodeGenerator = randomCode;

/**
 * Tests only: the next codes come from `generator` (so a test knows the code, and a wrong one, for
 * sure); the returned function puts the random generator back. Never called by the app.
 */
export function setCodeGenerator(generator: CodeGenerator): () => void {
  generateCode = generator;
  return () => {
    generateCode = randomCode;
  };
}

/** A generator giving these codes in turn (then failing loudly: a test asked for more than it planned). */
export function codeSequence(...codes: string[]): CodeGenerator {
  const queue = [...codes];
  return () => {
    const next = queue.shift();
    if (next === undefined || !new RegExp(`^\\d{${CODE_LENGTH}}$`).test(next))
      throw new Error(`codeSequence: no ${CODE_LENGTH}-digit code left (${next})`);
    return next;
  };
}

function digest(codeId: string, code: string): Buffer {
  return createHash("sha256").update(`${codeId}:${code}`).digest();
}

/** Accepts what people paste: spaces and dashes inside the code are ignored. */
export function normaliseCode(raw: string): string {
  return raw.replace(/[\s-]/g, "");
}

function outstanding(db: DB, subject: CodeSubject) {
  return db
    .selectFrom("one_time_codes")
    .where("user_id", "=", subject.userId)
    .where("purpose", "=", subject.purpose)
    .where("target", "=", subject.target)
    .where("used_at", "is", null);
}

/**
 * Sends a new code for this subject, replacing any earlier one, unless the last was sent less than
 * 60 s ago (then `throttled`, nothing sent). A used code holds nothing back: a new need is not a resend.
 */
export async function issueCode(
  db: DB,
  messenger: Messenger,
  input: { subject: CodeSubject; channel: Channel; destination: string; message: CodeMessage },
  options: { now?: Date } = {},
): Promise<IssueResult> {
  const now = options.now ?? new Date();
  const { subject } = input;
  const retryAt = await resendAvailableAt(db, subject, now);
  if (retryAt) return { kind: "throttled", retryAt };
  const code = generateCode();
  if (!/^\d{6}$/.test(code)) throw new Error("a code is 6 digits");
  const id = newId("otc");
  const expiresAt = new Date(now.getTime() + CODE_TTL_MS);
  await db.transaction().execute(async (trx) => {
    await withdrawCodes(trx, subject, now);
    await trx
      .insertInto("one_time_codes")
      .values({
        id,
        user_id: subject.userId,
        purpose: subject.purpose,
        target: subject.target,
        code_hash: digest(id, code).toString("base64url"),
        channel: input.channel,
        destination: input.destination,
        attempts: 0,
        expires_at: expiresAt.toISOString(),
        used_at: null,
        created_at: now.toISOString(),
      })
      .execute();
  });
  const usefulUntil = input.message.usefulUntil;
  const delivery = await messenger.send({
    channel: input.channel,
    to: input.destination,
    subject: input.message.subject,
    text: input.message.text(code),
    expiresAt: usefulUntil && usefulUntil < expiresAt ? usefulUntil : expiresAt,
  });
  return {
    kind: "sent",
    expiresAt,
    delayed: delivery === "queued",
    refused: delivery === "refused",
    channel: input.channel,
  };
}

/**
 * Checks a code for this subject: 5 tries per code, and across codes the account's wrong codes are
 * limited with a growing wait (guess-limits.ts) — during which even the right code is refused.
 * A right code is used up: it never works twice, even for two submits at once.
 */
export async function verifyCode(
  db: DB,
  subject: CodeSubject,
  code: string,
  options: { now?: Date; policy?: GuessPolicy } = {},
): Promise<VerifyResult> {
  const now = options.now ?? new Date();
  const row = await outstanding(db, subject)
    .select(["id", "code_hash", "attempts", "expires_at"])
    .orderBy("created_at", "desc")
    .executeTakeFirst();
  if (!row) return { kind: "missing" };
  if (row.expires_at <= now.toISOString()) return { kind: "expired" };
  if (row.attempts >= MAX_ATTEMPTS) return { kind: "exhausted" };
  let verdict: VerifyResult = { kind: "invalid" };
  const outcome = await guess(
    db,
    "code",
    subject.userId,
    async () => {
      const typed = normaliseCode(code);
      const matches =
        /^\d{6}$/.test(typed) && timingSafeEqual(digest(row.id, typed), Buffer.from(row.code_hash, "base64url"));
      if (!matches) {
        const attempts = row.attempts + 1;
        await db.updateTable("one_time_codes").set({ attempts }).where("id", "=", row.id).execute();
        verdict = { kind: attempts >= MAX_ATTEMPTS ? "exhausted" : "invalid" };
        return false;
      }
      // Single use: the update only succeeds for the first of two concurrent submits.
      const used = await db
        .updateTable("one_time_codes")
        .set({ used_at: now.toISOString() })
        .where("id", "=", row.id)
        .where("used_at", "is", null)
        .executeTakeFirst();
      verdict = { kind: Number(used.numUpdatedRows) === 1 ? "ok" : "invalid" };
      return verdict.kind === "ok";
    },
    { policy: options.policy, now },
  );
  return outcome.status === "locked" ? { kind: "locked", retryAt: outcome.retryAt } : verdict;
}

/** When a new code for this subject can be sent, or null when it can be now (none outstanding, or 60 s passed). */
export async function resendAvailableAt(db: DB, subject: CodeSubject, now = new Date()): Promise<Date | null> {
  const latest = await outstanding(db, subject).select("created_at").orderBy("created_at", "desc").executeTakeFirst();
  if (!latest) return null;
  const at = new Date(new Date(latest.created_at).getTime() + RESEND_WAIT_MS);
  return at > now ? at : null;
}

/** The codes out for this subject confirm nothing any more (what they were for was cancelled). */
export async function withdrawCodes(db: DB, subject: CodeSubject, now = new Date()): Promise<void> {
  await db
    .updateTable("one_time_codes")
    .set({ used_at: now.toISOString() })
    .where("user_id", "=", subject.userId)
    .where("purpose", "=", subject.purpose)
    .where("target", "=", subject.target)
    .where("used_at", "is", null)
    .execute();
}
