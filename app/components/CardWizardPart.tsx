import { lazy } from "react";

/**
 * The card creation wizard (CardWizard.tsx) in a file of its own, with the forms' code (decision 0080): the
 * card page and the onboarding's other steps never load it. The two routes that show it (the card page's
 * panel, the onboarding's card step) always do, so its file is asked for as soon as their script runs (before
 * hydration, beside the catalogue's request) rather than when hydration reaches it; the server renders it whole
 * inside the route's Suspense, so the page is the same without JavaScript.
 */
const cardWizard = () => import("./CardWizard");
export const CardWizard = lazy(() => cardWizard().then(({ CardWizard }) => ({ default: CardWizard })));

/** Called by the routes' modules: in the browser, the wizard's file is asked for now. */
export function preloadCardWizard() {
  if (typeof document !== "undefined") cardWizard().catch(() => undefined);
}
