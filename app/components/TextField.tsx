import type { InputHTMLAttributes } from "react";
import { useTranslation } from "~/i18n";

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "name" | "defaultValue"> {
  id: string;
  name: string;
  label: string;
  hint?: string;
  /** A catalogue key, or undefined when the field is valid. */
  error?: string;
  defaultValue?: string;
}

/** Label, hint, inline error (after both), then the input — described by hint and error. */
export function TextField({ id, name, label, hint, error, defaultValue, className, ...input }: TextFieldProps) {
  const { t } = useTranslation();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`field${error ? " field--error" : ""}`}>
      <label className="field__label" htmlFor={id}>
        {label}
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
      <input
        className={`input${className ? ` ${className}` : ""}`}
        id={id}
        name={name}
        defaultValue={defaultValue}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...input}
      />
    </div>
  );
}
