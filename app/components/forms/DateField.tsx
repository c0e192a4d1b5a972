import { useState } from "react";
import { formatMonth, readDay } from "~/domain/dates";
import { useTranslation } from "~/i18n";
import { Field, type FieldProps } from "./Field";
import { errorOf, textOf, type FieldMeta } from "./meta";

/*
 * The date field, apart from Field.tsx: it reads days (domain/dates.ts), which the pages without a date
 * (sign-in among them) need not load.
 */

/**
 * A day typed any way `readDay` reads it (decision 0057), digits only included: a phone shows its numeric
 * keypad, "Par exemple 01/11/2026 ou 01112026" comes after the field's own hint, and nothing is filled from
 * what the browser remembers of another form. A day its month has not is said with its figures ("Le
 * 31/02/2026 n’existe pas : février 2026 a 28 jours"), read again from the day as typed: the schema's key
 * alone ("Ce jour n’existe pas dans ce mois", as the error summary says it) carries none.
 */
export function DateField({
  hint,
  field,
  onChange,
  ...props
}: Omit<FieldProps, "type" | "secret" | "autoComplete" | "inputMode">) {
  const { t, i18n } = useTranslation();
  const typed = useTypedText(field);
  const reading = errorOf(field) === "dates.errors.dayOfMonth" ? readDay(typed.text) : null;
  const said: FieldMeta =
    reading?.kind === "problem" && reading.problem === "dayOfMonth"
      ? {
          // The metadata may read through getters: each property is copied by name.
          id: field.id,
          name: field.name,
          errorId: field.errorId,
          initialValue: field.initialValue,
          key: field.key,
          required: field.required,
          errors: [
            t("dates.errors.dayOfMonthIn", {
              typed: reading.typed,
              month: formatMonth(reading.month, i18n.language),
              days: reading.daysInMonth,
            }),
          ],
        }
      : field;
  return (
    <Field
      {...props}
      field={said}
      hint={
        hint ? (
          <>
            {hint} {t("dates.hint")}
          </>
        ) : (
          t("dates.hint")
        )
      }
      autoComplete="off"
      inputMode="numeric"
      onChange={(event) => {
        typed.set(event.target.value);
        onChange?.(event);
      }}
    />
  );
}

/**
 * What a text field holds: without JS the value the server sent back; with JS the browser keeps what was
 * typed while the field's metadata keeps the form's default, so the typing is followed. A new control (its
 * `key` changed: the form was reset) starts again from the metadata.
 */
function useTypedText(field: FieldMeta): { text: string; set: (text: string) => void } {
  const [state, setState] = useState({ key: field.key, text: textOf(field) ?? "" });
  if (state.key !== field.key) setState({ key: field.key, text: textOf(field) ?? "" });
  return {
    text: state.key === field.key ? state.text : (textOf(field) ?? ""),
    set: (text) => setState({ key: field.key, text }),
  };
}
