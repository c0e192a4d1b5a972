import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/profile";
import { DocumentTitle } from "~/components/DocumentTitle";
import { ErrorSummary, type SummaryError } from "~/components/ErrorSummary";
import { RequiredNote, SelectField, TextField } from "~/components/TextField";
import { TermsField } from "~/components/TermsField";
import { internationalPhone, PHONE_COUNTRIES } from "~/domain/countries";
import { onboardingProfileSchema } from "~/domain/schemas";
import { accountContext } from "~/routes/+shared/auth.server";
import { getPlatform } from "~/.server/platform";
import { badRequest, redirectWithFlash, refusal } from "~/routes/+shared/request.server";
import { completeOnboardingProfile, isOnboarded } from "~/.server/services/accounts";
import { pendingChanges } from "~/.server/services/profile";
import { internalRedirect } from "~/routes/+shared/redirects.server";

/** Onboarding step 0: the profile (spec 001 §2.3, §5 "Onboarding profile"). */
export async function loader({ context }: Route.LoaderArgs) {
  const account = context.get(accountContext);
  const { db, env } = await getPlatform();
  if (await isOnboarded(db, account)) throw internalRedirect("/cards");
  const pending = (await pendingChanges(db, account.id)).phone;
  return {
    firstName: account.firstName ?? "",
    lastName: account.lastName ?? "",
    phone: account.phone ?? "",
    // A pending phone change is confirmed by its own code: the phone is then left out of this form.
    pendingPhone: pending && account.phone ? pending : null,
    termsAccepted: account.termsConfirmed,
    legalUrl: env.LEGAL_URL,
    privacyUrl: env.PRIVACY_URL,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const account = context.get(accountContext);
  const { db } = await getPlatform();
  const form = await request.formData();
  const keepPhone = Boolean(account.phone && (await pendingChanges(db, account.id)).phone);
  const schema = keepPhone ? onboardingProfileSchema.omit({ phone: true, phoneCountry: true }) : onboardingProfileSchema;
  const submission = parseWithZod(form, { schema });
  const values = {
    firstName: String(form.get("firstName") ?? ""),
    lastName: String(form.get("lastName") ?? ""),
    phone: String(form.get("phone") ?? ""),
    phoneCountry: String(form.get("phoneCountry") ?? "FR"),
    terms: form.get("terms") === "on",
  };
  if (submission.status !== "success") {
    const e = submission.error ?? {};
    return badRequest({ errors: { firstName: e.firstName?.[0], lastName: e.lastName?.[0], phone: e.phone?.[0], terms: e.terms?.[0] }, values });
  }
  const value = submission.value as { firstName: string; lastName: string; phone?: string; phoneCountry?: string };
  const result = await completeOnboardingProfile(db, account.id, {
    firstName: value.firstName,
    lastName: value.lastName,
    phone: value.phone ? internationalPhone(value.phoneCountry ?? "FR", value.phone) : null,
  });
  // The layout refuses onboarded accounts already; the service does too, whoever calls it.
  if (result === "alreadyOnboarded") throw refusal(403, "onboarding.alreadyDone");
  return redirectWithFlash(request, "/onboarding/card", { kind: "success", message: "onboarding.profile.saved" });
}

export default function OnboardingProfile({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const errors: Partial<Record<"firstName" | "lastName" | "phone" | "terms", string>> = actionData?.errors ?? {};
  const values = actionData?.values;
  const ids: Record<string, string> = { firstName: "profile-first-name", lastName: "profile-last-name", phone: "profile-phone", terms: "profile-terms" };
  const summary: SummaryError[] = Object.entries(errors)
    .filter((entry): entry is [string, string] => Boolean(entry[1]))
    .map(([field, message]) => ({ fieldId: ids[field]!, message }));
  const termsError = errors.terms;
  return (
    <section aria-labelledby="profile-title">
      <DocumentTitle page={t("onboarding.profile.title")} error={summary.length > 0} />
      <ErrorSummary errors={summary} />
      <h2 id="profile-title">{t("onboarding.profile.title")}</h2>
      <p>{t("onboarding.profile.intro")}</p>
      <Form method="post" noValidate>
        <RequiredNote />
        <TextField required
          id={ids.firstName!}
          name="firstName"
          label={t("onboarding.profile.firstName")}
          error={errors.firstName}
          defaultValue={values?.firstName ?? loaderData.firstName}
          autoComplete="given-name"
          maxLength={50}
        />
        <TextField required
          id={ids.lastName!}
          name="lastName"
          label={t("onboarding.profile.lastName")}
          error={errors.lastName}
          defaultValue={values?.lastName ?? loaderData.lastName}
          autoComplete="family-name"
          maxLength={50}
        />
        {loaderData.pendingPhone ? (
          <p className="hint">{t("onboarding.profile.phonePending", { phone: loaderData.pendingPhone })}</p>
        ) : (
          <div className="phone-field">
            <SelectField required
              id="profile-phone-country"
              name="phoneCountry"
              label={t("onboarding.profile.phoneCountry")}
              defaultValue={values?.phoneCountry ?? "FR"}
              autoComplete="tel-country-code"
              options={PHONE_COUNTRIES.map((c) => ({ value: c.code, label: `${c.code} (${c.dial})` }))}
            />
            <TextField required
              id={ids.phone!}
              name="phone"
              type="tel"
              label={t("onboarding.profile.phone")}
              hint={t("onboarding.profile.phoneHint")}
              error={errors.phone}
              defaultValue={values?.phone ?? loaderData.phone}
              autoComplete="tel-national"
              maxLength={25}
            />
          </div>
        )}
        <TermsField id="profile-terms" error={termsError} defaultChecked={values ? values.terms : loaderData.termsAccepted} legalUrl={loaderData.legalUrl} privacyUrl={loaderData.privacyUrl} />
        <div className="actions">
          <button type="submit" className="button">
            {t("onboarding.profile.submit")}
          </button>
        </div>
      </Form>
    </section>
  );
}
