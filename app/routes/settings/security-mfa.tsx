import { Link } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/security-mfa";
import { PageHeader } from "~/components/PageHeader";
import { MfaConfirmation } from "~/components/SecondFactor";
import { accountContext } from "~/routes/+shared/auth.server";
import { getPlatform } from "~/.server/platform";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import { pendingFields } from "~/.server/services/profile";
import { mfaChannelOf, PENDING_CHANGE_FIRST } from "~/domain/mfa";
import { enableMfa, mfaStatus } from "~/.server/services/security";
import { internalPath, internalRedirect } from "~/routes/+shared/redirects.server";

/**
 * Spec 001 §2.4, §4 "MFA preference change": choose a channel, confirm, it becomes the preferred one.
 * Not while an e-mail or phone change waits for its code: the page says so and leads to that step.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const account = context.get(accountContext);
  const channel = mfaChannelOf(params.channel);
  const destination = channel ? mfaStatus(account).destinations[channel] : null;
  if (!channel || !destination) throw internalRedirect("/settings/security");
  const { db } = await getPlatform();
  const [pending = null] = await pendingFields(db, account.id);
  return { channel, destination, pending };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const channel = mfaChannelOf(params.channel);
  const { db } = await getPlatform();
  const result = channel ? await enableMfa(db, context.get(accountContext), channel) : { kind: "noDestination" as const };
  if (result.kind === "pendingChange") {
    return redirectWithFlash(request, internalPath("/settings/profile/confirm/:field", { field: result.field }), { kind: "error", message: PENDING_CHANGE_FIRST[result.field] });
  }
  if (result.kind !== "ok") return redirectWithFlash(request, "/settings/security", { kind: "error", message: "errors.mfaNoDestination" });
  return redirectWithFlash(request, "/settings/security", { kind: "success", message: "settings.security.mfaUpdated" });
}

export default function ConfirmMfaChannel({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { channel, destination, pending } = loaderData;
  return (
    <div className="narrow">
      <PageHeader title={t(channel === "EMAIL" ? "mfa.confirmTitleEmail" : "mfa.confirmTitleSms")} />
      {pending ? (
        <>
          <p className="alert alert--warning">{t(PENDING_CHANGE_FIRST[pending])}</p>
          <div className="actions">
            <Link to={`/settings/profile/confirm/${pending}`} className="button">
              {t(pending === "email" ? "settings.profile.confirmEmail" : "settings.profile.confirmPhone")}
            </Link>
            <Link to="/settings/security" className="button button--secondary">
              {t("mfa.back")}
            </Link>
          </div>
        </>
      ) : (
        <MfaConfirmation channel={channel} destination={destination} backHref="/settings/security" profileHref="/settings/profile" />
      )}
    </div>
  );
}
