import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from "vitest";
import { startBrevoStandIn, type BrevoStandIn } from "../../../../tests/support/brevo-stand-in";
import { startSmtpStandIn, type SmtpStandIn } from "../../../../tests/support/smtp-server";
import { openTestDatabase } from "../../../../tests/support/test-database";
import type { DatabaseHandle } from "../../db";
import { createAccount } from "../../db/factories";
import { ConfigError, parseEnv } from "../../env";
import { createLogger } from "../../logger";
import { codeSequence, issueCode, setCodeGenerator, verifyCode, type CodeSubject } from "../../services/codes";
import { mailDelayed, messageStatus } from "../../services/mail-status";
import { codeRefusalMessage } from "~/routes/+shared/guess-messages.server";
import { frenchWords } from "~/i18n/words.server";
import { smsEncoding, smsSegments } from "~/domain/sms";
import { BrevoSmsMessenger } from "./brevo";
import { ChannelMessenger } from "./channels";
import { createMessenger, smsAvailable } from "./index";
import { OutboxMessenger, RETRY_DELAYS_MS } from "./outbox";
import { SandboxMessenger } from "./sandbox";
import { SmtpMessenger } from "./smtp";

/**
 * SMS codes through Brevo's transactional SMS (decision 0062), against a local stand-in of Brevo's API started here,
 * and the persistent outbox they go through (decision 0042): on SQLite, and on PostgreSQL when TEST_DATABASE_URL is
 * set (npm test runs app/.server on both).
 */
let handle: DatabaseHandle;
let brevo: BrevoStandIn;
let smtp: SmtpStandIn;
let logLines: string[];
const senders: OutboxMessenger[] = [];
const PHONE = "+33612345678";

beforeAll(async () => {
  handle = await openTestDatabase();
  brevo = await startBrevoStandIn();
  smtp = await startSmtpStandIn();
});
afterAll(async () => {
  await brevo.stop();
  await smtp.stop();
  await handle.close();
});
beforeEach(async () => {
  await brevo.start();
  brevo.mode = "accept";
  brevo.refused.clear();
  brevo.received.length = 0;
  brevo.requests.length = 0;
  logLines = [];
  await handle.db.deleteFrom("mail_outbox").execute();
});
afterEach(async () => {
  for (const sender of senders.splice(0)) await sender.stop();
});

function gateway(options: { timeoutMs?: number; apiKey?: string } = {}) {
  return new BrevoSmsMessenger({
    apiKey: options.apiKey ?? brevo.apiKey,
    baseUrl: brevo.url,
    sender: "Portail",
    timeoutMs: options.timeoutMs ?? 2_000,
  });
}

/** The outbox as production builds it: e-mails by SMTP, text messages by Brevo; its clock may be moved. */
function outbox(options: { timeoutMs?: number; now?: () => Date } = {}): OutboxMessenger {
  const sender = new OutboxMessenger(handle.db, {
    transport: new ChannelMessenger(
      new SmtpMessenger({ url: smtp.url, from: "Portail <no-reply@portail.example>" }),
      gateway(options),
    ),
    logger: createLogger("debug", (line) => logLines.push(line)),
    now: options.now,
  });
  senders.push(sender);
  return sender;
}

const rows = () => handle.db.selectFrom("mail_outbox").selectAll().orderBy("created_at").execute();
const after = (from: Date, ms: number) => new Date(from.getTime() + ms);

/** A sign-in code sent by SMS with the catalogue's own French text (what auth.server.ts sends). */
async function smsCode(messenger: OutboxMessenger, code: string, phone = PHONE, now = new Date()) {
  const account = await createAccount(handle.db, {
    email: `${code}.${phone.slice(1)}@example.com`,
    passwordHash: "unused",
  });
  const subject: CodeSubject = { userId: account.userId, purpose: "reveal", target: account.userId };
  const restore = setCodeGenerator(codeSequence(code));
  try {
    const result = await issueCode(
      handle.db,
      messenger,
      {
        subject,
        channel: "sms",
        destination: phone,
        message: {
          subject: frenchWords("cards.reveal.messageSubject"),
          text: (c) => frenchWords("cards.reveal.messageText", { code: c }),
        },
      },
      { now },
    );
    return { result, subject };
  } finally {
    restore();
  }
}

test("accepted: the code leaves at once through Brevo — key, sender, digits, one plain SMS — and its row keeps no body", async () => {
  const { result } = await smsCode(outbox(), "482913");
  expect(result).toMatchObject({ kind: "sent", delayed: false, refused: false, channel: "sms" });
  expect(brevo.requests).toEqual([{ path: "/v3/transactionalSMS/send", status: 201 }]);
  expect(brevo.received).toHaveLength(1);
  const sms = brevo.received[0]!;
  expect(sms).toMatchObject({ sender: "Portail", recipient: "33612345678", type: "transactional" });
  expect(sms.content).toContain("482913");
  // The catalogue's typographic apostrophe left as a plain one: one GSM-7 segment, not a 70-character UCS-2 one.
  expect(sms.content).toContain("ne l'avez pas demandé");
  expect(sms.unicodeEnabled).toBe(false);
  expect([smsEncoding(sms.content), smsSegments(sms.content)]).toEqual(["gsm7", 1]);
  expect(await rows()).toMatchObject([{ channel: "sms", status: "sent", body: "", attempts: 1 }]);
  expect(await messageStatus(handle.db, PHONE)).toBeNull();
});

test("a number Brevo refuses is given up at once, never tried again, and the code page is told", async () => {
  brevo.refused.add("33712345678");
  const messenger = outbox();
  const { result } = await smsCode(messenger, "765432", "+33712345678");
  expect(result).toMatchObject({ kind: "sent", delayed: false, refused: true });
  const [row] = await rows();
  expect(row).toMatchObject({ channel: "sms", status: "given_up", body: "", attempts: 1 });
  expect(row!.last_error).toBe("refused: Brevo refused the text message (400 invalid_parameter)");
  expect(await messageStatus(handle.db, "+33712345678")).toBe("refused");
  expect(await messenger.deliverDue(after(new Date(), RETRY_DELAYS_MS[4] * 3))).toBe(0);
  expect(brevo.requests.map((r) => r.status)).toEqual([400]);
  // The logs name the refusal, never the number or the code.
  expect(logLines.join("\n")).toMatch(/text message given up/);
  expect(logLines.join("\n")).not.toMatch(/765432|33712345678/);
});

test("HTTP 500: the SMS waits, the code page says so; the retry delivers it once", async () => {
  brevo.mode = "fail";
  const messenger = outbox();
  const sentAt = new Date();
  const { result } = await smsCode(messenger, "111222", PHONE, sentAt);
  expect(result).toMatchObject({ kind: "sent", delayed: true, refused: false, channel: "sms" });
  const [waiting] = await rows();
  expect(waiting).toMatchObject({ channel: "sms", status: "pending", attempts: 1 });
  expect(waiting!.body).toContain("111222");
  expect(waiting!.last_error).toBe("Brevo answered 500 (internal_error)");
  expect(await messageStatus(handle.db, PHONE)).toBe("delayed");
  // A waiting SMS is not an e-mail: the lost-password page's "e-mails are slow" stays quiet.
  expect(await mailDelayed(handle.db)).toBe(false);
  brevo.mode = "accept";
  expect(await messenger.deliverDue(after(sentAt, RETRY_DELAYS_MS[0] - 1_000))).toBe(0);
  expect(await messenger.deliverDue(after(sentAt, RETRY_DELAYS_MS[0] + 1_000))).toBe(1);
  expect(await messenger.deliverDue(after(sentAt, RETRY_DELAYS_MS[2] * 2))).toBe(0);
  expect(brevo.received.map((s) => s.content.includes("111222"))).toEqual([true]);
  expect(await rows()).toMatchObject([{ status: "sent", body: "", attempts: 2, last_error: null }]);
  expect(await messageStatus(handle.db, PHONE)).toBeNull();
});

test("no answer: the attempt ends at the short timeout and is retried; delivered once Brevo answers", async () => {
  brevo.mode = "hang";
  const messenger = outbox({ timeoutMs: 300 });
  const started = Date.now();
  const { result } = await smsCode(messenger, "333444");
  expect(Date.now() - started).toBeLessThan(3_000);
  expect(result).toMatchObject({ delayed: true });
  expect((await rows())[0]!.last_error).toBe("Brevo did not answer within 300 ms");
  brevo.mode = "accept";
  expect(await messenger.deliverDue(after(new Date(), RETRY_DELAYS_MS[0] + 1_000))).toBe(1);
  expect(brevo.received).toHaveLength(1);
});

/**
 * The sender loop passing every half minute from `from` to `untilMinutes` with the clock moved along: the minutes
 * at which the one row was tried again.
 */
async function sweep(
  messenger: OutboxMessenger,
  from: Date,
  fromMinutes: number,
  untilMinutes: number,
  setClock: (at: Date) => void,
) {
  const attemptsAt: number[] = [];
  for (let minute = fromMinutes; minute <= untilMinutes; minute += 0.5) {
    const at = after(from, minute * 60_000);
    setClock(at);
    const before = (await rows())[0]!.attempts;
    await messenger.deliverDue(at);
    if ((await rows())[0]!.attempts > before) attemptsAt.push(minute);
  }
  return attemptsAt;
}

test("Brevo down for 45 minutes (clock moved): retried on the schedule, then the code arrives once and works", async () => {
  await brevo.stop();
  const sentAt = new Date("2026-03-02T09:00:00.000Z");
  let clock = sentAt;
  const messenger = outbox({ now: () => clock });
  const { result, subject } = await smsCode(messenger, "246810", PHONE, sentAt);
  expect(result).toMatchObject({ delayed: true });
  expect((await rows())[0]!.last_error).toMatch(/^Brevo could not be reached/);
  // 10 s, 30 s, 1 min, 5 min, then every 15 min after each failure.
  expect(await sweep(messenger, sentAt, 0, 45, (at) => (clock = at))).toEqual([0.5, 1, 2, 7, 22, 37]);
  expect(await messageStatus(handle.db, PHONE)).toBe("delayed");
  expect(brevo.received).toHaveLength(0);
  await brevo.start();
  expect(await sweep(messenger, sentAt, 45.5, 58, (at) => (clock = at))).toEqual([52]);
  expect(brevo.received).toHaveLength(1);
  expect(brevo.received[0]!.content).toContain("246810");
  expect(await rows()).toMatchObject([{ status: "sent", body: "", attempts: 8 }]);
  expect(await messageStatus(handle.db, PHONE)).toBeNull();
  expect(await verifyCode(handle.db, subject, "246810", { now: after(sentAt, 53 * 60_000) })).toEqual({ kind: "ok" });
});

test("Brevo down the whole hour: the SMS is given up before the code's end, never sent late; the person is told", async () => {
  await brevo.stop();
  const sentAt = new Date("2026-03-02T10:00:00.000Z");
  let clock = sentAt;
  const messenger = outbox({ now: () => clock });
  const { subject } = await smsCode(messenger, "135791", PHONE, sentAt);
  // At 52 min the next try (67 min) would come after the code's end (60 min): the attempt gives it up.
  expect(await sweep(messenger, sentAt, 0, 55, (at) => (clock = at))).toEqual([0.5, 1, 2, 7, 22, 37, 52]);
  expect(await rows()).toMatchObject([{ channel: "sms", status: "given_up", body: "" }]);
  // The code page stops saying "it will leave": it says the code could not be sent in time, ask for a new one.
  expect(await messageStatus(handle.db, PHONE)).toBe("givenUp");
  await brevo.start();
  expect(await sweep(messenger, sentAt, 55.5, 75, (at) => (clock = at))).toEqual([]);
  expect(brevo.received).toHaveLength(0);
  // Past its end the code itself says so, and the code step words it « Ce code a expiré. Demandez un nouveau code ».
  const verdict = await verifyCode(handle.db, subject, "135791", { now: after(sentAt, 60 * 60_000 + 1) });
  expect(verdict).toEqual({ kind: "expired" });
  expect(codeRefusalMessage({ kind: "expired" })).toBe("errors.codeExpired");
  expect(frenchWords("errors.codeExpired")).toMatch(/Demandez un nouveau code/);
});

test("an SMS already past its end when the loop finds it is given up without an attempt", async () => {
  brevo.mode = "fail";
  const sentAt = new Date();
  const messenger = outbox();
  await smsCode(messenger, "975310", PHONE, sentAt);
  brevo.mode = "accept";
  expect(await messenger.deliverDue(after(sentAt, 60 * 60_000))).toBe(0);
  expect(brevo.received).toHaveLength(0);
  expect(await rows()).toMatchObject([{ status: "given_up", body: "", attempts: 1 }]);
  expect(await messageStatus(handle.db, PHONE)).toBe("givenUp");
});

test("a wrong API key is an attempt that fails (the operator fixes it), not a refused number", async () => {
  const messenger = new BrevoSmsMessenger({
    apiKey: "wrong",
    baseUrl: brevo.url,
    sender: "Portail",
    timeoutMs: 2_000,
  });
  const failure = messenger.send({ channel: "sms", to: PHONE, subject: "Code", text: "Code 123456" });
  await expect(failure).rejects.toThrow("Brevo answered 401 (unauthorized)");
  await expect(failure).rejects.not.toHaveProperty("name", "RefusedMessageError");
  expect(brevo.received).toHaveLength(0);
});

test("a number that is not E.164 never reaches Brevo; an e-mail is not Brevo's to send", async () => {
  await expect(gateway().send({ channel: "sms", to: "0612345678", subject: "s", text: "t" })).rejects.toHaveProperty(
    "name",
    "RefusedMessageError",
  );
  await expect(gateway().send({ channel: "email", to: "a@example.com", subject: "s", text: "t" })).rejects.toThrow(
    /text messages only/,
  );
  expect(brevo.requests).toEqual([]);
});

test("configuration: Brevo when BREVO_API_KEY is set, the sandbox outbox in sandbox mode, no start in production without it", () => {
  const production = { APP_MODE: "production", SESSION_SECRET: "s".repeat(32), SMTP_URL: smtp.url };
  expect(() => createMessenger(parseEnv(production), handle.db)).toThrow(ConfigError);
  expect(() => createMessenger(parseEnv(production), handle.db)).toThrow(/BREVO_API_KEY/);
  const withBrevo = parseEnv({ ...production, BREVO_API_KEY: "k", BREVO_API_URL: brevo.url });
  const messenger = createMessenger(withBrevo, handle.db);
  expect(messenger).toBeInstanceOf(OutboxMessenger);
  expect(messenger.name).toBe("smtp+brevo");
  expect(smsAvailable(withBrevo)).toBe(true);
  expect(createMessenger(parseEnv({}), handle.db)).toBeInstanceOf(SandboxMessenger);
  expect(createMessenger(parseEnv({ BREVO_API_KEY: "k" }), handle.db).name).toBe("sandbox+brevo");
  expect(smsAvailable(parseEnv({}))).toBe(true);
  for (const sender of ["", "AB", "Portail-Avantages", "PortailAvant1", "12345678", "Portail !"])
    expect(() => parseEnv({ SMS_SENDER: sender }), sender).toThrow(/SMS_SENDER/);
  expect(parseEnv({ SMS_SENDER: "Avantages26" }).SMS_SENDER).toBe("Avantages26");
});
