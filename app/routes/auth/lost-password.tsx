import { getFormProps } from "~/components/forms/useForm";
import { Form } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/lost-password";
import { ErrorSummary, Field, useForm } from "~/components/forms";
import { BackToLogin, PublicPage } from "~/components/PublicShell";
import { lostPasswordSchema, type LostPasswordForm } from "~/domain/schemas";
import { currentUserId } from "~/routes/+shared/auth.server";
import { getInstance } from "~/i18n/i18next.server";
import { getPlatform, publicUrl } from "~/.server/platform";
import { parseForm, refuse, resetForm } from "~/routes/+shared/forms.server";
import { requestPasswordReset } from "~/.server/services/password-reset";
import { mailDelayed } from "~/.server/services/mail-status";
import { internalRedirect } from "~/routes/+shared/redirects.server";

/**
 * Lost password (spec 001 §2.1): always the same answer, in the same time, whether the address has an
 * account or not: the link is made and sent after the answer.
 */
export async function loader({ request }: Route.LoaderArgs) {
  if (await currentUserId(request)) throw internalRedirect("/cards");
  return { email: new URL(request.url).searchParams.get("email") ?? "" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseForm(await request.formData(), lostPasswordSchema);
  if (submission.status !== "success") return refuse(submission);
  const { db, messenger, env, logger } = await getPlatform();
  const t = getInstance(context).t;
  // Not awaited: a known address (token, e-mail) must not answer slower than an unknown one.
  void requestPasswordReset(db, messenger, submission.value.email, publicUrl(env), {
    subject: t("auth.lostPassword.mailSubject"),
    text: (link) => t("auth.lostPassword.mailText", { link }),
  }).catch((err: unknown) =>
    logger.error("password reset e-mail failed", { error: err instanceof Error ? err.message : String(err) }),
  );
  // Whether e-mails are failing to leave now, whoever they are for (decision 0042): says nothing of this address.
  return { ...resetForm(submission), mailDelayed: await mailDelayed(db) };
}

export default function LostPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [form, fields] = useForm<LostPasswordForm>({
    id: "lost",
    lastResult: actionData,
    defaultValue: { email: loaderData.email },
  });
  // The same answer for every address: the form is done and not shown again.
  const sent = actionData?.initialValue === null;
  const delayed = sent && actionData && "mailDelayed" in actionData && actionData.mailDelayed;
  return (
    <PublicPage title={t("auth.lostPassword.title")} error={!form.valid}>
      {sent ? (
        <div className={`alert alert--${delayed ? "info" : "success"}`} role="status">
          <p>{t(delayed ? "auth.lostPassword.delayed" : "auth.lostPassword.sent")}</p>
        </div>
      ) : (
        <>
          <ErrorSummary form={form} fields={[fields.email]} />
          <p>{t("auth.lostPassword.intro")}</p>
          <Form method="post" {...getFormProps(form)} noValidate>
            <Field
              required
              field={fields.email}
              label={t("auth.login.email")}
              type="email"
              autoComplete="username"
              spellCheck={false}
              autoCapitalize="none"
            />
            <button type="submit" className="button">
              {t("auth.lostPassword.submit")}
            </button>
          </Form>
        </>
      )}
      <BackToLogin />
    </PublicPage>
  );
}
