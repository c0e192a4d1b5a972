import { getFormProps, useForm } from "@conform-to/react";
import { Form, href } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/security";
import { ErrorSummary, Field, NewSecretPair, RequiredNote } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { MfaOptions } from "~/components/SecondFactor";
import { changePasswordSchema, type ChangePasswordForm } from "~/domain/schemas";
import { parseForm, refuse } from "~/routes/+shared/forms.server";
import { accountContext } from "~/routes/+shared/auth.server";
import { getPlatform } from "~/.server/platform";
import { getSession, redirectWithFlash } from "~/routes/+shared/request.server";
import { changePassword, mfaStatus } from "~/.server/services/security";

/**
 * Security settings (spec 001 §2.4): the second-factor card (e-mail recommended, SMS), then the
 * change-password card (current password, new one by the rules, typed twice).
 */
export async function loader({ context }: Route.LoaderArgs) {
  return { mfa: mfaStatus(context.get(accountContext)) };
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
  const { mfa } = loaderData;
  const [form, fields] = useForm<ChangePasswordForm>({ id: "change-password", lastResult: actionData });
  return (
    <div>
      <PageHeader title={t("settings.security.title")} error={!form.valid} />
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
          chooseHref={(channel) => href("/settings/security/mfa/:channel", { channel })}
          profileHref="/settings/profile"
        />
      </section>
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
