import { createHash, randomInt, timingSafeEqual } from "node:crypto";
import type { DB } from "../db";
import { newId } from "../ids";
import type { Channel, Messenger } from "../providers/messaging";
import { guess, type GuessPolicy } from "./guess-limits";

/** Spec 001 §5 "Codes", §9: 6 digits, valid 1 hour, resend after 60 s; attempts limited. */
export const CODE_LENGTH = 6;
export const CODE_TTL_MS = 60 * 60 * 1000;
export const RESEND_WAIT_MS = 60 * 1000;
export const MAX_ATTEMPTS = 5;

export type CodePurpose = "login" | "reveal" | "pending_email" | "pending_phone";

export type IssueResult = { status: "sent"; expiresAt: Date } | { status: "throttled"; retryAt: Date };
/** `locked`: too many wrong codes for this account lately (any purpose); codes wait (guess-limits.ts). */
export type VerifyResult = "ok" | "invalid" | "expired" | "exhausted" | "missing" | "locked";

/** The catalogue key telling the person why a code was refused. */
export const VERIFY_ERROR_KEYS: Record<Exclude<VerifyResult, "ok">, string> = {
  invalid: "errors.codeInvalid",
  expired: "errors.codeExpired",
  exhausted: "errors.codeExhausted",
  missing: "errors.codeMissing",
  locked: "errors.codeGuessesLocked",
};

export interface CodeMessage {
  subject: string;
  text: (code: string) => string;
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
export function useCodeGenerator(generator: CodeGenerator): () => void {
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
    if (next === undefined || !new RegExp(`^\\d{${CODE_LENGTH}}$`).test(next)) throw new Error(`codeSequence: no ${CODE_LENGTH}-digit code left (${next})`);
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

export async function issueCode(
  db: DB,
  messenger: Messenger,
  input: { userId: string; purpose: CodePurpose; channel: Channel; destination: string; message: CodeMessage },
  now = new Date(),
): Promise<IssueResult> {
  // Only an outstanding code holds back a new one: once used, the next request is a new need.
  const latest = await outstandingCode(db, input.userId, input.purpose);
  if (latest) {
    const retryAt = new Date(new Date(latest.created_at).getTime() + RESEND_WAIT_MS);
    if (retryAt > now) return { status: "throttled", retryAt };
  }
  const code = generateCode();
  const id = newId("otc");
  const expiresAt = new Date(now.getTime() + CODE_TTL_MS);
  // A new code replaces any earlier one for the same purpose.
  await db
    .updateTable("one_time_codes")
    .set({ used_at: now.toISOString() })
    .where("user_id", "=", input.userId)
    .where("purpose", "=", input.purpose)
    .where("used_at", "is", null)
    .execute();
  await db
    .insertInto("one_time_codes")
    .values({
      id,
      user_id: input.userId,
      purpose: input.purpose,
      code_hash: digest(id, code).toString("base64url"),
      channel: input.channel,
      destination: input.destination,
      attempts: 0,
      expires_at: expiresAt.toISOString(),
      used_at: null,
      created_at: now.toISOString(),
    })
    .execute();
  await messenger.send({
    channel: input.channel,
    to: input.destination,
    subject: input.message.subject,
    text: input.message.text(code),
  });
  return { status: "sent", expiresAt };
}

/**
 * Checks a code: 5 tries per code, and across codes the account's wrong codes are limited with a
 * growing wait (guess-limits.ts) — during which even the right code is refused ("locked").
 */
export async function verifyCode(
  db: DB,
  input: { userId: string; purpose: CodePurpose; code: string },
  now = new Date(),
  policy?: GuessPolicy,
): Promise<VerifyResult> {
  const row = await db
    .selectFrom("one_time_codes")
    .selectAll()
    .where("user_id", "=", input.userId)
    .where("purpose", "=", input.purpose)
    .where("used_at", "is", null)
    .orderBy("created_at", "desc")
    .executeTakeFirst();
  if (!row) return "missing";
  if (row.expires_at <= now.toISOString()) return "expired";
  if (row.attempts >= MAX_ATTEMPTS) return "exhausted";
  let verdict: VerifyResult = "invalid";
  const outcome = await guess(
    db,
    "code",
    input.userId,
    async () => {
      const code = normaliseCode(input.code);
      const expected = Buffer.from(row.code_hash, "base64url");
      const matches = /^\d{6}$/.test(code) && timingSafeEqual(digest(row.id, code), expected);
      if (!matches) {
        const attempts = row.attempts + 1;
        await db.updateTable("one_time_codes").set({ attempts }).where("id", "=", row.id).execute();
        verdict = attempts >= MAX_ATTEMPTS ? "exhausted" : "invalid";
        return false;
      }
      // Single use: the update only succeeds for the first of two concurrent submits.
      const used = await db
        .updateTable("one_time_codes")
        .set({ used_at: now.toISOString() })
        .where("id", "=", row.id)
        .where("used_at", "is", null)
        .executeTakeFirst();
      verdict = Number(used.numUpdatedRows) === 1 ? "ok" : "invalid";
      return verdict === "ok";
    },
    { policy, now },
  );
  return outcome.status === "locked" ? "locked" : verdict;
}

/** When the latest code for this purpose can be re-sent, for the "try again at HH:mm:ss" text. */
export async function resendAvailableAt(db: DB, userId: string, purpose: CodePurpose): Promise<Date | null> {
  const latest = await outstandingCode(db, userId, purpose);
  return latest ? new Date(new Date(latest.created_at).getTime() + RESEND_WAIT_MS) : null;
}

function outstandingCode(db: DB, userId: string, purpose: CodePurpose) {
  return db
    .selectFrom("one_time_codes")
    .select("created_at")
    .where("user_id", "=", userId)
    .where("purpose", "=", purpose)
    .where("used_at", "is", null)
    .orderBy("created_at", "desc")
    .executeTakeFirst();
}
