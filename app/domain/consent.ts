import { intents } from "~/routes/+shared/intents";

/** The two answers of each consent question on /cookies; anything else is a forged value (400). */
export const CONSENT_CHOICES = ["accept", "refuse"] as const;

/**
 * The buttons that post to /cookies (decision 0059): the page's "Enregistrer mon choix", and the banner's
 * "Tout accepter" and "Tout refuser", two answers of equal weight (CNIL's recommendation).
 */
export const CONSENT_INTENT = intents("save", "acceptAll", "refuseAll");

/** The banner's hidden field: the page it was on, where its choice leads back to. */
export const CONSENT_RETURN_FIELD = "returnTo";

/** A choice of both questions, as the consent cookie and the database hold it. */
export interface ConsentChoice {
  analytics: boolean;
  tagManager: boolean;
}

/** The consent cookie's name: which choice this browser made, so that the banner is not shown again. */
export const CONSENT_COOKIE = "consent";

/** The cookie's value: `accept.refuse` is analytics accepted, the tag manager refused. */
export function consentCookieValue(choice: ConsentChoice): string {
  const word = (accepted: boolean) => (accepted ? "accept" : "refuse");
  return `${word(choice.analytics)}.${word(choice.tagManager)}`;
}

/** The choice a cookie's value holds; null for anything the portal did not write (no choice then). */
export function readConsentCookieValue(value: string | undefined): ConsentChoice | null {
  const match = /^(accept|refuse)\.(accept|refuse)$/.exec(value ?? "");
  return match ? { analytics: match[1] === "accept", tagManager: match[2] === "accept" } : null;
}
