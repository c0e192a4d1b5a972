import { useTranslation } from "~/i18n";
import type { Route } from "./+types/pending-change";
import { codeStepFailed } from "~/components/CodeStep";
import { DocumentTitle } from "~/components/DocumentTitle";
import { PendingChangeStep } from "~/components/PendingChangeStep";
import {
  pendingChangeAction,
  pendingChangeLoader,
  SECURE_ACCOUNT_PENDING_CHANGE,
} from "~/routes/+shared/pending-change-step.server";

/** Step 1 of securing the account: confirm (or cancel) the change still waiting for its code. */
export const loader = (args: Route.LoaderArgs) => pendingChangeLoader(args, SECURE_ACCOUNT_PENDING_CHANGE);
export const action = (args: Route.ActionArgs) => pendingChangeAction(args, SECURE_ACCOUNT_PENDING_CHANGE);

export default function SecureAccountPendingChange({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const title = t(
    loaderData.field === "email" ? "settings.pendingChange.titleEmail" : "settings.pendingChange.titlePhone",
  );
  return (
    <section aria-labelledby="secure-account-step">
      <DocumentTitle page={title} error={codeStepFailed(actionData)} />
      <h2 id="secure-account-step">{title}</h2>
      <PendingChangeStep screen={loaderData} actionData={actionData} />
    </section>
  );
}
