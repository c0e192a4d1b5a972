import { Form, Link } from "react-router";
import { MFA_CHANNELS, type MfaChannel, type MfaStatus } from "~/domain/mfa";
import { useTranslation } from "~/i18n";
import { BreakableAddress } from "./BreakableAddress";

/**
 * The two ways to receive codes (spec 001 §2.4 security card): e-mail (recommended) and SMS, each
 * with where codes would go or "non renseigné", and a link to its confirmation step. SMS only where
 * text messages can be delivered (`smsAvailable`, decision 0062).
 */
export function MfaOptions({
  mfa,
  smsAvailable,
  chooseHref,
  profileHref,
}: {
  mfa: MfaStatus;
  smsAvailable: boolean;
  chooseHref: (channel: MfaChannel) => string;
  profileHref: string | null;
}) {
  const { t } = useTranslation();
  const channels = smsAvailable ? MFA_CHANNELS : MFA_CHANNELS.filter((channel) => channel !== "SMS");
  return (
    <ul className="choice-list">
      {channels.map((channel) => {
        const destination = mfa.destinations[channel];
        const current = mfa.enabled && mfa.preferred === channel;
        return (
          <li key={channel} className="choice-list__item">
            <p className="choice-list__name">
              {t(`mfa.channel.${channel}`)}
              {channel === "EMAIL" ? <span className="badge">{t("mfa.recommended")}</span> : null}
            </p>
            <p className="hint">{destination ? <BreakableAddress text={destination} /> : t("mfa.notSet")}</p>
            {current ? (
              <p className="badge">{t("mfa.current")}</p>
            ) : destination ? (
              <Link to={chooseHref(channel)} className="button button--secondary">
                {t("mfa.enable")}
                <span className="visually-hidden"> {t(`mfa.channel.${channel}`)}</span>
              </Link>
            ) : profileHref ? (
              <Link to={profileHref}>{t("mfa.addPhone")}</Link>
            ) : (
              <p className="hint">{t("mfa.noPhone")}</p>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** The confirmation step: where codes will go, how to change it, confirm or go back. */
export function MfaConfirmation({
  channel,
  destination,
  backHref,
  profileHref,
}: {
  channel: MfaChannel;
  destination: string;
  backHref: string;
  profileHref: string | null;
}) {
  const { t } = useTranslation();
  return (
    <>
      <p>{t(channel === "EMAIL" ? "mfa.confirmEmail" : "mfa.confirmSms", { destination })}</p>
      {profileHref ? (
        <p>
          {t("mfa.changeDestination")} <Link to={profileHref}>{t("mfa.profileLink")}</Link>
        </p>
      ) : null}
      <Form method="post" className="actions">
        <input type="hidden" name="channel" value={channel} />
        <button type="submit" className="button">
          {t("mfa.confirm")}
        </button>
        <Link to={backHref} className="button button--secondary">
          {t("mfa.back")}
        </Link>
      </Form>
    </>
  );
}
