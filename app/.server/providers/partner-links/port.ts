import type { PartnerId } from "~/domain/integrations";

/**
 * Partner links (issue 16, spec 000 §2 "Integrations page", §7): the partner service answers a URL,
 * valid for a short time, that signs the user in on its side; the portal opens it in a new tab.
 * Adapters: `sandbox` (offline: a single-use link to the sandbox partner page the portal serves itself,
 * under /sandbox-partner/…) and `http` (the partners' configured HTTPS endpoint, PARTNER_LINKS_URL).
 */
export interface PartnerLinkRequest {
  partner: PartnerId;
  userId: string;
  email: string;
}

export type PartnerLinkResult =
  | { kind: "url"; url: string }
  /** The partner refused this user (Klaro's `has_access` false or missing). */
  | { kind: "noAccess" }
  /** The partner did not answer, or answered nothing usable (logged by the adapter). */
  | { kind: "failed" };

export interface PartnerLinks {
  readonly name: "sandbox" | "http" | "none";
  link(request: PartnerLinkRequest): Promise<PartnerLinkResult>;
}
