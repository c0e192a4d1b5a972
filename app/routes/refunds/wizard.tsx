import { lazy, Suspense } from "react";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/wizard";
import { LoadFailure } from "~/components/LoadFailure";
import { Panel } from "~/components/Panel";
import type { WizardActionData } from "~/components/refunds/wizard";
import { wizardAction, wizardLoader } from "./wizard.server";

/**
 * A refund request, new or corrected (spec 001 §2.6): the wizard in a side panel over the list of
 * requests (a dialog with JS, a region of the page without). Its flow is wizard.server.ts.
 */
/*
 * The wizard's steps travel in a file of their own, with the forms' code (conform and the form components):
 * the list of requests and its other panels never load them (decision 0073). The server renders the step
 * whole (React Router answers once everything is ready), so the page is the same without JavaScript; with
 * it, the step hydrates once its file arrives, and a file gone after a deploy reloads the page (decision
 * 0066, Vite's preload error).
 */
const RefundWizard = lazy(() =>
  import("~/components/refunds/RefundWizard").then(({ RefundWizard }) => ({ default: RefundWizard })),
);

/** True when the page shows errors (its title then starts with "Erreur : "). */
function refundWizardInvalid(actionData: WizardActionData | undefined): boolean {
  return Boolean(actionData?.lastResult.error && Object.values(actionData.lastResult.error).some((e) => e?.length));
}

export const loader = (args: Route.LoaderArgs) => wizardLoader(args);

export const action = (args: Route.ActionArgs) => wizardAction(args);

export default function RefundWizardPanel({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const title = loaderData.editing ? t("refundWizard.titleEdit") : t("refundWizard.title");
  return (
    <Panel id="refund-wizard" title={title} closeTo={loaderData.closeTo} error={refundWizardInvalid(actionData)}>
      <Suspense>
        <RefundWizard wizard={loaderData} actionData={actionData} />
      </Suspense>
    </Panel>
  );
}

/** Spec 001 §8: the types or the wallets that could not be loaded are said where the panel was (decision 0023). */
export function ErrorBoundary() {
  const { t } = useTranslation();
  return <LoadFailure title={t("refundWizard.title")} />;
}
