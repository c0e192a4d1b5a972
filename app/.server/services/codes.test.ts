import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";
import { buildUser } from "../db/factories";
import type { DatabaseHandle } from "../db";
import { openTestDatabase } from "../../../tests/support/test-database";
import { newId } from "../ids";
import type { Messenger, OutgoingMessage } from "../providers/messaging";
import {
  CODE_TTL_MS,
  issueCode,
  MAX_ATTEMPTS,
  randomCode,
  resendAvailableAt,
  setCodeGenerator,
  RESEND_WAIT_MS,
  verifyCode,
  withdrawCodes,
  type CodeSubject,
} from "./codes";
import type { GuessPolicy } from "./guess-limits";

let handle: DatabaseHandle;
const sent: OutgoingMessage[] = [];
const messenger: Messenger = { name: "memory", send: async (m) => void sent.push(m) };
let userId: string;
let signIn: CodeSubject;

/** Codes known in advance (decision 0022): each test says which digits the next codes have. */
const CODE = "482913";
const OTHER = "105577";
const lenient: GuessPolicy = { freeFailures: 1000, delayMs: 1000, maxDelayMs: 1000, forgetAfterMs: 1000 };

async function addUser(): Promise<string> {
  const id = newId("usr");
  await handle.db
    .insertInto("users")
    .values(
      buildUser({ id, email: `${id.toLowerCase()}@example.com`, mfa_enabled: 1, created_at: new Date().toISOString() }),
    )
    .execute();
  return id;
}

beforeAll(async () => {
  handle = await openTestDatabase();
});
afterAll(() => handle.close());
beforeEach(async () => {
  sent.length = 0;
  userId = await addUser();
  signIn = { userId, purpose: "signIn", target: userId };
});

const message = { subject: "Code", text: (code: string) => `Votre code : ${code}` };

function issue(subject: CodeSubject, code = CODE, now = new Date()) {
  const restore = setCodeGenerator(() => code);
  return issueCode(
    handle.db,
    messenger,
    { subject, channel: "email", destination: "a@example.com", message },
    { now },
  ).finally(restore);
}
const verify = (subject: CodeSubject, code: string, now = new Date()) =>
  verifyCode(handle.db, subject, code, { now, policy: lenient });

test("a code is 6 digits, sent once, stored hashed, and works once", async () => {
  const result = await issueCode(handle.db, messenger, {
    subject: signIn,
    channel: "email",
    destination: "a@example.com",
    message,
  });
  expect(result.kind).toBe("sent");
  expect(sent).toHaveLength(1);
  const code = /(\d{6})/.exec(sent[0]!.text)?.[1] ?? "";
  expect(code).toMatch(/^\d{6}$/);
  const row = await handle.db
    .selectFrom("one_time_codes")
    .selectAll()
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  expect(row).toMatchObject({
    purpose: "signIn",
    target: userId,
    destination: "a@example.com",
    attempts: 0,
    used_at: null,
  });
  expect(row.code_hash).not.toContain(code);
  expect(await verify(signIn, code)).toEqual({ kind: "ok" });
  expect(await verify(signIn, code)).toEqual({ kind: "missing" });
});

test("the random generator makes 6 digits, leading zeros kept", () => {
  for (let i = 0; i < 200; i++) expect(randomCode()).toMatch(/^\d{6}$/);
});

test("a code only verifies its own purpose and target: another card's reveal, or another purpose, finds nothing", async () => {
  const cardA: CodeSubject = { userId, purpose: "reveal", target: "card_A" };
  const cardB: CodeSubject = { userId, purpose: "reveal", target: "card_B" };
  await issue(cardA);
  expect(await verify(cardB, CODE)).toEqual({ kind: "missing" });
  expect(await verify(signIn, CODE)).toEqual({ kind: "missing" });
  expect(await verify({ userId, purpose: "contactChange", target: "card_A" }, CODE)).toEqual({ kind: "missing" });
  // None of those looked at the code: it still works for its own subject, pasted with a space.
  expect(await verify(cardA, "482 913")).toEqual({ kind: "ok" });
});

test("two subjects of one account hold their own codes side by side", async () => {
  const email: CodeSubject = { userId, purpose: "contactChange", target: "email" };
  const phone: CodeSubject = { userId, purpose: "contactChange", target: "phone" };
  await issue(email, CODE);
  await issue(phone, OTHER);
  expect(await verify(email, OTHER)).toEqual({ kind: "invalid" });
  expect(await verify(phone, OTHER)).toEqual({ kind: "ok" });
  expect(await verify(email, CODE)).toEqual({ kind: "ok" });
});

test("one user's code never verifies another user's subject, even with the same purpose and target", async () => {
  const otherId = await addUser();
  const shared = "card_shared";
  await issue({ userId, purpose: "reveal", target: shared });
  expect(await verify({ userId: otherId, purpose: "reveal", target: shared }, CODE)).toEqual({ kind: "missing" });
  // Nor a sign-in naming this account as its target.
  await issue(signIn, OTHER);
  expect(await verify({ userId: otherId, purpose: "signIn", target: userId }, OTHER)).toEqual({ kind: "missing" });
  expect(await verify(signIn, OTHER)).toEqual({ kind: "ok" });
});

test("a code expires after one hour", async () => {
  const start = new Date("2026-01-10T10:00:00Z");
  await issue(signIn, CODE, start);
  expect(await verify(signIn, CODE, new Date(start.getTime() + CODE_TTL_MS + 1))).toEqual({ kind: "expired" });
  expect(await verify(signIn, CODE, new Date(start.getTime() + CODE_TTL_MS - 1000))).toEqual({ kind: "ok" });
});

test(`after ${MAX_ATTEMPTS} wrong attempts even the right code is refused`, async () => {
  await issue(signIn);
  const results = [];
  for (let i = 0; i < MAX_ATTEMPTS; i++) results.push((await verify(signIn, OTHER)).kind);
  expect(results).toEqual([...Array<string>(MAX_ATTEMPTS - 1).fill("invalid"), "exhausted"]);
  expect(await verify(signIn, CODE)).toEqual({ kind: "exhausted" });
});

test("malformed codes count as wrong attempts and never match", async () => {
  await issue(signIn);
  const results = [];
  for (const bad of ["", "12345", "1234567", "abcdef", "12345a"]) results.push((await verify(signIn, bad)).kind);
  expect(results).toEqual(["invalid", "invalid", "invalid", "invalid", "exhausted"]);
});

test("a resend within 60 seconds is throttled, per subject; after that a new code replaces the old one", async () => {
  const start = new Date("2026-01-10T10:00:00Z");
  await issue(signIn, CODE, start);
  expect(await resendAvailableAt(handle.db, signIn, start)).toEqual(new Date(start.getTime() + RESEND_WAIT_MS));
  const early = await issue(signIn, OTHER, new Date(start.getTime() + RESEND_WAIT_MS - 1000));
  expect(early).toEqual({ kind: "throttled", retryAt: new Date(start.getTime() + RESEND_WAIT_MS) });
  expect(sent).toHaveLength(1);
  // Another subject of the same account is not held back.
  expect((await issue({ userId, purpose: "reveal", target: "card_A" }, OTHER, start)).kind).toBe("sent");
  const later = new Date(start.getTime() + RESEND_WAIT_MS);
  expect(await resendAvailableAt(handle.db, signIn, later)).toBeNull();
  expect((await issue(signIn, OTHER, later)).kind).toBe("sent");
  expect(await verify(signIn, CODE, later)).toEqual({ kind: "invalid" });
  expect(await verify(signIn, OTHER, later)).toEqual({ kind: "ok" });
});

test("once a code is used, a new one can be sent at once (a new sign-in is not a resend)", async () => {
  const start = new Date("2026-01-10T10:00:00Z");
  await issue(signIn, CODE, start);
  expect(await verify(signIn, CODE, start)).toEqual({ kind: "ok" });
  expect(await resendAvailableAt(handle.db, signIn, start)).toBeNull();
  expect((await issue(signIn, OTHER, new Date(start.getTime() + 1000))).kind).toBe("sent");
  expect(sent).toHaveLength(2);
});

test("withdrawn codes confirm nothing, and a new one can be sent at once", async () => {
  const phone: CodeSubject = { userId, purpose: "contactChange", target: "phone" };
  const email: CodeSubject = { userId, purpose: "contactChange", target: "email" };
  await issue(phone, CODE);
  await issue(email, OTHER);
  await withdrawCodes(handle.db, phone);
  expect(await verify(phone, CODE)).toEqual({ kind: "missing" });
  expect(await resendAvailableAt(handle.db, phone)).toBeNull();
  // Only that subject's.
  expect(await verify(email, OTHER)).toEqual({ kind: "ok" });
});

test("two submits of the right code at once: only one is accepted", async () => {
  await issue(signIn);
  const results = await Promise.all([verify(signIn, CODE), verify(signIn, CODE)]);
  expect(results.filter((r) => r.kind === "ok")).toHaveLength(1);
});
