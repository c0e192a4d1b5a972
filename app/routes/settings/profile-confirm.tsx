import { Link } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/profile-confirm";
import { codeStepFailed } from "~/components/CodeStep";
import { PageHeader } from "~/components/PageHeader";
import { PendingChangeStep } from "~/components/PendingChangeStep";
import {
  pendingChangeAction,
  pendingChangeLoader,
  SETTINGS_PENDING_CHANGE,
} from "~/routes/+shared/pending-change-step.server";

/** Confirm a new e-mail, phone or payout IBAN with its code, ask for another, or cancel (spec 001 §4, decision 0054). */
export const loader = (args: Route.LoaderArgs) => pendingChangeLoader(args, SETTINGS_PENDING_CHANGE);
export const action = (args: Route.ActionArgs) => pendingChangeAction(args, SETTINGS_PENDING_CHANGE);

const TITLES = {
  email: "settings.pendingChange.titleEmail",
  phone: "settings.pendingChange.titlePhone",
  iban: "settings.profile.payout.confirmTitle",
} as const;

export default function ConfirmPendingChange({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <div className="narrow">
      <PageHeader title={t(TITLES[loaderData.field])} error={codeStepFailed(actionData)} />
      <PendingChangeStep screen={loaderData} actionData={actionData} />
      <p>
        <Link to="/settings/profile" className="link-action">
          {t("settings.pendingChange.back")}
        </Link>
      </p>
    </div>
  );
}
