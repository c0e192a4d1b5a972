import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useMemo, type ReactNode } from "react";
import { Form } from "react-router";
import type { CodeStepFields, CodeStepIntent, CodeStepScreen } from "~/domain/code-step";
import { formatTime } from "~/domain/dates";
import { useTranslation } from "~/i18n";
import { ErrorSummary, type SummaryError } from "./ErrorSummary";
import { ResendCountdown } from "./ResendCountdown";
import { TextField } from "./TextField";

/** What the code step's action answers when it keeps the person on the page (code-step.server.ts). */
export interface CodeStepActionData {
  lastResult: SubmissionResult<string[]>;
}

/** Whether the last answer refused something: the page's title says "Erreur" then. */
export function codeStepFailed(actionData: CodeStepActionData | undefined): boolean {
  return actionData?.lastResult.status === "error";
}

let answers = 0;

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
  const lastResult = actionData?.lastResult;
  const [form, fields] = useForm<CodeStepFields>({ id: formId, lastResult });
  // A new key for each answer remounts the field: the browser forgets a refused code too.
  const attempt = useMemo(() => (lastResult ? ++answers : 0), [lastResult]);
  const errors: SummaryError[] = [
    ...(form.errors ?? []).map((message) => ({ fieldId: fields.code.id, message })),
    ...(fields.code.errors ?? []).slice(0, 1).map((message) => ({ fieldId: fields.code.id, message })),
    ...(fields.resend.errors ?? []).slice(0, 1).map((message) => ({ fieldId: fields.resend.id, message })),
  ];
  const waitId = `${fields.resend.id}-wait`;
  return (
    <>
      <ErrorSummary errors={errors} />
      {children}
      <Form method="post" {...getFormProps(form)} noValidate preventScrollReset={preventScrollReset}>
        <TextField
          id={fields.code.id}
          name={fields.code.name}
          key={`code-${attempt}`}
          label={t("auth.code.label")}
          hint={hint ?? t("auth.code.hint")}
          required
          error={fields.code.errors?.[0]}
          inputMode="numeric"
          autoComplete="one-time-code"
          spellCheck={false}
          className="input--code"
        />
        <button type="submit" name="intent" value={"verify" satisfies CodeStepIntent} className="button">
          {submitLabel}
        </button>
      </Form>
      <Form method="post" className="resend" preventScrollReset={preventScrollReset}>
        {screen.resendAt ? (
          <p className="hint" id={waitId}>
            {t("auth.code.resendWait", { time: formatTime(screen.resendAt) })} <ResendCountdown until={screen.resendAt} />
          </p>
        ) : null}
        <button type="submit" name="intent" value={"resend" satisfies CodeStepIntent} id={fields.resend.id} className="button button--secondary" aria-describedby={screen.resendAt ? waitId : undefined}>
          {t("auth.code.resend")}
        </button>
      </Form>
      {cancelLabel ? (
        <Form method="post" className="actions" preventScrollReset={preventScrollReset}>
          <button type="submit" name="intent" value={"cancel" satisfies CodeStepIntent} className="button button--secondary">
            {cancelLabel}
          </button>
        </Form>
      ) : null}
    </>
  );
}
