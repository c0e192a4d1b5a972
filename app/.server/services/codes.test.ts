import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from "vitest";
import type { DatabaseHandle } from "../db";
import { openTestDatabase } from "../db/test-database";
import { newId } from "../ids";
import type { Messenger, OutgoingMessage } from "../providers/messaging";
import { CODE_TTL_MS, codeSequence, issueCode, MAX_ATTEMPTS, RESEND_WAIT_MS, useCodeGenerator, verifyCode } from "./codes";
import { buildUser } from "../db/factories";

let handle: DatabaseHandle;
const sent: OutgoingMessage[] = [];
const messenger: Messenger = { name: "memory", send: async (m) => void sent.push(m) };
let userId: string;

beforeAll(async () => {
  handle = await openTestDatabase();
});
afterAll(() => handle.close());
// Tests that need to know the code (and a wrong one) for sure choose it; the others get random codes.
let restoreRandomCodes = () => {};
afterEach(() => restoreRandomCodes());
beforeEach(async () => {
  sent.length = 0;
  userId = newId("usr");
  await handle.db
    .insertInto("users")
    .values(buildUser({ id: userId, email: `${userId}@example.com`, mfa_enabled: 1, features: "{}", created_at: new Date().toISOString() }))
    .execute();
});

const message = { subject: "Code", text: (code: string) => `Votre code : ${code}` };
const codeFrom = (m: OutgoingMessage | undefined) => /(\d{6})/.exec(m?.text ?? "")?.[1] ?? "";

async function issue(now = new Date()) {
  return issueCode(handle.db, messenger, { userId, purpose: "login", channel: "email", destination: "a@example.com", message }, now);
}

test("a code is 6 digits, sent once, stored hashed, and works once", async () => {
  const result = await issue();
  expect(result.status).toBe("sent");
  const code = codeFrom(sent[0]);
  expect(code).toMatch(/^\d{6}$/);
  const row = await handle.db.selectFrom("one_time_codes").selectAll().where("user_id", "=", userId).executeTakeFirstOrThrow();
  expect(row.code_hash).not.toContain(code);
  expect(await verifyCode(handle.db, { userId, purpose: "login", code })).toBe("ok");
  expect(await verifyCode(handle.db, { userId, purpose: "login", code })).toBe("missing");
});

test("spaces in a pasted code are accepted; another purpose's code is not", async () => {
  await issue();
  const code = codeFrom(sent[0]);
  expect(await verifyCode(handle.db, { userId, purpose: "reveal", code })).toBe("missing");
  expect(await verifyCode(handle.db, { userId, purpose: "login", code: `${code.slice(0, 3)} ${code.slice(3)}` })).toBe("ok");
});

test("a code expires after one hour", async () => {
  const start = new Date("2026-01-10T10:00:00Z");
  await issue(start);
  const code = codeFrom(sent[0]);
  const late = new Date(start.getTime() + CODE_TTL_MS + 1);
  expect(await verifyCode(handle.db, { userId, purpose: "login", code }, late)).toBe("expired");
  const justInTime = new Date(start.getTime() + CODE_TTL_MS - 1000);
  expect(await verifyCode(handle.db, { userId, purpose: "login", code }, justInTime)).toBe("ok");
});

test(`after ${MAX_ATTEMPTS} wrong attempts even the right code is refused`, async () => {
  restoreRandomCodes = useCodeGenerator(codeSequence("424242"));
  await issue();
  const code = codeFrom(sent[0]);
  expect(code).toBe("424242");
  const wrong = "000000";
  const results = [];
  for (let i = 0; i < MAX_ATTEMPTS; i++) results.push(await verifyCode(handle.db, { userId, purpose: "login", code: wrong }));
  expect(results.slice(0, MAX_ATTEMPTS - 1).every((r) => r === "invalid")).toBe(true);
  expect(results[MAX_ATTEMPTS - 1]).toBe("exhausted");
  expect(await verifyCode(handle.db, { userId, purpose: "login", code })).toBe("exhausted");
});

test("a resend within 60 seconds is throttled; after that a new code replaces the old one", async () => {
  restoreRandomCodes = useCodeGenerator(codeSequence("111111", "222222"));
  const start = new Date("2026-01-10T10:00:00Z");
  await issue(start);
  const first = codeFrom(sent[0]);
  const early = await issue(new Date(start.getTime() + RESEND_WAIT_MS - 1000));
  expect(early).toEqual({ status: "throttled", retryAt: new Date(start.getTime() + RESEND_WAIT_MS) });
  expect(sent).toHaveLength(1);
  const later = new Date(start.getTime() + RESEND_WAIT_MS);
  expect((await issue(later)).status).toBe("sent");
  const second = codeFrom(sent[1]);
  expect([first, second]).toEqual(["111111", "222222"]);
  expect(await verifyCode(handle.db, { userId, purpose: "login", code: first }, later)).toBe("invalid");
  expect(await verifyCode(handle.db, { userId, purpose: "login", code: second }, later)).toBe("ok");
});

test("malformed codes count as wrong attempts and never match", async () => {
  await issue();
  const results = [];
  for (const bad of ["", "12345", "1234567", "abcdef", "12345a"]) {
    results.push(await verifyCode(handle.db, { userId, purpose: "login", code: bad }));
  }
  expect(results).toEqual(["invalid", "invalid", "invalid", "invalid", "exhausted"]);
});

test("once a code is used, a new one can be sent at once (a new sign-in is not a resend)", async () => {
  const start = new Date("2026-01-10T10:00:00Z");
  await issue(start);
  expect(await verifyCode(handle.db, { userId, purpose: "login", code: codeFrom(sent[0]) }, start)).toBe("ok");
  expect((await issue(new Date(start.getTime() + 1000))).status).toBe("sent");
  expect(sent).toHaveLength(2);
});
