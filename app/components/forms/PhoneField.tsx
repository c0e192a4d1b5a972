import { PHONE_COUNTRIES } from "~/domain/countries";
import { useTranslation } from "~/i18n";
import { Field, Select } from "./Field";
import type { FieldMeta } from "./meta";

/*
 * Apart from the secrets (Secrets.tsx): the list of countries it reads (0.5 KB gzip) is loaded only by the pages
 * that ask for a phone number, not by every page with a password, a PIN or a code.
 */

/**
 * A phone number: the country (its dialling code) then the national number, side by side. The number
 * is stored in international form by the route (`internationalPhone`). The form's defaults give the
 * country ("FR" unless known).
 */
export function PhoneField({
  country,
  phone,
  label,
  hint,
}: {
  country: FieldMeta;
  phone: FieldMeta;
  label: string;
  hint?: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="phone-field">
      <Select
        required
        field={country}
        label={t("onboarding.profile.phoneCountry")}
        autoComplete="tel-country-code"
        options={PHONE_COUNTRIES.map((c) => ({ value: c.code, label: `${c.code} (${c.dial})` }))}
      />
      <Field required field={phone} type="tel" label={label} hint={hint} autoComplete="tel-national" maxLength={25} />
    </div>
  );
}
