import { Outlet, useLocation } from "react-router";
import { useTranslation } from "~/i18n";
import { LoadFailure } from "~/components/LoadFailure";
import { PageHeader } from "~/components/PageHeader";
import { PublicShell } from "~/components/PublicShell";
import { SignOutButton } from "~/components/SignOutButton";
import type { Route } from "./+types/layout";
import { accountContext, requireSignedIn } from "~/routes/+shared/auth.server";
import { getPlatform } from "~/.server/platform";
import { refusal } from "~/routes/+shared/request.server";
import { isOnboarded } from "~/.server/services/accounts";

/**
 * Onboarding's forms are for newcomers. Once onboarded, names are read-only (001 §6) and the phone
 * changes only with a code, so any post here is refused with nothing changed; pages still answer
 * (the profile and card steps send to the cards, the wait step shows that all is ready).
 */
const writesOnlyBeforeOnboarded: Route.MiddlewareFunction = async ({ request, context }, next) => {
  if (request.method !== "GET" && request.method !== "HEAD") {
    const { db } = await getPlatform();
    if (await isOnboarded(db, context.get(accountContext))) throw refusal(403, "onboarding.alreadyDone");
  }
  return next();
};

export const middleware = [requireSignedIn, writesOnlyBeforeOnboarded];

/**
 * Onboarding (spec 001 §2.3): a new employee completes the profile, then creates a first card, then
 * waits for it. Each step is a route of its own; this layout holds the title, the two-step bar and
 * the way out.
 */
export default function OnboardingLayout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const current = pathname === "/onboarding" || pathname === "/onboarding/" ? "profile" : "card";
  const steps = ["profile", "card"] as const;
  return (
    <PublicShell>
      <div className="narrow onboarding">
        <PageHeader title={t("onboarding.title")} namesDocument={false}>
          <SignOutButton />
        </PageHeader>
        <p>{t("onboarding.intro")}</p>
        <ol className="step-bar" aria-label={t("onboarding.stepsLabel")}>
          {steps.map((step, index) => {
            const state = step === current ? "current" : index < steps.indexOf(current) ? "done" : "todo";
            return (
              <li
                key={step}
                className={`step-bar__step step-bar__step--${state}`}
                aria-current={state === "current" ? "step" : undefined}
              >
                <span className="step-bar__number" aria-hidden="true">
                  {index + 1}
                </span>
                {t(`onboarding.steps.${step}`)}
                {state === "todo" ? null : (
                  <span className="visually-hidden">
                    {" "}
                    {t(state === "done" ? "onboarding.stepDone" : "onboarding.stepCurrent")}
                  </span>
                )}
              </li>
            );
          })}
        </ol>
        <Outlet />
      </div>
    </PublicShell>
  );
}

/**
 * A step that failed to load (spec 001 §8 "Onboarding card fetch failure: onboarding.failedCardFetch"):
 * the onboarding frame stays, the message says what failed, "Réessayer" asks for the same step again and
 * the way out is still there. Refusals keep their own words (LoadFailure).
 */
export function ErrorBoundary() {
  const { t } = useTranslation();
  return (
    <PublicShell>
      <div className="narrow onboarding">
        <LoadFailure title={t("onboarding.title")} />
        <SignOutButton />
      </div>
    </PublicShell>
  );
}
