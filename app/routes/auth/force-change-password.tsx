import { data } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/force-change-password";
import { ChooseNewPassword, useForm } from "~/components/forms";
import { PublicPage } from "~/components/PublicShell";
import { newPasswordSchema, type NewPasswordForm } from "~/domain/schemas";
import { parseForm, refuse } from "~/routes/+shared/forms.server";
import { signIn, waitingSignIn } from "~/routes/+shared/auth.server";
import { getPlatform } from "~/.server/platform";
import { getSession } from "~/routes/+shared/request.server";
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

/** Passwords never come back in the reply. */
const SECRETS = ["password", "confirmation"];

export async function action({ request }: Route.ActionArgs) {
  const pending = await waitingSignIn(await getSession(request), "pendingPasswordChange");
  const submission = parseForm(await request.formData(), newPasswordSchema);
  if (submission.status !== "success") return refuse(submission, { hideFields: SECRETS });
  const { db } = await getPlatform();
  if ((await replaceTemporaryPassword(db, pending.userId, submission.value.password)).kind !== "ok")
    throw internalRedirect("/login");
  return signIn(request, pending.userId, pending.redirectTo, { kind: "success", message: "auth.forceChange.done" });
}

export default function ForceChangePassword({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [form, fields] = useForm<NewPasswordForm>({ id: "forced", lastResult: actionData });
  return (
    <PublicPage title={t("auth.forceChange.title")} error={!form.valid}>
      <ChooseNewPassword
        form={form}
        fields={fields}
        intro={t("auth.forceChange.intro")}
        submit={t("auth.forceChange.submit")}
      />
    </PublicPage>
  );
}
