import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/user-confirmation";
import { ErrorSummary } from "~/components/ErrorSummary";
import { PageHeader } from "~/components/PageHeader";
import { PublicShell } from "~/components/PublicShell";
import { TextField } from "~/components/TextField";
import { codeSchema, loginSchema } from "~/domain/schemas";
import { currentUserId } from "~/routes/+shared/auth.server";
import { getPlatform } from "~/.server/platform";
import { badRequest } from "~/routes/+shared/request.server";
import { confirmEmailByLink } from "~/.server/services/profile";

/**
 * Spec 001 §2.1 `/user-confirmation?email=&code=`: the link in the e-mail sent to a new address. Opening
 * it changes nothing (mail scanners open links); the button does. Every refusal reads the same.
 */
const confirmationSchema = codeSchema.extend({ email: loginSchema.shape.email });

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const email = (url.searchParams.get("email") ?? "").slice(0, 254);
  const code = (url.searchParams.get("code") ?? "").slice(0, 12);
  return data({ email, code }, { headers: { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } });
}

export async function action({ request }: Route.ActionArgs) {
  const form = await request.formData();
  const submission = parseWithZod(form, { schema: confirmationSchema });
  const signedIn = (await currentUserId(request)) !== null;
  if (submission.status !== "success") return badRequest({ confirmed: false, error: submission.error?.code?.[0] ?? "auth.userConfirmation.invalid", signedIn, attempt: crypto.randomUUID() });
  const { db } = await getPlatform();
  const result = await confirmEmailByLink(db, submission.value.email, submission.value.code);
  if (result !== "ok") return badRequest({ confirmed: false, error: "auth.userConfirmation.invalid", signedIn, attempt: crypto.randomUUID() });
  return { confirmed: true, error: null, signedIn, attempt: "" };
}

export default function UserConfirmation({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const error = actionData?.error ?? null;
  return (
    <PublicShell>
      <div className="narrow">
        <PageHeader title={t("auth.userConfirmation.title")} error={Boolean(error)} />
        {actionData?.confirmed ? (
          <>
            <div className="alert alert--success" role="status">
              <p>{t("auth.userConfirmation.done", { email: loaderData.email })}</p>
            </div>
            <p>
              <Link to={actionData.signedIn ? "/settings/profile" : `/login?email=${encodeURIComponent(loaderData.email)}`} className="button">
                {t(actionData.signedIn ? "auth.userConfirmation.toProfile" : "auth.userConfirmation.toLogin")}
              </Link>
            </p>
          </>
        ) : (
          <>
            <ErrorSummary errors={error ? [{ fieldId: "confirmation-code", message: error }] : []} />
            <p>{t("auth.userConfirmation.intro", { email: loaderData.email || "—" })}</p>
            <Form method="post" noValidate>
              <input type="hidden" name="email" value={loaderData.email} />
              <TextField required
                id="confirmation-code"
                name="code"
                key={`code-${actionData?.attempt ?? ""}`}
                label={t("auth.code.label")}
                hint={t("auth.code.hint")}
                error={error ?? undefined}
                defaultValue={actionData ? "" : loaderData.code}
                inputMode="numeric"
                autoComplete="one-time-code"
                spellCheck={false}
                className="input--code"
              />
              <button type="submit" className="button">
                {t("auth.userConfirmation.submit")}
              </button>
            </Form>
          </>
        )}
      </div>
    </PublicShell>
  );
}
