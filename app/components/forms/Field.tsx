import {
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from "react";
import { useTranslation } from "~/i18n";
import { errorOf, textOf, useReplyKey, type FieldMeta } from "./meta";

/** The sentence before a form of several fields (RGAA 11.10.1): required unless marked "(facultatif)". */
export function RequiredNote() {
  const { t } = useTranslation();
  return <p className="hint">{t("forms.allRequired")}</p>;
}

interface FieldText {
  field: FieldMeta;
  label: string;
  /** A sentence, or words with a part of their own (a date field's "lu sur le justificatif"). */
  hint?: ReactNode;
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

/** The hint's id of a field: its control (or fieldset) is described by it. */
export const hintIdOf = (field: FieldMeta) => `${field.id}-hint`;

/** An inline error, after the label and hint (ACCESSIBILITY.md "Forms and errors"). */
export function InlineError({ id, error }: { id: string; error: string | undefined }) {
  const { t } = useTranslation();
  if (!error) return null;
  return (
    <p className="field__error" id={id}>
      <span className="visually-hidden">{t("errors.prefix")}</span>
      {t(error)}
    </p>
  );
}

/** How a field or group is described: its hint's id, and the ids for `aria-describedby` (hint, then error). */
export function descriptionOf(field: FieldMeta, hint: ReactNode | undefined, error: string | undefined) {
  const hintId = hint ? hintIdOf(field) : undefined;
  const describedBy = [hintId, error ? field.errorId : undefined].filter(Boolean).join(" ") || undefined;
  return { hintId, describedBy };
}

/** The hint (if any) and the inline error (if any) under a label or legend, in that order. */
export function HintAndError({
  field,
  hint,
  hintId,
  error,
}: {
  field: FieldMeta;
  hint: ReactNode | undefined;
  hintId: string | undefined;
  error: string | undefined;
}) {
  return (
    <>
      {hint ? (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      <InlineError id={field.errorId} error={error} />
    </>
  );
}

/*
 * Values: what a control shows is the field's value from `useForm` — the form's `defaultValue` (given to
 * `useForm`) until the server answers, then what was submitted. A field the person emptied stays empty.
 */

/**
 * Label, hint, inline error (after both), then the control — described by hint and error, marked
 * invalid when in error (ACCESSIBILITY.md "Forms and errors"). Ids come from the field's metadata.
 */
function FieldShell({
  field,
  label,
  hint,
  required,
  optional,
  control,
}: FieldText & { control: (aria: ControlAria) => ReactNode }) {
  const { t } = useTranslation();
  const error = errorOf(field);
  const { hintId, describedBy } = descriptionOf(field, hint, error);
  return (
    <div className={`field${error ? " field--error" : ""}`}>
      <label className="field__label" htmlFor={field.id}>
        {label}
        {optional ? ` ${t("forms.optional")}` : null}
      </label>
      <HintAndError field={field} hint={hint} hintId={hintId} error={error} />
      {control({
        "aria-invalid": error ? true : undefined,
        "aria-describedby": describedBy,
        "aria-required": required || field.required ? true : undefined,
      })}
    </div>
  );
}

const classes = (base: string, extra?: string) => (extra ? `${base} ${extra}` : base);

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "name" | "type" | "defaultValue" | "required">;

export interface FieldProps extends FieldText, InputProps {
  type?: "text" | "email" | "tel" | "password" | "search" | "url";
  /** Never shown again after an answer (passwords always; a one-time code too). */
  secret?: boolean;
}

/** The shell's props out of a component's props; the rest goes to the control. */
function splitShell<P extends FieldText>({ field, label, hint, required, optional, ...control }: P) {
  return [{ field, label, hint, required, optional }, control] as const;
}

/**
 * A text, e-mail, phone or password input. A secret (a password, a code) is never shown again: the
 * server hides it from its reply (`hideFields`) and the control is remounted after each answer.
 */
export function Field(props: FieldProps) {
  const [shell, { type = "text", secret = type === "password", className, ...input }] = splitShell(props);
  const replyKey = useReplyKey();
  const { field } = shell;
  return (
    <FieldShell
      {...shell}
      control={(aria) => (
        <input
          key={secret ? `${field.key ?? ""}-${replyKey}` : field.key}
          className={classes("input", className)}
          id={field.id}
          name={field.name}
          type={type}
          defaultValue={textOf(field)}
          {...aria}
          {...input}
        />
      )}
    />
  );
}

export type TextAreaProps = FieldText &
  Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "id" | "name" | "defaultValue" | "required">;

export function TextArea(props: TextAreaProps) {
  const [shell, { className, ...textarea }] = splitShell(props);
  const { field } = shell;
  return (
    <FieldShell
      {...shell}
      control={(aria) => (
        <textarea
          key={field.key}
          className={classes("input textarea", className)}
          id={field.id}
          name={field.name}
          defaultValue={textOf(field)}
          {...aria}
          {...textarea}
        />
      )}
    />
  );
}

export interface SelectProps
  extends FieldText, Omit<SelectHTMLAttributes<HTMLSelectElement>, "id" | "name" | "defaultValue" | "required"> {
  options: readonly { value: string; label: string }[];
}

export function Select(props: SelectProps) {
  const [shell, { className, options, ...select }] = splitShell(props);
  const { field } = shell;
  return (
    <FieldShell
      {...shell}
      control={(aria) => (
        <select
          key={field.key}
          className={classes("input", className)}
          id={field.id}
          name={field.name}
          defaultValue={textOf(field)}
          {...aria}
          {...select}
        >
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
