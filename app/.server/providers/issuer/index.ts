import type { DB } from "../../db";
import type { Env } from "../../env";
import type { CardIssuer } from "./port";
import { SandboxIssuer } from "./sandbox";

/** The sandbox issuer offline; a real issuer adapter is chosen by configuration. */
export function createCardIssuer(env: Env, db: DB): CardIssuer {
  return new SandboxIssuer(db, env.SANDBOX_ISSUER_KEY_FILE);
}

export type { CardIssuer } from "./port";
