import type { DB } from "../../db";
import { ConfigError, type Env } from "../../env";
import type { Logger } from "../../logger";
import { BrevoSmsMessenger } from "./brevo";
import { ChannelMessenger } from "./channels";
import { OutboxMessenger } from "./outbox";
import type { Messenger } from "./port";
import { SandboxMessenger } from "./sandbox";
import { SmtpMessenger } from "./smtp";

/**
 * Where text messages go: Brevo when BREVO_API_KEY is set; otherwise the sandbox outbox, in sandbox mode only.
 * Production mode without a gateway refuses to start (decision 0062): people who chose SMS could not sign in.
 */
function smsGateway(env: Env, db: DB): Messenger {
  if (env.BREVO_API_KEY)
    return new BrevoSmsMessenger({
      apiKey: env.BREVO_API_KEY,
      baseUrl: env.BREVO_API_URL,
      sender: env.SMS_SENDER,
      timeoutMs: env.SMS_TIMEOUT_MS,
    });
  if (env.sandbox) return new SandboxMessenger(db);
  throw new ConfigError(
    "Invalid configuration:\n  BREVO_API_KEY: production mode needs BREVO_API_KEY to send SMS codes (Brevo transactional SMS)",
  );
}

/**
 * The persistent outbox (decision 0042; the caller starts its sender loop) as soon as one real provider is set:
 * e-mails through SMTP (SMTP_URL) or the sandbox outbox, text messages through Brevo (BREVO_API_KEY) or the
 * sandbox outbox. With neither, the sandbox outbox alone.
 */
export function createMessenger(env: Env, db: DB, logger?: Logger): Messenger | OutboxMessenger {
  const sms = smsGateway(env, db);
  if (!env.SMTP_URL && sms instanceof SandboxMessenger) return sms;
  const email = env.SMTP_URL ? new SmtpMessenger({ url: env.SMTP_URL, from: env.MAIL_FROM }) : new SandboxMessenger(db);
  return new OutboxMessenger(db, { transport: new ChannelMessenger(email, sms), logger });
}

/** A text message can be delivered: the sandbox outbox keeps it, or Brevo is configured (decision 0062). */
export function smsAvailable(env: Env): boolean {
  return env.sandbox || env.BREVO_API_KEY !== undefined;
}

export { OutboxMessenger } from "./outbox";
export type { Messenger, OutgoingMessage, Channel, Delivery } from "./port";
