import { Suspense } from "react";
import type { ShouldRevalidateFunctionArgs } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/wizard";
import { LoadFailure } from "~/components/LoadFailure";
import { Panel } from "~/components/Panel";
import { AllowanceWizard, allowanceWizardInvalid, allowanceWizardTitle } from "~/components/allowances/AllowanceWizard";
import type { AllowanceReply } from "~/components/allowances/wizard";
import { allowanceWizardAction, allowanceWizardLoader } from "./wizard.server";

/**
 * A mobility allowance, new or already asked for (spec 001 §2.7): the wizards in a side panel over the
 * list of allowances (a dialog with JS, a region of the page without). The frame is
 * wizard.server.ts; the flows distance.server.ts and subscription.server.ts.
 */
export const loader = (args: Route.LoaderArgs) => allowanceWizardLoader(args);

export const action = (args: Route.ActionArgs) => allowanceWizardAction(args);

/**
 * A refused tickets post may still have kept a document (WCAG 3.3.7: the valid file of the two): the step
 * is read again so that it lists it, as the page without JavaScript does. Other refusals change nothing.
 */
export function shouldRevalidate({ actionResult, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  const refused = actionResult as AllowanceReply | undefined;
  return (refused?.flow === "subscription" && refused.step === "tickets") || defaultShouldRevalidate;
}

export default function AllowanceWizardPanel({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const title = allowanceWizardTitle(loaderData, t);
  return (
    <Panel id="allowance-wizard" title={title} closeTo={loaderData.closeTo} error={allowanceWizardInvalid(actionData)}>
      {/* A flow's steps and the read-only panel come in their own file (decision 0080). */}
      <Suspense>
        <AllowanceWizard view={loaderData} actionData={actionData} />
      </Suspense>
    </Panel>
  );
}

/** Spec 001 §8: what could not be loaded is said where the panel was (decision 0023). */
export function ErrorBoundary() {
  const { t } = useTranslation();
  return <LoadFailure title={t("allowanceWizard.titles.new")} />;
}
