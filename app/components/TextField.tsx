/**
 * The fields of the forms not yet on conform's metadata (card pages, the code steps): replaced by
 * `~/components/forms` (decision 0021) and deleted once the last of them has moved.
 */
import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";
import { useTranslation } from "~/i18n";

interface FieldText {
  id: string;
  label: string;
  hint?: string;
  /** A catalogue key, or undefined when the field is valid. */
  error?: string;
  /**
   * Required by the server's schema: announced as `aria-required` (RGAA 11.10.1). Not the `required`
   * attribute, which would add the browser's own checks and bubbles where a form has no `noValidate`:
   * the server's validation stays the rule.
   */
  required?: boolean;
  /** Said "(facultatif)" in the label, in a form whose fields are otherwise all required. */
  optional?: boolean;
}

type ControlAria = { "aria-invalid"?: true; "aria-describedby"?: string; "aria-required"?: true };

export { RequiredNote } from "./forms/Field";

/**
 * Label, hint, inline error (after both), then the control — described by hint and error, marked
 * invalid when in error (ACCESSIBILITY.md "Forms and errors").
 */
function Field({ id, label, hint, error, required, optional, control }: FieldText & { control: (aria: ControlAria) => ReactNode }) {
  const { t } = useTranslation();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`field${error ? " field--error" : ""}`}>
      <label className="field__label" htmlFor={id}>
        {label}
        {optional ? ` ${t("forms.optional")}` : null}
      </label>
      {hint ? (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field__error" id={errorId}>
          <span className="visually-hidden">{t("errors.prefix")}</span>
          {t(error)}
        </p>
      ) : null}
      {control({ "aria-invalid": error ? true : undefined, "aria-describedby": describedBy, "aria-required": required ? true : undefined })}
    </div>
  );
}

export interface TextFieldProps extends FieldText, Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "name" | "defaultValue"> {
  name: string;
  defaultValue?: string;
}

export function TextField({ id, name, label, hint, error, required, optional, defaultValue, className, ...input }: TextFieldProps) {
  return (
    <Field
      id={id}
      label={label}
      hint={hint}
      error={error}
      required={required}
      optional={optional}
      control={(aria) => <input className={`input${className ? ` ${className}` : ""}`} id={id} name={name} defaultValue={defaultValue} {...aria} {...input} />}
    />
  );
}

export interface TextAreaFieldProps extends FieldText, Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "id" | "name" | "defaultValue"> {
  name: string;
  defaultValue?: string;
}

export function TextAreaField({ id, name, label, hint, error, required, optional, defaultValue, className, ...textarea }: TextAreaFieldProps) {
  return (
    <Field
      id={id}
      label={label}
      hint={hint}
      error={error}
      required={required}
      optional={optional}
      control={(aria) => <textarea className={`input textarea${className ? ` ${className}` : ""}`} id={id} name={name} defaultValue={defaultValue} {...aria} {...textarea} />}
    />
  );
}

export interface SelectFieldProps extends FieldText, Omit<SelectHTMLAttributes<HTMLSelectElement>, "id" | "name" | "defaultValue"> {
  name: string;
  defaultValue?: string;
  options: { value: string; label: string }[];
}

export function SelectField({ id, name, label, hint, error, required, optional, defaultValue, className, options, ...select }: SelectFieldProps) {
  return (
    <Field
      id={id}
      label={label}
      hint={hint}
      error={error}
      required={required}
      optional={optional}
      control={(aria) => (
        <select className={`input${className ? ` ${className}` : ""}`} id={id} name={name} defaultValue={defaultValue} {...aria} {...select}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    />
  );
}
