import { getFormProps } from "~/components/forms/useForm";
import { data, Form, Link } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/feedback";
import { ErrorSummary, TextArea, useForm } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { Panel } from "~/components/Panel";
import { feedbackSchema, MAX_FEEDBACK_LENGTH, type FeedbackForm } from "~/domain/feedback";
import { getPlatform, type Platform } from "~/.server/platform";
import { getConsent, recordEvent } from "~/.server/services/analytics";
import { accountContext } from "~/routes/+shared/auth.server";
import { parseForm, refuse } from "~/routes/+shared/forms.server";
import { intents } from "~/routes/+shared/intents";
import { intentOf } from "~/routes/+shared/intents.server";
import { internalRedirect } from "~/routes/+shared/redirects.server";
import { shownFromThisSite } from "~/routes/+shared/same-site.server";

const INTENT = intents("send", "dismiss");
const CLOSE_TO = "/cards" as const;

type SurveyState =
  | { kind: "noConsent" }
  | { kind: "surveyError" }
  | { kind: "noSurvey" }
  | { kind: "survey"; id: string; question: string };

/** Analytics must be configured (the user menu shows the entry only then): otherwise 404. */
async function requireAnalytics(): Promise<Platform & { analytics: NonNullable<Platform["analytics"]> }> {
  const platform = await getPlatform();
  if (!platform.analytics) throw data(null, { status: 404 });
  return platform as Platform & { analytics: NonNullable<Platform["analytics"]> };
}

/** The provider's active survey for this person; no call at all before they accept analytics (CNIL). */
async function surveyFor(platform: Awaited<ReturnType<typeof requireAnalytics>>, userId: string): Promise<SurveyState> {
  if (!(await getConsent(platform.db, userId)).analytics) return { kind: "noConsent" };
  try {
    const survey = await platform.analytics.activeSurvey();
    return survey ? { kind: "survey", ...survey } : { kind: "noSurvey" };
  } catch (err) {
    platform.logger.warn("survey not loaded", { error: String(err) });
    return { kind: "surveyError" };
  }
}

/**
 * The feedback survey (spec 000 §2, §7; issue 16 §6): a dialog route showing the analytics provider's
 * active survey. Its events — `survey shown`, `survey dismissed`, `survey sent` with the survey id and
 * the response — are recorded by the server, so they count without JavaScript.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const account = context.get(accountContext);
  const platform = await requireAnalytics();
  const survey = await surveyFor(platform, account.id);
  // A write on GET, on purpose (decision 0031): the panel being shown is the event, with or without JS;
  // not when another site links here (decision 0048), which the person did not choose to open.
  if (survey.kind === "survey" && shownFromThisSite(request))
    await recordEvent(platform, account.id, "survey shown", { surveyId: survey.id });
  return { survey, maxLength: MAX_FEEDBACK_LENGTH };
}

export async function action({ request, context }: Route.ActionArgs) {
  const account = context.get(accountContext);
  const platform = await requireAnalytics();
  const form = await request.formData();
  const intent = intentOf(form, INTENT);
  const survey = await surveyFor(platform, account.id);
  // Only the survey on screen can be answered or dismissed; anything else goes back to the panel's message.
  if (survey.kind !== "survey") throw internalRedirect("/feedback");
  switch (intent) {
    case INTENT.dismiss: {
      await recordEvent(platform, account.id, "survey dismissed", { surveyId: survey.id });
      return internalRedirect(CLOSE_TO);
    }
    case INTENT.send: {
      const submission = parseForm(form, feedbackSchema);
      if (submission.status !== "success") return refuse(submission);
      if (submission.value.surveyId !== survey.id)
        return refuse(submission, { formErrors: ["feedback.errors.survey"] });
      const sent = await recordEvent(platform, account.id, "survey sent", {
        surveyId: survey.id,
        response: submission.value.response,
      });
      if (sent.kind !== "recorded") return refuse(submission, { formErrors: ["feedback.sendFailed"] });
      // Thanks in the panel itself (a flash would be lost in /cards' own redirect to the first card).
      return { sent: true as const };
    }
  }
}

export default function Feedback({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { survey } = loaderData;
  const sent = actionData !== undefined && "sent" in actionData;
  const [form, fields] = useForm<FeedbackForm>({
    id: "feedback",
    lastResult: sent ? undefined : actionData,
    defaultValue: { surveyId: survey.kind === "survey" ? survey.id : "" },
  });
  return (
    <>
      {/* The page's one <h1> (RGAA 9.1): this route is only its dialog, over an empty page, when loaded directly. */}
      <PageHeader title={t("feedback.title")} namesDocument={false} />
      <Panel id="feedback" title={t("feedback.title")} closeTo={CLOSE_TO} error={!form.valid}>
        {sent ? (
          <>
            <div className="alert alert--success" role="status">
              <p>{t("feedback.thanks")}</p>
            </div>
          </>
        ) : survey.kind === "survey" ? (
          <>
            <ErrorSummary form={form} fields={[fields.response]} />
            <Form method="post" {...getFormProps(form)} noValidate>
              <input type="hidden" name={fields.surveyId.name} value={survey.id} />
              <TextArea
                required
                field={fields.response}
                label={survey.question}
                hint={t("feedback.hint", { max: loaderData.maxLength })}
                rows={5}
              />
              <div className="actions">
                <button type="submit" name="intent" value={INTENT.send} className="button">
                  {t("feedback.send")}
                </button>
                <button
                  type="submit"
                  name="intent"
                  value={INTENT.dismiss}
                  className="button button--secondary"
                  formNoValidate
                >
                  {t("feedback.dismiss")}
                </button>
              </div>
            </Form>
          </>
        ) : (
          <>
            <p role={survey.kind === "surveyError" ? "alert" : undefined}>{t(`feedback.${survey.kind}`)}</p>
            {survey.kind === "noConsent" ? (
              <p>
                <Link to="/cookies" className="link-action">
                  {t("feedback.toCookies")}
                </Link>
              </p>
            ) : null}
          </>
        )}
      </Panel>
    </>
  );
}
