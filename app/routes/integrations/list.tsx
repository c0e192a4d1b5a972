import { z } from "zod";
import { data, Link } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/list";
import { DocumentTitle } from "~/components/DocumentTitle";
import { LoadFailure } from "~/components/LoadFailure";
import { accountContext } from "~/routes/+shared/auth.server";
import { parseForm, refuse } from "~/routes/+shared/forms.server";
import { intents } from "~/routes/+shared/intents";
import { intentOf } from "~/routes/+shared/intents.server";
import { failedTo } from "~/routes/+shared/load-failure.server";
import { refusal } from "~/routes/+shared/request.server";
import { getPlatform } from "~/.server/platform";
import { getIntegrations, openPartner } from "~/.server/services/integrations";
import { tagAttributes } from "~/domain/tag-events";

const INTENT = intents("openPartner");
const schema = z.object({ intent: z.string(), partner: z.string().max(100) });

/**
 * /plans/integrations (spec 000 §2 "Integrations page", issue 16 item 2): the services card (refund
 * requests, allowances, when the account has them) and the partners card (the partners its integration
 * flags show), or the empty message. Opening a partner is a form posted into a new tab
 * (`target="_blank"`, with or without JavaScript): the action asks the partner-link provider and answers
 * a redirection to the partner's URL there, or this page with the reason it could not open.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const account = context.get(accountContext);
  const { db } = await getPlatform();
  const view = await getIntegrations(db, account.id).catch(failedTo("integrations.errors.unavailable"));
  if (!view) throw data(null, { status: 404 });
  return view;
}

export async function action({ request, context }: Route.ActionArgs) {
  const account = context.get(accountContext);
  const form = await request.formData();
  switch (intentOf(form, INTENT)) {
    case INTENT.openPartner:
      break;
  }
  const submission = parseForm(form, schema);
  if (submission.status !== "success") throw refusal(404, "integrations.errors.unknownPartner");
  const platform = await getPlatform();
  const result = await openPartner(platform, account.id, submission.value.partner);
  switch (result.kind) {
    case "unknownPartner":
      throw refusal(404, "integrations.errors.unknownPartner");
    case "refused":
      return refuse(submission, { formErrors: [`integrations.errors.${result.message}`] });
    case "opened":
      // The partner's URL, from the provider (the sandbox's own page, or an https URL the HTTP adapter
      // checked), never from the form: not an internal redirect, hence not internalRedirect.
      return new Response(null, {
        status: 303,
        headers: { Location: result.url, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" },
      });
  }
}

export function ErrorBoundary() {
  const { t } = useTranslation();
  return <LoadFailure title={t("integrations.title")} />;
}

const SERVICES = [
  { id: "expenseRequests", to: "/plans/expense-requests", label: "plans.tabs.expenseRequests" },
  { id: "allowances", to: "/plans/allowances", label: "plans.tabs.allowances" },
] as const;

export default function IntegrationsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { services, partners } = loaderData;
  const shownServices = SERVICES.filter((service) => services[service.id]);
  const failure = actionData && "error" in actionData ? actionData.error?.[""]?.[0] : undefined;
  const failedPartner = actionData && "initialValue" in actionData ? actionData.initialValue?.partner : undefined;
  return (
    <>
      <DocumentTitle page={t("integrations.title")} error={failure !== undefined} />
      {failure ? (
        <div className="alert alert--error" role="alert">
          <p>
            {typeof failedPartner === "string" && partners.some((p) => p === failedPartner)
              ? t("integrations.failedPartner", { partner: t(`integrations.partners.${failedPartner}.name`) })
              : null}{" "}
            {t(failure)}
          </p>
        </div>
      ) : null}
      {shownServices.length === 0 && partners.length === 0 ? (
        <section className="panel" aria-labelledby="integrations-empty-title">
          <h2 id="integrations-empty-title">{t("integrations.title")}</h2>
          <p className="empty">{t("integrations.empty")}</p>
        </section>
      ) : null}
      {shownServices.length > 0 ? (
        <section className="panel" aria-labelledby="integrations-services-title">
          <h2 id="integrations-services-title">{t("integrations.services.title")}</h2>
          <ul className="integrations">
            {shownServices.map((service) => (
              <li key={service.id} className="integrations__item">
                <h3 className="integrations__name">{t(service.label)}</h3>
                <p className="hint">{t(`integrations.services.${service.id}`)}</p>
                <Link to={service.to} className="button button--secondary">
                  {t("integrations.services.open", { service: t(service.label) })}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {partners.length > 0 ? (
        <section className="panel" aria-labelledby="integrations-partners-title">
          <h2 id="integrations-partners-title">{t("integrations.partners.title")}</h2>
          <p className="hint">{t("integrations.partners.hint")}</p>
          <ul className="integrations">
            {partners.map((partner) => (
              <li key={partner} className="integrations__item">
                <h3 className="integrations__name">{t(`integrations.partners.${partner}.name`)}</h3>
                <p className="hint">{t(`integrations.partners.${partner}.description`)}</p>
                {/* A plain form, not <Form>: the browser posts it into a new tab, with or without JavaScript.
                    noopener, not noreferrer: without a referrer the post would carry `Origin: null`, refused (CSRF). */}
                <form
                  method="post"
                  target="_blank"
                  rel="noopener"
                  {...tagAttributes({ name: "clickPartner", properties: { partner } })}
                >
                  <input type="hidden" name="partner" value={partner} />
                  <button type="submit" name="intent" value={INTENT.openPartner} className="button">
                    {t("integrations.partners.open", { partner: t(`integrations.partners.${partner}.name`) })}
                    <span className="visually-hidden"> {t("integrations.partners.newTab")}</span>
                  </button>
                </form>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
