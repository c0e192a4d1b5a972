import type { DB } from "../../db";
import type { Env } from "../../env";
import type { Logger } from "../../logger";
import { HttpPartnerLinks } from "./http";
import type { PartnerLinks } from "./port";
import { SandboxPartnerLinks } from "./sandbox";

/** Answers `failed` to every partner: production without PARTNER_LINKS_URL ("service unavailable"). */
const UNCONFIGURED: PartnerLinks = { name: "none", link: () => Promise.resolve({ kind: "failed" }) };

/**
 * The partner-link provider: the partners' gateway when PARTNER_LINKS_URL is set; otherwise the
 * sandbox partners in sandbox mode, and none in production (every partner "unavailable").
 */
export function createPartnerLinks(env: Env, db: DB, logger: Logger, baseUrl: string): PartnerLinks {
  if (env.PARTNER_LINKS_URL)
    return new HttpPartnerLinks({
      url: env.PARTNER_LINKS_URL,
      token: env.PARTNER_LINKS_TOKEN,
      timeoutMs: env.PARTNER_LINKS_TIMEOUT_MS,
      logger,
    });
  if (env.sandbox) return new SandboxPartnerLinks(db, baseUrl);
  return UNCONFIGURED;
}

export type { PartnerLinkRequest, PartnerLinkResult, PartnerLinks } from "./port";
