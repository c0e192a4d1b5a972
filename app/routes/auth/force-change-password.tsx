import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/force-change-password";
import { ErrorSummary, type SummaryError } from "~/components/ErrorSummary";
import { PageHeader } from "~/components/PageHeader";
import { PublicShell } from "~/components/PublicShell";
import { RequiredNote, TextField } from "~/components/TextField";
import { newPasswordSchema } from "~/domain/schemas";
import { signIn, waitingSignIn } from "~/routes/+shared/auth.server";
import { getPlatform } from "~/.server/platform";
import { badRequest, getSession } from "~/routes/+shared/request.server";
import { replaceTemporaryPassword } from "~/.server/services/security";
import { internalRedirect } from "~/routes/+shared/redirects.server";

/**
 * Spec 001 §2.1 `/force-change-password`: an account given a temporary password chooses its own right
 * after the password (and code) step; only then is it signed in. Nothing here without that step.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await waitingSignIn(await getSession(request), "pendingPasswordChange");
  return data(null, { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request }: Route.ActionArgs) {
  const pending = await waitingSignIn(await getSession(request), "pendingPasswordChange");
  const submission = parseWithZod(await request.formData(), { schema: newPasswordSchema });
  if (submission.status !== "success") {
    const e = submission.error ?? {};
    return badRequest({ errors: { password: e.password?.[0], confirmation: e.confirmation?.[0] }, attempt: crypto.randomUUID() });
  }
  const { db } = await getPlatform();
  if ((await replaceTemporaryPassword(db, pending.userId, submission.value.password)) !== "ok") throw internalRedirect("/login");
  return signIn(request, pending.userId, pending.redirectTo, { kind: "success", message: "auth.forceChange.done" });
}

export default function ForceChangePassword({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const errors: { password?: string; confirmation?: string } = actionData?.errors ?? {};
  const summary: SummaryError[] = [
    ...(errors.password ? [{ fieldId: "forced-password", message: errors.password }] : []),
    ...(errors.confirmation ? [{ fieldId: "forced-password-confirmation", message: errors.confirmation }] : []),
  ];
  const attempt = actionData?.attempt ?? "";
  return (
    <PublicShell>
      <div className="narrow">
        <PageHeader title={t("auth.forceChange.title")} error={summary.length > 0} />
        <ErrorSummary errors={summary} />
        <p>{t("auth.forceChange.intro")}</p>
        <Form method="post" noValidate>
          <RequiredNote />
          <TextField required id="forced-password" name="password" key={`password-${attempt}`} label={t("auth.resetPassword.password")} hint={t("auth.password.rules")} error={errors.password} type="password" autoComplete="new-password" />
          <TextField required id="forced-password-confirmation" name="confirmation" key={`confirmation-${attempt}`} label={t("auth.resetPassword.confirmation")} error={errors.confirmation} type="password" autoComplete="new-password" />
          <button type="submit" className="button">
            {t("auth.forceChange.submit")}
          </button>
        </Form>
      </div>
    </PublicShell>
  );
}
