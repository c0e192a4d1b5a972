import { redirect } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/_app.settings.security.mfa.$channel";
import { PageHeader } from "~/components/PageHeader";
import { MfaConfirmation } from "~/components/SecondFactor";
import { accountContext } from "~/.server/auth";
import { getPlatform } from "~/.server/platform";
import { redirectWithFlash } from "~/.server/request";
import { mfaChannelOf } from "~/domain/mfa";
import { enableMfa, mfaStatus } from "~/.server/services/security";

/** Spec 001 §2.4, §4 "MFA preference change": choose a channel, confirm, it becomes the preferred one. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const channel = mfaChannelOf(params.channel);
  const destination = channel ? mfaStatus(context.get(accountContext)).destinations[channel] : null;
  if (!channel || !destination) throw redirect("/settings/security");
  return { channel, destination };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const channel = mfaChannelOf(params.channel);
  const { db } = await getPlatform();
  if (!channel || (await enableMfa(db, context.get(accountContext), channel)) !== "ok") {
    return redirectWithFlash(request, "/settings/security", { kind: "error", message: "errors.mfaNoDestination" });
  }
  return redirectWithFlash(request, "/settings/security", { kind: "success", message: "settings.security.mfaUpdated" });
}

export default function ConfirmMfaChannel({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <div className="narrow">
      <PageHeader title={t(loaderData.channel === "EMAIL" ? "mfa.confirmTitleEmail" : "mfa.confirmTitleSms")} />
      <MfaConfirmation channel={loaderData.channel} destination={loaderData.destination} backHref="/settings/security" profileHref="/settings/profile" />
    </div>
  );
}
