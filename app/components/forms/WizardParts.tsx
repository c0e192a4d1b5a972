import type { ReactNode } from "react";
import { useNavigation } from "react-router";
import { useTranslation } from "~/i18n";
import { RECEIPT_ACCEPT } from "~/domain/refunds";
import { INTENT_FIELD } from "~/routes/+shared/intents";
import { descriptionOf, HintAndError } from "./Field";
import type { FieldMeta } from "./meta";
import { useSending } from "./upload-context";

/**
 * Pieces the wizards' steps share (the refund wizard, the allowance wizards): a step's submit button
 * naming its intent, the alert of a form's own errors, and a file input with its label, hint and error.
 */

/**
 * A submit button of a wizard's form: its intent (declared once by the wizard), never disabled while busy.
 * In an upload form sending its files, the button that sent them says so (issue 31 §4).
 */
export function IntentButton({
  value,
  children,
  secondary = false,
}: {
  value: string;
  children: ReactNode;
  secondary?: boolean;
}) {
  const { t } = useTranslation();
  const submitting = useNavigation().state === "submitting";
  const sending = useSending();
  const busy = submitting || sending !== null;
  return (
    <button
      type="submit"
      name={INTENT_FIELD}
      value={value}
      className={secondary ? "button button--secondary" : "button"}
      aria-disabled={busy || undefined}
    >
      {sending?.intent === value ? t("wizardKit.upload.sending") : children}
    </button>
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
        key={field.key}
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
