import { getFormProps } from "~/components/forms/useForm";
import { Form, Link } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/cookies";
import { choiceTarget, ErrorSummary, Radios, useForm } from "~/components/forms";
import { PublicPage } from "~/components/PublicShell";
import {
  CONSENT_INTENT,
  CONSENT_RETURN_FIELD,
  type ConsentChoice,
} from "~/domain/consent";
import { consentSchema, type ConsentForm } from "~/domain/consent-schemas";
import { formatDateTime } from "~/domain/dates";
import { getPlatform } from "~/.server/platform";
import { getConsent, identifyUser, saveConsent } from "~/.server/services/analytics";
import { currentUserId } from "~/routes/+shared/auth.server";
import { parseForm, refuse } from "~/routes/+shared/forms.server";
import { redirectWithFlash, refusal } from "~/routes/+shared/request.server";
import { bannerReturnPath, consentCookieHeader } from "~/routes/+shared/consent.server";
import { intentOf } from "~/routes/+shared/intents.server";
import type { InternalTarget } from "~/routes/+shared/redirects.server";

/**
 * Cookies (spec 001 §2.1, issue 16 §8): what the portal sets, and the signed-in person's recorded
 * choice for analytics and the tag manager — refused until they accept (CNIL). Reached from every
 * page's footer and the consent banner's "Personnaliser", signed in or not; before signing in no
 * analytics runs, so the detailed choice is for the signed-in (the banner's is for anyone, decision 0059).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const userId = await currentUserId(request);
  if (!userId) return { signedIn: false as const, consent: null };
  const { db } = await getPlatform();
  return { signedIn: true as const, consent: await getConsent(db, userId) };
}

export async function action({ request }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = intentOf(form, CONSENT_INTENT);
  const userId = await currentUserId(request);
  // The banner's two equal answers (decision 0059), signed in or not: back to the page it was on.
  if (intent !== CONSENT_INTENT.save) {
    const all = intent === CONSENT_INTENT.acceptAll;
    const to = bannerReturnPath(form.get(CONSENT_RETURN_FIELD));
    return decide(request, userId, { analytics: all, tagManager: all }, to);
  }
  if (!userId) throw refusal(403, "consent.signedOut");
  const submission = parseForm(form, consentSchema);
  if (submission.status !== "success") return refuse(submission);
  const choice = {
    analytics: submission.value.analytics === "accept",
    tagManager: submission.value.tagManager === "accept",
  };
  return decide(request, userId, choice, "/cookies");
}

/**
 * Records a choice: the account's (when signed in) and this browser's cookie, then a full page load of
 * `to` (reloadDocument): the tag manager's snippet and script start, or stop, with the new choice
 * (decision 0031), instead of staying in the page until the next one.
 */
async function decide(request: Request, userId: string | null, choice: ConsentChoice, to: InternalTarget) {
  const platform = await getPlatform();
  if (userId) {
    await saveConsent(platform.db, userId, choice);
    // PostHog's `identify` ties this person's events together: only now that they accepted.
    if (choice.analytics) await identifyUser(platform, userId);
  }
  const response = await redirectWithFlash(
    request,
    to,
    { kind: "success", message: "consent.saved" },
    { reloadDocument: true },
  );
  response.headers.append("Set-Cookie", consentCookieHeader(choice, platform.env));
  return response;
}

export default function Cookies({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { consent } = loaderData;
  const answer = (accepted: boolean) => (accepted ? "accept" : "refuse");
  const [form, fields] = useForm<ConsentForm>({
    id: "consent",
    lastResult: actionData,
    // Never chosen: no answer ticked (both are refused meanwhile), so that the choice is the person's own.
    defaultValue: consent?.decidedAt
      ? { analytics: answer(consent.analytics), tagManager: answer(consent.tagManager) }
      : {},
  });
  const options = [
    { value: "accept", label: t("consent.accept") },
    { value: "refuse", label: t("consent.refuse") },
  ];
  return (
    <PublicPage title={t("consent.title")} error={!form.valid}>
      <p>{t("consent.intro")}</p>
      <h2>{t("consent.necessaryTitle")}</h2>
      <p>{t("consent.necessaryText")}</p>
      <h2>{t("consent.analyticsTitle")}</h2>
      <p>{t("consent.analyticsText")}</p>
      <h2>{t("consent.tagManagerTitle")}</h2>
      <p>{t("consent.tagManagerText")}</p>
      {consent ? (
        <>
          <p id="consent-current">
            {consent.decidedAt
              ? `${t("consent.current", {
                  analytics: t(consent.analytics ? "consent.accepted" : "consent.refused"),
                  tagManager: t(consent.tagManager ? "consent.acceptedTag" : "consent.refusedTag"),
                })} ${t("consent.decidedAt", { date: formatDateTime(consent.decidedAt) })}`
              : t("consent.currentNever")}
          </p>
          <ErrorSummary
            form={form}
            fields={[
              { field: fields.analytics, target: choiceTarget(fields.analytics, options) },
              { field: fields.tagManager, target: choiceTarget(fields.tagManager, options) },
            ]}
          />
          {/* A full page load after saving, as the action answers (`decide`). */}
          <Form method="post" {...getFormProps(form)} noValidate reloadDocument>
            <Radios required field={fields.analytics} legend={t("consent.legendAnalytics")} options={options} />
            <Radios required field={fields.tagManager} legend={t("consent.legendTagManager")} options={options} />
            <div className="actions">
              <button type="submit" name="intent" value={CONSENT_INTENT.save} className="button">
                {t("consent.save")}
              </button>
              <Link to="/cards" className="link-action">
                {t("consent.back")}
              </Link>
            </div>
          </Form>
        </>
      ) : (
        <>
          <p>{t("consent.signedOut")}</p>
          <p>
            <Link to="/login" className="link-action">
              {t("consent.signIn")}
            </Link>
          </p>
        </>
      )}
    </PublicPage>
  );
}
