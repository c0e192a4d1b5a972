import { data } from "react-router";
import type { Route } from "./+types/index";
import { planFeaturesOf, planTabs } from "~/domain/plans";
import { accountContext } from "~/routes/+shared/auth.server";
import { internalRedirect, type InternalTarget } from "~/routes/+shared/redirects.server";

/** Spec 001 §2.1: `/plans` opens the first tab the account has; none (no feature, nothing built): 404. */
export function loader({ context }: Route.LoaderArgs) {
  const [first] = planTabs(planFeaturesOf(context.get(accountContext)));
  if (!first) throw data(null, { status: 404 });
  // A built tab's path is a page of routes.ts (a constant of ~/domain/plans, never user input).
  return internalRedirect(first.path as InternalTarget);
}

/**
 * Never shown (the loader redirects or throws), but it makes this a page rather than a resource route,
 * so that the 404 is the portal's "Page introuvable" inside the shell, not a bare answer.
 */
export default function PlansIndex() {
  return null;
}
