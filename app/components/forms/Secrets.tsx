import { useTranslation } from "~/i18n";
import { Field } from "./Field";
import type { FieldMeta } from "./meta";

/**
 * A new secret typed twice: a password (`kind="password"`, the rules as hint) or a 4-digit PIN. Neither
 * is ever sent back by the server nor kept by the page after an answer (see `Field`).
 */
export function NewSecretPair({
  kind,
  secret,
  confirmation,
  label,
  confirmationLabel,
  hint,
}: {
  kind: "password" | "pin";
  secret: FieldMeta;
  confirmation: FieldMeta;
  label: string;
  confirmationLabel: string;
  /** Defaults to the password rules for a password. */
  hint?: string;
}) {
  const { t } = useTranslation();
  const control =
    kind === "password"
      ? ({ autoComplete: "new-password" } as const)
      : ({ inputMode: "numeric", maxLength: 4, autoComplete: "off", className: "input--code" } as const);
  return (
    <>
      <Field
        required
        field={secret}
        type="password"
        label={label}
        hint={hint ?? (kind === "password" ? t("auth.password.rules") : undefined)}
        {...control}
      />
      <Field required field={confirmation} type="password" label={confirmationLabel} {...control} />
    </>
  );
}

/**
 * The one-time code (001 §4, ACCESSIBILITY "One-time codes"): 6 digits, offered by the phone's keyboard
 * and autofill, accepting pasted codes with spaces; emptied after each refused code.
 */
export function OneTimeCodeField({ field, label, hint }: { field: FieldMeta; label?: string; hint?: string }) {
  const { t } = useTranslation();
  return (
    <Field
      required
      secret
      field={field}
      label={label ?? t("auth.code.label")}
      hint={hint ?? t("auth.code.hint")}
      inputMode="numeric"
      autoComplete="one-time-code"
      spellCheck={false}
      className="input--code"
    />
  );
}
