import { FormAlert } from "~/components/forms/FormAlert";
import { href, Link } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/security-mfa";
import { PageHeader } from "~/components/PageHeader";
import { MfaConfirmation } from "~/components/SecondFactor";
import { accountContext } from "~/routes/+shared/auth.server";
import { getPlatform } from "~/.server/platform";
import { chooseSecondFactor } from "~/routes/+shared/second-factor.server";
import { pendingFields } from "~/.server/services/profile";
import { mfaChannelOf, PENDING_CHANGE_FIRST } from "~/domain/mfa";
import { mfaStatus } from "~/.server/services/security";
import { internalPath, internalRedirect } from "~/routes/+shared/redirects.server";
import { refuseSmsChoice } from "~/routes/+shared/sms-choice.server";
import { useForm } from "~/components/forms";

/**
 * Spec 001 §2.4, §4 "MFA preference change": choose a channel, confirm, it becomes the preferred one.
 * Not while an e-mail or phone change waits for its code: the page says so and leads to that step. SMS only where
 * text messages can be delivered, to a mobile (decision 0062): otherwise the confirmation is refused (400).
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const account = context.get(accountContext);
  const channel = mfaChannelOf(params.channel);
  const destination = channel ? mfaStatus(account).destinations[channel] : null;
  const { db, logger, smsAvailable } = await getPlatform();
  if (!channel || !destination || (channel === "SMS" && !smsAvailable)) throw internalRedirect("/settings/security");
  try {
    const [pending = null] = await pendingFields(db, account.id);
    return { channel, destination, pending, getFailed: false };
  } catch (error) {
    // Spec 001 §8: the page says the settings could not be loaded (refresh), not the error page.
    logger.error("mfa settings load failed", { error: error instanceof Error ? error.message : String(error) });
    return { channel, destination, pending: null, getFailed: true };
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const channel = mfaChannelOf(params.channel);
  const refused = await refuseSmsChoice(await request.formData(), channel, context.get(accountContext));
  if (refused) return refused;
  return chooseSecondFactor(request, context, channel, {
    from: "/settings/security",
    pendingChange: (field) => internalPath("/settings/profile/confirm/:field", { field }),
    done: async () => ({ to: "/settings/security", message: "settings.security.mfaUpdated" }),
  });
}

export default function ConfirmMfaChannel({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { channel, destination, pending, getFailed } = loaderData;
  const [form] = useForm({ id: "mfa-choice", lastResult: actionData });
  const refusal = form.errors?.[0];
  return (
    <div className="narrow">
      <PageHeader
        title={t(channel === "EMAIL" ? "mfa.confirmTitleEmail" : "mfa.confirmTitleSms")}
        error={Boolean(refusal)}
      />
      <FormAlert errors={form.errors} />
      {getFailed ? (
        <div className="alert alert--error" role="alert">
          <p>{t("mfa.getFailed")}</p>
          <p>
            <Link to="/settings/security">{t("mfa.back")}</Link>
          </p>
        </div>
      ) : pending ? (
        <>
          <p className="alert alert--warning">{t(PENDING_CHANGE_FIRST[pending])}</p>
          <div className="actions">
            <Link to={href("/settings/profile/confirm/:field", { field: pending })} className="button">
              {t(pending === "email" ? "settings.profile.confirmEmail" : "settings.profile.confirmPhone")}
            </Link>
            <Link to="/settings/security" className="button button--secondary">
              {t("mfa.back")}
            </Link>
          </div>
        </>
      ) : (
        <MfaConfirmation
          channel={channel}
          destination={destination}
          backHref="/settings/security"
          profileHref="/settings/profile"
        />
      )}
    </div>
  );
}
