import type { Logger } from "../../logger";
import type { PartnerLinkRequest, PartnerLinkResult, PartnerLinks } from "./port";
import { requiresAccess } from "~/domain/integrations";

export interface HttpPartnerLinksOptions {
  /** PARTNER_LINKS_URL: the partners' gateway; a link is asked at `<url>/<partner>/link`. */
  url: string;
  /** PARTNER_LINKS_TOKEN: sent as a bearer token. */
  token?: string;
  timeoutMs: number;
  logger: Logger;
  fetch?: typeof fetch;
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** An https URL, or an http one on this machine (the tests' stand-in, a local gateway). */
export function acceptableUrl(text: unknown): string | null {
  if (typeof text !== "string" || text.length > 4000) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK.has(url.hostname))) return url.href;
  return null;
}

/**
 * The real partners (spec 000 §7 "Integrations": each answers a url; Klaro also `has_access`): POST
 * `<PARTNER_LINKS_URL>/<partner>/link` with the user's id and e-mail as JSON, bearer PARTNER_LINKS_TOKEN.
 * The answer is `{ "url": "https://…", "has_access": true }`. A timeout, an error status, an answer
 * without a usable https URL: `failed` (logged, without the user's data); Klaro without
 * `has_access: true`: `no_access`.
 */
export class HttpPartnerLinks implements PartnerLinks {
  readonly name = "http" as const;

  constructor(private readonly options: HttpPartnerLinksOptions) {}

  async link({ partner, userId, email }: PartnerLinkRequest): Promise<PartnerLinkResult> {
    const { url, token, timeoutMs, logger } = this.options;
    const doFetch = this.options.fetch ?? fetch;
    const endpoint = `${url.replace(/\/+$/, "")}/${encodeURIComponent(partner)}/link`;
    let body: unknown;
    try {
      const response = await doFetch(endpoint, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json",
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify({ user_id: userId, email }),
        redirect: "error",
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) {
        logger.warn("partner link refused", { partner, status: response.status });
        return { kind: "failed" };
      }
      body = await response.json();
    } catch (err) {
      logger.warn("partner link failed", { partner, reason: err instanceof Error ? err.name : "unknown" });
      return { kind: "failed" };
    }
    const answer = (typeof body === "object" && body !== null ? body : {}) as { url?: unknown; has_access?: unknown };
    if (requiresAccess(partner) && answer.has_access !== true) return { kind: "noAccess" };
    const link = acceptableUrl(answer.url);
    if (!link) {
      logger.warn("partner link without a usable url", { partner });
      return { kind: "failed" };
    }
    return { kind: "url", url: link };
  }
}
