import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/activate";
import { ErrorSummary, type SummaryError } from "~/components/ErrorSummary";
import { PageHeader } from "~/components/PageHeader";
import { PublicShell } from "~/components/PublicShell";
import { RequiredNote, SelectField, TextField } from "~/components/TextField";
import { TermsField } from "~/components/TermsField";
import { internationalPhone, PHONE_COUNTRIES } from "~/domain/countries";
import { activationSchema } from "~/domain/schemas";
import { signIn } from "~/routes/+shared/auth.server";
import { getPlatform } from "~/.server/platform";
import { badRequest } from "~/routes/+shared/request.server";
import { activateAccount, invitationIsLive } from "~/.server/services/activation";

/**
 * Account activation (spec 001 §2.1, §2.3): `/activate/:token?email=` from the invitation e-mail. A spent,
 * expired or altered link reads the same, whoever asks. Once activated the person is signed in and
 * continues with onboarding (a first card).
 */
function linkOf(request: Request, params: Route.LoaderArgs["params"]) {
  return { token: (params.token ?? "").slice(0, 100), email: (new URL(request.url).searchParams.get("email") ?? "").slice(0, 254) };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const { token, email } = linkOf(request, params);
  const { db, env } = await getPlatform();
  const live = Boolean(token && email) && (await invitationIsLive(db, token, email));
  return data({ live, email, legalUrl: env.LEGAL_URL, privacyUrl: env.PRIVACY_URL }, { status: live ? 200 : 410, headers: { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } });
}

const FIELDS = ["lastName", "firstName", "phone", "password", "confirmation", "terms"] as const;
type Field = (typeof FIELDS)[number];

export async function action({ request, params }: Route.ActionArgs) {
  const { token, email } = linkOf(request, params);
  const form = await request.formData();
  const submission = parseWithZod(form, { schema: activationSchema });
  const values = {
    lastName: String(form.get("lastName") ?? ""),
    firstName: String(form.get("firstName") ?? ""),
    phone: String(form.get("phone") ?? ""),
    phoneCountry: String(form.get("phoneCountry") ?? "FR"),
    terms: form.get("terms") === "on",
    marketing: form.get("marketing") === "on",
  };
  if (submission.status !== "success") {
    const e = submission.error ?? {};
    const errors = Object.fromEntries(FIELDS.map((f) => [f, e[f]?.[0]])) as Partial<Record<Field | "form", string>>;
    return badRequest({ errors, values, attempt: crypto.randomUUID() });
  }
  const v = submission.value;
  const { db } = await getPlatform();
  const userId = await activateAccount(db, token, email, {
    firstName: v.firstName,
    lastName: v.lastName,
    phone: internationalPhone(v.phoneCountry, v.phone),
    password: v.password,
    marketingEmails: v.marketing === "on",
  });
  if (!userId) return badRequest({ errors: { form: "auth.activate.expired" } as Partial<Record<Field | "form", string>>, values, attempt: crypto.randomUUID() });
  return signIn(request, userId, "/cards");
}

export default function Activate({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const errors = actionData?.errors ?? {};
  const values = actionData?.values;
  const attempt = actionData?.attempt ?? "";
  const ids: Record<Field, string> = { lastName: "activate-last-name", firstName: "activate-first-name", phone: "activate-phone", password: "activate-password", confirmation: "activate-confirmation", terms: "activate-terms" };
  const summary: SummaryError[] = FIELDS.filter((f) => errors[f]).map((f) => ({ fieldId: ids[f], message: errors[f]! }));
  const spent = !loaderData.live || Boolean(errors.form);
  return (
    <PublicShell>
      <div className="narrow">
        <PageHeader title={t("auth.activate.title")} error={summary.length > 0 || Boolean(errors.form)} />
        {spent ? (
          <div className="alert alert--error" role="alert">
            <p>{t("auth.activate.expired")}</p>
          </div>
        ) : (
          <>
            <ErrorSummary errors={summary} />
            <p>{t("auth.activate.intro")}</p>
            <p>
              <strong>{t("auth.login.email")} : </strong>
              {loaderData.email}
            </p>
            <Form method="post" noValidate>
              <RequiredNote />
              <TextField required id={ids.lastName} name="lastName" label={t("onboarding.profile.lastName")} error={errors.lastName} defaultValue={values?.lastName} autoComplete="family-name" maxLength={50} />
              <TextField required id={ids.firstName} name="firstName" label={t("onboarding.profile.firstName")} error={errors.firstName} defaultValue={values?.firstName} autoComplete="given-name" maxLength={50} />
              <div className="phone-field">
                <SelectField required
                  id="activate-phone-country"
                  name="phoneCountry"
                  label={t("onboarding.profile.phoneCountry")}
                  defaultValue={values?.phoneCountry ?? "FR"}
                  autoComplete="tel-country-code"
                  options={PHONE_COUNTRIES.map((c) => ({ value: c.code, label: `${c.code} (${c.dial})` }))}
                />
                <TextField required id={ids.phone} name="phone" type="tel" label={t("onboarding.profile.phone")} hint={t("onboarding.profile.phoneHint")} error={errors.phone} defaultValue={values?.phone} autoComplete="tel-national" maxLength={25} />
              </div>
              <TextField required id={ids.password} name="password" key={`password-${attempt}`} type="password" label={t("auth.activate.password")} hint={t("auth.password.rules")} error={errors.password} autoComplete="new-password" />
              <TextField required id={ids.confirmation} name="confirmation" key={`confirmation-${attempt}`} type="password" label={t("auth.activate.confirmation")} error={errors.confirmation} autoComplete="new-password" />
              <TermsField id={ids.terms} error={errors.terms} defaultChecked={values?.terms} legalUrl={loaderData.legalUrl} privacyUrl={loaderData.privacyUrl} />
              <div className="field field--checkbox">
                <label className="checkbox">
                  <input type="checkbox" name="marketing" defaultChecked={values?.marketing} />
                  {t("auth.activate.marketing")}
                </label>
              </div>
              <button type="submit" className="button">
                {t("auth.activate.submit")}
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
