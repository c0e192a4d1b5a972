import { safeRedirectPath } from "~/.server/session";
import type { InternalPath, Page } from "./redirects.server";

/** A `back` longer than this is not one the portal's own links make: the default instead. */
export const MAX_BACK_LENGTH = 500;

/**
 * The one `?back=` rule of the pages and panels opened over another page (the notification centre, the
 * support chat, the establishment suggestion): where "Fermer" / "Retour" and the redirect after a send
 * lead. Only a page of the signed-in portal on this site, normalised as a sign-in's return address is
 * (`safeRedirectPath`: outside URLs, `//host`, `/\host`, encoded dots and slashes, control characters
 * all refused), at most MAX_BACK_LENGTH characters, and never the panel itself or one of its sub-paths
 * (it would close onto itself); anything else is `fallback`.
 */
export function panelBack(
  value: string | null | undefined,
  { self, fallback = "/cards" }: { self: Page; fallback?: string },
): InternalPath {
  if (typeof value !== "string" || value.length > MAX_BACK_LENGTH) return fallback as InternalPath;
  const back = safeRedirectPath(value, fallback);
  const path = back.replace(/[?#].*$/s, "");
  if (path === self || path.startsWith(`${self}/`)) return fallback as InternalPath;
  // safeRedirectPath keeps only a normalised path of a signed-in page of routes.ts: an internal path.
  return back as InternalPath;
}

/** The `back` of this request's address, by `panelBack`'s rule. */
export function panelBackOf(request: Request, options: { self: Page; fallback?: string }): InternalPath {
  return panelBack(new URL(request.url).searchParams.get("back"), options);
}
