import { getFormProps } from "~/components/forms/useForm";
import { data, Form, href, Link } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/user-confirmation";
import { ErrorSummary, OneTimeCodeField, useForm } from "~/components/forms";
import { PublicPage } from "~/components/PublicShell";
import { codeSchema, loginSchema } from "~/domain/schemas";
import { currentUserId } from "~/routes/+shared/auth.server";
import { getPlatform } from "~/.server/platform";
import { parseForm, refuse } from "~/routes/+shared/forms.server";
import { confirmEmailByLink } from "~/.server/services/profile";

/**
 * Spec 001 §2.1 `/user-confirmation?email=&code=`: the link in the e-mail sent to a new address. Opening
 * it changes nothing (mail scanners open links); the button does. Every refusal reads the same.
 */
const confirmationSchema = codeSchema.extend({ email: loginSchema.shape.email });
/** Every refusal reads the same, whatever was wrong (the address in the link, the code, its age). */
const INVALID = "auth.userConfirmation.invalid";

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const email = (url.searchParams.get("email") ?? "").slice(0, 254);
  const code = (url.searchParams.get("code") ?? "").slice(0, 12);
  return data({ email, code }, { headers: { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } });
}

export async function action({ request }: Route.ActionArgs) {
  const submission = parseForm(await request.formData(), confirmationSchema);
  if (submission.status !== "success")
    return refuse(submission, { fieldErrors: { code: submission.error?.code ?? [INVALID] }, hideFields: ["code"] });
  const { db } = await getPlatform();
  const result = await confirmEmailByLink(db, submission.value.email, submission.value.code);
  if (result.kind !== "ok") return refuse(submission, { fieldErrors: { code: [INVALID] }, hideFields: ["code"] });
  return { confirmed: true as const, signedIn: (await currentUserId(request)) !== null };
}

export default function UserConfirmation({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const confirmed = actionData && "confirmed" in actionData ? actionData : null;
  const refused = actionData && !("confirmed" in actionData) ? actionData : null;
  const [form, fields] = useForm<{ email: string; code: string }>({
    id: "confirmation",
    lastResult: refused,
    defaultValue: { email: loaderData.email, code: loaderData.code },
  });
  return (
    <PublicPage title={t("auth.userConfirmation.title")} error={!form.valid}>
      {confirmed ? (
        <>
          <div className="alert alert--success" role="status">
            <p>{t("auth.userConfirmation.done", { email: loaderData.email })}</p>
          </div>
          <p>
            <Link
              to={
                confirmed.signedIn
                  ? "/settings/profile"
                  : `${href("/login")}?email=${encodeURIComponent(loaderData.email)}`
              }
              className="button"
            >
              {t(confirmed.signedIn ? "auth.userConfirmation.toProfile" : "auth.userConfirmation.toLogin")}
            </Link>
          </p>
        </>
      ) : (
        <>
          <ErrorSummary form={form} fields={[fields.code]} />
          <p>{t("auth.userConfirmation.intro", { email: loaderData.email || "—" })}</p>
          <Form method="post" {...getFormProps(form)} noValidate>
            <input type="hidden" name={fields.email.name} value={loaderData.email} />
            <OneTimeCodeField field={fields.code} />
            <button type="submit" className="button">
              {t("auth.userConfirmation.submit")}
            </button>
          </Form>
        </>
      )}
    </PublicPage>
  );
}
