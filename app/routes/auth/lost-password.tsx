import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/lost-password";
import { ErrorSummary } from "~/components/ErrorSummary";
import { PageHeader } from "~/components/PageHeader";
import { PublicShell } from "~/components/PublicShell";
import { TextField } from "~/components/TextField";
import { lostPasswordSchema } from "~/domain/schemas";
import { currentUserId } from "~/routes/+shared/auth.server";
import { getInstance } from "~/middleware/i18next";
import { getPlatform, publicUrl } from "~/.server/platform";
import { badRequest } from "~/routes/+shared/request.server";
import { requestPasswordReset } from "~/.server/services/password-reset";
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
  const form = await request.formData();
  const submission = parseWithZod(form, { schema: lostPasswordSchema });
  if (submission.status !== "success") return badRequest({ error: submission.error?.email?.[0] ?? "errors.emailInvalid", email: String(form.get("email") ?? "") });
  const { db, messenger, env, logger } = await getPlatform();
  const t = getInstance(context).t;
  // Not awaited: a known address (token, e-mail) must not answer slower than an unknown one.
  void requestPasswordReset(db, messenger, submission.value.email, publicUrl(env), {
    subject: t("auth.lostPassword.mailSubject"),
    text: (link) => t("auth.lostPassword.mailText", { link }),
  }).catch((err: unknown) => logger.error("password reset e-mail failed", { error: err instanceof Error ? err.message : String(err) }));
  return { sent: true as const };
}

export default function LostPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const error = actionData && "error" in actionData ? actionData.error : undefined;
  const sent = actionData && "sent" in actionData;
  return (
    <PublicShell>
      <div className="narrow">
        <PageHeader title={t("auth.lostPassword.title")} error={Boolean(error)} />
        {sent ? (
          <div className="alert alert--success" role="status">
            <p>{t("auth.lostPassword.sent")}</p>
          </div>
        ) : (
          <>
            <ErrorSummary errors={error ? [{ fieldId: "lost-email", message: error }] : []} />
            <p>{t("auth.lostPassword.intro")}</p>
            <Form method="post" noValidate>
              <TextField required
                id="lost-email"
                name="email"
                label={t("auth.login.email")}
                error={error}
                defaultValue={actionData && "email" in actionData ? actionData.email : loaderData.email}
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
        <p>
          <Link to="/login" className="link-action">
            {t("auth.lostPassword.back")}
          </Link>
        </p>
      </div>
    </PublicShell>
  );
}
