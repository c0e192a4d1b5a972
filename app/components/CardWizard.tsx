import { getFormProps } from "~/components/forms/useForm";
import { type SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";
import { Form, Link, useNavigation, useSubmit } from "react-router";
import { useTranslation } from "~/i18n";
import { DELIVERY_COUNTRIES } from "~/domain/countries";
import type { WizardActionData, WizardStep, WizardView } from "~/routes/cards/wizard";
import {
  choiceTarget,
  ErrorSummary,
  Field,
  InlineError,
  NewSecretPair,
  Radios,
  RequiredNote,
  Select,
  type FieldMeta,
  type SummaryField,
  useForm,
} from "./forms";
import { useHydrated } from "./useHydrated";

/**
 * The card creation wizard's steps (spec 000 §2 "Create card"): plain forms that post to the route
 * showing them, one step per URL. Used in the card page's panel and in onboarding. Each step's form
 * takes the action's answer (conform's reply) for itself; validation stays on the server (decision 0008).
 */
interface CardWizardProps {
  view: WizardView;
  actionData: WizardActionData | undefined;
  /** The wizard's own path (links between steps). */
  base: string;
  /** Where "Annuler" goes; none in onboarding, where there is nowhere else to go. */
  cancelTo?: string;
}

const stepLink = (base: string, step: WizardStep, requestId: string) =>
  `${base}?step=${step}&request=${encodeURIComponent(requestId)}`;

export function CardWizard({ view: loaded, actionData, base, cancelTo }: CardWizardProps) {
  const { t } = useTranslation();
  // After the issuer did not answer, the form sends the same request again (the same idempotency key, so at most one
  // card), not the new one the page's loader offers when the URL names none (decision 0043).
  const view = actionData?.requestId ? { ...loaded, requestId: actionData.requestId } : loaded;
  const step = actionData?.step ?? view.step;

  if (view.blocked) {
    return (
      <>
        <div className="alert alert--warning" role="status">
          <p>{t(`cards.create.blocked.${view.blocked}`)}</p>
        </div>
        {cancelTo ? (
          <p>
            <Link to={cancelTo} className="link-action" preventScrollReset>
              {t("cards.create.back")}
            </Link>
          </p>
        ) : null}
      </>
    );
  }

  const done = actionData?.done ?? view.done;
  if (done) {
    return (
      <>
        <div className="alert alert--warning" role="alert">
          <p>{t("cards.create.alreadyCreated")}</p>
        </div>
        <p>
          <Link to={done} className="button">
            {t("cards.create.seeCard")}
          </Link>
        </p>
      </>
    );
  }

  // Every step says in text where it is (ACCESSIBILITY.md: a wizard's progress said in words), the first one
  // included: the count is the physical card's four steps; the first step says a virtual card is made there.
  const physicalSteps: WizardStep[] = ["card", "pin", "address", "summary"];
  const heading = (
    <h3 className="card-wizard__step" id="card-wizard-step">
      {t("cards.create.stepOf", {
        current: physicalSteps.indexOf(step) + 1,
        total: physicalSteps.length,
        title: t(`cards.create.steps.${step}`),
      })}
    </h3>
  );
  const answer = { lastResult: actionData?.lastResult, serverMessage: actionData?.serverMessage ?? null, heading };
  return (
    <div className="card-wizard">
      {view.notice ? (
        <div className="alert alert--error" role="alert">
          <p>{t(view.notice)}</p>
        </div>
      ) : null}
      {/* A funder chosen with the GET form starts the step again from the new funder's licences. */}
      {step === "card" ? <ChoiceStep key={view.groupId ?? ""} view={view} cancelTo={cancelTo} {...answer} /> : null}
      {step === "pin" ? <PinStep view={view} back={stepLink(base, "card", view.requestId)} {...answer} /> : null}
      {step === "address" ? <AddressStep view={view} back={stepLink(base, "pin", view.requestId)} {...answer} /> : null}
      {step === "summary" ? <SummaryStep view={view} base={base} {...answer} /> : null}
    </div>
  );
}

interface StepAnswer {
  lastResult: SubmissionResult<string[]> | undefined;
  /** The card issuer's own words after a refusal (spec 000 §8). */
  serverMessage: string | null;
  heading: ReactNode;
}

/**
 * What every step shows above its form: the form's own errors (the request, the issuer) as an alert,
 * with the issuer's words when it gave some, then the summary of the fields' errors, then the heading.
 */
function StepTop({
  form,
  fields,
  serverMessage,
  heading,
}: {
  form: { errors?: string[] };
  fields: readonly SummaryField[];
  serverMessage: string | null;
  heading: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <>
      {form.errors?.length ? (
        <div className="alert alert--error" role="alert">
          {form.errors.map((error) => (
            <p key={error}>{t(error)}</p>
          ))}
          {serverMessage ? <p>{t("cards.create.serverMessage", { message: serverMessage })}</p> : null}
        </div>
      ) : null}
      <ErrorSummary form={undefined} fields={fields} />
      {heading}
    </>
  );
}

function Hidden({ step, requestId }: { step: WizardStep; requestId: string }) {
  return (
    <>
      <input type="hidden" name="step" value={step} />
      <input type="hidden" name="request" value={requestId} />
    </>
  );
}

function Actions({ submit, back, backLabel }: { submit: string; back?: string; backLabel?: string }) {
  const { t } = useTranslation();
  const busy = useNavigation().state === "submitting";
  return (
    <div className="actions">
      <button type="submit" className="button" id="card-wizard-submit" aria-disabled={busy || undefined}>
        {submit}
      </button>
      {back ? (
        <Link to={back} className="link-action" preventScrollReset>
          {backLabel ?? t("cards.create.previous")}
        </Link>
      ) : null}
    </div>
  );
}

/** The value the server sent back for a field after a refusal, if any. */
const sentBack = (field: FieldMeta) =>
  typeof field.initialValue === "string" && field.initialValue !== "" ? field.initialValue : undefined;

/** Step 1: the funder (a select only when several groups can issue) and the type, each with its licences left. */
function ChoiceStep({
  view,
  cancelTo,
  lastResult,
  serverMessage,
  heading,
}: { view: WizardView; cancelTo?: string } & StepAnswer) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const submit = useSubmit();
  const shown = view.groups.find((g) => g.id === view.groupId) ?? view.groups[0]!;
  const [form, fields] = useForm<{ group: string; type: string }>({
    id: "card",
    lastResult,
    defaultValue: { group: shown.id, type: view.type && shown.licences[view.type] > 0 ? view.type : undefined },
  });
  const group = view.groups.find((g) => g.id === (lastResult ? sentBack(fields.group) : undefined)) ?? shown;
  const types = (["physical", "virtual"] as const).map((type) => {
    const left = group.licences[type];
    return {
      value: type,
      label: t(`cards.create.type.${type}`),
      hint: left === 0 ? t(`cards.create.unavailable.${type}`) : t("cards.create.licencesLeft", { left }),
      hintUnavailable: left === 0,
      disabled: left === 0,
    };
  });
  const groupError = fields.group.errors?.[0];
  return (
    <>
      {/* The type's link goes to the first type still available, never to a disabled radio (issue 13, finding 8). */}
      <StepTop
        form={form}
        fields={[fields.group, { field: fields.type, target: choiceTarget(fields.type, types) }]}
        serverMessage={serverMessage}
        heading={heading}
      />
      {view.groups.length > 1 ? (
        // Choosing the funder shows its licences: a GET form, so it works without JS (JS sends it on change).
        <Form method="get" className="card-wizard__funder" preventScrollReset replace>
          {view.requestId && view.type ? <input type="hidden" name="request" value={view.requestId} /> : null}
          <Select
            field={fields.group}
            label={t("cards.create.funderQuestion")}
            options={view.groups.map((g) => ({ value: g.id, label: g.name }))}
            onChange={(event) =>
              void submit(event.currentTarget.form, { method: "get", replace: true, preventScrollReset: true })
            }
          />
          {hydrated ? null : (
            <button type="submit" className="button button--secondary">
              {t("cards.create.showFunder")}
            </button>
          )}
        </Form>
      ) : (
        <div className={groupError ? "field field--error" : undefined}>
          <p id={fields.group.id} tabIndex={-1}>
            <strong>{t("cards.create.funderLabel")} : </strong>
            {group.name}
          </p>
          <InlineError id={fields.group.errorId} error={groupError} />
        </div>
      )}
      <Form method="post" {...getFormProps(form)} preventScrollReset>
        <Hidden step="card" requestId={view.requestId} />
        <input type="hidden" name="group" value={group.id} />
        <Radios
          required
          field={fields.type}
          legend={t("cards.create.typeQuestion")}
          hint={t("cards.create.typeHint", { funder: group.name })}
          options={types}
        />
        <p className="hint">{t("cards.create.virtualAtOnce")}</p>
        <Actions submit={t("cards.create.continue")} back={cancelTo} backLabel={t("cards.create.cancel")} />
      </Form>
    </>
  );
}

/** Step 2 (physical): the PIN, typed twice; it is never shown again nor sent back to the browser. */
function PinStep({ view, back, lastResult, serverMessage, heading }: { view: WizardView; back: string } & StepAnswer) {
  const { t } = useTranslation();
  const [form, fields] = useForm<{ pin: string; confirmation: string }>({ id: "card", lastResult });
  return (
    <>
      <StepTop form={form} fields={[fields.pin, fields.confirmation]} serverMessage={serverMessage} heading={heading} />
      <Form method="post" {...getFormProps(form)} preventScrollReset>
        <Hidden step="pin" requestId={view.requestId} />
        <p>{t("cards.create.pinIntro")}</p>
        <RequiredNote />
        {view.hasPin ? <p className="hint">{t("cards.create.pinKept")}</p> : null}
        <NewSecretPair
          kind="pin"
          secret={fields.pin}
          confirmation={fields.confirmation}
          label={t("cards.create.pin")}
          hint={t("cards.create.pinHint")}
          confirmationLabel={t("cards.create.pinConfirmation")}
        />
        <Actions submit={t("cards.create.continue")} back={back} />
      </Form>
    </>
  );
}

type AddressForm = { line1: string; line2: string; zipcode: string; city: string; country: string };

/** Step 3 (physical): where the card is sent; starts from the profile's address. */
function AddressStep({
  view,
  back,
  lastResult,
  serverMessage,
  heading,
}: { view: WizardView; back: string } & StepAnswer) {
  const { t } = useTranslation();
  // Uncontrolled: what the person typed stays while they correct it.
  const [form, fields] = useForm<AddressForm>({ id: "address", lastResult, defaultValue: view.address });
  const line = (
    name: "line1" | "line2" | "zipcode" | "city",
    autoComplete: string,
    extra: { hint?: string; optional?: boolean } = {},
  ) => (
    <Field
      field={fields[name]}
      label={t(`cards.create.address.${name}`)}
      hint={extra.hint}
      optional={extra.optional}
      required={!extra.optional}
      autoComplete={autoComplete}
      maxLength={name === "zipcode" ? 10 : 50}
    />
  );
  return (
    <>
      <StepTop
        form={form}
        fields={[fields.line1, fields.line2, fields.zipcode, fields.city, fields.country]}
        serverMessage={serverMessage}
        heading={heading}
      />
      <Form method="post" {...getFormProps(form)} preventScrollReset>
        <Hidden step="address" requestId={view.requestId} />
        <p>{t("cards.create.addressIntro")}</p>
        <RequiredNote />
        {line("line1", "address-line1", { hint: t("cards.create.address.line1Hint") })}
        {line("line2", "address-line2", { optional: true, hint: t("cards.create.address.line2Hint") })}
        {line("zipcode", "postal-code")}
        {line("city", "address-level2")}
        <Select
          required
          field={fields.country}
          label={t("cards.create.address.country")}
          autoComplete="country"
          options={Object.entries(DELIVERY_COUNTRIES).map(([code, name]) => ({ value: code, label: name }))}
        />
        <Actions submit={t("cards.create.continue")} back={back} />
      </Form>
    </>
  );
}

/** Step 4 (physical): everything at a glance before the card is made. */
function SummaryStep({
  view,
  base,
  lastResult,
  serverMessage,
  heading,
}: { view: WizardView; base: string } & StepAnswer) {
  const { t } = useTranslation();
  const [form] = useForm({ id: "card-summary", lastResult });
  const group = view.groups.find((g) => g.id === view.groupId);
  const a = view.address;
  const row = (label: string, value: ReactNode, edit?: { step: WizardStep; label: string }) => (
    <div>
      <dt>{label}</dt>
      <dd>
        {value}
        {edit ? (
          <>
            {" "}
            <Link to={stepLink(base, edit.step, view.requestId)} className="link-action" preventScrollReset>
              {edit.label}
            </Link>
          </>
        ) : null}
      </dd>
    </div>
  );
  return (
    <>
      <StepTop form={form} fields={[]} serverMessage={serverMessage} heading={heading} />
      <Form method="post" {...getFormProps(form)} preventScrollReset>
        <Hidden step="summary" requestId={view.requestId} />
        <dl className="summary-list">
          {row(t("cards.create.funderLabel"), group?.name ?? "", { step: "card", label: t("cards.create.editFunder") })}
          {row(t("cards.create.typeLabel"), t("cards.create.type.physical"))}
          {row(t("cards.create.pin"), t("cards.create.pinChosen"), { step: "pin", label: t("cards.create.editPin") })}
          {row(
            t("cards.create.steps.address"),
            <span className="address">
              {a.line1}
              <br />
              {a.line2 ? (
                <>
                  {a.line2}
                  <br />
                </>
              ) : null}
              {a.zipcode} {a.city}
              <br />
              {DELIVERY_COUNTRIES[a.country] ?? a.country}
            </span>,
            { step: "address", label: t("cards.create.editAddress") },
          )}
        </dl>
        <p className="hint">{t("cards.create.deliveryTime")}</p>
        <Actions submit={t("cards.create.submit")} back={stepLink(base, "address", view.requestId)} />
      </Form>
    </>
  );
}
