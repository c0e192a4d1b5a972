/**
 * The integrations page (spec 000 §2 "Integrations page", §6, §7; issue 16): the partner services a
 * user may open, in the spec's order, and which integration flags show them. A flag is on when it is
 * `true` or a non-empty list (spec 000 §6). The three Decathlon services show only with the
 * `decathlon-integrations` flag.
 */
export const PARTNER_IDS = [
  "uggy-vouchers",
  "uggy",
  "rosaly",
  "joko",
  "klaro",
  "decathlon-intranet",
  "decathlon-myPeopleDoc",
  "decathlon-winchapps",
] as const;

export type PartnerId = (typeof PARTNER_IDS)[number];

export type IntegrationFlags = Record<string, boolean | string[] | undefined>;

export const DECATHLON_FLAG = "decathlon-integrations";

/** `true` or a non-empty list. */
export function flagOn(value: unknown): boolean {
  return value === true || (Array.isArray(value) && value.length > 0);
}

export function isPartnerId(value: unknown): value is PartnerId {
  return typeof value === "string" && (PARTNER_IDS as readonly string[]).includes(value);
}

/** The partners these flags show, in the spec's order. */
export function visiblePartners(flags: IntegrationFlags): PartnerId[] {
  return PARTNER_IDS.filter((id) => (id.startsWith("decathlon-") ? flagOn(flags[DECATHLON_FLAG]) : flagOn(flags[id])));
}

/** Why an opening failed, as the catalogue's `integrations.errors.*` keys (spec 000 §8 "Integrations"). */
export type PartnerFailure = "getUggyFailed" | "getKlaroFailed" | "noAccess" | "unavailable";

/** The message of a partner whose link could not be obtained. */
export function failureOf(partner: PartnerId): Exclude<PartnerFailure, "noAccess"> {
  if (partner === "uggy" || partner === "uggy-vouchers") return "getUggyFailed";
  if (partner === "klaro") return "getKlaroFailed";
  return "unavailable";
}

/** Partners whose answer carries `has_access` (spec 000 §6: Klaro without it → no access). */
export function requiresAccess(partner: PartnerId): boolean {
  return partner === "klaro";
}
