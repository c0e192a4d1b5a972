import type { DB } from "../../db";
import type { Env } from "../../env";
import { createLogger, type Logger } from "../../logger";
import type { PushMessage, PushSender } from "./port";
import { SandboxPushSender } from "./sandbox";
import { WebPushSender, type VapidIdentity } from "./web-push";

/**
 * The pushes of this server (decision 0063): in sandbox mode every push is kept in the outbox for /dev/outbox (the
 * mobile app's devices are not held by this portal, decision 0030); with VAPID keys each is also sent to the
 * browsers the person subscribed, in either mode. Production without VAPID keys sends no push at all: the
 * notification centre and the e-mails still say everything. The commands (scripts/) pass no logger: theirs.
 */
export function createPushSender(env: Env, db: DB, logger: Logger = createLogger(env.LOG_LEVEL)): PushSender {
  const senders: PushSender[] = [];
  if (env.sandbox) senders.push(new SandboxPushSender(db));
  const vapid = vapidOf(env);
  if (vapid) senders.push(new WebPushSender(db, { vapid, allowedHosts: env.PUSH_SERVICE_HOSTS, logger }));
  return senders.length === 1 ? senders[0]! : new PushSenders(senders);
}

/** The VAPID identity the settings give (env.ts checks that they come together), or null without keys. */
export function vapidOf(env: Env): VapidIdentity | null {
  if (!env.VAPID_PUBLIC_KEY || !env.VAPID_PRIVATE_KEY || !env.VAPID_SUBJECT) return null;
  return { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY, subject: env.VAPID_SUBJECT };
}

/** Several senders one after the other (the sandbox's outbox, then the browsers); none: no push is sent. */
export class PushSenders implements PushSender {
  readonly name: string;
  constructor(private readonly senders: readonly PushSender[]) {
    this.name = senders.length > 0 ? senders.map((sender) => sender.name).join("+") : "none";
  }

  async send(message: PushMessage): Promise<void> {
    for (const sender of this.senders) await sender.send(message);
  }
}

export type { PushMessage, PushSender } from "./port";
