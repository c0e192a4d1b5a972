import { useTranslation } from "~/i18n";
import { Checkbox, Radios } from "./Choices";
import { Field } from "./Field";
import type { FieldMeta } from "./meta";

/**
 * The account a request is paid to (issue 31 §1, decision 0054), one component for every wizard. With an IBAN
 * saved in the profile: "the saved account (ending 0189)", checked by default, or "another account, for this
 * request only" with the IBAN field beneath — always in the page, so it works without JavaScript; the style
 * sheet (payout.css) shows it only while "another account" is chosen. Without a saved IBAN: the IBAN field and
 * "save this account in my profile", which the form's defaultValue checks (`PAYOUT_IBAN_DEFAULTS`).
 * `words` names the wizard, whose legend says what is paid.
 */
export function PayoutIbanField({
  fields,
  savedLastFour,
  words,
}: {
  fields: { iban_choice: FieldMeta; iban: FieldMeta; save_iban: FieldMeta };
  savedLastFour: string | null;
  words: "refundWizard" | "allowanceWizard" | "subscriptionWizard";
}) {
  const { t } = useTranslation();
  const ibanField = (
    <Field
      required
      field={fields.iban}
      label={t("payoutIban.iban")}
      hint={t("payoutIban.ibanHint")}
      autoComplete="off"
      spellCheck={false}
    />
  );
  if (savedLastFour === null)
    return (
      <div className="payout-iban">
        {ibanField}
        <Checkbox field={fields.save_iban} label={t("payoutIban.save")} />
      </div>
    );
  return (
    <div className="payout-iban payout-iban--saved">
      <Radios
        field={fields.iban_choice}
        legend={t(`payoutIban.legend.${words}`)}
        hint={t("payoutIban.changeHint")}
        options={[
          { value: "saved", label: t("payoutIban.saved", { lastFour: savedLastFour }) },
          { value: "other", label: t("payoutIban.other") },
        ]}
      />
      <div className="payout-iban__other">{ibanField}</div>
    </div>
  );
}
