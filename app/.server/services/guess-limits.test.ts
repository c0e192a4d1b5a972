import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { buildUser } from "../db/factories";
import type { DatabaseHandle } from "../db";
import { openTestDatabase } from "../../../tests/support/test-database";
import { codeRefusalMessage, passwordLockedMessage } from "~/routes/+shared/guess-messages.server";
import { newId } from "../ids";
import { hashPassword } from "../passwords";
import type { Messenger, OutgoingMessage } from "../providers/messaging";
import { checkCredentials } from "./accounts";
import {
  issueCode,
  MAX_ATTEMPTS,
  RESEND_WAIT_MS,
  setCodeGenerator,
  verifyCode,
  type CodePurpose,
  type CodeSubject,
} from "./codes";
import { delayAfter, guess, type GuessPolicy } from "./guess-limits";
import { requestPasswordReset, resetPassword } from "./password-reset";

/** Per-account limits on password and code guesses (decision 0014), on SQLite and on PostgreSQL. */
let handle: DatabaseHandle;
const PASSWORD = "Bon-Mot2passe!";
const policy: GuessPolicy = {
  freeFailures: 5,
  delayMs: 60_000,
  maxDelayMs: 4 * 60_000,
  forgetAfterMs: 24 * 60 * 60_000,
};
const minutes = (n: number) => n * 60_000;
const later = (from: Date, ms: number) => new Date(from.getTime() + ms);

async function addUser(email: string, passwordHash: string | null): Promise<string> {
  const id = newId("usr");
  await handle.db
    .insertInto("users")
    .values(buildUser({ id, email, password_hash: passwordHash, mfa_enabled: 1, created_at: new Date().toISOString() }))
    .execute();
  return id;
}

let hash: string;
beforeAll(async () => {
  handle = await openTestDatabase();
  hash = await hashPassword(PASSWORD);
}, 30_000);
afterAll(() => handle.close());

test("the wait starts after the free wrong guesses, doubles, and stops at the cap", () => {
  expect([1, 4].map((n) => delayAfter(n, policy))).toEqual([0, 0]);
  expect([5, 6, 7, 8, 9, 50, 5000].map((n) => delayAfter(n, policy))).toEqual([
    minutes(1),
    minutes(2),
    minutes(4),
    minutes(4),
    minutes(4),
    minutes(4),
    minutes(4),
  ]);
});

test("after 5 wrong passwords even the right one is refused until the wait ends; then it works and the count starts again", async () => {
  const email = `${newId("u").toLowerCase()}@example.com`;
  const userId = await addUser(email, hash);
  const start = new Date("2026-03-02T09:00:00Z");
  for (let i = 0; i < 5; i++)
    expect(await checkCredentials(handle.db, email, "Mauvais-1", { policy, now: later(start, i * 1000) })).toEqual({
      kind: "invalid",
    });
  const locked = await checkCredentials(handle.db, email, PASSWORD, { policy, now: later(start, 5000) });
  expect(locked).toEqual({ kind: "locked", retryAt: later(start, 4000 + minutes(1)) });
  // Still waiting a second before the end.
  expect(
    (await checkCredentials(handle.db, email, PASSWORD, { policy, now: later(start, 3000 + minutes(1)) })).kind,
  ).toBe("locked");
  expect(await checkCredentials(handle.db, email, PASSWORD, { policy, now: later(start, 4000 + minutes(1)) })).toEqual({
    kind: "ok",
    userId,
  });
  // The success cleared the count: 5 wrong guesses are free again.
  const after = later(start, minutes(2));
  for (let i = 0; i < 4; i++)
    expect((await checkCredentials(handle.db, email, "Mauvais-1", { policy, now: after })).kind).toBe("invalid");
  expect(await checkCredentials(handle.db, email, PASSWORD, { policy, now: after })).toEqual({ kind: "ok", userId });
});

test("each wrong guess after a wait doubles the next wait, up to the cap; refused guesses do not count", async () => {
  const email = `${newId("u").toLowerCase()}@example.com`;
  await addUser(email, hash);
  let now = new Date("2026-03-02T09:00:00Z");
  for (let i = 0; i < 5; i++) await checkCredentials(handle.db, email, "Mauvais-1", { policy, now });
  const waits = [];
  for (let round = 0; round < 4; round++) {
    const refused = await checkCredentials(handle.db, email, "Mauvais-1", { policy, now });
    if (refused.kind !== "locked") throw new Error(`expected a wait, got ${refused.kind}`);
    // Many refused guesses meanwhile change nothing.
    for (let i = 0; i < 3; i++)
      expect(await checkCredentials(handle.db, email, "Mauvais-1", { policy, now })).toEqual(refused);
    waits.push(refused.retryAt.getTime() - now.getTime());
    now = refused.retryAt;
    expect((await checkCredentials(handle.db, email, "Mauvais-1", { policy, now })).kind).toBe("invalid");
  }
  expect(waits).toEqual([minutes(1), minutes(2), minutes(4), minutes(4)]);
});

test("an unknown e-mail is counted and made to wait exactly like a known one; other accounts are not affected", async () => {
  const known = `${newId("u").toLowerCase()}@example.com`;
  const other = `${newId("u").toLowerCase()}@example.com`;
  const otherId = await addUser(other, hash);
  await addUser(known, hash);
  const unknown = `${newId("nobody").toLowerCase()}@example.com`;
  const now = new Date("2026-03-02T09:00:00Z");
  const run = async (email: string) => {
    const results = [];
    for (let i = 0; i < 7; i++)
      results.push(await checkCredentials(handle.db, email, i === 6 ? PASSWORD : "Mauvais-1", { policy, now }));
    return results;
  };
  const forKnown = await run(known);
  expect(await run(unknown)).toEqual(forKnown);
  expect(forKnown.map((r) => r.kind)).toEqual([
    "invalid",
    "invalid",
    "invalid",
    "invalid",
    "invalid",
    "locked",
    "locked",
  ]);
  expect(await checkCredentials(handle.db, other, PASSWORD, { policy, now })).toEqual({ kind: "ok", userId: otherId });
});

test("the count is kept per e-mail whatever its case and spaces, and never in clear", async () => {
  const email = `${newId("u").toLowerCase()}@example.com`;
  await addUser(email, hash);
  const now = new Date("2026-03-02T09:00:00Z");
  for (const typed of [email, email.toUpperCase(), ` ${email} `, email, `  ${email.toUpperCase()}`])
    await checkCredentials(handle.db, typed, "Mauvais-1", { policy, now });
  expect((await checkCredentials(handle.db, email, PASSWORD, { policy, now })).kind).toBe("locked");
  const rows = await handle.db.selectFrom("guess_limits").selectAll().execute();
  expect(JSON.stringify(rows)).not.toContain(email);
});

test("wrong guesses left alone a day are forgotten", async () => {
  const email = `${newId("u").toLowerCase()}@example.com`;
  await addUser(email, hash);
  const start = new Date("2026-03-02T09:00:00Z");
  for (let i = 0; i < 4; i++) await checkCredentials(handle.db, email, "Mauvais-1", { policy, now: start });
  const nextDay = later(start, policy.forgetAfterMs + 1000);
  for (let i = 0; i < 4; i++)
    expect((await checkCredentials(handle.db, email, "Mauvais-1", { policy, now: nextDay })).kind).toBe("invalid");
  expect((await checkCredentials(handle.db, email, PASSWORD, { policy, now: nextDay })).kind).toBe("ok");
});

test("guesses sent all at once get only the free ones checked", async () => {
  const subject = newId("subject");
  const now = new Date("2026-03-02T09:00:00Z");
  let checked = 0;
  const check = async () => {
    checked += 1;
    await new Promise((r) => setTimeout(r, 20));
    return false;
  };
  const outcomes = await Promise.all(
    Array.from({ length: 30 }, () => guess(handle.db, "password", subject, check, { policy, now })),
  );
  expect(checked).toBe(policy.freeFailures);
  expect(outcomes.filter((o) => o.status === "wrong")).toHaveLength(policy.freeFailures);
  expect(outcomes.filter((o) => o.status === "locked")).toHaveLength(30 - policy.freeFailures);
});

test("the waiting message says how many minutes remain, in French, whole minutes rounded up", () => {
  const now = new Date("2026-03-02T09:00:00Z");
  expect(passwordLockedMessage(later(now, 20_000), now)).toBe(
    "Trop d’essais de mot de passe pour ce compte. Par sécurité, réessayez dans 1 minute",
  );
  expect(passwordLockedMessage(later(now, minutes(14) + 1), now)).toBe(
    "Trop d’essais de mot de passe pour ce compte. Par sécurité, réessayez dans 15 minutes",
  );
});

test("a password reset by the e-mailed link ends the wait: the new password signs in at once", async () => {
  const email = `${newId("u").toLowerCase()}@example.com`;
  const userId = await addUser(email, hash);
  for (let i = 0; i < 5; i++) await checkCredentials(handle.db, email, "Mauvais-1", { policy });
  expect((await checkCredentials(handle.db, email, PASSWORD, { policy })).kind).toBe("locked");
  const mails: OutgoingMessage[] = [];
  await requestPasswordReset(
    handle.db,
    { name: "memory", send: async (m) => void mails.push(m) },
    email,
    "http://localhost",
    { subject: "Lien", text: (link) => link },
  );
  const token = /reset-password\/([^?]+)/.exec(mails[0]?.text ?? "")?.[1] ?? "";
  expect(await resetPassword(handle.db, token, email, "Nouveau-Mot2passe")).toEqual({ kind: "ok" });
  expect(await checkCredentials(handle.db, email, "Nouveau-Mot2passe", { policy })).toEqual({ kind: "ok", userId });
});

describe("codes", () => {
  const sent: OutgoingMessage[] = [];
  const messenger: Messenger = { name: "memory", send: async (m) => void sent.push(m) };
  const codePolicy: GuessPolicy = { ...policy, freeFailures: 10, delayMs: minutes(5), maxDelayMs: minutes(15) };
  const CODE = "314159";
  const issueWithCode = <T>(code: string, send: () => Promise<T>) => {
    const restore = setCodeGenerator(() => code);
    return send().finally(restore);
  };
  const WRONG = "271828";
  const subjectOf = (userId: string, purpose: CodePurpose): CodeSubject => ({
    userId,
    purpose,
    target: purpose === "signIn" ? userId : "card_1",
  });
  const issue = (subject: CodeSubject, now: Date) =>
    issueWithCode(CODE, () =>
      issueCode(
        handle.db,
        messenger,
        {
          subject,
          channel: "email",
          destination: "a@example.com",
          message: { subject: "Code", text: (c) => `Code : ${c}` },
        },
        { now },
      ),
    );
  const verify = async (subject: CodeSubject, code: string, now: Date) =>
    (await verifyCode(handle.db, subject, code, { now, policy: codePolicy })).kind;

  test("wrong codes are counted per account across codes and purposes: past 10, even the right code waits", async () => {
    const userId = await addUser(`${newId("u").toLowerCase()}@example.com`, null);
    const otherId = await addUser(`${newId("u").toLowerCase()}@example.com`, null);
    let now = new Date("2026-03-02T09:00:00Z");
    const verdicts = [];
    // Two codes exhausted (5 tries each), in two purposes.
    for (const purpose of ["signIn", "reveal"] as const) {
      await issue(subjectOf(userId, purpose), now);
      for (let i = 0; i < MAX_ATTEMPTS; i++) verdicts.push(await verify(subjectOf(userId, purpose), WRONG, now));
    }
    expect(verdicts.filter((v) => v === "exhausted")).toHaveLength(2);
    now = later(now, RESEND_WAIT_MS);
    await issue(subjectOf(userId, "signIn"), now);
    const locked = await verifyCode(handle.db, subjectOf(userId, "signIn"), CODE, { now, policy: codePolicy });
    expect(locked).toEqual({ kind: "locked", retryAt: later(now, minutes(5) - RESEND_WAIT_MS) });
    // The refused guess did not use one of the code's own tries.
    const row = await handle.db
      .selectFrom("one_time_codes")
      .select("attempts")
      .where("user_id", "=", userId)
      .where("purpose", "=", "signIn")
      .where("used_at", "is", null)
      .executeTakeFirstOrThrow();
    expect(row.attempts).toBe(0);
    if (locked.kind !== "locked") throw new Error("locked expected");
    expect(codeRefusalMessage(locked, now)).toBe(
      "Trop de codes incorrects pour ce compte. Par sécurité, réessayez dans 4 minutes",
    );
    // Someone else's codes are not affected.
    await issue(subjectOf(otherId, "signIn"), now);
    expect(await verify(subjectOf(otherId, "signIn"), CODE, now)).toBe("ok");
    // Once the wait is over the right code works, and clears the count.
    now = later(now, minutes(4));
    expect(await verify(subjectOf(userId, "signIn"), CODE, now)).toBe("ok");
    await issue(subjectOf(userId, "reveal"), now);
    for (let i = 0; i < 4; i++) expect(await verify(subjectOf(userId, "reveal"), WRONG, now)).toBe("invalid");
    expect(await verify(subjectOf(userId, "reveal"), CODE, now)).toBe("ok");
  });

  test("other refusals are told by their catalogue key; a wait already over by its general words", () => {
    expect(codeRefusalMessage({ kind: "invalid" })).toBe("errors.codeInvalid");
    expect(codeRefusalMessage({ kind: "expired" })).toBe("errors.codeExpired");
    expect(codeRefusalMessage({ kind: "exhausted" })).toBe("errors.codeExhausted");
    expect(codeRefusalMessage({ kind: "missing" })).toBe("errors.codeMissing");
    const now = new Date("2026-03-02T09:00:00Z");
    expect(codeRefusalMessage({ kind: "locked", retryAt: now }, now)).toBe("errors.codeGuessesLocked");
  });
});
