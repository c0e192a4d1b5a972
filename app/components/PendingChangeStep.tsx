import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form } from "react-router";
import type { CodeForm } from "~/domain/schemas";
import { useTranslation } from "~/i18n";
import { ErrorSummary, type SummaryError } from "./ErrorSummary";
import { OneTimeCodeForms } from "./OneTimeCodeForms";

export interface PendingChangeStepData {
  field: "email" | "phone";
  newValue: string;
  resendAt: string | null;
}

export interface PendingChangeActionData {
  lastResult: SubmissionResult<string[]> | null;
  throttled: boolean;
  resent: boolean;
  attempt: string;
  unknownIntent?: boolean;
}

/**
 * Confirm a new e-mail or phone (spec 001 §4 pending-change modal): the new value read-only, the code
 * field, a new code after 60 s, and a way to cancel the change.
 */
export function PendingChangeStep({ screen, actionData }: { screen: PendingChangeStepData; actionData: PendingChangeActionData | undefined }) {
  const { t } = useTranslation();
  const [form, fields] = useForm<CodeForm>({ id: `pending-${screen.field}`, lastResult: actionData?.lastResult });
  const errors: SummaryError[] = (fields.code.errors ?? []).map((message) => ({ fieldId: fields.code.id, message }));
  if (actionData?.throttled) errors.push({ fieldId: "pending-resend", message: "errors.tooManyRequests" });
  if (actionData?.unknownIntent) errors.push({ fieldId: fields.code.id, message: "errors.unknownIntent" });
  return (
    <>
      <ErrorSummary errors={errors} />
      {actionData?.resent ? (
        <div className="alert alert--success" role="status">
          <p>{t(screen.field === "email" ? "settings.pendingChange.resentEmail" : "settings.pendingChange.resentPhone")}</p>
        </div>
      ) : null}
      <p>{t("settings.pendingChange.inProgress")}</p>
      <dl className="summary-list">
        <div>
          <dt>{t(screen.field === "email" ? "settings.pendingChange.newEmail" : "settings.pendingChange.newPhone")}</dt>
          <dd>{screen.newValue}</dd>
        </div>
      </dl>
      <p>{t(screen.field === "email" ? "settings.pendingChange.codeSentEmail" : "settings.pendingChange.codeSentPhone")}</p>
      <OneTimeCodeForms
        formProps={getFormProps(form)}
        field={{ id: fields.code.id, name: fields.code.name, error: fields.code.errors?.[0] }}
        attempt={actionData?.attempt ?? ""}
        submitLabel={t("settings.pendingChange.confirm")}
        resend={{ id: "pending-resend", intent: "resend", availableAt: screen.resendAt }}
      />
      <Form method="post" className="actions">
        <button type="submit" name="intent" value="cancel" className="button button--secondary">
          {t("settings.pendingChange.cancel")}
        </button>
      </Form>
    </>
  );
}
