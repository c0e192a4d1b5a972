import { sql } from "kysely";
import type { DB } from "../db";
import { hashSecret } from "../tokens";

/**
 * Per-account limits on guesses (decision 0014), whatever address they come from: after a few wrong
 * passwords (or codes), guesses are refused for a delay that doubles at each further wrong one, up to
 * a cap; a right guess clears the count. The counts live in the database, so every worker and machine
 * sees the same. A guess counts before it is checked (and is cleared if right): concurrent guesses
 * cannot all slip in before the first wrong one is written.
 */
export type GuessPurpose = "password" | "code";

export interface GuessPolicy {
  /** Wrong guesses allowed before the first wait. */
  freeFailures: number;
  /** The first wait; doubled at each further wrong guess. */
  delayMs: number;
  /** The longest wait. */
  maxDelayMs: number;
  /** A count left alone this long starts again from zero. */
  forgetAfterMs: number;
}

export type GuessLimits = Record<GuessPurpose, GuessPolicy>;

export const DEFAULT_GUESS_LIMITS: GuessLimits = {
  password: { freeFailures: 5, delayMs: 60_000, maxDelayMs: 15 * 60_000, forgetAfterMs: 24 * 60 * 60_000 },
  // A code allows 5 tries itself: two codes' worth before waiting.
  code: { freeFailures: 10, delayMs: 60_000, maxDelayMs: 15 * 60_000, forgetAfterMs: 24 * 60 * 60_000 },
};

let configured: GuessLimits = DEFAULT_GUESS_LIMITS;

/** Set once at start from the environment (platform.ts); tests pass a policy explicitly instead. */
export function setGuessLimits(limits: GuessLimits): void {
  configured = limits;
}

export function guessPolicy(purpose: GuessPurpose): GuessPolicy {
  return configured[purpose];
}

/** The wait after the `failures`-th wrong guess (none before the free ones are used up). */
export function delayAfter(failures: number, policy: GuessPolicy): number {
  if (failures < policy.freeFailures) return 0;
  const doublings = Math.min(failures - policy.freeFailures, 40);
  return Math.min(policy.delayMs * 2 ** doublings, policy.maxDelayMs);
}

export type GuessOutcome = { status: "right" } | { status: "wrong" } | { status: "locked"; retryAt: Date };

/**
 * Makes one guess for this subject (the normalised e-mail for passwords, the user id for codes):
 * refused while a wait runs (even a right guess), else `check` runs and its answer is recorded.
 */
export async function guess(
  db: DB,
  purpose: GuessPurpose,
  subject: string,
  check: () => Promise<boolean>,
  options: { policy?: GuessPolicy; now?: Date } = {},
): Promise<GuessOutcome> {
  const policy = options.policy ?? guessPolicy(purpose);
  const now = options.now ?? new Date();
  const subjectHash = hashSecret(subject);
  const lockedUntil = await countGuess(db, purpose, subjectHash, policy, now);
  if (lockedUntil) return { status: "locked", retryAt: lockedUntil };
  if (!(await check())) return { status: "wrong" };
  await clearGuesses(db, purpose, subject);
  return { status: "right" };
}

/**
 * Counts a guess and sets the wait it would earn if wrong; returns when the running wait ends instead
 * when one runs. One transaction: SQLite's begin immediately takes the write lock, PostgreSQL's
 * upsert locks the row until commit, so two guesses never both see the same count.
 */
async function countGuess(
  db: DB,
  purpose: GuessPurpose,
  subjectHash: string,
  policy: GuessPolicy,
  now: Date,
): Promise<Date | null> {
  const nowIso = now.toISOString();
  const forgetBefore = new Date(now.getTime() - policy.forgetAfterMs).toISOString();
  return db.transaction().execute(async (trx) => {
    const counted = await trx
      .insertInto("guess_limits")
      .values({ purpose, subject_hash: subjectHash, failures: 1, locked_until: null, last_guess_at: nowIso })
      .onConflict((oc) =>
        oc
          .columns(["purpose", "subject_hash"])
          .doUpdateSet({
            failures: sql<number>`case when guess_limits.last_guess_at <= ${forgetBefore} then 1 else guess_limits.failures + 1 end`,
            last_guess_at: nowIso,
          })
          .where((eb) =>
            eb.or([eb("guess_limits.locked_until", "is", null), eb("guess_limits.locked_until", "<=", nowIso)]),
          ),
      )
      .returning("failures")
      .executeTakeFirst();
    if (!counted) {
      const row = await trx
        .selectFrom("guess_limits")
        .select("locked_until")
        .where("purpose", "=", purpose)
        .where("subject_hash", "=", subjectHash)
        .executeTakeFirst();
      return new Date(row?.locked_until ?? nowIso);
    }
    const delay = delayAfter(Number(counted.failures), policy);
    if (delay > 0) {
      await trx
        .updateTable("guess_limits")
        .set({ locked_until: new Date(now.getTime() + delay).toISOString() })
        .where("purpose", "=", purpose)
        .where("subject_hash", "=", subjectHash)
        .execute();
    }
    return null;
  });
}

/** Clears the count and any wait for this subject (a password reset by e-mailed link proves the mailbox). */
export async function clearGuesses(db: DB, purpose: GuessPurpose, subject: string): Promise<void> {
  await db
    .deleteFrom("guess_limits")
    .where("purpose", "=", purpose)
    .where("subject_hash", "=", hashSecret(subject))
    .execute();
}
