import { getFormProps } from "~/components/forms/useForm";
import { Form, href, Link, Outlet, useOutlet } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/security";
import { ErrorSummary, Field, NewSecretPair, RequiredNote, useForm } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { MfaOptions } from "~/components/SecondFactor";
import { useHydrated } from "~/components/useHydrated";
import { LightVersionNote, NoScript } from "~/components/LightVersion";
import { formatDate } from "~/domain/dates";
import { changePasswordSchema, type ChangePasswordForm } from "~/domain/schemas";
import { parseForm, refuse } from "~/routes/+shared/forms.server";
import { accountContext } from "~/routes/+shared/auth.server";
import { getPlatform } from "~/.server/platform";
import { getSession, redirectWithFlash } from "~/routes/+shared/request.server";
import { changePassword, mfaStatus } from "~/.server/services/security";
import { listPasskeys, type PasskeySummary } from "~/.server/services/passkeys";

/**
 * Security settings (spec 001 §2.4): the second-factor card (e-mail recommended, SMS), the person's passkeys
 * (issue 32 item 1: listed, added, renamed, removed; the panels are the child routes), then the change-password
 * card (current password, new one by the rules, typed twice).
 */
export async function loader({ context }: Route.LoaderArgs) {
  const account = context.get(accountContext);
  const { db, smsAvailable } = await getPlatform();
  return { mfa: mfaStatus(account), smsAvailable, passkeys: await listPasskeys(db, account.id) };
}

/** Passwords never come back in the reply, and the page forgets them after each answer. */
const SECRETS = ["currentPassword", "password", "confirmation"];

export async function action({ request, context }: Route.ActionArgs) {
  const account = context.get(accountContext);
  const submission = parseForm(await request.formData(), changePasswordSchema);
  if (submission.status !== "success") return refuse(submission, { hideFields: SECRETS });
  const { db } = await getPlatform();
  const session = await getSession(request);
  const result = await changePassword(
    db,
    account.id,
    submission.value.currentPassword,
    submission.value.password,
    session.id,
  );
  if (result.kind === "wrongCurrent")
    return refuse(submission, {
      fieldErrors: { currentPassword: ["errors.currentPasswordWrong"] },
      hideFields: SECRETS,
    });
  return redirectWithFlash(request, "/settings/security", {
    kind: "success",
    message: "settings.security.passwordUpdated",
  });
}

export default function SecuritySettings({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { mfa, smsAvailable, passkeys } = loaderData;
  const panel = useOutlet();
  const [form, fields] = useForm<ChangePasswordForm>({ id: "change-password", lastResult: actionData });
  return (
    <div>
      <PageHeader title={t("settings.security.title")} error={!form.valid} namesDocument={!panel} />
      <Outlet />
      <ErrorSummary form={form} fields={[fields.currentPassword, fields.password, fields.confirmation]} />
      <section className="settings-card" aria-labelledby="security-mfa">
        <h2 id="security-mfa">{t("settings.security.mfaTitle")}</h2>
        <p>
          {mfa.enabled
            ? t("settings.security.mfaOn", { channel: t(`mfa.channel.${mfa.preferred}`) })
            : t("settings.security.mfaOff")}
        </p>
        <MfaOptions
          mfa={mfa}
          smsAvailable={smsAvailable}
          chooseHref={(channel) => href("/settings/security/mfa/:channel", { channel })}
          profileHref="/settings/profile"
        />
      </section>
      <PasskeysCard passkeys={passkeys} />
      <section className="settings-card" aria-labelledby="security-password">
        <h2 id="security-password">{t("settings.security.passwordTitle")}</h2>
        <Form method="post" {...getFormProps(form)} noValidate>
          <RequiredNote />
          <Field
            required
            field={fields.currentPassword}
            type="password"
            label={t("settings.security.currentPassword")}
            autoComplete="current-password"
          />
          <NewSecretPair
            kind="password"
            secret={fields.password}
            confirmation={fields.confirmation}
            label={t("settings.security.newPassword")}
            confirmationLabel={t("settings.security.confirmation")}
          />
          <div className="actions">
            <button type="submit" className="button">
              {t("settings.security.changePassword")}
            </button>
          </div>
        </Form>
      </section>
    </div>
  );
}

/**
 * The person's passkeys (issue 32 item 1), newest first, each with its dates and its panel's links; with none,
 * what a passkey is. Adding one needs the browser's WebAuthn: the link shows once the page runs its script in a
 * browser that has it; where no script runs (JavaScript off, the light version), a short hint says why it is not
 * there. The list, renaming and removing work without JavaScript.
 */
function PasskeysCard({ passkeys }: { passkeys: PasskeySummary[] }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const canAdd = hydrated && typeof window.PublicKeyCredential !== "undefined";
  return (
    <section className="settings-card passkeys-card" aria-labelledby="security-passkeys">
      <h2 id="security-passkeys">{t("passkeys.settings.title")}</h2>
      {passkeys.length === 0 ? (
        <p>{t("passkeys.settings.empty")}</p>
      ) : (
        <>
          <ul className="choice-list passkey-list">
            {passkeys.map((passkey) => (
              <PasskeyItem key={passkey.id} passkey={passkey} />
            ))}
          </ul>
          {passkeys.some((passkey) => passkey.backedUp) ? (
            <p className="hint">{t("passkeys.settings.syncedHint")}</p>
          ) : null}
        </>
      )}
      {canAdd ? (
        <p>
          <Link to={href("/settings/security/passkeys/new")} className="button button--secondary" preventScrollReset>
            {t("passkeys.settings.add")}
          </Link>
        </p>
      ) : hydrated ? (
        <p className="hint">{t("passkeys.settings.unsupported")}</p>
      ) : (
        // Said only where no script will run (JavaScript off, the light version), not while a page hydrates.
        <NoScript>
          <p className="hint">{t("passkeys.settings.needsJs")}</p>
          <LightVersionNote className="hint" />
        </NoScript>
      )}
    </section>
  );
}

function PasskeyItem({ passkey }: { passkey: PasskeySummary }) {
  const { t } = useTranslation();
  const panel = href("/settings/security/passkeys/:passkeyId", { passkeyId: passkey.id });
  // The repeated links carry their passkey in their accessible name (ACCESSIBILITY.md "Components").
  const whose = <span className="visually-hidden"> {t("passkeys.settings.whose", { name: passkey.name })}</span>;
  return (
    <li className="choice-list__item passkey-item">
      <h3 className="choice-list__name passkey-item__name">{passkey.name}</h3>
      <p className="passkey-item__facts">
        <span>{t("passkeys.settings.added", { date: formatDate(passkey.createdAt) })}</span>{" "}
        <span>
          {passkey.lastUsedAt
            ? t("passkeys.settings.lastUsed", { date: formatDate(passkey.lastUsedAt) })
            : t("passkeys.settings.neverUsed")}
        </span>
      </p>
      {passkey.backedUp ? <p className="badge">{t("passkeys.settings.synced")}</p> : null}
      <p className="actions passkey-item__actions">
        <Link to={panel} className="link-action" preventScrollReset>
          {t("passkeys.settings.rename")}
          {whose}
        </Link>
        <Link to={`${panel}?step=remove`} className="link-action" preventScrollReset>
          {t("passkeys.settings.remove")}
          {whose}
        </Link>
      </p>
    </li>
  );
}
