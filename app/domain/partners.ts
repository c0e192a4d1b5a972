/**
 * Partner shops as the pages see them (spec 001 §3 "Partner"): the service (`~/.server/services/partners`)
 * finds them, the partner field (`~/components/refunds/PartnerPicker`) lists them.
 */

/** What the partner field lists: the name in the person's language, the address, and whether it can be chosen. */
export interface PartnerOption {
  id: string;
  name: string;
  line1: string;
  zipcode: string;
  city: string;
  enabled: boolean;
  /** Why a disabled partner cannot be chosen, when the catalogue says (else the page's default message). */
  disabledReason: string | null;
}

/** Spec 001 §2.6, §9: 10 results, 15 when the search was prefilled from the reading of a receipt. */
export const PARTNER_PAGE_SIZES = [10, 15] as const;
export type PartnerPageSize = (typeof PARTNER_PAGE_SIZES)[number];

/** A requested number of results as one of the two page sizes: 15 for 15 or more, 10 otherwise. */
export function partnerPageSize(requested: unknown): PartnerPageSize {
  const n = Number(requested);
  return Number.isFinite(n) && n >= 15 ? 15 : 10;
}

/** The longest search looked at (a name, not a text): longer ones are cut. */
export const PARTNER_SEARCH_MAX_LENGTH = 100;

/** Spec 001 §9: the search runs 1.5 s after typing stops (with JavaScript). */
export const PARTNER_SEARCH_DEBOUNCE_MS = 1500;
