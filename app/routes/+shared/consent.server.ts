import { createContext, matchPath, type RouterContextProvider } from "react-router";
import type { DB } from "~/.server/db";
import type { Env } from "~/.server/env";
import { getConsent, saveConsent } from "~/.server/services/analytics";
import { safeRedirectPath } from "~/.server/session";
import { CONSENT_COOKIE, consentCookieValue, readConsentCookieValue, type ConsentChoice } from "~/domain/consent";
import type { InternalPath } from "./redirects.server";

/**
 * The consent banner's server side (decision 0059). The choice is kept twice: in the database for a
 * signed-in person (the proof, and what gates every analytics call: services/analytics.ts), and in a
 * cookie of this browser, so that the banner is asked once per browser, signed in or not. Before
 * signing in nothing is measured whatever the cookie says; the account takes the browser's choice
 * when it signs in without one of its own (`adoptBrowserConsent`).
 */

/** CNIL: a choice is kept six months, then asked again. */
const CONSENT_MAX_AGE_SECONDS = 183 * 24 * 60 * 60;

/** The choice this browser's consent cookie holds, or null when it made none. */
export function browserConsentOf(request: Request): ConsentChoice | null {
  const header = request.headers.get("Cookie") ?? "";
  const value = new RegExp(`(?:^|;\\s*)${CONSENT_COOKIE}=([^;]*)`).exec(header)?.[1];
  return readConsentCookieValue(value);
}

/** The `Set-Cookie` of a choice: not readable by scripts, secure in production like the session's. */
export function consentCookieHeader(choice: ConsentChoice, env: Pick<Env, "APP_MODE">): string {
  const secure = env.APP_MODE === "production" ? "; Secure" : "";
  return `${CONSENT_COOKIE}=${consentCookieValue(choice)}; Path=/; Max-Age=${CONSENT_MAX_AGE_SECONDS}; HttpOnly; SameSite=Lax${secure}`;
}

/**
 * Whether the account of a signed-in page has made its choice, from the account row the layouts' middleware read
 * (`requireAccount`, `requireSignedIn`); null on a page outside them.
 */
export const accountConsentContext = createContext<boolean | null>(null);

/**
 * Whether the banner asks: neither this browser nor, when signed in, the account has chosen. The account's
 * choice comes from `accountConsentContext` when the page's middleware read the account, else from its own query.
 */
export async function consentAsked(
  request: Request,
  db: DB,
  userId: string | null,
  context: Readonly<RouterContextProvider>,
): Promise<boolean> {
  if (browserConsentOf(request)) return false;
  if (!userId) return true;
  const decided = context.get(accountConsentContext) ?? (await getConsent(db, userId)).decidedAt !== null;
  return !decided;
}

/** At sign-in: the banner's choice made before, when the account has none of its own yet. */
export async function adoptBrowserConsent(db: DB, request: Request, userId: string): Promise<void> {
  const choice = browserConsentOf(request);
  if (!choice || (await getConsent(db, userId)).decidedAt !== null) return;
  await saveConsent(db, userId, choice);
}

/** The public pages the banner can be answered on (the signed-in ones are `safeRedirectPath`'s). */
const PUBLIC_PAGES = [
  "/login",
  "/login/code",
  "/lost-password",
  "/activate/:token?",
  "/reset-password/:token?",
  "/user-confirmation",
  "/force-change-password",
  "/onboarding/:token",
  "/terms",
  "/privacy",
  "/accessibilite",
  "/plan-du-site",
] as const;

const MAX_RETURN_LENGTH = 2000;

/**
 * Where the banner's choice leads back to: the page it was answered on when it is one of the portal's
 * (normalised as a sign-in's return address is: no other site, `//host`, backslash or control
 * character); anything else is the home page.
 */
export function bannerReturnPath(value: FormDataEntryValue | null): InternalPath {
  if (typeof value !== "string" || value.length > MAX_RETURN_LENGTH) return "/" as InternalPath;
  const signedIn = safeRedirectPath(value, "");
  if (signedIn) return signedIn as InternalPath;
  // eslint-disable-next-line no-control-regex -- control characters let browsers read a path as another host.
  if (!value.startsWith("/") || value.startsWith("//") || /[\u0000-\u001f\u007f\\]/.test(value))
    return "/" as InternalPath;
  const url = new URL(value, "http://portal.invalid");
  const known = url.origin === "http://portal.invalid" && PUBLIC_PAGES.some((page) => matchPath(page, url.pathname));
  // A public page of routes.ts, normalised by URL: an internal path.
  return (known ? url.pathname + url.search : "/") as InternalPath;
}
