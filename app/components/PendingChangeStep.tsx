import type { CodeStepScreen } from "~/routes/+shared/code-step";
import { useTranslation } from "~/i18n";
import { CodeStep, type CodeStepActionData } from "./CodeStep";

export interface PendingChangeStepData extends CodeStepScreen {
  field: "email" | "phone";
  newValue: string;
}

/**
 * Confirm a new e-mail or phone (spec 001 §4 pending-change modal): the new value read-only, then the
 * code step (a new code after 60 s, and a way to cancel the change).
 */
export function PendingChangeStep({
  screen,
  actionData,
}: {
  screen: PendingChangeStepData;
  actionData: CodeStepActionData | undefined;
}) {
  const { t } = useTranslation();
  return (
    <CodeStep
      formId={`pending-${screen.field}`}
      actionData={actionData}
      screen={screen}
      submitLabel={t("settings.pendingChange.confirm")}
      cancelLabel={t("settings.pendingChange.cancel")}
    >
      <p>{t("settings.pendingChange.inProgress")}</p>
      <dl className="summary-list">
        <div>
          <dt>{t(screen.field === "email" ? "settings.pendingChange.newEmail" : "settings.pendingChange.newPhone")}</dt>
          <dd>{screen.newValue}</dd>
        </div>
      </dl>
      <p>
        {t(screen.field === "email" ? "settings.pendingChange.codeSentEmail" : "settings.pendingChange.codeSentPhone")}
      </p>
    </CodeStep>
  );
}
