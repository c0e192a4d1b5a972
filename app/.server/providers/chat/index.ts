import type { DB } from "../../db";
import type { Env } from "../../env";
import { CrispSupportChat } from "./crisp";
import type { SupportChat } from "./port";
import { SandboxSupportChat } from "./sandbox";

/** Crisp when CRISP_WEBSITE_ID is set; otherwise the sandbox conversation in the database. */
export function createSupportChat(env: Env, db: DB): SupportChat {
  if (env.CRISP_WEBSITE_ID)
    return new CrispSupportChat({ websiteId: env.CRISP_WEBSITE_ID, secret: env.sessionSecrets[0]! });
  return new SandboxSupportChat(db);
}

export type { SupportChat, ChatMessage, BrowserChat } from "./port";
export { SANDBOX_ACKNOWLEDGEMENT } from "./port";
