import type { DB } from "../../db";
import type { Env } from "../../env";
import type { Messenger } from "./port";
import { SandboxMessenger } from "./sandbox";
import { SmtpMessenger } from "./smtp";

/** SMTP when SMTP_URL is set; otherwise the sandbox outbox. */
export function createMessenger(env: Env, db: DB): Messenger {
  if (env.SMTP_URL)
    return new SmtpMessenger({
      url: env.SMTP_URL,
      from: env.MAIL_FROM,
      smsFallback: env.sandbox ? new SandboxMessenger(db) : undefined,
    });
  return new SandboxMessenger(db);
}

export type { Messenger, OutgoingMessage, Channel } from "./port";
