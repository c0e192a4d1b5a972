import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from "vitest";
import { startSmtpStandIn, type SmtpStandIn } from "../../../../tests/support/smtp-server";
import type { DatabaseHandle, DB } from "../../db";
import { createAccount } from "../../db/factories";
import { openSharedTestDatabase, openTestDatabase } from "../../../../tests/support/test-database";
import { createLogger } from "../../logger";
import { codeSequence, issueCode, setCodeGenerator } from "../../services/codes";
import { updateProfile } from "../../services/profile";
import { mailDelayed } from "../../services/mail-status";
import { OutboxMessenger, RETRY_DELAYS_MS } from "./outbox";
import { SmtpMessenger } from "./smtp";

/**
 * The persistent outbox (decision 0042) against a real SMTP server on loopback, stopped and started again: on
 * SQLite, and on PostgreSQL when TEST_DATABASE_URL is set (npm test runs app/.server on both).
 */
let handle: DatabaseHandle;
let smtp: SmtpStandIn;
let logLines: string[];
const senders: OutboxMessenger[] = [];

beforeAll(async () => {
  handle = await openTestDatabase();
  smtp = await startSmtpStandIn();
});
afterAll(async () => {
  await smtp.stop();
  await handle.close();
});
beforeEach(async () => {
  await smtp.start();
  smtp.received.length = 0;
  logLines = [];
  await handle.db.deleteFrom("mail_outbox").execute();
});
afterEach(async () => {
  for (const sender of senders.splice(0)) await sender.stop();
});

function outbox(db: DB = handle.db, owner?: string): OutboxMessenger {
  const sender = new OutboxMessenger(db, {
    transport: new SmtpMessenger({ url: smtp.url, from: "Portail <no-reply@portail.example>" }),
    logger: createLogger("debug", (line) => logLines.push(line)),
    owner,
  });
  senders.push(sender);
  return sender;
}

const rows = () => handle.db.selectFrom("mail_outbox").selectAll().orderBy("created_at").execute();
const later = (ms: number) => new Date(Date.now() + ms);

async function signInCode(messenger: OutboxMessenger, code: string, usefulUntil?: Date) {
  const account = await createAccount(handle.db, { email: `${code}@example.com`, passwordHash: "unused" });
  const restore = setCodeGenerator(codeSequence(code));
  try {
    return await issueCode(handle.db, messenger, {
      subject: { userId: account.userId, purpose: "signIn", target: account.userId },
      channel: "email",
      destination: account.email,
      message: { subject: "Votre code de connexion", text: (c) => `Votre code est ${c}.`, usefulUntil },
    });
  } finally {
    restore();
  }
}

test("SMTP down when a sign-in code is sent: it is queued; SMTP back, the retry delivers it once and blanks it", async () => {
  await smtp.stop();
  const messenger = outbox();
  const result = await signInCode(messenger, "482913");
  expect(result).toMatchObject({ kind: "sent", delayed: true });
  expect(smtp.received).toHaveLength(0);
  const [waiting] = await rows();
  expect(waiting).toMatchObject({ status: "pending", attempts: 1, lease_owner: null });
  expect(waiting!.body).toContain("482913");
  expect(waiting!.last_error).toMatch(/ECONNREFUSED/);
  expect(new Date(waiting!.next_attempt_at).getTime() - new Date(waiting!.created_at).getTime()).toBeGreaterThanOrEqual(
    RETRY_DELAYS_MS[0],
  );
  expect(await mailDelayed(handle.db)).toBe(true);

  // Not due yet: nothing is tried before the delay.
  await smtp.start();
  expect(await messenger.deliverDue(new Date())).toBe(0);
  expect(smtp.received).toHaveLength(0);

  expect(await messenger.deliverDue(later(RETRY_DELAYS_MS[0] + 1_000))).toBe(1);
  expect(await messenger.deliverDue(later(RETRY_DELAYS_MS[4] * 2))).toBe(0);
  expect(smtp.received).toHaveLength(1);
  expect(smtp.received[0]!.to).toEqual(["482913@example.com"]);
  expect(smtp.received[0]!.raw).toContain("482913");
  const [sent] = await rows();
  expect(sent).toMatchObject({ status: "sent", body: "", attempts: 2, lease_owner: null, last_error: null });
  expect(await mailDelayed(handle.db)).toBe(false);
  // The logs name the message and the error, never its content or recipient.
  expect(logLines.length).toBeGreaterThan(0);
  expect(logLines.join("\n")).not.toMatch(/482913/);
});

test("SMTP up: the code leaves at once, the row is kept without its body, and deleted a day later", async () => {
  const messenger = outbox();
  expect(await signInCode(messenger, "111222")).toMatchObject({ kind: "sent", delayed: false });
  expect(smtp.received).toHaveLength(1);
  expect(await rows()).toMatchObject([{ status: "sent", body: "", attempts: 1 }]);
  await messenger.deliverDue(later(25 * 60 * 60 * 1000));
  expect(await rows()).toEqual([]);
});

test("a code message past the end of its sign-in is given up, never sent", async () => {
  await smtp.stop();
  const messenger = outbox();
  const usefulUntil = later(60_000);
  expect(await signInCode(messenger, "765432", usefulUntil)).toMatchObject({ delayed: true });
  expect((await rows())[0]!.give_up_at).toBe(usefulUntil.toISOString());
  await smtp.start();
  expect(await messenger.deliverDue(new Date(usefulUntil.getTime() + 1))).toBe(0);
  expect(smtp.received).toHaveLength(0);
  expect(await rows()).toMatchObject([{ status: "given_up", body: "" }]);
});

test("a failure whose next try would come after the message's end gives it up at once", async () => {
  await smtp.stop();
  const messenger = outbox();
  // Useful 5 s more: the next try (10 s) would be too late.
  await messenger.send({
    channel: "email",
    to: "a@example.com",
    subject: "Code",
    text: "Code 999000",
    expiresAt: later(5_000),
  });
  expect(await rows()).toMatchObject([{ status: "given_up", body: "", attempts: 1 }]);
  expect(await mailDelayed(handle.db)).toBe(false);
});

test("two senders on one database never send one message twice", async () => {
  const shared = await openSharedTestDatabase();
  const slow = await startSmtpStandIn({ delayMs: 20 });
  try {
    const [one, two] = shared.handles;
    const count = 12;
    await slow.stop();
    const writer = new OutboxMessenger(one.db, {
      transport: new SmtpMessenger({ url: slow.url, from: "p@portail.example" }),
    });
    senders.push(writer);
    for (let i = 0; i < count; i++)
      expect(await writer.send({ channel: "email", to: `p${i}@example.com`, subject: `Message ${i}`, text: "x" })).toBe(
        "queued",
      );
    await slow.start();
    const a = new OutboxMessenger(one.db, {
      transport: new SmtpMessenger({ url: slow.url, from: "p@portail.example" }),
    });
    const b = new OutboxMessenger(two.db, {
      transport: new SmtpMessenger({ url: slow.url, from: "p@portail.example" }),
    });
    senders.push(a, b);
    const due = later(RETRY_DELAYS_MS[0] + 1_000);
    // Both sweep at once, twice each: every message is claimed by one of them only.
    const sent = await Promise.all([a.deliverDue(due), b.deliverDue(due), a.deliverDue(due), b.deliverDue(due)]);
    expect(sent.reduce((x, y) => x + y, 0)).toBe(count);
    const subjects = slow.received.map((m) => /Subject: (Message \d+)/.exec(m.raw)?.[1]).sort();
    expect(subjects).toEqual(Array.from({ length: count }, (_, i) => `Message ${i}`).sort());
    const statuses = await one.db.selectFrom("mail_outbox").select(["status", "body"]).execute();
    expect(statuses.every((r) => r.status === "sent" && r.body === "")).toBe(true);
  } finally {
    for (const sender of senders.splice(0)) await sender.stop();
    await slow.stop();
    await shared.close();
  }
});

test("a message another process is sending (leased) is left alone until its lease ends", async () => {
  await smtp.stop();
  const first = outbox(handle.db, "sender_a");
  await first.send({ channel: "email", to: "b@example.com", subject: "Lease", text: "x" });
  await smtp.start();
  const due = later(RETRY_DELAYS_MS[0] + 1_000);
  // Another process holds it (as while it sends): the second sender does not touch it.
  await handle.db
    .updateTable("mail_outbox")
    .set({ lease_owner: "sender_b", lease_until: later(RETRY_DELAYS_MS[0] + 30_000).toISOString() })
    .execute();
  const second = outbox(handle.db, "sender_c");
  expect(await second.deliverDue(due)).toBe(0);
  expect(smtp.received).toHaveLength(0);
  // The lease ended (its process died): the message is taken and sent.
  expect(await second.deliverDue(later(RETRY_DELAYS_MS[0] + 61_000))).toBe(1);
  expect(smtp.received).toHaveLength(1);
});

test("the sender loop delivers what waits, by itself, and stops cleanly", async () => {
  await smtp.stop();
  let clock = new Date();
  const messenger = new OutboxMessenger(handle.db, {
    transport: new SmtpMessenger({ url: smtp.url, from: "p@portail.example" }),
    now: () => clock,
  });
  senders.push(messenger);
  expect(await messenger.send({ channel: "email", to: "c@example.com", subject: "Loop", text: "x" })).toBe("queued");
  await smtp.start();
  clock = later(RETRY_DELAYS_MS[0] + 1_000);
  messenger.start(20);
  const deadline = Date.now() + 5_000;
  while (smtp.received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  await messenger.stop();
  expect(smtp.received).toHaveLength(1);
  expect(await rows()).toMatchObject([{ status: "sent", body: "" }]);
});

test("an e-mail change asked while SMTP is down says its code's e-mail is delayed; with SMTP up, it does not", async () => {
  const account = await createAccount(handle.db, { email: "change.outbox@example.com", passwordHash: "unused" });
  const messages = {
    email: () => ({ subject: "Confirmez votre adresse", text: (code: string) => `Code ${code}` }),
    phone: () => ({ subject: "Confirmez votre numéro", text: (code: string) => `Code ${code}` }),
  };
  await smtp.stop();
  const down = await updateProfile(
    handle.db,
    outbox(),
    account.userId,
    { email: "new.outbox@example.com", acceptTerms: false },
    messages,
  );
  expect(down).toEqual({ kind: "saved", pendingFields: ["email"], delayed: true, refused: false, channel: "email" });
  await smtp.start();
  const other = await createAccount(handle.db, { email: "change2.outbox@example.com", passwordHash: "unused" });
  const up = await updateProfile(
    handle.db,
    outbox(),
    other.userId,
    { email: "new2.outbox@example.com", acceptTerms: false },
    messages,
  );
  expect(up).toEqual({ kind: "saved", pendingFields: ["email"], delayed: false, refused: false });
});
