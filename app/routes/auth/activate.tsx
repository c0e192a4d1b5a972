import { getFormProps } from "~/components/forms/useForm";
import { data, Form } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/activate";
import {
  Checkbox,
  ErrorSummary,
  Field,
  NewSecretPair,
  PhoneField,
  RequiredNote,
  TermsField,
  useForm,
} from "~/components/forms";
import { BackToLogin, PublicPage } from "~/components/PublicShell";
import { internationalPhone } from "~/domain/countries";
import { activationSchema, type ActivationForm } from "~/domain/schemas";
import { signIn } from "~/routes/+shared/auth.server";
import { getPlatform } from "~/.server/platform";
import { emailedLinkOf } from "~/routes/+shared/request.server";
import { parseForm, refuse } from "~/routes/+shared/forms.server";
import { activateAccount, invitationIsLive } from "~/.server/services/activation";

/**
 * Account activation (spec 001 §2.1, §2.3): `/activate/:token?email=` from the invitation e-mail. A spent,
 * expired or altered link reads the same, whoever asks. Once activated the person is signed in and
 * continues with onboarding (a first card).
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const { token, email } = emailedLinkOf(request, params.token);
  const { db } = await getPlatform();
  const live = Boolean(token && email) && (await invitationIsLive(db, token, email));
  return data(
    { live, email },
    { status: live ? 200 : 410, headers: { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } },
  );
}

/** Passwords never come back in the reply. */
const SECRETS = ["password", "confirmation"];

export async function action({ request, params }: Route.ActionArgs) {
  const { token, email } = emailedLinkOf(request, params.token);
  const submission = parseForm(await request.formData(), activationSchema);
  if (submission.status !== "success") return refuse(submission, { hideFields: SECRETS });
  const v = submission.value;
  const { db } = await getPlatform();
  const result = await activateAccount(db, token, email, {
    firstName: v.firstName,
    lastName: v.lastName,
    phone: internationalPhone(v.phoneCountry, v.phone),
    password: v.password,
    marketingEmails: v.marketing === "on",
  });
  if (result.kind === "invalid") return refuse(submission, { formErrors: [EXPIRED], hideFields: SECRETS });
  return signIn(request, result.userId, "/cards");
}

const EXPIRED = "auth.activate.expired";

export default function Activate({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [form, fields] = useForm<ActivationForm>({
    id: "activate",
    lastResult: actionData,
    defaultValue: { phoneCountry: "FR" },
  });
  const spent = !loaderData.live || Boolean(form.errors?.includes(EXPIRED));
  return (
    <PublicPage title={t("auth.activate.title")} error={!form.valid}>
      {spent ? (
        <div className="alert alert--error" role="alert">
          <p>{t("auth.activate.expired")}</p>
        </div>
      ) : (
        <>
          <ErrorSummary
            form={form}
            fields={[
              fields.lastName,
              fields.firstName,
              fields.phone,
              fields.password,
              fields.confirmation,
              fields.terms,
            ]}
          />
          <p>{t("auth.activate.intro")}</p>
          <p>
            <strong>{t("auth.login.email")} : </strong>
            {loaderData.email}
          </p>
          <Form method="post" {...getFormProps(form)} noValidate>
            <RequiredNote />
            <Field
              required
              field={fields.lastName}
              label={t("onboarding.profile.lastName")}
              autoComplete="family-name"
              maxLength={50}
            />
            <Field
              required
              field={fields.firstName}
              label={t("onboarding.profile.firstName")}
              autoComplete="given-name"
              maxLength={50}
            />
            <PhoneField
              country={fields.phoneCountry}
              phone={fields.phone}
              label={t("onboarding.profile.phone")}
              hint={t("onboarding.profile.phoneHint")}
            />
            <NewSecretPair
              kind="password"
              secret={fields.password}
              confirmation={fields.confirmation}
              label={t("auth.activate.password")}
              confirmationLabel={t("auth.activate.confirmation")}
            />
            <TermsField field={fields.terms} />
            <Checkbox field={fields.marketing} label={t("auth.activate.marketing")} />
            <button type="submit" className="button">
              {t("auth.activate.submit")}
            </button>
          </Form>
        </>
      )}
      <BackToLogin />
    </PublicPage>
  );
}
