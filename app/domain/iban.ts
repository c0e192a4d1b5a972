import { getCountrySpecifications, validateIBAN, ValidationErrorsIBAN } from "ibantools";

/**
 * IBANs for refund payouts (issue 14, spec 001 §2.6 "Methods step"): what the employee typed, spaces removed
 * and upper-cased, then checked with ibantools — ISO 13616 checksum, the country's length and format, the
 * French RIB key — and refused outside the SEPA area, where our payouts (SEPA credit transfers) cannot go.
 */

/** The countries (ISO 3166 alpha-2) of the SEPA scheme, as ibantools' registry marks them. */
export const SEPA_COUNTRIES: readonly string[] = Object.entries(getCountrySpecifications())
  .filter(([, spec]) => spec.SEPA === true)
  .map(([code]) => code)
  .sort();

export type IbanProblem =
  | "refunds.errors.ibanRequired"
  | "refunds.errors.ibanCountry"
  | "refunds.errors.ibanNotSepa"
  | "refunds.errors.ibanLength"
  | "refunds.errors.ibanFormat"
  | "refunds.errors.ibanChecksum"
  | "refunds.errors.ibanRibKey";

/** "fr76 3000 6000 0112 3456 7890 189" → "FR7630006000011234567890189" (spaces and dashes removed, upper case). */
export function normaliseIban(raw: string): string {
  return raw.replace(/[\s-]+/g, "").toUpperCase();
}

/** Null for a valid SEPA IBAN (already normalised), otherwise the catalogue key of what is wrong. */
export function ibanProblem(iban: string): IbanProblem | null {
  if (iban === "") return "refunds.errors.ibanRequired";
  if (!/^[A-Z]{2}/.test(iban)) return "refunds.errors.ibanCountry";
  const country = iban.slice(0, 2);
  const spec = getCountrySpecifications()[country];
  if (!spec || !spec.chars) return "refunds.errors.ibanCountry";
  if (!SEPA_COUNTRIES.includes(country)) return "refunds.errors.ibanNotSepa";
  if (iban.length !== spec.chars) return "refunds.errors.ibanLength";
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]+$/.test(iban)) return "refunds.errors.ibanFormat";
  const { errorCodes } = validateIBAN(iban);
  if (errorCodes.length === 0) return null;
  if (errorCodes.includes(ValidationErrorsIBAN.WrongBBANLength)) return "refunds.errors.ibanLength";
  if (errorCodes.includes(ValidationErrorsIBAN.WrongBBANFormat)) return "refunds.errors.ibanFormat";
  if (errorCodes.includes(ValidationErrorsIBAN.ChecksumNotNumber)) return "refunds.errors.ibanFormat";
  if (errorCodes.includes(ValidationErrorsIBAN.WrongIBANChecksum)) return "refunds.errors.ibanChecksum";
  if (errorCodes.includes(ValidationErrorsIBAN.WrongAccountBankBranchChecksum)) return "refunds.errors.ibanRibKey";
  return "refunds.errors.ibanFormat";
}

/** The last four characters, all the portal ever shows of an IBAN. */
export function maskIban(iban: string): string {
  return iban.slice(-4);
}
