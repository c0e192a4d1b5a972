// The plans pages (spec 001 §2.5) are not built yet: this leads to the 404 page until they are, and
// will go through internalRedirect once "/plans/integrations" is a page of routes.ts.
// eslint-disable-next-line no-restricted-imports
import { redirect } from "react-router";

export const loader = () => redirect("/plans/integrations");
