import { afterAll, beforeAll, expect, test } from "vitest";
import { startSmtpStandIn, type SmtpStandIn } from "../../../../tests/support/smtp-server";
import type { Messenger, OutgoingMessage } from "./port";
import { SmtpMessenger } from "./smtp";

/** A real SMTP server on loopback receives what the adapter sends. */
let smtp: SmtpStandIn;
let received: SmtpStandIn["received"];
let port: number;

beforeAll(async () => {
  smtp = await startSmtpStandIn();
  received = smtp.received;
  port = smtp.port;
});
afterAll(() => smtp.stop());

test("an e-mail goes through SMTP with sender, recipient, subject and text", async () => {
  const messenger = new SmtpMessenger({ url: `smtp://127.0.0.1:${port}`, from: "Portail <no-reply@portail.example>" });
  await messenger.send({
    channel: "email",
    to: "marie.martin@example.com",
    subject: "Votre code de connexion",
    text: "Votre code est 123456.",
  });
  messenger.close();
  expect(received).toHaveLength(1);
  const mail = received[0]!;
  expect(mail.from).toBe("no-reply@portail.example");
  expect(mail.to).toEqual(["marie.martin@example.com"]);
  expect(mail.raw).toMatch(/Subject: Votre code de connexion/);
  expect(mail.raw).toContain("123456");
});

test("a text message goes to the SMS fallback, never to SMTP; without one it fails loudly", async () => {
  const before = received.length;
  const sms: OutgoingMessage[] = [];
  const fallback: Messenger = { name: "memory", send: async (m) => void sms.push(m) };
  const withFallback = new SmtpMessenger({
    url: `smtp://127.0.0.1:${port}`,
    from: "p@portail.example",
    smsFallback: fallback,
  });
  await withFallback.send({ channel: "sms", to: "+33612345678", subject: "Code", text: "Code 654321" });
  expect(sms).toHaveLength(1);
  expect(received.length).toBe(before);
  const without = new SmtpMessenger({ url: `smtp://127.0.0.1:${port}`, from: "p@portail.example" });
  await expect(without.send({ channel: "sms", to: "+33612345678", subject: "Code", text: "x" })).rejects.toThrow(/SMS/);
  withFallback.close();
  without.close();
});

test("an unreachable SMTP server is an error, not a silent loss", async () => {
  const messenger = new SmtpMessenger({ url: "smtp://127.0.0.1:1", from: "p@portail.example" });
  await expect(messenger.send({ channel: "email", to: "a@example.com", subject: "s", text: "t" })).rejects.toThrow();
  messenger.close();
});
