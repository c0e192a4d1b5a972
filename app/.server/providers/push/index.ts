import type { DB } from "../../db";
import type { PushSender } from "./port";
import { SandboxPushSender } from "./sandbox";

/**
 * The sandbox outbox for now: the mobile app's push service (its devices' tokens) is not part of this
 * portal yet, so no real adapter is configured (issue 16 report; decision 0030).
 */
export function createPushSender(db: DB): PushSender {
  return new SandboxPushSender(db);
}

export type { PushMessage, PushSender } from "./port";
