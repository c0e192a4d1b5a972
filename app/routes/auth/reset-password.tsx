import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/reset-password";
import { ErrorSummary, type SummaryError } from "~/components/ErrorSummary";
import { PageHeader } from "~/components/PageHeader";
import { PublicShell } from "~/components/PublicShell";
import { RequiredNote, TextField } from "~/components/TextField";
import { newPasswordSchema } from "~/domain/schemas";
import { getPlatform } from "~/.server/platform";
import { internalPath } from "~/routes/+shared/redirects.server";
import { badRequest, redirectWithFlash } from "~/routes/+shared/request.server";
import { resetLinkIsLive, resetPassword } from "~/.server/services/password-reset";

/**
 * Reset password (spec 001 §2.1): `/reset-password/:token?email=`. A spent, expired or altered link
 * says so (and offers a new one) instead of showing the form.
 */
function linkOf(request: Request, params: Route.LoaderArgs["params"]) {
  return { token: (params.token ?? "").slice(0, 100), email: (new URL(request.url).searchParams.get("email") ?? "").slice(0, 254) };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const { token, email } = linkOf(request, params);
  const { db } = await getPlatform();
  const live = Boolean(token && email) && (await resetLinkIsLive(db, token, email));
  return data({ live, email }, { status: live ? 200 : 410, headers: { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } });
}

export async function action({ request, params }: Route.ActionArgs) {
  const { token, email } = linkOf(request, params);
  const submission = parseWithZod(await request.formData(), { schema: newPasswordSchema });
  if (submission.status !== "success") {
    const e = submission.error ?? {};
    return badRequest({ errors: { password: e.password?.[0], confirmation: e.confirmation?.[0] }, attempt: crypto.randomUUID() });
  }
  const { db } = await getPlatform();
  const result = await resetPassword(db, token, email, submission.value.password);
  if (result !== "ok") return badRequest({ errors: { form: "auth.resetPassword.expired" }, attempt: crypto.randomUUID() });
  return redirectWithFlash(request, internalPath("/login", {}, { search: { email } }), { kind: "success", message: "auth.resetPassword.done" });
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const errors: { password?: string; confirmation?: string; form?: string } = actionData?.errors ?? {};
  const summary: SummaryError[] = [
    ...(errors.password ? [{ fieldId: "new-password", message: errors.password }] : []),
    ...(errors.confirmation ? [{ fieldId: "new-password-confirmation", message: errors.confirmation }] : []),
  ];
  const spent = !loaderData.live || Boolean(errors.form);
  const attempt = actionData?.attempt ?? "";
  return (
    <PublicShell>
      <div className="narrow">
        <PageHeader title={t("auth.resetPassword.title")} error={summary.length > 0 || Boolean(errors.form)} />
        {spent ? (
          <div className="alert alert--error" role="alert">
            <p>{t("auth.resetPassword.expired")}</p>
            <p>
              <Link to={`/lost-password${loaderData.email ? `?email=${encodeURIComponent(loaderData.email)}` : ""}`}>{t("auth.resetPassword.newLink")}</Link>
            </p>
          </div>
        ) : (
          <>
            <ErrorSummary errors={summary} />
            <p>{t("auth.resetPassword.intro", { email: loaderData.email })}</p>
            <Form method="post" noValidate>
              <RequiredNote />
              <TextField required
                id="new-password"
                name="password"
                key={`password-${attempt}`}
                label={t("auth.resetPassword.password")}
                hint={t("auth.password.rules")}
                error={errors.password}
                type="password"
                autoComplete="new-password"
              />
              <TextField required
                id="new-password-confirmation"
                name="confirmation"
                key={`confirmation-${attempt}`}
                label={t("auth.resetPassword.confirmation")}
                error={errors.confirmation}
                type="password"
                autoComplete="new-password"
              />
              <button type="submit" className="button">
                {t("auth.resetPassword.submit")}
              </button>
            </Form>
          </>
        )}
      </div>
    </PublicShell>
  );
}
