import { getFormProps } from "~/components/forms/useForm";
import { data, Form, Link } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/suggest-establishment";
import { DocumentTitle } from "~/components/DocumentTitle";
import { ErrorSummary, Field, Select, useForm } from "~/components/forms";
import { DEFAULT_COUNTRY, DELIVERY_COUNTRIES } from "~/domain/countries";
import { SUGGESTION_MAX } from "~/domain/partner-suggestion";
import { partnerSuggestionSchema, type PartnerSuggestionForm } from "~/domain/partner-suggestion-schemas";
import { planFeaturesOf, planTabs } from "~/domain/plans";
import { accountContext } from "~/routes/+shared/auth.server";
import { parseForm, refuse, reply } from "~/routes/+shared/forms.server";
import { panelBackOf } from "~/routes/+shared/back.server";
import type { InternalPath } from "~/routes/+shared/redirects.server";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import { getPlatform } from "~/.server/platform";
import { suggestPartner } from "~/.server/services/partners";

/**
 * "Suggérer un établissement" (spec 001 §2.8, §5 "Suggest partner"): a page of the plans area, opened
 * from the partner field with `?back=<the page it came from>`. "Retour" and the redirect after sending
 * go back there (a signed-in page of the portal only, else the account's first plans tab, else /cards);
 * the suggestion is stored for review and a message thanks the person.
 */
function backOf(request: Request, account: Parameters<typeof planFeaturesOf>[0]): InternalPath {
  const [firstTab] = planTabs(planFeaturesOf(account));
  return panelBackOf(request, { self: "/plans/suggest-establishment", fallback: firstTab?.path ?? "/cards" });
}

export function loader({ request, context }: Route.LoaderArgs) {
  return { back: backOf(request, context.get(accountContext)) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const account = context.get(accountContext);
  const submission = parseForm(await request.formData(), partnerSuggestionSchema);
  if (submission.status !== "success") return refuse(submission);
  const { db, logger } = await getPlatform();
  const result = await suggestPartner(db, account.id, submission.value).catch((error: unknown) => {
    logger.error("partner suggestion failed", { error: error instanceof Error ? error.message : String(error) });
    return { kind: "failed" } as const;
  });
  // Spec 001 §8 "suggestion could not be sent": said on the form, what was typed kept.
  if (result.kind === "failed")
    return data(reply(submission, { formErrors: ["partners.suggest.failed"] }), { status: 503 });
  if (result.kind === "invalid") return refuse(submission, { fieldErrors: result.errors });
  return redirectWithFlash(request, backOf(request, account), { kind: "success", message: "partners.suggest.sent" });
}

/**
 * The establishment's fields describe a shop, not the person filling them in: `autocomplete="off"` on every one.
 * The HTML autofill tokens (organization, email, tel, address-line1…) all mean the person's own data, with or
 * without a `section-` prefix, so a browser would offer her own e-mail and address for the shop's; no token names
 * a third party's, and RGAA 11.13 (WCAG 1.3.5) asks for them only on fields about the person.
 */
const NOT_THE_PERSON = "off";

const COUNTRY_OPTIONS = Object.entries(DELIVERY_COUNTRIES).map(([code, name]) => ({ value: code, label: name }));

export default function SuggestEstablishment({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [form, fields] = useForm<PartnerSuggestionForm>({
    id: "suggest-establishment",
    lastResult: actionData,
    defaultValue: { country: DEFAULT_COUNTRY },
  });
  const optional = (
    name: "website" | "email" | "phone" | "line1" | "zipcode" | "city",
    extra: { type?: "email" | "tel" | "url"; maxLength: number; hint?: string },
  ) => (
    <Field
      optional
      field={fields[name]}
      label={t(`partners.suggest.${name}`)}
      hint={extra.hint}
      type={extra.type}
      autoComplete={NOT_THE_PERSON}
      maxLength={extra.maxLength}
      spellCheck={extra.type ? false : undefined}
    />
  );
  return (
    <section aria-labelledby="suggest-establishment-title">
      <DocumentTitle page={t("partners.suggest.title")} error={!form.valid} />
      <h2 id="suggest-establishment-title">{t("partners.suggest.title")}</h2>
      <ErrorSummary
        form={form}
        fields={[
          fields.name,
          fields.website,
          fields.email,
          fields.phone,
          fields.line1,
          fields.zipcode,
          fields.city,
          fields.country,
        ]}
      />
      <p>{t("partners.suggest.intro")}</p>
      <Form method="post" {...getFormProps(form)} noValidate>
        <Field
          required
          field={fields.name}
          label={t("partners.suggest.name")}
          hint={t("partners.suggest.nameHint")}
          autoComplete={NOT_THE_PERSON}
          maxLength={SUGGESTION_MAX.name}
        />
        {optional("website", {
          type: "url",
          maxLength: SUGGESTION_MAX.website,
          hint: t("partners.suggest.websiteHint"),
        })}
        <fieldset className="fieldset">
          <legend>{t("partners.suggest.contact")}</legend>
          {optional("email", { type: "email", maxLength: 254 })}
          {optional("phone", { type: "tel", maxLength: 25 })}
        </fieldset>
        <fieldset className="fieldset">
          <legend>{t("partners.suggest.address")}</legend>
          {optional("line1", { maxLength: 50 })}
          {optional("zipcode", { maxLength: 10 })}
          {optional("city", { maxLength: 50 })}
          <Select
            field={fields.country}
            label={t("partners.suggest.country")}
            autoComplete={NOT_THE_PERSON}
            options={COUNTRY_OPTIONS}
          />
        </fieldset>
        <div className="actions">
          <button type="submit" className="button">
            {t("partners.suggest.submit")}
          </button>
          <Link to={loaderData.back} className="link-action">
            {t("partners.suggest.back")}
          </Link>
        </div>
      </Form>
    </section>
  );
}
