import { getFormProps } from "~/components/forms/useForm";
import { type SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { useTranslation } from "~/i18n";
import { REFUND_MAX_AMOUNT } from "~/domain/amount-bounds";
import { formatDate } from "~/domain/dates";
import { formatCents } from "~/domain/money";
import type { RefundStep } from "~/domain/refunds";
import {
  Checkbox,
  ErrorSummary,
  DateField,
  Field,
  RequiredNote,
  Radios,
  choiceTarget,
  type FieldMeta,
  useForm,
} from "~/components/forms";
import {
  FileField,
  FormAlert,
  IntentButton as WizardButton,
  PayoutIbanField,
  SummaryRow,
  UploadForm,
} from "~/components/forms";
import { NewTabLink } from "~/components/NewTabLink";
import { Waiting } from "~/components/Waiting";
import { PartnerPicker, partnerSummaryField } from "./PartnerPicker";
import { WIZARD_INTENT, type StepView, type WizardActionData, type WizardView } from "./wizard";

/**
 * The refund wizard's steps (spec 001 §2.6): plain forms posting to the step's own URL, validated on the
 * server (decision 0008); conform shows the server's answer. Used by routes/refunds/wizard.tsx.
 */

type StepOf<S extends RefundStep> = Extract<StepView, { step: S }>;

interface StepProps<S extends RefundStep> {
  wizard: WizardView;
  view: StepOf<S>;
  lastResult: SubmissionResult<string[]> | undefined;
}

export function RefundWizard({ wizard, actionData }: { wizard: WizardView; actionData: WizardActionData | undefined }) {
  if (wizard.confirmClose) return <CloseConfirmation wizard={wizard} />;
  // An answer for another step than the one shown (an old tab) is not this form's.
  const lastResult = actionData?.step === wizard.step ? actionData.lastResult : undefined;
  const { view } = wizard;
  // conform keeps a form's first defaults: new ones from the loader (a search) start it again. The details
  // step does so itself under its reading's live region, which must stay in place to be heard (and the
  // heading, which may have focus, with it).
  const key = view.step === "details" ? view.step : JSON.stringify(view);
  return (
    <div className="refund-wizard" key={key}>
      <StepHeading wizard={wizard} />
      <StepForm wizard={wizard} view={view} lastResult={lastResult} />
    </div>
  );
}

/** The form of the step shown, given its own view: one component a step. */
function StepForm({ wizard, view, lastResult }: StepProps<RefundStep>) {
  // The map pairs each step with its component; TypeScript cannot follow that pairing through `view.step`.
  const Step = STEP_FORMS[view.step] as (props: StepProps<RefundStep>) => ReactNode;
  return <Step wizard={wizard} view={view} lastResult={lastResult} />;
}

function StepHeading({ wizard }: { wizard: WizardView }) {
  const { t } = useTranslation();
  const position = wizard.numbered.indexOf(wizard.step);
  const title = t(`refundWizard.steps.${wizard.step}`);
  return (
    <h3 className="card-wizard__step" id="refund-wizard-step">
      {position >= 0
        ? t("refundWizard.stepOf", { current: position + 1, total: wizard.numbered.length, title })
        : title}
    </h3>
  );
}

function IntentButton({
  intent,
  children,
  secondary = false,
}: {
  intent: keyof typeof WIZARD_INTENT;
  children: ReactNode;
  secondary?: boolean;
}) {
  return (
    <WizardButton value={WIZARD_INTENT[intent]} secondary={secondary}>
      {children}
    </WizardButton>
  );
}

/** Continue, and Back (or, on the first step, Cancel: the close link). */
function Actions({ wizard, submit }: { wizard: WizardView; submit?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="actions">
      <IntentButton intent="continue">{submit ?? t("refundWizard.continue")}</IntentButton>
      {wizard.back ? (
        <Link to={wizard.back} className="link-action" preventScrollReset>
          {t("refundWizard.back")}
        </Link>
      ) : (
        <Link to={wizard.closeTo} className="link-action" preventScrollReset>
          {t("refundWizard.cancel")}
        </Link>
      )}
    </div>
  );
}

function TypeStep({ wizard, view, lastResult }: StepProps<"type">) {
  const { t } = useTranslation();
  const [form, fields] = useForm<{ type_id: string }>({
    id: "refund-type",
    lastResult,
    defaultValue: { type_id: view.typeId ?? undefined },
  });
  const options = view.types.map((type) => ({
    value: type.id,
    label: type.name,
    disabled: type.disabled,
    hint: type.disabled ? t("refundWizard.type.disabled") : undefined,
    hintUnavailable: type.disabled,
  }));
  return (
    <>
      <ErrorSummary form={form} fields={[{ field: fields.type_id, target: choiceTarget(fields.type_id, options) }]} />
      <p>{t("refundWizard.type.intro")}</p>
      <p>
        <NewTabLink href={view.faqUrl}>{t("refundWizard.type.faq")}</NewTabLink>
      </p>
      <Form method="post" action={wizard.here} {...getFormProps(form)} preventScrollReset>
        <Radios required field={fields.type_id} legend={t("refundWizard.type.legend")} options={options} />
        <Actions wizard={wizard} />
      </Form>
    </>
  );
}

function PreambleStep({ wizard, view }: StepProps<"preamble">) {
  const { t } = useTranslation();
  return (
    <>
      <p>{t("refundWizard.preamble.intro")}</p>
      {view.licences.map((licence) => (
        <Form method="post" action={wizard.here} key={licence.id} className="actions" preventScrollReset>
          <input type="hidden" name="licence" value={licence.id} />
          <IntentButton intent="createWallet">
            {t("refundWizard.preamble.create", { group: licence.groupName })}
          </IntentButton>
        </Form>
      ))}
      <Form method="post" action={wizard.here} className="actions" preventScrollReset>
        <IntentButton intent="skipPreamble" secondary>
          {t("refundWizard.preamble.skip")}
        </IntentButton>
        {wizard.back ? (
          <Link to={wizard.back} className="link-action" preventScrollReset>
            {t("refundWizard.back")}
          </Link>
        ) : null}
      </Form>
    </>
  );
}

function MobilityStep({ wizard, view, lastResult }: StepProps<"mobility">) {
  const { t } = useTranslation();
  const [form, fields] = useForm<{ subtype: string }>({
    id: "refund-mobility",
    lastResult,
    defaultValue: { subtype: view.subtype ?? undefined },
  });
  const options = view.groups.flatMap((group) =>
    group.subtypes.map((s) => ({
      value: s.id,
      label: t(`refundWizard.mobility.subtypes.${s.id}`),
      hint: s.allowance
        ? t("refundWizard.mobility.allowanceHint", { group: t(`refundWizard.mobility.groups.${group.id}`) })
        : t(`refundWizard.mobility.groups.${group.id}`),
    })),
  );
  return (
    <>
      <ErrorSummary form={form} fields={[{ field: fields.subtype, target: choiceTarget(fields.subtype, options) }]} />
      <Form method="post" action={wizard.here} {...getFormProps(form)} preventScrollReset>
        <Radios
          required
          field={fields.subtype}
          legend={t("refundWizard.mobility.legend")}
          hint={t("refundWizard.mobility.hint")}
          options={options}
        />
        <Actions wizard={wizard} />
      </Form>
    </>
  );
}

function Guidance() {
  const { t } = useTranslation();
  return (
    <div className="refund-guidance">
      <p>{t("refundWizard.ticket.counts")}</p>
      <ul>
        <li>{t("refundWizard.ticket.countsInvoices")}</li>
        <li>{t("refundWizard.ticket.countsTickets")}</li>
      </ul>
      <p>{t("refundWizard.ticket.doesNotCount")}</p>
      <ul>
        <li>{t("refundWizard.ticket.notEmails")}</li>
        <li>{t("refundWizard.ticket.notQuotes")}</li>
      </ul>
    </div>
  );
}

function TicketStep({ wizard, view, lastResult }: StepProps<"ticket">) {
  const { t } = useTranslation();
  const [form, fields] = useForm<{ receipt: string }>({ id: "refund-ticket", lastResult });
  const count = view.receipts.length;
  return (
    <>
      <ErrorSummary form={form} fields={[fields.receipt]} />
      <Guidance />
      {count > 0 ? (
        <ul className="refund-receipts" aria-label={t("refundWizard.ticket.added")}>
          {view.receipts.map((receipt, index) => (
            <li key={receipt.id}>
              <a href={receipt.href}>{t("refundWizard.ticket.receiptN", { n: index + 1 })}</a>{" "}
              <span className="hint">
                {receipt.fileName} (
                {t("refundWizard.ticket.size", { kb: Math.max(1, Math.round(receipt.size / 1000)) })})
              </span>
              {receipt.usedElsewhereOn ? (
                <p className="alert alert--warning">
                  {t("refundWizard.ticket.usedElsewhere", { date: formatDate(receipt.usedElsewhereOn) })}
                </p>
              ) : null}
              <Form method="post" action={wizard.here} className="inline-form" preventScrollReset>
                <input type="hidden" name="file" value={receipt.id} />
                <IntentButton intent="removeFile" secondary>
                  {t("refundWizard.ticket.remove", { n: index + 1 })}
                </IntentButton>
              </Form>
            </li>
          ))}
        </ul>
      ) : null}
      {count < 2 ? (
        <UploadForm action={wizard.here} {...getFormProps(form)} preventScrollReset>
          <FileField
            field={fields.receipt}
            label={count === 0 ? t("refundWizard.ticket.label") : t("refundWizard.ticket.secondLabel")}
            hint={t("refundWizard.ticket.hint")}
          />
          <div className="actions">
            <IntentButton intent="upload" secondary={count > 0}>
              {count === 0 ? t("refundWizard.ticket.upload") : t("refundWizard.ticket.uploadSecond")}
            </IntentButton>
          </div>
        </UploadForm>
      ) : null}
      {count > 0 ? (
        <Form method="post" action={wizard.here} preventScrollReset>
          <Actions wizard={wizard} />
        </Form>
      ) : (
        <div className="actions">
          {wizard.back ? (
            <Link to={wizard.back} className="link-action" preventScrollReset>
              {t("refundWizard.back")}
            </Link>
          ) : null}
        </div>
      )}
    </>
  );
}

/**
 * While the receipt is read: with JavaScript the step looks again every 2 s; without it the page reloads itself
 * every 20 s at the fastest, with a link to look now (decision 0067). Once read, the same live region says so,
 * and the form starts from what was read; a refused answer shows its errors first, and says it under them.
 */
function DetailsStep({ wizard, view, lastResult }: StepProps<"details">) {
  const { t } = useTranslation();
  // A refused answer is shown even while the reading is pending: the person chose « Continuer sans attendre »
  // and the refusal comes back to the step's address without that choice (RGAA 11.10: errors with the form).
  const waiting = view.reading === "pending" && !lastResult;
  return (
    <>
      <Waiting seconds={2} checkNowTo={wizard.here} done={!waiting}>
        {waiting || (view.reading === "done" && !lastResult) ? (
          <div className="alert alert--info">
            <p>{t(waiting ? "refundWizard.details.reading" : "refundWizard.details.readDone")}</p>
          </div>
        ) : null}
      </Waiting>
      {waiting ? (
        <p>
          <Link to={view.skipReading} className="link-action" preventScrollReset>
            {t("refundWizard.details.skipReading")}
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
  const [form, fields] = useForm<{ partner_id: string; ticket_date: string; amount: string }>({
    id: "refund-details",
    lastResult,
    defaultValue: view.values,
  });
  const read = t("refundWizard.details.read");
  return (
    <>
      <ErrorSummary
        form={form}
        fields={[partnerSummaryField(fields.partner_id, view.results, view.partner), fields.ticket_date, fields.amount]}
      />
      {view.reading === "done" && lastResult ? (
        <div className="alert alert--info">
          <p>{t("refundWizard.details.readDone")}</p>
        </div>
      ) : null}
      <Form method="post" action={wizard.here} {...getFormProps(form)} preventScrollReset>
        <RequiredNote />
        <PartnerPicker
          field={fields.partner_id}
          query={view.query}
          results={view.results}
          selected={view.partner}
          limit={view.limit}
          suggestHref={view.suggestEstablishment}
          hint={view.suggested.partner ? read : undefined}
        />
        <DateField
          required
          field={fields.ticket_date}
          label={t("refundWizard.details.date")}
          hint={`${t("refundWizard.details.dateHint")}${view.suggested.ticketDate ? ` — ${read}` : ""}.`}
        />
        <Field
          required
          field={fields.amount}
          label={t("refundWizard.details.amount")}
          hint={`${t("refundWizard.details.amountHint", { max: formatCents(REFUND_MAX_AMOUNT) })}${view.suggested.amount ? ` — ${read}` : ""}`}
          autoComplete="off"
          inputMode="decimal"
        />
        <Actions wizard={wizard} />
      </Form>
    </>
  );
}

type MethodsForm = {
  payment_methods: { wallet_id: string; amount: string }[];
  iban_choice: string;
  iban: string;
  save_iban: string;
};

function MethodsStep({ wizard, view, lastResult }: StepProps<"methods">) {
  const { t } = useTranslation();
  const [form, fields] = useForm<MethodsForm>({
    id: "refund-methods",
    lastResult,
    defaultValue: {
      payment_methods: view.wallets.map((w, i) => ({ wallet_id: w.id, amount: view.values.amounts[i] ?? "" })),
      iban_choice: view.values.iban_choice,
      iban: view.values.iban,
      save_iban: view.values.save_iban,
    },
  });
  const items = fields.payment_methods.getFieldList();
  const amounts = view.wallets.map((wallet, i) => ({ wallet, field: items[i]?.getFieldset().amount }));
  const formError = form.errors?.[0];
  if (view.wallets.length === 0)
    return (
      <>
        <p className="alert alert--warning">{t("refundWizard.methods.noWallet")}</p>
        {wizard.back ? (
          <p>
            <Link to={wizard.back} className="link-action">
              {t("refundWizard.back")}
            </Link>
          </p>
        ) : null}
      </>
    );
  return (
    <>
      <ErrorSummary
        form={form}
        fields={[...amounts.flatMap(({ field }) => (field ? [field] : [])), fields.iban_choice, fields.iban]}
        formTarget="refund-methods-amounts"
      />
      <Form method="post" action={wizard.here} {...getFormProps(form)} preventScrollReset>
        <fieldset
          className={`fieldset${formError ? " field--error" : ""}`}
          id="refund-methods-amounts"
          aria-invalid={formError ? true : undefined}
          aria-describedby={formError ? "refund-methods-total-error" : undefined}
        >
          <legend>{t("refundWizard.methods.legend", { amount: formatCents(view.amount) })}</legend>
          {formError ? (
            <p className="field__error" id="refund-methods-total-error">
              <span className="visually-hidden">{t("errors.prefix")}</span>
              {t(formError)}
            </p>
          ) : null}
          {amounts.map(({ wallet, field }, i) =>
            field ? (
              <div key={wallet.id}>
                <input type="hidden" name={`payment_methods[${i}].wallet_id`} value={wallet.id} />
                <Field
                  field={field}
                  label={t("refundWizard.methods.amountFor", {
                    wallet: wallet.name,
                    type: t(`wallets.types.${wallet.walletType}`, { defaultValue: wallet.walletType }),
                  })}
                  hint={
                    wallet.available === null
                      ? t("refundWizard.methods.unlimited")
                      : t("refundWizard.methods.available", { amount: formatCents(wallet.available) })
                  }
                  inputMode="decimal"
                  autoComplete="off"
                  optional
                />
              </div>
            ) : null,
          )}
        </fieldset>
        <PayoutIbanField fields={fields} savedLastFour={view.savedLastFour} words="refundWizard" />
        <Actions wizard={wizard} />
      </Form>
    </>
  );
}

function SummaryStep({ wizard, view, lastResult }: StepProps<"summary">) {
  const { t } = useTranslation();
  const [form, fields] = useForm<{ sworn_statement: string; sworn_name: string }>({ id: "refund-summary", lastResult });
  const errors = form.allErrors;
  /** A row of the summary, with the platform's errors for it (spec 001 §8: "highlighted" on their rows). */
  const row = (key: string, label: string, value: ReactNode, edit: RefundStep | null, errorNames: string[] = [key]) => (
    <SummaryRow
      id={`refund-summary-${key}`}
      label={label}
      value={value}
      errors={errorNames.flatMap((name) => errors[name] ?? [])}
      edit={
        edit && wizard.draftId
          ? {
              to: `${wizard.base}?draft=${encodeURIComponent(wizard.draftId)}&step=${edit}`,
              label: t("refundWizard.summary.edit"),
            }
          : null
      }
    />
  );
  const rowErrorFields = (names: string[], key: string): FieldMeta[] =>
    names
      .filter((name) => errors[name]?.length)
      .map((name) => ({
        id: `refund-summary-${key}`,
        name,
        errorId: `refund-summary-${key}-error`,
        errors: errors[name],
      }));
  const methodNames = view.methods.map((_, i) => `payment_methods[${i}].amount`);
  return (
    <>
      <FormAlert errors={form.errors} />
      <ErrorSummary
        form={undefined}
        fields={[
          ...rowErrorFields(["partner_id"], "partner"),
          ...rowErrorFields(["ticket_date"], "date"),
          ...rowErrorFields(["amount"], "amount"),
          ...rowErrorFields(["media"], "receipts"),
          ...rowErrorFields(["payment_methods", ...methodNames], "methods"),
          ...rowErrorFields(["iban"], "iban"),
          fields.sworn_statement,
          fields.sworn_name,
        ]}
      />
      <h4>{t("refundWizard.summary.title")}</h4>
      <dl className="summary-list">
        {wizard.editing ? null : row("type", t("refundWizard.summary.type"), view.typeName, "type")}
        {row(
          "receipts",
          t("refundWizard.summary.receipts"),
          <ul className="inline-links">
            {view.receipts.map((r, i) => (
              <li key={r.id}>
                <a href={r.href}>{t("refundWizard.ticket.receiptN", { n: i + 1 })}</a>
              </li>
            ))}
          </ul>,
          "ticket",
          ["media"],
        )}
        {row("partner", t("refundWizard.summary.partner"), view.partnerName, "details", ["partner_id"])}
        {row("date", t("refundWizard.summary.date"), view.ticketDate ? formatDate(view.ticketDate) : "", "details", [
          "ticket_date",
        ])}
        {row("amount", t("refundWizard.summary.amount"), formatCents(view.amount), "details")}
        {row(
          "methods",
          t("refundWizard.summary.methods"),
          <ul>
            {view.methods.map((m) => (
              <li key={m.walletId}>
                {t("refundWizard.summary.method", {
                  wallet: m.name,
                  type: t(`wallets.types.${m.walletType}`, { defaultValue: m.walletType }),
                  amount: formatCents(m.amount),
                })}
              </li>
            ))}
          </ul>,
          "methods",
          ["payment_methods", ...methodNames],
        )}
        {row(
          "iban",
          t("refundWizard.summary.iban"),
          view.ibanLastFour
            ? t(`refundWizard.methods.account.${view.ibanSource ?? "saved"}`, { lastFour: view.ibanLastFour })
            : "",
          "methods",
        )}
      </dl>
      <Form method="post" action={wizard.here} {...getFormProps(form)} preventScrollReset>
        <Checkbox field={fields.sworn_statement} label={t("refundWizard.summary.swornStatement")} />
        {view.swornName ? (
          <Field
            required
            field={fields.sworn_name}
            label={t("refundWizard.summary.swornName")}
            hint={t("refundWizard.summary.swornNameHint")}
            autoComplete="name"
          />
        ) : null}
        <div className="actions">
          <IntentButton intent="send">
            {wizard.editing ? t("refundWizard.summary.update") : t("refundWizard.summary.send")}
          </IntentButton>
          {wizard.back ? (
            <Link to={wizard.back} className="link-action" preventScrollReset>
              {t("refundWizard.back")}
            </Link>
          ) : null}
        </div>
      </Form>
    </>
  );
}

/** Closing once something would be lost: said first, in the panel (a page of its own without JS). */
function CloseConfirmation({ wizard }: { wizard: WizardView }) {
  const { t } = useTranslation();
  return (
    <div className="refund-wizard">
      <h3 id="refund-wizard-step">{t("refundWizard.close.title")}</h3>
      <p>{wizard.editing ? t("refundWizard.close.textEdit") : t("refundWizard.close.text")}</p>
      <Form method="post" action={wizard.here} className="actions" preventScrollReset>
        <IntentButton intent="discard">{t("refundWizard.close.confirm")}</IntentButton>
        <Link to={wizard.here} className="link-action" preventScrollReset>
          {t("refundWizard.close.resume")}
        </Link>
      </Form>
    </div>
  );
}

const STEP_FORMS: { [S in RefundStep]: (props: StepProps<S>) => ReactNode } = {
  type: TypeStep,
  preamble: PreambleStep,
  mobility: MobilityStep,
  ticket: TicketStep,
  details: DetailsStep,
  methods: MethodsStep,
  summary: SummaryStep,
};
