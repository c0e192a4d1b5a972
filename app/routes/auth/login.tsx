import { getFormProps, useForm } from "@conform-to/react";
import { useTranslation } from "~/i18n";
import { Form, Link } from "react-router";
import type { Route } from "./+types/login";
import { ErrorSummary, type SummaryError } from "~/components/ErrorSummary";
import { PageHeader } from "~/components/PageHeader";
import { PublicShell } from "~/components/PublicShell";
import { RequiredNote, TextField } from "~/components/TextField";
import type { LoginForm } from "~/domain/schemas";
import { authenticator, currentUserId, LoginRejected, PENDING_LOGIN_TTL_MS, sendLoginCode, completeSignIn } from "~/routes/+shared/auth.server";
import { getInstance } from "~/middleware/i18next";
import { getPlatform } from "~/.server/platform";
import { badRequest, commitSession, getSession } from "~/routes/+shared/request.server";
import { getAccount } from "~/.server/services/accounts";
import { safeRedirectPath } from "~/.server/session";
import { internalRedirect } from "~/routes/+shared/redirects.server";

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
    // `attempt` remounts the password field so that, with JS too, the password is never kept.
    return badRequest({ lastResult: error.lastResult, attempt: crypto.randomUUID() });
  }
  const form = await request.formData();
  const redirectTo = safeRedirectPath(form.get("redirectTo"));
  const { db } = await getPlatform();
  const account = await getAccount(db, userId);
  if (!account?.mfaEnabled) return completeSignIn(request, userId, redirectTo);

  // Second factor: the sign-in waits in the session until the code is checked.
  const session = await getSession(request);
  session.unset("userId");
  session.set("pendingLogin", { userId, redirectTo, expiresAt: new Date(Date.now() + PENDING_LOGIN_TTL_MS).toISOString() });
  const t = getInstance(context).t;
  await sendLoginCode(session, (key, vars) => t(key, vars));
  return internalRedirect("/login/code", { headers: { "Set-Cookie": await commitSession(session) } });
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [form, fields] = useForm<LoginForm>({
    id: "login",
    lastResult: actionData?.lastResult,
    defaultValue: { email: loaderData.email },
  });
  const errors: SummaryError[] = [
    ...(form.errors ?? []).map((message) => ({ fieldId: fields.email.id, message })),
    ...(fields.email.errors ?? []).map((message) => ({ fieldId: fields.email.id, message })),
    ...(fields.password.errors ?? []).map((message) => ({ fieldId: fields.password.id, message })),
  ];
  const credentialsError = form.errors?.[0];
  return (
    <PublicShell>
      <div className="narrow">
        <PageHeader title={t("auth.login.title")} error={errors.length > 0} />
        <ErrorSummary errors={errors} />
        <p>{t("auth.login.intro")}</p>
        <Form method="post" {...getFormProps(form)} noValidate>
          <RequiredNote />
          <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
          <TextField required
            id={fields.email.id}
            name={fields.email.name}
            key={fields.email.key}
            label={t("auth.login.email")}
            hint={t("auth.login.emailHint")}
            error={fields.email.errors?.[0] ?? credentialsError}
            defaultValue={fields.email.initialValue as string | undefined}
            type="email"
            autoComplete="username"
            spellCheck={false}
            autoCapitalize="none"
          />
          <TextField required
            id={fields.password.id}
            name={fields.password.name}
            key={`password-${actionData?.attempt ?? ""}`}
            label={t("auth.login.password")}
            error={fields.password.errors?.[0] ?? (credentialsError ? credentialsError : undefined)}
            type="password"
            autoComplete="current-password"
          />
          <button type="submit" className="button">
            {t("auth.login.submit")}
          </button>
        </Form>
        <p>
          <Link to={`/lost-password${fields.email.initialValue ? `?email=${encodeURIComponent(String(fields.email.initialValue))}` : ""}`} className="link-action">
            {t("auth.login.lostPassword")}
          </Link>
        </p>
      </div>
    </PublicShell>
  );
}
