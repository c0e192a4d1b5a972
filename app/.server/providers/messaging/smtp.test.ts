import { afterAll, beforeAll, expect, test } from "vitest";
import { startSmtpStandIn, type SmtpStandIn } from "../../../../tests/support/smtp-server";
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

test("a text message is not the SMTP adapter's: it fails loudly and nothing reaches SMTP", async () => {
  const before = received.length;
  const messenger = new SmtpMessenger({ url: `smtp://127.0.0.1:${port}`, from: "p@portail.example" });
  await expect(messenger.send({ channel: "sms", to: "+33612345678", subject: "Code", text: "x" })).rejects.toThrow(
    /e-mails only/,
  );
  expect(received.length).toBe(before);
  messenger.close();
});

test("an unreachable SMTP server is an error, not a silent loss", async () => {
  const messenger = new SmtpMessenger({ url: "smtp://127.0.0.1:1", from: "p@portail.example" });
  await expect(messenger.send({ channel: "email", to: "a@example.com", subject: "s", text: "t" })).rejects.toThrow();
  messenger.close();
});
