import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/security";
import { ErrorSummary, type SummaryError } from "~/components/ErrorSummary";
import { PageHeader } from "~/components/PageHeader";
import { MfaOptions } from "~/components/SecondFactor";
import { RequiredNote, TextField } from "~/components/TextField";
import { changePasswordSchema } from "~/domain/schemas";
import { accountContext } from "~/routes/+shared/auth.server";
import { getPlatform } from "~/.server/platform";
import { badRequest, getSession, redirectWithFlash } from "~/routes/+shared/request.server";
import { changePassword, mfaStatus } from "~/.server/services/security";

/**
 * Security settings (spec 001 §2.4): the second-factor card (e-mail recommended, SMS), then the
 * change-password card (current password, new one by the rules, typed twice).
 */
export async function loader({ context }: Route.LoaderArgs) {
  return { mfa: mfaStatus(context.get(accountContext)) };
}

type Field = "currentPassword" | "password" | "confirmation";
const IDS: Record<Field, string> = { currentPassword: "security-current-password", password: "security-new-password", confirmation: "security-confirmation" };

export async function action({ request, context }: Route.ActionArgs) {
  const account = context.get(accountContext);
  const submission = parseWithZod(await request.formData(), { schema: changePasswordSchema });
  // A new `attempt` empties the password fields, with or without JS: passwords are never sent back.
  if (submission.status !== "success") {
    const e = submission.error ?? {};
    return badRequest({ errors: { currentPassword: e.currentPassword?.[0], password: e.password?.[0], confirmation: e.confirmation?.[0] } as Partial<Record<Field, string>>, attempt: crypto.randomUUID() });
  }
  const { db } = await getPlatform();
  const session = await getSession(request);
  const result = await changePassword(db, account.id, submission.value.currentPassword, submission.value.password, session.id);
  if (result === "wrongCurrent") return badRequest({ errors: { currentPassword: "errors.currentPasswordWrong" } as Partial<Record<Field, string>>, attempt: crypto.randomUUID() });
  return redirectWithFlash(request, "/settings/security", { kind: "success", message: "settings.security.passwordUpdated" });
}

export default function SecuritySettings({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { mfa } = loaderData;
  const errors = actionData?.errors ?? {};
  const summary: SummaryError[] = (Object.entries(errors) as [Field, string | undefined][])
    .filter((entry): entry is [Field, string] => Boolean(entry[1]))
    .map(([field, message]) => ({ fieldId: IDS[field], message }));
  const attempt = actionData?.attempt ?? "";
  return (
    <div>
      <PageHeader title={t("settings.security.title")} error={summary.length > 0} />
      <ErrorSummary errors={summary} />
      <section className="settings-card" aria-labelledby="security-mfa">
        <h2 id="security-mfa">{t("settings.security.mfaTitle")}</h2>
        <p>{mfa.enabled ? t("settings.security.mfaOn", { channel: t(`mfa.channel.${mfa.preferred}`) }) : t("settings.security.mfaOff")}</p>
        <MfaOptions mfa={mfa} chooseHref={(channel) => `/settings/security/mfa/${channel}`} profileHref="/settings/profile" />
      </section>
      <section className="settings-card" aria-labelledby="security-password">
        <h2 id="security-password">{t("settings.security.passwordTitle")}</h2>
        <Form method="post" noValidate>
          <RequiredNote />
          <TextField required id={IDS.currentPassword} name="currentPassword" key={`current-${attempt}`} type="password" label={t("settings.security.currentPassword")} error={errors.currentPassword} autoComplete="current-password" />
          <TextField required id={IDS.password} name="password" key={`password-${attempt}`} type="password" label={t("settings.security.newPassword")} hint={t("auth.password.rules")} error={errors.password} autoComplete="new-password" />
          <TextField required id={IDS.confirmation} name="confirmation" key={`confirmation-${attempt}`} type="password" label={t("settings.security.confirmation")} error={errors.confirmation} autoComplete="new-password" />
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
