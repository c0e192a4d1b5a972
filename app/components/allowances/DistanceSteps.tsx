import { getFormProps } from "~/components/forms/useForm";
import { useState, type ReactNode } from "react";
import { Form, Link } from "react-router";
import { useTranslation } from "~/i18n";
import { clampDays, daysWithoutSundays, formatKilometres, PLAUSIBILITY_REASON_MAX } from "~/domain/allowances";
import type { AllowanceDetailsForm } from "~/domain/allowance-schemas";
import { DECLARED_DISTANCE_MAX_METERS } from "~/domain/amount-bounds";
import { DELIVERY_COUNTRIES } from "~/domain/countries";
import { formatDate, parseDay } from "~/domain/dates";
import { formatCents } from "~/domain/money";
import {
  Checkbox,
  ErrorSummary,
  DateField,
  Field,
  Radios,
  RequiredNote,
  Select,
  choiceTarget,
  type FieldMeta,
  FormAlert,
  IntentButton,
  PayoutIbanField,
  SummaryRow,
  summaryRowFields,
  TextArea,
  useForm,
} from "~/components/forms";
import { descriptionOf, HintAndError } from "~/components/forms/Field";
import { useHydrated } from "~/components/useHydrated";
import {
  DISTANCE_INTENT,
  DISTANCE_STEPS,
  type DistanceStep,
  type DistanceStepView,
  type DistanceView,
  type GroupView,
} from "./distance";
import { BackOrCancel, ContinueActions, FlowSteps, type StepReply } from "./FlowParts";

/**
 * The carpooling and bicycle wizard's steps (spec 001 §2.7): plain forms posting to the step's own URL,
 * checked on the server (decision 0008); conform shows its answer. JavaScript only makes the details
 * quicker: the group fills the work address at once, the days at the office become a slider whose
 * maximum follows the dates. Shown by AllowanceWizard.tsx (routes/allowances/wizard.tsx).
 */

type StepOf<S extends DistanceStep> = Extract<DistanceStepView, { step: S }>;

interface StepProps<S extends DistanceStep> {
  wizard: DistanceView;
  view: StepOf<S>;
  lastResult: StepReply;
}

/** "1 jour", "20 jours". */
export const daysText = (t: (key: string, options: Record<string, unknown>) => string, days: number) =>
  t(days === 1 ? "allowanceWizard.details.daysOne" : "allowanceWizard.details.daysMany", { days });

/** "7,24 km" from the spec's distance_roundtrip ("7.24"). */
const roundTripKm = (value: string) => formatKilometres(Math.round(Number(value) * 1000) / 1000);

export function DistanceSteps({ wizard, lastResult }: { wizard: DistanceView; lastResult: StepReply }) {
  const { view } = wizard;
  return (
    <FlowSteps
      wizard={wizard}
      steps={DISTANCE_STEPS}
      words="allowanceWizard"
      part="distance"
      headingId="allowance-wizard-step"
      formState={view}
    >
      {view.step === "intro" ? <IntroStep wizard={wizard} view={view} lastResult={lastResult} /> : null}
      {view.step === "details" ? <DetailsStep wizard={wizard} view={view} lastResult={lastResult} /> : null}
      {view.step === "summary" ? <SummaryStep wizard={wizard} view={view} lastResult={lastResult} /> : null}
    </FlowSteps>
  );
}

/** Continue, and Back (or, on the first step, Cancel: the close link). */
function Actions({ wizard }: { wizard: DistanceView }) {
  return <ContinueActions wizard={wizard} words="allowanceWizard" intent={DISTANCE_INTENT.continue} />;
}

function IntroStep({ wizard, view }: StepProps<"intro">) {
  const { t } = useTranslation();
  const type = wizard.type;
  if (wizard.noGroup)
    return (
      <>
        <div className="alert alert--warning" role="status">
          <p>{t(`allowanceWizard.intro.noGroup.${type}`)}</p>
        </div>
        <div className="actions">
          <Link to={wizard.closeTo} className="link-action" preventScrollReset>
            {t("allowanceWizard.cancel")}
          </Link>
        </div>
      </>
    );
  return (
    <>
      <p>{t(`allowanceWizard.intro.what.${type}`)}</p>
      <p>{t("allowanceWizard.intro.rule")}</p>
      <ul>
        {view.groups.map((g) => (
          <li key={g.id}>
            {t("allowanceWizard.intro.group", {
              group: g.name,
              rate: formatCents(g.ratePerKm),
              cap: formatCents(g.yearlyCap),
            })}
            {g.remaining !== null
              ? ` ${t("allowanceWizard.intro.remaining", { amount: formatCents(g.remaining) })}`
              : null}
          </li>
        ))}
      </ul>
      <p>{t("allowanceWizard.intro.cap")}</p>
      <Form method="post" action={wizard.paths[wizard.step]} preventScrollReset>
        <Actions wizard={wizard} />
      </Form>
    </>
  );
}

/** A value put in an uncontrolled field by JavaScript (the group's address, the end following the start). */
function setValue(id: string, value: string) {
  const element = document.getElementById(id);
  if (element instanceof HTMLInputElement || element instanceof HTMLSelectElement) element.value = value;
}

type AddressFieldset = ReturnType<ReturnType<typeof useDetailsForm>[1]["home"]["getFieldset"]>;

function useDetailsForm(values: AllowanceDetailsForm, lastResult: StepReply) {
  return useForm<AllowanceDetailsForm>({ id: "allowance-details", lastResult, defaultValue: values });
}

/** An address of the wizard; `note` says where its answer comes from (the profile, the group), to confirm. */
function AddressFields({
  legend,
  fields,
  prefix,
  note,
}: {
  legend: string;
  fields: AddressFieldset;
  prefix: "home" | "work";
  note: string | null;
}) {
  const { t } = useTranslation();
  const section = prefix === "home" ? "home" : "work";
  return (
    <fieldset className="fieldset">
      <legend>{legend}</legend>
      {note ? <p className="allowance-address__note">{note}</p> : null}
      <Field
        required
        field={fields.line1}
        label={t("allowanceWizard.details.line1")}
        hint={t("allowanceWizard.details.line1Hint")}
        autoComplete={`section-${section} address-line1`}
        maxLength={50}
      />
      <Field
        required
        field={fields.zipcode}
        label={t("allowanceWizard.details.zipcode")}
        autoComplete={`section-${section} postal-code`}
        maxLength={10}
      />
      <Field
        required
        field={fields.city}
        label={t("allowanceWizard.details.city")}
        autoComplete={`section-${section} address-level2`}
        maxLength={50}
      />
      <Select
        required
        field={fields.country}
        label={t("allowanceWizard.details.country")}
        autoComplete={`section-${section} country`}
        options={Object.entries(DELIVERY_COUNTRIES).map(([code, name]) => ({ value: code, label: name }))}
      />
    </fieldset>
  );
}

/**
 * Days at the office: without JavaScript a number field that states its maximum (the server refuses
 * more); with it a slider from 1 to the period's days without Sundays, clamped when that drops.
 */
function DaysField({ field, start, end }: { field: FieldMeta; start: string; end: string }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const startDay = start ? parseDay(start) : null;
  const endDay = end ? parseDay(end) : null;
  const max = startDay && endDay ? daysWithoutSundays(startDay, endDay) : null;
  const initial = Number(typeof field.initialValue === "string" ? field.initialValue : "") || 1;
  const [days, setDays] = useState(initial);
  const shown = max ? clampDays(days, max) : days;
  const hint = max !== null ? t("allowanceWizard.details.daysHintMax", { max }) : t("allowanceWizard.details.daysHint");
  if (!hydrated || !max)
    return (
      <Field
        required
        field={field}
        label={t("allowanceWizard.details.days")}
        hint={hint}
        inputMode="numeric"
        autoComplete="off"
        onChange={(e) => setDays(Number(e.target.value) || 1)}
      />
    );
  const error = field.errors?.[0];
  const { hintId, describedBy } = descriptionOf(field, hint, error);
  return (
    <div className={`field${error ? " field--error" : ""}`}>
      <label className="field__label" htmlFor={field.id}>
        {t("allowanceWizard.details.days")}
      </label>
      <HintAndError field={field} hint={hint} hintId={hintId} error={error} />
      <input
        className="range"
        type="range"
        id={field.id}
        name={field.name}
        min={1}
        max={max}
        step={1}
        value={shown}
        onChange={(e) => setDays(Number(e.target.value))}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        aria-valuetext={daysText(t, shown)}
      />
      <output htmlFor={field.id} className="range__value">
        {daysText(t, shown)}
      </output>
    </div>
  );
}

function DetailsStep({ wizard, view, lastResult }: StepProps<"details">) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [form, fields] = useDetailsForm(view.values, lastResult);
  const home = fields.home.getFieldset();
  const work = fields.work.getFieldset();
  // The dates as typed (with JS): the days' maximum follows them.
  const [start, setStart] = useState(view.values.start_at);
  const [end, setEnd] = useState(view.values.ends_at);
  const onStart = (value: string) => {
    setStart(value);
    // Spec 001 §5: a start moved after the end moves the end.
    const s = parseDay(value);
    const e = parseDay(end);
    if (s && e && s > e) {
      setEnd(value);
      setValue(fields.ends_at.id, value);
    }
  };
  // The group whose address the work address starts from (said in words, issue 31 §2).
  const [groupId, setGroupId] = useState(view.values.group_id);
  const workGroup = view.groups.find((g) => g.id === groupId);
  const chooseGroup = (groupId: string) => {
    const group = view.groups.find((g) => g.id === groupId);
    if (!group) return;
    setGroupId(group.id);
    setValue(work.line1.id, group.address.line1);
    setValue(work.zipcode.id, group.address.zipcode);
    setValue(work.city.id, group.address.city);
    setValue(work.country.id, group.address.country);
  };
  const groupOptions = view.groups.map((g: GroupView) => ({ value: g.id, label: g.name }));
  const roleOptions = (["driver", "passenger"] as const).map((r) => ({
    value: r,
    label: t(`allowances.travelRoles.${r}`),
  }));
  return (
    <>
      <ErrorSummary
        form={form}
        fields={[
          fields.group_id,
          home.line1,
          home.zipcode,
          home.city,
          home.country,
          work.line1,
          work.zipcode,
          work.city,
          work.country,
          fields.start_at,
          fields.ends_at,
          fields.days_at_office,
          ...(wizard.type === "carpooling"
            ? [{ field: fields.travel_role, target: choiceTarget(fields.travel_role, roleOptions) }]
            : []),
          ...(view.savedLastFour
            ? [{ field: fields.iban_choice, target: choiceTarget(fields.iban_choice, IBAN_OPTIONS) }]
            : []),
          fields.iban,
        ]}
      />
      <Form method="post" action={wizard.paths[wizard.step]} {...getFormProps(form)} preventScrollReset>
        <RequiredNote />
        {view.groups.length > 1 ? (
          <div className="field-with-action">
            <Select
              required
              field={fields.group_id}
              label={t("allowanceWizard.details.group")}
              hint={t("allowanceWizard.details.groupHint")}
              options={[{ value: "", label: t("allowanceWizard.details.groupPlaceholder") }, ...groupOptions]}
              onChange={(e) => chooseGroup(e.target.value)}
            />
            {hydrated ? null : (
              <IntentButton value={DISTANCE_INTENT.chooseGroup} secondary>
                {t("allowanceWizard.details.chooseGroup")}
              </IntentButton>
            )}
          </div>
        ) : (
          <>
            <input type="hidden" name={fields.group_id.name} value={view.values.group_id} />
            <p>{t("allowanceWizard.details.onlyGroup", { group: view.groups[0]?.name ?? "" })}</p>
          </>
        )}
        <AddressFields
          legend={t("allowanceWizard.details.home")}
          fields={home}
          prefix="home"
          note={view.homeFromProfile ? t("allowanceWizard.details.homeFromProfile") : null}
        />
        <AddressFields
          legend={t("allowanceWizard.details.work")}
          fields={work}
          prefix="work"
          note={
            workGroup
              ? t("allowanceWizard.details.workFromGroup", {
                  group: workGroup.name,
                  address: `${workGroup.address.line1}, ${workGroup.address.zipcode} ${workGroup.address.city}`,
                })
              : null
          }
        />
        <DateField
          required
          field={fields.start_at}
          label={t("allowanceWizard.details.startAt")}
          hint={t("allowanceWizard.details.startHint", { min: formatDate(view.startMin), max: formatDate(view.today) })}
          onChange={(e) => onStart(e.target.value)}
        />
        <DateField
          required
          field={fields.ends_at}
          label={t("allowanceWizard.details.endsAt")}
          hint={t("allowanceWizard.details.endHint", { max: formatDate(view.today) })}
          onChange={(e) => setEnd(e.target.value)}
        />
        <DaysField key={fields.days_at_office.key} field={fields.days_at_office} start={start} end={end} />
        {wizard.type === "carpooling" ? (
          <Radios
            required
            field={fields.travel_role}
            legend={t("allowanceWizard.details.role")}
            options={roleOptions}
          />
        ) : null}
        <PayoutIbanField
          fields={{ iban_choice: fields.iban_choice, iban: fields.iban, save_iban: fields.save_iban }}
          savedLastFour={view.savedLastFour}
          words="allowanceWizard"
        />
        <Actions wizard={wizard} />
      </Form>
    </>
  );
}

/** The payout account's radios, for the error summary's link to the first one (PayoutIbanField's order). */
const IBAN_OPTIONS = [
  { value: "saved", label: "" },
  { value: "other", label: "" },
];

/** Spec 001 §2.7: errors tagged iban, start_at, ends_at mark their rows; the others are warnings. */
const ROW_ERRORS = ["iban", "start_at", "ends_at"] as const;
/** The confirmation of an unusual distance (decision 0055): its own fields in the signing form, not warnings. */
const CONFIRMATION_FIELDS = ["sworn_statement", "distance_confirmed", "distance_reason"];

function SummaryStep({ wizard, view, lastResult }: StepProps<"summary">) {
  const { t } = useTranslation();
  // Two forms on this step: the distance's correction, and the confirmation.
  const correcting = Boolean(lastResult && "declared_km" in (lastResult.error ?? {}));
  const [form, fields] = useForm<{ sworn_statement: string; distance_confirmed: string; distance_reason: string }>({
    id: "allowance-summary",
    lastResult: correcting ? undefined : lastResult,
  });
  const [distanceForm, distanceFields] = useForm<{ declared_km: string }>({
    id: "allowance-distance",
    lastResult: correcting ? lastResult : undefined,
    defaultValue: { declared_km: view.declaredKm },
  });
  // The platform's refusals: those of the simulation on load, and those of a confirmation.
  const errors: Record<string, string[]> = { ...view.problems };
  // (The form's own errors, under "", are the alert above.)
  for (const [name, messages] of Object.entries(form.allErrors))
    if (name && !CONFIRMATION_FIELDS.includes(name) && messages.length) errors[name] = messages;
  const warnings = Object.entries(errors)
    .filter(([name]) => !(ROW_ERRORS as readonly string[]).includes(name))
    .flatMap(([, messages]) => messages);
  const s = view.simulation;
  const unusual = s?.unusual ?? null;
  const row = (key: string, label: string, value: ReactNode, edit: DistanceStep | null) => (
    <SummaryRow
      id={`allowance-summary-${key}`}
      label={label}
      value={value}
      errors={(ROW_ERRORS as readonly string[]).includes(key) ? (errors[key] ?? []) : []}
      edit={edit ? { to: wizard.paths[edit], label: t("allowanceWizard.summary.edit") } : null}
    />
  );
  const rowFields = summaryRowFields("allowance-summary-", errors, ROW_ERRORS);
  const formAlert = form.errors?.filter((e) => e !== "allowances.errors.swornStatementRequired") ?? [];
  return (
    <>
      <FormAlert errors={formAlert} />
      <ErrorSummary
        form={undefined}
        fields={[
          ...rowFields,
          ...(unusual ? [fields.distance_confirmed, fields.distance_reason] : []),
          fields.sworn_statement,
          distanceFields.declared_km,
        ]}
      />
      {warnings.length ? (
        <div className="alert alert--warning" role="status">
          {warnings.map((m) => (
            <p key={m}>{t(m)}</p>
          ))}
          <p>
            <Link to={wizard.paths.details} className="link-action" preventScrollReset>
              {t("allowanceWizard.summary.fixDetails")}
            </Link>
          </p>
        </div>
      ) : null}
      <h4>{t("allowanceWizard.summary.title")}</h4>
      <dl className="summary-list">
        {row("type", t("allowanceWizard.summary.type"), t(`allowances.types.${wizard.type}`), null)}
        {row("group", t("allowanceWizard.summary.group"), view.groupName, "details")}
        {row("home", t("allowanceWizard.summary.home"), view.home, "details")}
        {row("work", t("allowanceWizard.summary.work"), view.work, "details")}
        {row("start_at", t("allowanceWizard.summary.startAt"), formatDate(view.startAt), "details")}
        {row("ends_at", t("allowanceWizard.summary.endsAt"), formatDate(view.endsAt), "details")}
        {row(
          "days",
          t("allowanceWizard.summary.days"),
          t("allowanceWizard.summary.officeDays", { days: daysText(t, view.daysAtOffice), max: view.periodDays }),
          "details",
        )}
        {view.travelRole
          ? row("role", t("allowanceWizard.summary.role"), t(`allowances.travelRoles.${view.travelRole}`), "details")
          : null}
        {s ? (
          <>
            {row(
              "distance",
              t("allowanceWizard.summary.distance"),
              <>
                {t(`allowanceWizard.summary.source.${s.source}`, {
                  distance: formatKilometres(s.estimateMeters / 1000),
                })}
                {s.declaredMeters !== null ? (
                  <>
                    <br />
                    {t("allowanceWizard.summary.declared", { distance: formatKilometres(s.declaredMeters / 1000) })}
                  </>
                ) : null}
              </>,
              null,
            )}
            {row("roundtrip", t("allowanceWizard.summary.roundTrip"), roundTripKm(s.distanceRoundtrip), null)}
            {row(
              "rate",
              t("allowanceWizard.summary.rate"),
              t("allowanceWizard.summary.perKm", { rate: formatCents(s.perKm) }),
              null,
            )}
            {row(
              "allowance",
              t("allowanceWizard.summary.allowance"),
              <>
                <strong>{formatCents(s.allowance)}</strong>
                <br />
                {t("allowanceWizard.summary.computation", {
                  roundTrip: roundTripKm(s.distanceRoundtrip),
                  days: view.daysAtOffice,
                  rate: formatCents(s.perKm),
                  amount: formatCents(s.allowanceBeforeCap),
                })}
              </>,
              null,
            )}
            {row(
              "monthly",
              t("allowanceWizard.summary.monthly"),
              t("allowanceWizard.summary.monthlyValue", { amount: formatCents(s.perMonth), count: s.numberOfMonths }),
              null,
            )}
          </>
        ) : null}
        {row(
          "iban",
          t("allowanceWizard.summary.iban"),
          t("allowanceWizard.summary.ibanMasked", { lastFour: view.ibanLastFour }),
          "details",
        )}
      </dl>
      {s ? (
        <div className={s.capped ? "alert alert--warning" : "alert alert--info"} role="status">
          <p>
            {s.capped
              ? t("allowanceWizard.summary.capped", {
                  before: formatCents(s.allowanceBeforeCap),
                  remaining: formatCents(s.capRemainingBefore),
                  amount: formatCents(s.allowance),
                })
              : t("allowanceWizard.summary.capLeft", { remaining: formatCents(s.capRemainingAfter) })}
          </p>
        </div>
      ) : null}
      {s ? (
        <Form method="post" action={wizard.paths[wizard.step]} {...getFormProps(distanceForm)} preventScrollReset>
          <Field
            field={distanceFields.declared_km}
            label={t("allowanceWizard.summary.correctLabel")}
            hint={t("allowanceWizard.summary.correctHint", {
              max: DECLARED_DISTANCE_MAX_METERS[wizard.type] / 1000,
            })}
            inputMode="decimal"
            autoComplete="off"
            optional
          />
          <div className="actions">
            <IntentButton value={DISTANCE_INTENT.correctDistance} secondary>
              {t("allowanceWizard.summary.correct")}
            </IntentButton>
            {s.declaredMeters !== null ? (
              <IntentButton value={DISTANCE_INTENT.useEstimate} secondary>
                {t("allowanceWizard.summary.useEstimate")}
              </IntentButton>
            ) : null}
          </div>
        </Form>
      ) : null}
      <Form method="post" action={wizard.paths[wizard.step]} {...getFormProps(form)} preventScrollReset>
        {unusual ? (
          <UnusualDistance
            type={wizard.type}
            unusual={unusual}
            fields={{ confirmed: fields.distance_confirmed, reason: fields.distance_reason }}
          />
        ) : null}
        <Checkbox field={fields.sworn_statement} label={t("allowanceWizard.summary.swornStatement")} />
        <div className="actions">
          <IntentButton value={DISTANCE_INTENT.confirm}>{t("allowanceWizard.summary.confirm")}</IntentButton>
          <BackOrCancel wizard={wizard} words="allowanceWizard" />
        </div>
      </Form>
    </>
  );
}

/**
 * An unusual one-way distance (issue 31 §2, decision 0055), in the signing form: what is unusual in words,
 * "Je confirme cette distance" and the reason the funder will read. The platform requires both again.
 */
function UnusualDistance({
  type,
  unusual,
  fields,
}: {
  type: DistanceView["type"];
  unusual: { meters: number; usualMeters: number };
  fields: { confirmed: FieldMeta; reason: FieldMeta };
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="fieldset allowance-unusual">
      <legend>{t("allowanceWizard.summary.unusualLegend")}</legend>
      <p className="allowance-unusual__text">
        {t(`allowanceWizard.summary.unusual.${type}`, {
          distance: formatKilometres(unusual.meters / 1000),
          usual: `${unusual.usualMeters / 1000} km`,
        })}
      </p>
      <Checkbox field={fields.confirmed} label={t("allowanceWizard.summary.confirmDistance")} />
      <TextArea
        required
        field={fields.reason}
        label={t("allowanceWizard.summary.reason")}
        hint={t("allowanceWizard.summary.reasonHint")}
        maxLength={PLAUSIBILITY_REASON_MAX}
        rows={3}
      />
    </fieldset>
  );
}
