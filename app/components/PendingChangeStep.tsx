import type { CodeStepScreen } from "~/routes/+shared/code-step";
import { useTranslation } from "~/i18n";
import { CodeStep, type CodeStepActionData } from "./CodeStep";

export interface PendingChangeStepData extends CodeStepScreen {
  field: "email" | "phone" | "iban";
  /** The new value as shown (an IBAN masked but for its first and last four characters). */
  newValue: string;
  /** Where the code went: the new address or number, or for an IBAN the person's second factor. */
  channel: "email" | "sms";
}

/** What the new value is called. */
const NEW_VALUE = {
  email: "settings.pendingChange.newEmail",
  phone: "settings.pendingChange.newPhone",
  iban: "settings.profile.payout.newIban",
} as const;

/** Where the code went: to the new address or number, or for an IBAN to the person's e-mail or phone. */
function codeSentWords({ field, channel }: PendingChangeStepData) {
  if (field === "email") return "settings.pendingChange.codeSentEmail";
  if (field === "phone") return "settings.pendingChange.codeSentPhone";
  return channel === "sms" ? "settings.profile.payout.codeSentSms" : "settings.profile.payout.codeSentEmail";
}

/**
 * Confirm a new e-mail, phone or payout IBAN (spec 001 §4 pending-change modal, decision 0054): the new value
 * read-only, then the code step (a new code after 60 s, and a way to cancel the change).
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
          <dt>{t(NEW_VALUE[screen.field])}</dt>
          <dd>{screen.newValue}</dd>
        </div>
      </dl>
      <p>{t(codeSentWords(screen))}</p>
    </CodeStep>
  );
}
