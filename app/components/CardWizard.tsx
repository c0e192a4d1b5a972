import type { ReactNode } from "react";
import { Form, Link, useNavigation, useSubmit } from "react-router";
import { useTranslation } from "~/i18n";
import { DELIVERY_COUNTRIES } from "~/domain/countries";
import { firstEnabledOption } from "~/domain/error-targets";
import type { WizardActionData, WizardStep, WizardView } from "~/routes/+shared/card-wizard";
import { ErrorSummary, type SummaryError } from "./ErrorSummary";
import { RequiredNote, SelectField, TextField } from "./TextField";
import { useHydrated } from "./useHydrated";

/**
 * The card creation wizard's steps (spec 000 §2 "Create card"): plain forms that post to the route
 * showing them, one step per URL. Used in the card page's panel and in onboarding.
 */
interface CardWizardProps {
  view: WizardView;
  actionData: WizardActionData | undefined;
  /** The wizard's own path (links between steps). */
  base: string;
  /** Where "Annuler" goes; none in onboarding, where there is nowhere else to go. */
  cancelTo?: string;
}

const FIELD_IDS: Record<string, string> = {
  group: "card-group",
  // The type's link goes to the first type still available (typeTarget), never to a disabled radio.
  type: "card-type",
  pin: "card-pin",
  confirmation: "card-pin-confirmation",
  line1: "address-line1",
  line2: "address-line2",
  zipcode: "address-zipcode",
  city: "address-city",
  country: "address-country",
};

/** The first card type the funder can still issue, else the fieldset: a summary link never lands on a disabled radio. */
const typeTarget = (licences: Record<"physical" | "virtual", number>) =>
  firstEnabledOption(["physical", "virtual"] as const, (type) => licences[type] > 0, (type) => `card-type-${type}`, "card-type");

const stepLink = (base: string, step: WizardStep, requestId: string) => `${base}?step=${step}&request=${encodeURIComponent(requestId)}`;

export function CardWizard({ view, actionData, base, cancelTo }: CardWizardProps) {
  const { t } = useTranslation();
  const step = actionData?.step ?? view.step;
  const errors = actionData?.errors ?? {};
  const shownGroup = view.groups.find((g) => g.id === (actionData?.values?.group || view.groupId)) ?? view.groups[0];
  const summaryErrors: SummaryError[] = Object.entries(errors)
    .filter((entry): entry is [string, string] => Boolean(entry[1]) && entry[0] !== "form")
    .map(([field, message]) => ({
      fieldId: field === "type" && shownGroup ? typeTarget(shownGroup.licences) : (FIELD_IDS[field] ?? "card-wizard-submit"),
      message,
    }));

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

  const physicalSteps: WizardStep[] = ["card", "pin", "address", "summary"];
  const numbered = step !== "card";
  return (
    <div className="card-wizard">
      {view.notice ? (
        <div className="alert alert--error" role="alert">
          <p>{t(view.notice)}</p>
        </div>
      ) : null}
      {errors.form ? (
        <div className="alert alert--error" role="alert">
          <p>{t(errors.form)}</p>
        </div>
      ) : null}
      <ErrorSummary errors={summaryErrors} />
      <h3 className="card-wizard__step" id="card-wizard-step">
        {numbered
          ? t("cards.create.stepOf", { current: physicalSteps.indexOf(step) + 1, total: physicalSteps.length, title: t(`cards.create.steps.${step}`) })
          : t(`cards.create.steps.${step}`)}
      </h3>
      {step === "card" ? <ChoiceStep view={view} actionData={actionData} cancelTo={cancelTo} /> : null}
      {step === "pin" ? <PinStep view={view} actionData={actionData} back={stepLink(base, "card", view.requestId)} /> : null}
      {step === "address" ? <AddressStep view={view} actionData={actionData} back={stepLink(base, "pin", view.requestId)} /> : null}
      {step === "summary" ? <SummaryStep view={view} base={base} /> : null}
    </div>
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

function ErrorText({ id, error }: { id: string; error: string | undefined }) {
  const { t } = useTranslation();
  if (!error) return null;
  return (
    <p className="field__error" id={id}>
      <span className="visually-hidden">{t("errors.prefix")}</span>
      {t(error)}
    </p>
  );
}

/** Step 1: the funder (a select only when several groups can issue) and the type, each with its licences left. */
function ChoiceStep({ view, actionData, cancelTo }: { view: WizardView; actionData: WizardActionData | undefined; cancelTo?: string }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const submit = useSubmit();
  const errors = actionData?.errors ?? {};
  const groupId = actionData?.values?.group || view.groupId;
  const group = view.groups.find((g) => g.id === groupId) ?? view.groups[0]!;
  const checkedType = actionData?.values?.type || view.type;
  return (
    <>
      {view.groups.length > 1 ? (
        // Choosing the funder shows its licences: a GET form, so it works without JS (JS sends it on change).
        <Form method="get" className="card-wizard__funder" preventScrollReset replace>
          {view.requestId && view.type ? <input type="hidden" name="request" value={view.requestId} /> : null}
          <SelectField
            id="card-group"
            name="group"
            label={t("cards.create.funderQuestion")}
            error={errors.group}
            defaultValue={group.id}
            options={view.groups.map((g) => ({ value: g.id, label: g.name }))}
            onChange={(event) => void submit(event.currentTarget.form, { method: "get", replace: true, preventScrollReset: true })}
          />
          {hydrated ? null : (
            <button type="submit" className="button button--secondary">
              {t("cards.create.showFunder")}
            </button>
          )}
        </Form>
      ) : (
        <div className={errors.group ? "field field--error" : undefined}>
          <p id="card-group" tabIndex={-1}>
            <strong>{t("cards.create.funderLabel")} : </strong>
            {group.name}
          </p>
          <ErrorText id="card-group-error" error={errors.group} />
        </div>
      )}
      <Form method="post" noValidate preventScrollReset>
        <Hidden step="card" requestId={view.requestId} />
        <input type="hidden" name="group" value={group.id} />
        <fieldset
          id="card-type"
          className={`radios${errors.type ? " field--error" : ""}`}
          aria-describedby={errors.type ? "card-type-hint card-type-error" : "card-type-hint"}
          aria-invalid={errors.type ? true : undefined}
        >
          <legend>{t("cards.create.typeQuestion")}</legend>
          <p className="field__hint" id="card-type-hint">
            {t("cards.create.typeHint", { funder: group.name })}
          </p>
          <ErrorText id="card-type-error" error={errors.type} />
          {(["physical", "virtual"] as const).map((type) => {
            const left = group.licences[type];
            return (
              <div className="radio-option" key={type}>
                <label className="radio">
                  <input
                    type="radio"
                    name="type"
                    id={`card-type-${type}`}
                    value={type}
                    required
                    disabled={left === 0}
                    defaultChecked={checkedType === type && left > 0}
                    aria-describedby={`card-type-${type}-licences`}
                  />
                  {t(`cards.create.type.${type}`)}
                </label>
                <p className={`radio-option__hint${left === 0 ? " radio-option__hint--unavailable" : ""}`} id={`card-type-${type}-licences`}>
                  {left === 0 ? t(`cards.create.unavailable.${type}`) : t("cards.create.licencesLeft", { left })}
                </p>
              </div>
            );
          })}
        </fieldset>
        <p className="hint">{t("cards.create.virtualAtOnce")}</p>
        <Actions submit={t("cards.create.continue")} back={cancelTo} backLabel={t("cards.create.cancel")} />
      </Form>
    </>
  );
}

/** Step 2 (physical): the PIN, typed twice; it is never shown again nor sent back to the browser. */
function PinStep({ view, actionData, back }: { view: WizardView; actionData: WizardActionData | undefined; back: string }) {
  const { t } = useTranslation();
  const errors = actionData?.errors ?? {};
  const attempt = actionData?.attempt ?? "";
  return (
    <Form method="post" noValidate preventScrollReset>
      <Hidden step="pin" requestId={view.requestId} />
      <p>{t("cards.create.pinIntro")}</p>
      <RequiredNote />
      {view.hasPin ? <p className="hint">{t("cards.create.pinKept")}</p> : null}
      <TextField
        required
        id="card-pin"
        name="pin"
        key={`pin-${attempt}`}
        label={t("cards.create.pin")}
        hint={t("cards.create.pinHint")}
        error={errors.pin}
        type="password"
        inputMode="numeric"
        maxLength={4}
        autoComplete="off"
        className="input--code"
      />
      <TextField
        required
        id="card-pin-confirmation"
        name="confirmation"
        key={`confirmation-${attempt}`}
        label={t("cards.create.pinConfirmation")}
        error={errors.confirmation}
        type="password"
        inputMode="numeric"
        maxLength={4}
        autoComplete="off"
        className="input--code"
      />
      <Actions submit={t("cards.create.continue")} back={back} />
    </Form>
  );
}

/** Step 3 (physical): where the card is sent; starts from the profile's address. */
function AddressStep({ view, actionData, back }: { view: WizardView; actionData: WizardActionData | undefined; back: string }) {
  const { t } = useTranslation();
  const errors = actionData?.errors ?? {};
  // Uncontrolled and never remounted: what the person typed stays while they correct it.
  const values = { ...view.address, ...actionData?.values };
  const field = (name: "line1" | "line2" | "zipcode" | "city", autoComplete: string, extra: { hint?: string; optional?: boolean } = {}) => (
    <TextField
      id={FIELD_IDS[name]!}
      name={name}
      label={extra.optional ? `${t(`cards.create.address.${name}`)} ${t("cards.create.optional")}` : t(`cards.create.address.${name}`)}
      hint={extra.hint}
      error={errors[name]}
      defaultValue={values[name] ?? ""}
      required={!extra.optional}
      autoComplete={autoComplete}
      maxLength={name === "zipcode" ? 10 : 50}
    />
  );
  return (
    <Form method="post" noValidate preventScrollReset>
      <Hidden step="address" requestId={view.requestId} />
      <p>{t("cards.create.addressIntro")}</p>
      <RequiredNote />
      {field("line1", "address-line1", { hint: t("cards.create.address.line1Hint") })}
      {field("line2", "address-line2", { optional: true, hint: t("cards.create.address.line2Hint") })}
      {field("zipcode", "postal-code")}
      {field("city", "address-level2")}
      <SelectField
        required
        id="address-country"
        name="country"
        label={t("cards.create.address.country")}
        error={errors.country}
        defaultValue={values.country}
        autoComplete="country"
        options={Object.entries(DELIVERY_COUNTRIES).map(([code, name]) => ({ value: code, label: name }))}
      />
      <Actions submit={t("cards.create.continue")} back={back} />
    </Form>
  );
}

/** Step 4 (physical): everything at a glance before the card is made. */
function SummaryStep({ view, base }: { view: WizardView; base: string }) {
  const { t } = useTranslation();
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
    <Form method="post" noValidate preventScrollReset>
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
  );
}
