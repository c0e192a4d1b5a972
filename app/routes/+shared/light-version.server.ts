import { createContext, type RouterContextProvider } from "react-router";
import { lightVersionOf, type LightVersion } from "~/domain/light-version";

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
