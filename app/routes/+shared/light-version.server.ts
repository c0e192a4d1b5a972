import { createContext, type RouterContextProvider } from "react-router";
import { lightVersionOf, type LightVersion } from "~/domain/light-version";
import { safeRedirectPath } from "~/.server/session";
import { internalRedirectDocument, type InternalPath } from "~/routes/+shared/redirects.server";

/**
 * The signed-in person's choice of the light version (decision 0040), set by the signed-in layouts' middleware
 * from the account row they read anyway (`requireAccount`, `requireSignedIn`): no query of its own. Pages
 * outside those layouts (sign-in, public pages) read only the browser's `Save-Data` header.
 */
export const lightVersionChosenContext = createContext<boolean>(false);

/** Whether this request's page is served light, and why (the root loader gives it to the document). */
export function lightVersionFor(request: Request, context: Readonly<RouterContextProvider>): LightVersion {
  return lightVersionOf(request.headers.get("Save-Data"), context.get(lightVersionChosenContext));
}

/**
 * A signed-in page that must be light, asked for by an app already running in the browser (its `.data`, after
 * the sign-in's code, or a link of a page loaded before the choice): answered by loading the page as a whole new
 * document, so that no script keeps running on it. Only loads: a form the running app sends is still handled.
 */
export function documentWhenLight(request: Request, url: URL, context: Readonly<RouterContextProvider>): void {
  if (request.method !== "GET" || !new URL(request.url).pathname.endsWith(".data")) return;
  if (!lightVersionFor(request, context)) return;
  // The page asked for, itself: a signed-in page of this site (anything else, the cards).
  throw internalRedirectDocument(safeRedirectPath(url.pathname + url.search) as InternalPath);
}
