import type { ReactNode } from "react";
import { Link, useNavigation } from "react-router";
import { useTranslation } from "~/i18n";
import { RECEIPT_ACCEPT } from "~/domain/refunds";
import { INTENT_FIELD } from "~/routes/+shared/intents";
import { descriptionOf, HintAndError } from "./Field";
import type { FieldMeta } from "./meta";

/**
 * Pieces the wizards' steps share (the refund wizard, the allowance wizards): a step's submit button
 * naming its intent, the alert of a form's own errors, and a file input with its label, hint and error.
 */

/** A submit button of a wizard's form: its intent (declared once by the wizard), never disabled while busy. */
export function IntentButton({
  value,
  children,
  secondary = false,
}: {
  value: string;
  children: ReactNode;
  secondary?: boolean;
}) {
  const busy = useNavigation().state === "submitting";
  return (
    <button
      type="submit"
      name={INTENT_FIELD}
      value={value}
      className={secondary ? "button button--secondary" : "button"}
      aria-disabled={busy || undefined}
    >
      {children}
    </button>
  );
}

/** The errors of the whole form (catalogue keys), as an alert above it. */
export function FormAlert({ errors, kind = "error" }: { errors: string[] | undefined; kind?: "error" | "warning" }) {
  const { t } = useTranslation();
  if (!errors?.length) return null;
  return (
    <div className={`alert alert--${kind}`} role="alert">
      {errors.map((e) => (
        <p key={e}>{t(e)}</p>
      ))}
    </div>
  );
}

/** A receipt's file input (PDF, PNG, JPG) with its label, hint and error; the camera first on a phone. */
export function FileField({ field, label, hint }: { field: FieldMeta; label: string; hint: string }) {
  const error = field.errors?.[0];
  const { hintId, describedBy } = descriptionOf(field, hint, error);
  return (
    <div className={`field${error ? " field--error" : ""}`}>
      <label className="field__label" htmlFor={field.id}>
        {label}
      </label>
      <HintAndError field={field} hint={hint} hintId={hintId} error={error} />
      <input
        className="input"
        type="file"
        id={field.id}
        name={field.name}
        accept={RECEIPT_ACCEPT}
        capture="environment"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
    </div>
  );
}

/**
 * A row of a wizard's summary ("check your answers", a `<dl>`'s item): the answer, the platform's errors
 * for it (the row turns red, spec 001 §2.7, §8) and a link back to the step that asked it. Its id is
 * what the error summary's link focuses (`summaryRowFields`).
 */
export function SummaryRow({
  id,
  label,
  children,
  errors = [],
  edit,
}: {
  id: string;
  label: string;
  children: ReactNode;
  errors?: readonly string[];
  /** The step's path and the link's words ("Modifier"). */
  edit?: { to: string; text: string };
}) {
  const { t } = useTranslation();
  return (
    <div className={errors.length ? "field--error" : undefined} id={id} tabIndex={-1}>
      <dt>{label}</dt>
      <dd>
        {children}
        {errors.length ? (
          <div id={`${id}-error`}>
            {errors.map((m) => (
              <p className="field__error" key={m}>
                <span className="visually-hidden">{t("errors.prefix")}</span>
                {t(m)}
              </p>
            ))}
          </div>
        ) : null}
        {edit ? (
          <>
            {" "}
            <Link to={edit.to} className="link-action" preventScrollReset>
              {edit.text}
              <span className="visually-hidden"> : {label}</span>
            </Link>
          </>
        ) : null}
      </dd>
    </div>
  );
}

/** The errors of these summary rows (`<prefix>-<name>`) as the error summary's fields, in order. */
export function summaryRowFields(
  prefix: string,
  names: readonly string[],
  errors: Record<string, string[] | undefined>,
): FieldMeta[] {
  return names
    .filter((name) => errors[name]?.length)
    .map((name) => ({ id: `${prefix}-${name}`, name, errorId: `${prefix}-${name}-error`, errors: errors[name] }));
}
