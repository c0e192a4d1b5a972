import { data } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/pending-change";
import { codeStepFailed } from "~/components/CodeStep";
import { DocumentTitle } from "~/components/DocumentTitle";
import { PendingChangeStep } from "~/components/PendingChangeStep";
import { pendingChangeAction, pendingChangeScreen, SECURE_ACCOUNT_PENDING_CHANGE } from "~/routes/+shared/pending-change-step.server";
import { internalRedirect } from "~/routes/+shared/redirects.server";

/** Step 1 of securing the account: confirm (or cancel) the change still waiting for its code. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const screen = await pendingChangeScreen(request, context, params.field, SECURE_ACCOUNT_PENDING_CHANGE);
  if (!screen) throw internalRedirect("/secure-account");
  return data(screen, { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return pendingChangeAction(request, context, params.field, SECURE_ACCOUNT_PENDING_CHANGE);
}

export default function SecureAccountPendingChange({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const title = t(loaderData.field === "email" ? "settings.pendingChange.titleEmail" : "settings.pendingChange.titlePhone");
  return (
    <section aria-labelledby="secure-account-step">
      <DocumentTitle page={title} error={codeStepFailed(actionData)} />
      <h2 id="secure-account-step">{title}</h2>
      <PendingChangeStep screen={loaderData} actionData={actionData} />
    </section>
  );
}
