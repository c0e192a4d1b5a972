import type { ComponentProps } from "react";
import { Form } from "react-router";
import { formatTime } from "~/domain/dates";
import { useTranslation } from "~/i18n";
import { ResendCountdown } from "./ResendCountdown";
import { TextField } from "./TextField";

/**
 * The one-time-code step (001 §4, ACCESSIBILITY "One-time codes"): one field that accepts pasted
 * codes with spaces, then a separate form to ask for a new code, with the wait stated in words.
 */
export function OneTimeCodeForms({
  formProps,
  field,
  attempt,
  submitLabel,
  hint,
  resend,
  preventScrollReset = false,
}: {
  formProps: ComponentProps<typeof Form>;
  field: { id: string; name: string; error?: string };
  /** Changes after each refused code, so the field is emptied even when JS keeps the page. */
  attempt: string;
  submitLabel: string;
  /** Replaces the code's usual hint (the sign-in says how long its pending sign-in lasts). */
  hint?: string;
  resend: { id: string; intent: string; availableAt: string | null; hidden?: Record<string, string> };
  preventScrollReset?: boolean;
}) {
  const { t } = useTranslation();
  const waitId = `${resend.id}-wait`;
  return (
    <>
      <Form method="post" {...formProps} noValidate preventScrollReset={preventScrollReset}>
        <TextField
          id={field.id}
          name={field.name}
          key={`code-${attempt}`}
          label={t("auth.code.label")}
          hint={hint ?? t("auth.code.hint")}
          required
          error={field.error}
          inputMode="numeric"
          autoComplete="one-time-code"
          spellCheck={false}
          className="input--code"
        />
        <button type="submit" name="intent" value="verify" className="button">
          {submitLabel}
        </button>
      </Form>
      <Form method="post" className="resend" preventScrollReset={preventScrollReset}>
        {Object.entries(resend.hidden ?? {}).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        {resend.availableAt ? (
          <p className="hint" id={waitId}>
            {t("auth.code.resendWait", { time: formatTime(resend.availableAt) })} <ResendCountdown until={resend.availableAt} />
          </p>
        ) : null}
        <button type="submit" name="intent" value={resend.intent} id={resend.id} className="button button--secondary" aria-describedby={resend.availableAt ? waitId : undefined}>
          {t("auth.code.resend")}
        </button>
      </Form>
    </>
  );
}
