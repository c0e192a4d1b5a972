import { Fragment, type ReactNode } from "react";
import { firstEnabledOption } from "~/domain/error-targets";
import { useTranslation } from "~/i18n";
import { descriptionOf, HintAndError, InlineError } from "./Field";
import { errorOf, type FieldMeta } from "./meta";
import { NewTabLink } from "~/components/NewTabLink";

export interface ChoiceOption {
  value: string;
  label: string;
  /** Said under the option, and describing it (e.g. how many cards are left). */
  hint?: string;
  /** Shown in the danger style (e.g. "no card left of this kind"). */
  hintUnavailable?: boolean;
  /** Cannot be chosen; never the target of a summary link. */
  disabled?: boolean;
}

/** The id of one option's control: `${field id}-${value}`. */
export const optionIdOf = (field: FieldMeta, value: string) => `${field.id}-${value}`;

/**
 * Where the error summary's link for a group goes (GOV.UK): its first option that can be chosen, or the
 * fieldset when none can (then the summary focuses the group's first control with JS).
 */
export function choiceTarget(field: FieldMeta, options: readonly ChoiceOption[]): string {
  const open = new Set(options.filter((o) => !o.disabled).map((o) => o.value));
  return firstEnabledOption(
    options.map((o) => o.value),
    (value) => open.has(value),
    (value) => optionIdOf(field, value),
    field.id,
  );
}

function checkedValues(field: FieldMeta): string[] {
  const value = field.initialValue;
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  return typeof value === "string" ? [value] : [];
}

/**
 * GOV.UK's fieldset: legend, hint, inline error, then the options. Hint and error describe the group,
 * which is marked invalid (issue 13, finding 11): not each radio, where aria-invalid is not a supported
 * state (ARIA 1.3, jsx-a11y).
 */
function ChoiceGroup({ field, legend, hint, options, required }: ChoicesProps) {
  const error = errorOf(field);
  const { hintId, describedBy } = descriptionOf(field, hint, error);
  const checked = checkedValues(field);
  return (
    <fieldset
      id={field.id}
      key={field.key}
      className={`radios${error ? " field--error" : ""}`}
      aria-describedby={describedBy}
      aria-invalid={error ? true : undefined}
    >
      <legend>{legend}</legend>
      <HintAndError field={field} hint={hint} hintId={hintId} error={error} />
      {options.map((option) => {
        const id = optionIdOf(field, option.value);
        const optionHintId = option.hint ? `${id}-hint` : undefined;
        const control = (
          <label className="radio">
            <input
              type="radio"
              name={field.name}
              id={id}
              value={option.value}
              required={required || field.required ? true : undefined}
              disabled={option.disabled}
              defaultChecked={checked.includes(option.value) && !option.disabled}
              aria-describedby={optionHintId}
            />
            {option.label}
          </label>
        );
        if (!option.hint) return <Fragment key={option.value}>{control}</Fragment>;
        return (
          <div className="radio-option" key={option.value}>
            {control}
            <p
              className={`radio-option__hint${option.hintUnavailable ? " radio-option__hint--unavailable" : ""}`}
              id={optionHintId}
            >
              {option.hint}
            </p>
          </div>
        );
      })}
    </fieldset>
  );
}

export interface ChoicesProps {
  field: FieldMeta;
  legend: ReactNode;
  hint?: string;
  options: readonly ChoiceOption[];
  required?: boolean;
}

/** One choice among a few (radios in a fieldset). The error summary links to `choiceTarget(field, options)`. */
export function Radios(props: ChoicesProps) {
  return <ChoiceGroup {...props} />;
}

/**
 * One checkbox on its own (e.g. "send me news"): its error before it, as GOV.UK does for a single
 * checkbox. Checked when the form's value for it is "on". `locked`: shown ticked and not changeable.
 */
export function Checkbox({
  field,
  label,
  locked = false,
  children,
}: {
  field: FieldMeta;
  label: ReactNode;
  locked?: boolean;
  children?: ReactNode;
}) {
  const error = errorOf(field);
  return (
    <div className={`field field--checkbox${error ? " field--error" : ""}`}>
      <InlineError id={field.errorId} error={error} />
      <label className="checkbox">
        <input
          type="checkbox"
          key={field.key}
          id={field.id}
          name={field.name}
          defaultChecked={locked || field.initialValue === "on"}
          disabled={locked}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? field.errorId : undefined}
        />
        {label}
      </label>
      {children}
    </div>
  );
}

/**
 * "I accept the terms and the privacy policy" with both texts one click away, the portal's own pages in a new tab
 * (onboarding, activation, profile). Once accepted on the profile it is shown ticked and locked: acceptance cannot
 * be taken back here.
 */
export function TermsField({ field, locked }: { field: FieldMeta; locked?: boolean }) {
  const { t } = useTranslation();
  return (
    <Checkbox field={field} locked={locked} label={t("onboarding.profile.terms")}>
      <ul className="inline-links">
        <li>
          <NewTabLink href="/terms">{t("onboarding.profile.readTerms")}</NewTabLink>
        </li>
        <li>
          <NewTabLink href="/privacy">{t("onboarding.profile.readPrivacy")}</NewTabLink>
        </li>
      </ul>
    </Checkbox>
  );
}
