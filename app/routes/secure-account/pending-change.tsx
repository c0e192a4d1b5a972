import { data } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/pending-change";
import { DocumentTitle } from "~/components/DocumentTitle";
import { PendingChangeStep } from "~/components/PendingChangeStep";
import { pendingChangeAction, pendingChangeScreen } from "~/routes/+shared/pending-change-step.server";
import { isContactField } from "~/.server/services/profile";
import { internalRedirect } from "~/routes/+shared/redirects.server";

/** Step 1 of securing the account: confirm (or cancel) the change still waiting for its code. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const screen = await pendingChangeScreen(context, params.field);
  if (!screen) throw internalRedirect("/secure-account");
  return data(screen, { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  if (!isContactField(params.field)) throw internalRedirect("/secure-account");
  // Straight to the next step: a message survives one redirect only.
  return pendingChangeAction(request, context, params.field, "/secure-account/second-factor");
}

export default function SecureAccountPendingChange({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const title = t(loaderData.field === "email" ? "settings.pendingChange.titleEmail" : "settings.pendingChange.titlePhone");
  const failed = Boolean(actionData && (actionData.lastResult?.error || actionData.throttled || actionData.unknownIntent));
  return (
    <section aria-labelledby="secure-account-step">
      <DocumentTitle page={title} error={failed} />
      <h2 id="secure-account-step">{title}</h2>
      <PendingChangeStep screen={loaderData} actionData={actionData} />
    </section>
  );
}
