import { getCountrySpecifications, validateIBAN, ValidationErrorsIBAN } from "ibantools";

/**
 * IBANs for refund payouts (issue 14, spec 001 §2.6 "Methods step"): what the employee typed, spaces removed
 * and upper-cased, then checked with ibantools — ISO 13616 checksum, the country's length and format, the
 * French RIB key — and refused outside the SEPA area, where our payouts (SEPA credit transfers) cannot go.
 */

/**
 * The countries (ISO 3166 alpha-2) of the SEPA scheme, as ibantools' registry marks them. Marked pure so that
 * a browser bundle importing this module for its small helpers alone (the profile page) drops ibantools.
 */
export const SEPA_COUNTRIES: readonly string[] = /* @__PURE__ */ sepaCountries();

function sepaCountries(): string[] {
  return Object.entries(getCountrySpecifications())
    .filter(([, spec]) => spec.SEPA === true)
    .map(([code]) => code)
    .sort();
}

export type IbanProblem =
  "ibanRequired" | "ibanCountry" | "ibanNotSepa" | "ibanLength" | "ibanFormat" | "ibanChecksum" | "ibanRibKey";

/** "fr76 3000 6000 0112 3456 7890 189" → "FR7630006000011234567890189" (spaces and dashes removed, upper case). */
/** An IBAN problem's words: the catalogue's `refunds.errors.<code>` (the refund and allowance forms share them). */
export const ibanMessage = (problem: IbanProblem) => `refunds.errors.${problem}` as const;

export function normaliseIban(raw: string): string {
  return raw.replace(/[\s-]+/g, "").toUpperCase();
}

/** Null for a valid SEPA IBAN (already normalised), otherwise the catalogue key of what is wrong. */
export function ibanProblem(iban: string): IbanProblem | null {
  if (iban === "") return "ibanRequired";
  if (!/^[A-Z]{2}/.test(iban)) return "ibanCountry";
  const country = iban.slice(0, 2);
  const spec = getCountrySpecifications()[country];
  if (!spec || !spec.chars) return "ibanCountry";
  if (!SEPA_COUNTRIES.includes(country)) return "ibanNotSepa";
  if (iban.length !== spec.chars) return "ibanLength";
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]+$/.test(iban)) return "ibanFormat";
  const { errorCodes } = validateIBAN(iban);
  if (errorCodes.length === 0) return null;
  if (errorCodes.includes(ValidationErrorsIBAN.WrongBBANLength)) return "ibanLength";
  if (errorCodes.includes(ValidationErrorsIBAN.WrongBBANFormat)) return "ibanFormat";
  if (errorCodes.includes(ValidationErrorsIBAN.ChecksumNotNumber)) return "ibanFormat";
  if (errorCodes.includes(ValidationErrorsIBAN.WrongIBANChecksum)) return "ibanChecksum";
  if (errorCodes.includes(ValidationErrorsIBAN.WrongAccountBankBranchChecksum)) return "ibanRibKey";
  return "ibanFormat";
}

/** The last four characters, all the portal ever shows of an IBAN. */
export function maskIban(iban: string): string {
  return iban.slice(-4);
}
