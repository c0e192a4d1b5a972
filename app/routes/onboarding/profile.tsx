import { getFormProps } from "~/components/forms/useForm";
import { Form } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/profile";
import { DocumentTitle } from "~/components/DocumentTitle";
import { ErrorSummary, Field, PhoneField, RequiredNote, TermsField, useForm } from "~/components/forms";
import { internationalPhone } from "~/domain/countries";
import { onboardingProfileSchema, type OnboardingProfileForm } from "~/domain/schemas";
import { parseForm, refuse } from "~/routes/+shared/forms.server";
import { accountContext } from "~/routes/+shared/auth.server";
import { getPlatform } from "~/.server/platform";
import { redirectWithFlash, refusal } from "~/routes/+shared/request.server";
import { completeOnboardingProfile, isOnboarded } from "~/.server/services/accounts";
import { pendingChanges } from "~/.server/services/profile";
import { internalRedirect } from "~/routes/+shared/redirects.server";

/** Onboarding step 0: the profile (spec 001 §2.3, §5 "Onboarding profile"). */
export async function loader({ context }: Route.LoaderArgs) {
  const account = context.get(accountContext);
  const { db } = await getPlatform();
  if (await isOnboarded(db, account)) throw internalRedirect("/cards");
  const pending = (await pendingChanges(db, account.id)).phone;
  return {
    firstName: account.firstName ?? "",
    lastName: account.lastName ?? "",
    phone: account.phone ?? "",
    // A pending phone change is confirmed by its own code: the phone is then left out of this form.
    pendingPhone: pending && account.phone ? pending : null,
    termsAccepted: account.termsConfirmed,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const account = context.get(accountContext);
  const { db } = await getPlatform();
  const form = await request.formData();
  const keepPhone = Boolean(account.phone && (await pendingChanges(db, account.id)).phone);
  const schema = keepPhone
    ? onboardingProfileSchema.omit({ phone: true, phoneCountry: true })
    : onboardingProfileSchema;
  const submission = parseForm(form, schema);
  if (submission.status !== "success") return refuse(submission);
  const value = submission.value as { firstName: string; lastName: string; phone?: string; phoneCountry?: string };
  const result = await completeOnboardingProfile(db, account.id, {
    firstName: value.firstName,
    lastName: value.lastName,
    phone: value.phone ? internationalPhone(value.phoneCountry ?? "FR", value.phone) : null,
  });
  // The layout refuses onboarded accounts already; the service does too, whoever calls it.
  if (result.kind === "alreadyOnboarded") throw refusal(403, "onboarding.alreadyDone");
  return redirectWithFlash(request, "/onboarding/card", { kind: "success", message: "onboarding.profile.saved" });
}

export default function OnboardingProfile({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [form, fields] = useForm<OnboardingProfileForm>({
    id: "profile",
    lastResult: actionData,
    defaultValue: {
      firstName: loaderData.firstName,
      lastName: loaderData.lastName,
      phoneCountry: "FR",
      phone: loaderData.phone,
      terms: loaderData.termsAccepted ? "on" : undefined,
    },
  });
  return (
    <section aria-labelledby="profile-title">
      <DocumentTitle page={t("onboarding.profile.title")} error={!form.valid} />
      <ErrorSummary form={form} fields={[fields.firstName, fields.lastName, fields.phone, fields.terms]} />
      <h2 id="profile-title">{t("onboarding.profile.title")}</h2>
      <p>{t("onboarding.profile.intro")}</p>
      <Form method="post" {...getFormProps(form)} noValidate>
        <RequiredNote />
        <Field
          required
          field={fields.firstName}
          label={t("onboarding.profile.firstName")}
          autoComplete="given-name"
          maxLength={50}
        />
        <Field
          required
          field={fields.lastName}
          label={t("onboarding.profile.lastName")}
          autoComplete="family-name"
          maxLength={50}
        />
        {loaderData.pendingPhone ? (
          <p className="hint">{t("onboarding.profile.phonePending", { phone: loaderData.pendingPhone })}</p>
        ) : (
          <PhoneField
            country={fields.phoneCountry}
            phone={fields.phone}
            label={t("onboarding.profile.phone")}
            hint={t("onboarding.profile.phoneHint")}
          />
        )}
        <TermsField field={fields.terms} />
        <div className="actions">
          <button type="submit" className="button">
            {t("onboarding.profile.submit")}
          </button>
        </div>
      </Form>
    </section>
  );
}
