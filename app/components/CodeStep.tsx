import { getFormProps } from "~/components/forms/useForm";
import type { ReactNode } from "react";
import { Form } from "react-router";
import {
  CODE_STEP_INTENT,
  type CodeStepActionData,
  type CodeStepFields,
  type CodeStepScreen,
} from "~/routes/+shared/code-step";
import { useTranslation } from "~/i18n";
import { ErrorSummary, OneTimeCodeField, useForm } from "./forms";
import { ResendWait } from "./ResendWait";

// Declared beside the step's intents, so that a page can word its title without loading this form (decision 0074).
export { codeStepFailed, type CodeStepActionData } from "~/routes/+shared/code-step";

/**
 * The one-time-code step (decision 0022; 001 §4, ACCESSIBILITY "One-time codes"), for every feature:
 * the error summary, the feature's words, one field that accepts pasted codes with spaces, then a
 * separate form to ask for a new code with the wait stated in words, and a cancel button when the
 * feature offers one. A refused code is never shown again, with or without JS.
 */
export function CodeStep({
  formId,
  actionData,
  screen,
  submitLabel,
  hint,
  cancelLabel,
  preventScrollReset = false,
  children,
}: {
  formId: string;
  actionData: CodeStepActionData | undefined;
  screen: CodeStepScreen;
  submitLabel: string;
  /** Replaces the code's usual hint (the sign-in says how long its pending sign-in lasts). */
  hint?: string;
  /** The cancel button's words, when the feature can be given up here. */
  cancelLabel?: string;
  preventScrollReset?: boolean;
  /** The feature's words, between the error summary and the code. */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const [form, fields] = useForm<CodeStepFields>({ id: formId, lastResult: actionData });
  const waitId = `${fields.resend.id}-wait`;
  return (
    <>
      <ErrorSummary form={form} fields={[fields.code, fields.resend]} />
      {children}
      <Form method="post" {...getFormProps(form)} noValidate preventScrollReset={preventScrollReset}>
        <OneTimeCodeField field={fields.code} hint={hint} />
        <button type="submit" name="intent" value={CODE_STEP_INTENT.verify} className="button">
          {submitLabel}
        </button>
      </Form>
      <Form method="post" className="resend" preventScrollReset={preventScrollReset}>
        {screen.resendAt ? <ResendWait id={waitId} until={screen.resendAt} /> : null}
        {/* The resend's refusal (too soon) is the form's `resend` error: the summary links here. */}
        <button
          type="submit"
          name="intent"
          value={CODE_STEP_INTENT.resend}
          id={fields.resend.id}
          className="button button--secondary"
          aria-describedby={screen.resendAt ? waitId : undefined}
        >
          {t("auth.code.resend")}
        </button>
      </Form>
      {cancelLabel ? (
        <Form method="post" className="actions" preventScrollReset={preventScrollReset}>
          <button type="submit" name="intent" value={CODE_STEP_INTENT.cancel} className="button button--secondary">
            {cancelLabel}
          </button>
        </Form>
      ) : null}
    </>
  );
}
