import { useTranslation } from "~/i18n";
import type { Route } from "./+types/wizard";
import { LoadFailure } from "~/components/LoadFailure";
import { Panel } from "~/components/Panel";
import { RefundWizard, refundWizardInvalid } from "~/components/refunds/RefundWizard";
import { wizardAction, wizardLoader } from "./wizard.server";

/**
 * A refund request, new or corrected (spec 001 §2.6): the wizard in a side panel over the list of
 * requests (a dialog with JS, a region of the page without). Its flow is wizard.server.ts.
 */
export const loader = (args: Route.LoaderArgs) => wizardLoader(args);

export const action = (args: Route.ActionArgs) => wizardAction(args);

export default function RefundWizardPanel({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const title = loaderData.editing ? t("refundWizard.titleEdit") : t("refundWizard.title");
  return (
    <Panel id="refund-wizard" title={title} closeTo={loaderData.closeTo} error={refundWizardInvalid(actionData)}>
      <RefundWizard wizard={loaderData} actionData={actionData} />
    </Panel>
  );
}

/** Spec 001 §8: the types or the wallets that could not be loaded are said where the panel was (decision 0023). */
export function ErrorBoundary() {
  const { t } = useTranslation();
  return <LoadFailure title={t("refundWizard.title")} />;
}
