import { getFormProps } from "~/components/forms/useForm";
import type { FormEvent, ReactNode } from "react";
import { Form, Link } from "react-router";
import { Waiting } from "~/components/Waiting";
import { useTranslation } from "~/i18n";
import { SUBSCRIPTION_MAX_PER_MONTH } from "~/domain/amount-bounds";
import { formatDate, parseDay } from "~/domain/dates";
import { formatCents } from "~/domain/money";
import type { SubscriptionDetailsForm } from "~/domain/subscription-schemas";
import {
  Checkbox,
  ErrorSummary,
  DateField,
  Field,
  RequiredNote,
  Select,
  SummaryRow,
  summaryRowFields,
  FileField,
  FormAlert,
  IntentButton,
  PayoutIbanField,
  UploadForm,
  useForm,
} from "~/components/forms";
import {
  SUBSCRIPTION_FILES,
  SUBSCRIPTION_INTENT,
  SUBSCRIPTION_READ_FIELDS,
  SUBSCRIPTION_STEPS,
  type StoredFileView,
  type SubscriptionFile,
  type SubscriptionReadField,
  type SubscriptionStep,
  type SubscriptionStepView,
  type SubscriptionView,
} from "./subscription";
import { BackOrCancel, ContinueActions, FlowSteps, type StepReply } from "./FlowParts";

/**
 * The subscription wizard's steps (spec 001 §2.7, issue 15 item 4) inside the allowance wizard's panel:
 * plain forms posting to the step's own URL, validated on the server; conform shows the server's answer.
 * With JavaScript the tickets are sent with their progress shown (UploadForm); without it, as a plain multipart form.
 */

type StepOf<S extends SubscriptionStep> = Extract<SubscriptionStepView, { step: S }>;

interface StepProps<S extends SubscriptionStep> {
  wizard: SubscriptionView;
  view: StepOf<S>;
  lastResult: StepReply;
}

export function SubscriptionSteps({ wizard, lastResult }: { wizard: SubscriptionView; lastResult: StepReply }) {
  const { view } = wizard;
  if (wizard.noGroup) return <NoGroup wizard={wizard} />;
  return (
    <FlowSteps
      wizard={wizard}
      steps={SUBSCRIPTION_STEPS}
      words="subscriptionWizard"
      part="subscription"
      headingId="subscription-wizard-step"
      // The details step starts its form again itself, under its reading's live region (which must stay put).
      formState={view.step === "details" ? view.step : view}
    >
      {view.step === "intro" ? <IntroStep wizard={wizard} view={view} lastResult={lastResult} /> : null}
      {view.step === "tickets" ? <TicketsStep wizard={wizard} view={view} lastResult={lastResult} /> : null}
      {view.step === "details" ? <DetailsStep wizard={wizard} view={view} lastResult={lastResult} /> : null}
      {view.step === "summary" ? <SummaryStep wizard={wizard} view={view} lastResult={lastResult} /> : null}
    </FlowSteps>
  );
}

function NoGroup({ wizard }: { wizard: SubscriptionView }) {
  const { t } = useTranslation();
  return (
    <div className="refund-wizard" data-wizard-part="subscription">
      <p className="alert alert--warning">{t("subscriptionWizard.noGroupSubscription")}</p>
      <p>
        <Link to={wizard.closeTo} className="link-action" preventScrollReset>
          {t("subscriptionWizard.cancel")}
        </Link>
      </p>
    </div>
  );
}

/** Back (or, on the first step, Cancel: the close link). */
function BackLink({ wizard }: { wizard: SubscriptionView }) {
  return <BackOrCancel wizard={wizard} words="subscriptionWizard" />;
}

/** Continue (or the step's own word for it), and Back. */
function Actions({ wizard, submit }: { wizard: SubscriptionView; submit?: ReactNode }) {
  return (
    <ContinueActions wizard={wizard} words="subscriptionWizard" intent={SUBSCRIPTION_INTENT.continue} submit={submit} />
  );
}

function IntroStep({ wizard, view }: StepProps<"intro">) {
  const { t } = useTranslation();
  return (
    <>
      <p>{t("subscriptionWizard.intro.what")}</p>
      <ul>
        {view.groups.map((g) => (
          <li key={g.id}>{t("subscriptionWizard.intro.share", { group: g.name, percentage: g.percentage })}</li>
        ))}
      </ul>
      <p>{t("subscriptionWizard.intro.law")}</p>
      <p>{t("subscriptionWizard.intro.documents")}</p>
      <Form method="post" action={wizard.paths.intro} preventScrollReset>
        <Actions wizard={wizard} submit={t("subscriptionWizard.intro.start")} />
      </Form>
    </>
  );
}

function StoredFile({ file, label }: { file: StoredFileView; label: string }) {
  const { t } = useTranslation();
  return (
    <>
      <a href={file.href}>{label}</a>{" "}
      <span className="hint">
        {file.fileName} ({t("subscriptionWizard.tickets.size", { kb: Math.max(1, Math.round(file.size / 1000)) })})
      </span>
    </>
  );
}

function TicketsStep({ wizard, view, lastResult }: StepProps<"tickets">) {
  const { t } = useTranslation();
  const [form, fields] = useForm<{ media: string; second_media: string }>({ id: "subscription-tickets", lastResult });
  const labels: Record<SubscriptionFile, string> = {
    media: t("subscriptionWizard.tickets.media"),
    second_media: t("subscriptionWizard.tickets.secondMedia"),
  };
  const hints: Record<SubscriptionFile, string> = {
    media: t("subscriptionWizard.tickets.mediaHint"),
    second_media: t("subscriptionWizard.tickets.secondMediaHint"),
  };
  const empty = SUBSCRIPTION_FILES.filter((slot) => !view.files[slot]);
  const stored = SUBSCRIPTION_FILES.filter((slot) => view.files[slot]);
  return (
    <>
      <FormAlert errors={form.errors} />
      <ErrorSummary form={form} fields={[fields.media, fields.second_media]} />
      <p>{t("subscriptionWizard.tickets.intro")}</p>
      {stored.length > 0 ? (
        <ul className="refund-receipts" aria-label={t("subscriptionWizard.tickets.added")}>
          {stored.map((slot) => (
            <li key={slot}>
              <StoredFile file={view.files[slot]!} label={labels[slot]} />
              <Form method="post" action={wizard.paths.tickets} className="inline-form" preventScrollReset>
                <input type="hidden" name="slot" value={slot} />
                <IntentButton value={SUBSCRIPTION_INTENT.removeFile} secondary>
                  {t("subscriptionWizard.tickets.remove")}
                  <span className="visually-hidden"> : {labels[slot]}</span>
                </IntentButton>
              </Form>
            </li>
          ))}
        </ul>
      ) : null}
      {empty.length > 0 ? (
        <UploadForm action={wizard.paths.tickets} {...getFormProps(form)} preventScrollReset>
          {empty.map((slot) => (
            <FileField key={slot} field={fields[slot]} label={labels[slot]} hint={hints[slot]} />
          ))}
          <div className="actions">
            <IntentButton value={SUBSCRIPTION_INTENT.upload}>
              {empty.length === 2 ? t("subscriptionWizard.tickets.uploadBoth") : t("subscriptionWizard.tickets.upload")}
            </IntentButton>
            {stored.length === 0 ? <BackLink wizard={wizard} /> : null}
          </div>
        </UploadForm>
      ) : null}
      {stored.length > 0 ? (
        <Form method="post" action={wizard.paths.tickets} className="actions" preventScrollReset>
          {empty.length === 0 ? (
            <IntentButton value={SUBSCRIPTION_INTENT.continue}>{t("subscriptionWizard.continue")}</IntentButton>
          ) : null}
          <IntentButton value={SUBSCRIPTION_INTENT.resetFiles} secondary>
            {t("subscriptionWizard.tickets.reset")}
          </IntentButton>
          <BackLink wizard={wizard} />
        </Form>
      ) : null}
    </>
  );
}

/**
 * While the documents are read (decision 0056): with JavaScript the step looks again every 2 s; without it the
 * page reloads itself every 20 s at the fastest, with a link to look now (decision 0067), and one to go on
 * without waiting. Once read, the same live region says so; a refused answer shows its form with its errors
 * (and its own line about what was read, under them), even while a document is still being read.
 */
function DetailsStep({ wizard, view, lastResult }: StepProps<"details">) {
  const { t } = useTranslation();
  const waiting = view.reading === "pending" && !lastResult;
  const read = !lastResult && SUBSCRIPTION_READ_FIELDS.some((name) => view.read[name]);
  return (
    <>
      <Waiting seconds={2} checkNowTo={wizard.paths.details} done={!waiting}>
        {waiting || read ? (
          <p className="alert alert--info">
            {t(waiting ? "subscriptionWizard.details.reading" : "subscriptionWizard.details.readDone")}
          </p>
        ) : null}
      </Waiting>
      {waiting ? (
        <p>
          <Link to={view.skipReading} className="link-action" preventScrollReset>
            {t("subscriptionWizard.details.skipReading")}
          </Link>
        </p>
      ) : (
        <DetailsForm key={JSON.stringify(view)} wizard={wizard} view={view} lastResult={lastResult} />
      )}
    </>
  );
}

function DetailsForm({ wizard, view, lastResult }: StepProps<"details">) {
  const { t } = useTranslation();
  const [form, fields] = useForm<SubscriptionDetailsForm>({
    id: "subscription-details",
    lastResult,
    defaultValue: view.values,
  });
  // Marked as read while the field holds the value read (not once the person typed or sent another).
  const read = (name: SubscriptionReadField) => view.read[name] && fields[name].value === view.values[name];
  const anyRead = SUBSCRIPTION_READ_FIELDS.some(read);
  /** A field read on a document says so first in its hint (its description), and is outlined. */
  const marked = (name: SubscriptionReadField, hint: string) =>
    read(name) ? `${t("subscriptionWizard.details.read")} ${hint}` : hint;
  const readClass = (name: SubscriptionReadField) => (read(name) ? "subscription-read" : undefined);
  const single = view.groups.length === 1 ? view.groups[0]! : null;
  /** Spec 001 §5: a start moved after the end moves the end (with JS; without it the server says so). */
  const followStart = (event: FormEvent<HTMLFormElement>) => {
    const target = event.target;
    if (!(target instanceof HTMLInputElement) || target.name !== fields.start_at.name) return;
    const end = event.currentTarget.elements.namedItem(fields.ends_at.name);
    if (!(end instanceof HTMLInputElement)) return;
    const startDay = parseDay(target.value);
    const endDay = parseDay(end.value);
    if (startDay && endDay && endDay < startDay) end.value = target.value;
  };
  return (
    <>
      <ErrorSummary
        form={form}
        fields={[fields.group_id, fields.start_at, fields.ends_at, fields.amount, fields.iban_choice, fields.iban]}
      />
      {lastResult && anyRead ? <p className="alert alert--info">{t("subscriptionWizard.details.readDone")}</p> : null}
      <Form
        method="post"
        action={wizard.paths.details}
        {...getFormProps(form)}
        onChange={followStart}
        preventScrollReset
      >
        <RequiredNote />
        {single ? (
          <>
            <input type="hidden" name={fields.group_id.name} value={single.id} />
            <p>{t("subscriptionWizard.details.groupOnly", { group: single.name, percentage: single.percentage })}</p>
          </>
        ) : (
          <Select
            required
            field={fields.group_id}
            label={t("subscriptionWizard.details.group")}
            options={[
              { value: "", label: t("subscriptionWizard.details.groupChoose") },
              ...view.groups.map((g) => ({
                value: g.id,
                label: t("subscriptionWizard.details.groupOption", { group: g.name, percentage: g.percentage }),
              })),
            ]}
          />
        )}
        <DateField
          required
          field={fields.start_at}
          label={t("subscriptionWizard.details.startAt")}
          className={readClass("start_at")}
          hint={marked(
            "start_at",
            t("subscriptionWizard.details.startHint", {
              min: formatDate(view.startMin),
              max: formatDate(view.endMax),
            }),
          )}
        />
        <DateField
          required
          field={fields.ends_at}
          label={t("subscriptionWizard.details.endsAt")}
          className={readClass("ends_at")}
          hint={marked("ends_at", t("subscriptionWizard.details.endHint", { max: formatDate(view.endMax) }))}
        />
        <Field
          required
          field={fields.amount}
          label={t("subscriptionWizard.details.amount")}
          className={readClass("amount")}
          hint={marked(
            "amount",
            t("subscriptionWizard.details.amountHint", { max: formatCents(SUBSCRIPTION_MAX_PER_MONTH) }),
          )}
          autoComplete="off"
          inputMode="decimal"
        />
        <PayoutIbanField fields={fields} savedLastFour={view.savedLastFour} words="subscriptionWizard" />
        <Actions wizard={wizard} />
      </Form>
    </>
  );
}

/** The summary's rows whose errors mark them red (spec 001 §2.7); any other error is a warning above. */
const ROW_ERRORS = ["start_at", "ends_at", "iban"] as const;

function SummaryStep({ wizard, view, lastResult }: StepProps<"summary">) {
  const { t } = useTranslation();
  const [form, fields] = useForm<{ sworn_statement: string }>({ id: "subscription-summary", lastResult });
  // The platform's refusals: those of the simulation on load, then those of a refused confirmation.
  const errors: Record<string, string[]> = { ...view.problems, ...form.allErrors };
  const warnings = Object.entries(errors)
    .filter(([key]) => !(ROW_ERRORS as readonly string[]).includes(key) && key !== fields.sworn_statement.name)
    .flatMap(([, messages]) => messages);
  const row = (key: string, label: string, value: ReactNode, edit: SubscriptionStep | null, errorName?: string) => (
    <SummaryRow
      id={`subscription-summary-${key}`}
      label={label}
      value={value}
      errors={errorName ? (errors[errorName] ?? []) : []}
      edit={edit ? { to: wizard.paths[edit], label: t("subscriptionWizard.summary.edit") } : null}
    />
  );
  const rowFields = summaryRowFields("subscription-summary-", errors, ROW_ERRORS);
  const sim = view.simulation;
  return (
    <>
      <FormAlert errors={[...new Set([...(form.errors ?? []), ...warnings])]} kind="warning" />
      <ErrorSummary form={undefined} fields={[...rowFields, fields.sworn_statement]} />
      <h4>{t("subscriptionWizard.summary.title")}</h4>
      <dl className="summary-list">
        {row("group", t("subscriptionWizard.summary.group"), view.groupName, "details")}
        {row(
          "start_at",
          t("subscriptionWizard.summary.startAt"),
          view.startAt ? formatDate(view.startAt) : "",
          "details",
          "start_at",
        )}
        {row(
          "ends_at",
          t("subscriptionWizard.summary.endsAt"),
          view.endsAt ? formatDate(view.endsAt) : "",
          "details",
          "ends_at",
        )}
        {row("amount", t("subscriptionWizard.summary.amount"), formatCents(view.amount), "details")}
        {sim
          ? row(
              "allowance",
              t("subscriptionWizard.summary.allowance"),
              <>
                {t("subscriptionWizard.summary.allowanceValue", {
                  allowance: formatCents(sim.allowance),
                  percentage: sim.percentage,
                  amount: formatCents(view.amount),
                })}
                {sim.shareLowered ? (
                  <span className="hint">
                    {" "}
                    {t("subscriptionWizard.summary.shareLowered", { percentage: sim.percentage })}
                  </span>
                ) : null}
              </>,
              null,
            )
          : null}
        {sim
          ? row(
              "monthly",
              t("subscriptionWizard.summary.monthly"),
              t("subscriptionWizard.summary.monthlyValue", {
                amount: formatCents(sim.perMonth),
                months: sim.numberOfMonths,
              }),
              null,
            )
          : null}
        {row(
          "iban",
          t("subscriptionWizard.summary.iban"),
          view.ibanLastFour ? t("subscriptionWizard.summary.ibanMasked", { lastFour: view.ibanLastFour }) : "",
          "details",
          "iban",
        )}
        {row(
          "documents",
          t("subscriptionWizard.summary.documents"),
          <ul className="inline-links">
            {SUBSCRIPTION_FILES.map((slot) =>
              view.files[slot] ? (
                <li key={slot}>
                  <a href={view.files[slot].href}>
                    {t(
                      slot === "media" ? "subscriptionWizard.tickets.media" : "subscriptionWizard.tickets.secondMedia",
                    )}
                  </a>
                </li>
              ) : null,
            )}
          </ul>,
          "tickets",
        )}
      </dl>
      <Form method="post" action={wizard.paths.summary} {...getFormProps(form)} preventScrollReset>
        <Checkbox field={fields.sworn_statement} label={t("subscriptionWizard.summary.swornStatement")} />
        <div className="actions">
          <IntentButton value={SUBSCRIPTION_INTENT.confirm}>{t("subscriptionWizard.summary.confirm")}</IntentButton>
          <BackLink wizard={wizard} />
        </div>
      </Form>
    </>
  );
}
