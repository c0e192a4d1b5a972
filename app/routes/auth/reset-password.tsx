import { data, href, Link } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/reset-password";
import { ChooseNewPassword, useForm } from "~/components/forms";
import { PublicPage } from "~/components/PublicShell";
import { newPasswordSchema, type NewPasswordForm } from "~/domain/schemas";
import { parseForm, refuse } from "~/routes/+shared/forms.server";
import { getPlatform } from "~/.server/platform";
import { internalPath } from "~/routes/+shared/redirects.server";
import { redirectWithFlash, emailedLinkOf } from "~/routes/+shared/request.server";
import { resetLinkIsLive, resetPassword } from "~/.server/services/password-reset";

/**
 * Reset password (spec 001 §2.1, §2.3 "reset password (new password, confirmation, save, cancel)"):
 * `/reset-password/:token?email=`. A spent, expired or altered link says so (and offers a new one) instead of
 * showing the form; either way a cancel goes back to sign-in, the link's address already typed.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const { token, email } = emailedLinkOf(request, params.token);
  const { db } = await getPlatform();
  const live = Boolean(token && email) && (await resetLinkIsLive(db, token, email));
  return data(
    { live, email },
    { status: live ? 200 : 410, headers: { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } },
  );
}

/** Passwords never come back in the reply. */
const SECRETS = ["password", "confirmation"];
const EXPIRED = "auth.resetPassword.expired";

export async function action({ request, params }: Route.ActionArgs) {
  const { token, email } = emailedLinkOf(request, params.token);
  const submission = parseForm(await request.formData(), newPasswordSchema);
  if (submission.status !== "success") return refuse(submission, { hideFields: SECRETS });
  const { db } = await getPlatform();
  const result = await resetPassword(db, token, email, submission.value.password);
  if (result.kind !== "ok") return refuse(submission, { formErrors: [EXPIRED], hideFields: SECRETS });
  return redirectWithFlash(request, internalPath("/login", {}, { search: { email } }), {
    kind: "success",
    message: "auth.resetPassword.done",
  });
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [form, fields] = useForm<NewPasswordForm>({ id: "new", lastResult: actionData });
  const spent = !loaderData.live || Boolean(form.errors?.includes(EXPIRED));
  const withEmail = (path: string) =>
    loaderData.email ? `${path}?email=${encodeURIComponent(loaderData.email)}` : path;
  return (
    <PublicPage title={t("auth.resetPassword.title")} error={!form.valid}>
      {spent ? (
        <div className="alert alert--error" role="alert">
          <p>{t("auth.resetPassword.expired")}</p>
          <p>
            <Link to={withEmail(href("/lost-password"))}>{t("auth.resetPassword.newLink")}</Link>
          </p>
        </div>
      ) : (
        <ChooseNewPassword
          form={form}
          fields={fields}
          intro={t("auth.resetPassword.intro", { email: loaderData.email })}
          submit={t("auth.resetPassword.submit")}
        />
      )}
      {/* A link, as sign-in's « Mot de passe oublié ? »: cancelling changes nothing (the emailed link stays valid
          until it expires). */}
      <p>
        <Link to={withEmail(href("/login"))} className="link-action">
          {t("auth.resetPassword.cancel")}
        </Link>
      </p>
    </PublicPage>
  );
}
