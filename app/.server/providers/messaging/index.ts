import type { DB } from "../../db";
import type { Env } from "../../env";
import type { Logger } from "../../logger";
import { OutboxMessenger } from "./outbox";
import type { Messenger } from "./port";
import { SandboxMessenger } from "./sandbox";
import { SmtpMessenger } from "./smtp";

/**
 * SMTP through the persistent outbox when SMTP_URL is set (decision 0042: the caller starts its sender loop);
 * otherwise the sandbox outbox.
 */
export function createMessenger(env: Env, db: DB, logger?: Logger): Messenger | OutboxMessenger {
  if (env.SMTP_URL) {
    const smtp = new SmtpMessenger({
      url: env.SMTP_URL,
      from: env.MAIL_FROM,
      smsFallback: env.sandbox ? new SandboxMessenger(db) : undefined,
    });
    return new OutboxMessenger(db, { transport: smtp, logger });
  }
  return new SandboxMessenger(db);
}

/** A text message can be delivered: the sandbox outbox keeps it, or Brevo is configured (decision 0062). */
export function smsAvailable(env: Env): boolean {
  return env.sandbox || env.BREVO_API_KEY !== undefined;
}

export { OutboxMessenger } from "./outbox";
export type { Messenger, OutgoingMessage, Channel, Delivery } from "./port";
