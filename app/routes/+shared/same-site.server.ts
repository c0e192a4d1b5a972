/**
 * Where a request comes from, as far as the browser tells (decision 0048): the one notion of "this site"
 * that refuses other sites' form posts (server/security.ts) and keeps a link from another site from
 * writing anything on a GET (the loaders that write when a page is shown).
 *
 * - `Sec-Fetch-Site` when the browser sends it: `same-origin`, or `none` (an address typed, a bookmark:
 *   the person's own doing), is this site; `same-site` (another subdomain) and `cross-site` are not.
 * - `Origin` when sent (forms; a GET navigation has none): it must name this host; `null` is another site.
 * - Neither (browsers without Fetch Metadata): `Referer`, which this site's own pages send in full to
 *   themselves (Referrer-Policy strict-origin-when-cross-origin), must name this host.
 * - None of the three (curl, a very old browser with the address typed, or a page hiding its referrer):
 *   unknown. A post may go on (the SameSite=Lax session cookie is not sent with another site's post);
 *   a GET writes nothing, and the page offers the write as a form.
 */
export type RequestSite = "thisSite" | "otherSite" | "unknown";

/** A request's headers, Express's `req.get` or Fetch's `headers.get`. */
type HeaderOf = (name: string) => string | null | undefined;

export function requestSite(header: HeaderOf): RequestSite {
  const host = header("Host");
  const fetchSite = header("Sec-Fetch-Site");
  if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") return "otherSite";
  const origin = header("Origin");
  if (origin) return origin !== "null" && hostOf(origin) === host ? "thisSite" : "otherSite";
  if (fetchSite) return "thisSite";
  const referer = header("Referer");
  if (referer) return hostOf(referer) === host ? "thisSite" : "otherSite";
  return "unknown";
}

function hostOf(address: string): string | null {
  try {
    return new URL(address).host;
  } catch {
    return null;
  }
}

/**
 * A page shown from this site itself (a link or form of the portal, or the person's typed address): only
 * then may its loader write (mark read, make a draft). Read here and passed to services as a plain flag.
 */
export function shownFromThisSite(request: Request): boolean {
  return requestSite((name) => request.headers.get(name)) === "thisSite";
}
