import { data, type MiddlewareFunction } from "react-router";
import { planFeaturesOf, type PlanFeatures } from "~/domain/plans";
import { accountContext } from "./auth.server";

/**
 * A plan feature's gate (spec 001 §2.5, §6), written once: the middleware of the feature's list route,
 * the parent of its panels (wizard, cancel confirmation), so every page and form of the feature answers
 * 404 to an account without it. It runs after the shell's `requireAccount`, which set the account.
 */
export function requirePlanFeature(feature: keyof NonNullable<PlanFeatures>): MiddlewareFunction<Response> {
  return async ({ context }, next) => {
    if (!planFeaturesOf(context.get(accountContext))[feature]) throw data(null, { status: 404 });
    return next();
  };
}
