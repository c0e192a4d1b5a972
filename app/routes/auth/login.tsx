import { getFormProps } from "~/components/forms/useForm";
import { useTranslation } from "~/i18n";
import { Form, href, Link } from "react-router";
import type { Route } from "./+types/login";
import { ErrorSummary, Field, RequiredNote, useForm } from "~/components/forms";
import { PublicPage } from "~/components/PublicShell";
import type { LoginForm } from "~/domain/schemas";
import {
  authenticator,
  currentUserId,
  LOGIN_SECRETS,
  LoginRejected,
  PENDING_LOGIN_TTL_MS,
  sendLoginCode,
  completeSignIn,
} from "~/routes/+shared/auth.server";
import { refuse } from "~/routes/+shared/forms.server";
import { getInstance } from "~/i18n/i18next.server";
import { getPlatform } from "~/.server/platform";
import { commitSession, getSession } from "~/routes/+shared/request.server";
import { codeSentFlash } from "~/routes/+shared/code-sent.server";
import { getAccount } from "~/.server/services/accounts";
import { safeRedirectPath } from "~/.server/session";
import { internalRedirect } from "~/routes/+shared/redirects.server";
import { adoptBrowserConsent } from "~/routes/+shared/consent.server";
import { PasskeyButton } from "~/components/PasskeyButton";
import { useHydrated } from "~/components/useHydrated";

/**
 * The password form's hidden field saying this browser can use a passkey (decision 0061): written by the
 * page once hydrated in a browser with WebAuthn, so a sign-in without JavaScript never waits for one.
 */
const PASSKEY_READY = "passkeyReady";

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirectPath(url.searchParams.get("redirectTo"));
  if (await currentUserId(request)) throw internalRedirect("/cards");
  return { redirectTo, email: url.searchParams.get("email") ?? "" };
}

export async function action({ request, context }: Route.ActionArgs) {
  let userId: string;
  try {
    // The authenticator consumes the body it is given; the redirect target is read from our copy.
    userId = await authenticator.authenticate("password", request.clone());
  } catch (error) {
    if (!(error instanceof LoginRejected)) throw error;
    return refuse(error.submission, { formErrors: error.formErrors, hideFields: LOGIN_SECRETS });
  }
  const form = await request.formData();
  const redirectTo = safeRedirectPath(form.get("redirectTo"));
  const { db } = await getPlatform();
  const account = await getAccount(db, userId);
  // A passkey is a second factor (decision 0061): an account with one always gives it, or a code.
  if (!account || (!account.mfaEnabled && !account.hasPasskeys)) {
    // The banner's choice made before signing in becomes the account's, when it has none (decision 0059).
    await adoptBrowserConsent(db, request, userId);
    return completeSignIn(request, userId, redirectTo);
  }

  // Second factor: the sign-in waits in the session until the code (or the passkey) is checked. With a
  // passkey this browser can use, no code is sent: « Utiliser un code à la place » sends one.
  const method = account.hasPasskeys && form.get(PASSKEY_READY) === "yes" ? "passkey" : "code";
  const session = await getSession(request);
  session.unset("userId");
  session.set("pendingLogin", {
    userId,
    redirectTo,
    expiresAt: new Date(Date.now() + PENDING_LOGIN_TTL_MS).toISOString(),
    method,
  });
  if (method === "code") {
    const t = getInstance(context).t;
    const flash = codeSentFlash(await sendLoginCode(session, (key, vars) => t(key, vars)));
    if (flash) session.flash("flash", flash);
  }
  return internalRedirect("/login/code", { headers: { "Set-Cookie": await commitSession(session) } });
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const canUsePasskey = hydrated && typeof window.PublicKeyCredential !== "undefined";
  const [form, fields] = useForm<LoginForm>({
    id: "login",
    lastResult: actionData,
    defaultValue: { email: loaderData.email },
  });
  return (
    <PublicPage title={t("auth.login.title")} error={!form.valid}>
      {/* Wrong credentials are the form's error, said once (issue 31 §6): in the summary, linked to the
          e-mail, never at one field — which of the two was wrong is not told. */}
      <ErrorSummary form={form} fields={[fields.email, fields.password]} />
      <p>{t("auth.login.intro")}</p>
      <Form method="post" {...getFormProps(form)} noValidate>
        <RequiredNote />
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        {canUsePasskey ? <input type="hidden" name={PASSKEY_READY} value="yes" /> : null}
        <Field
          required
          field={fields.email}
          label={t("auth.login.email")}
          hint={t("auth.login.emailHint")}
          type="email"
          autoComplete="username"
          spellCheck={false}
          autoCapitalize="none"
        />
        <Field
          required
          field={fields.password}
          label={t("auth.login.password")}
          type="password"
          autoComplete="current-password"
        />
        <button type="submit" className="button">
          {t("auth.login.submit")}
        </button>
      </Form>
      <p>
        <Link
          to={`${href("/lost-password")}${fields.email.initialValue ? `?email=${encodeURIComponent(String(fields.email.initialValue))}` : ""}`}
          className="link-action"
        >
          {t("auth.login.lostPassword")}
        </Link>
      </p>
      {canUsePasskey ? (
        <>
          <p className="passkey-or">{t("passkeys.signIn.or")}</p>
          <PasskeyButton
            action={href("/login/passkey")}
            ceremony="authenticate"
            label={t("passkeys.signIn.withPasskey")}
            fields={() => ({ for: "signIn", redirectTo: loaderData.redirectTo })}
            variant="secondary"
          />
          <p className="hint">{t("passkeys.signIn.withPasskeyHint")}</p>
        </>
      ) : null}
    </PublicPage>
  );
}
