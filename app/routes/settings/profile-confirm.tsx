import { data, Link } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/profile-confirm";
import { PageHeader } from "~/components/PageHeader";
import { PendingChangeStep } from "~/components/PendingChangeStep";
import { pendingChangeAction, pendingChangeScreen } from "~/routes/+shared/pending-change-step.server";
import { isContactField } from "~/.server/services/profile";
import { internalRedirect } from "~/routes/+shared/redirects.server";

/** Confirm a new e-mail or phone with its code, ask for another, or cancel (spec 001 §4). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const screen = await pendingChangeScreen(context, params.field);
  if (!screen) throw internalRedirect("/settings/profile");
  return data(screen, { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  if (!isContactField(params.field)) throw internalRedirect("/settings/profile");
  return pendingChangeAction(request, context, params.field, "/settings/profile");
}

export default function ConfirmPendingChange({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const failed = Boolean(actionData && (actionData.lastResult?.error || actionData.throttled || actionData.unknownIntent));
  return (
    <div className="narrow">
      <PageHeader title={t(loaderData.field === "email" ? "settings.pendingChange.titleEmail" : "settings.pendingChange.titlePhone")} error={failed} />
      <PendingChangeStep screen={loaderData} actionData={actionData} />
      <p>
        <Link to="/settings/profile" className="link-action">
          {t("settings.pendingChange.back")}
        </Link>
      </p>
    </div>
  );
}
