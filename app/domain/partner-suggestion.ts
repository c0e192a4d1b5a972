/**
 * "Suggérer un établissement" (spec 001 §2.8, §3 "Partner suggestion", §5 "Suggest partner"): the French
 * name is required (English and Dutch copy it); the website, contacts and address are optional, each
 * checked when given. One schema for the form and the service (partner-suggestion-schemas.ts, server only: the
 * page's browser code reads the maxima here, without zod).
 */

/** Field maxima (spec 001 §9: 50 for address fields; names and addresses of the web a little longer). */
export const SUGGESTION_MAX = { name: 100, website: 255 } as const;

/** A scheme at the start ("https:", "javascript:"), but not a host followed by its port ("exemple.fr:8080"). */
const SCHEME = /^[a-z][a-z0-9+.-]*:(?!\d)/i;

/**
 * Spec 001 §5: a website without a scheme gets `http://` prepended. What has a scheme keeps it (and is
 * then refused unless http or https).
 */
export function withScheme(website: string): string {
  const trimmed = website.trim();
  return SCHEME.test(trimmed) ? trimmed : `http://${trimmed}`;
}

/** An http(s) address with a host name that has a dot, no spaces and no user name or password in it. */
export function isWebsite(website: string): boolean {
  if (/\s/.test(website)) return false;
  let url: URL;
  try {
    url = new URL(website);
  } catch {
    return false;
  }
  return (
    (url.protocol === "http:" || url.protocol === "https:") &&
    /^[^.]+(\.[^.]+)+$/.test(url.hostname) &&
    url.username === "" &&
    url.password === ""
  );
}
