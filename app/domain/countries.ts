/**
 * Countries offered for a delivery address, by alpha-2 code (what the issuer receives, spec 000 §5),
 * with their French names. Europe only: the cards are issued by a European programme, and the issuer
 * still has the last word on where it ships.
 */
export const DELIVERY_COUNTRIES: Readonly<Record<string, string>> = {
  DE: "Allemagne",
  AD: "Andorre",
  AT: "Autriche",
  BE: "Belgique",
  BG: "Bulgarie",
  CY: "Chypre",
  HR: "Croatie",
  DK: "Danemark",
  ES: "Espagne",
  EE: "Estonie",
  FI: "Finlande",
  FR: "France",
  GR: "Grèce",
  HU: "Hongrie",
  IE: "Irlande",
  IS: "Islande",
  IT: "Italie",
  LV: "Lettonie",
  LI: "Liechtenstein",
  LT: "Lituanie",
  LU: "Luxembourg",
  MT: "Malte",
  MC: "Monaco",
  NO: "Norvège",
  NL: "Pays-Bas",
  PL: "Pologne",
  PT: "Portugal",
  CZ: "République tchèque",
  RO: "Roumanie",
  GB: "Royaume-Uni",
  SK: "Slovaquie",
  SI: "Slovénie",
  SE: "Suède",
  CH: "Suisse",
};

export const DEFAULT_COUNTRY = "FR";

/** A dialling code offered next to the phone number, with what it takes to read a number typed for it. */
export interface PhoneCountry {
  code: string;
  dial: string;
  /** Whether national numbers begin with a trunk 0 that the international form drops (not in Italy, Spain…). */
  trunk: boolean;
  /** The national significant number's length (the digits after the dialling code), shortest and longest. */
  digits: readonly [number, number];
}

/**
 * Dialling codes offered next to the phone number; France first, as the default (spec 001 §2.3). The lengths
 * are the ITU national numbering plans' (mobile and landline numbers alike).
 */
export const PHONE_COUNTRIES: readonly PhoneCountry[] = [
  { code: "FR", dial: "+33", trunk: true, digits: [9, 9] },
  { code: "BE", dial: "+32", trunk: true, digits: [8, 9] },
  { code: "LU", dial: "+352", trunk: false, digits: [4, 11] },
  { code: "CH", dial: "+41", trunk: true, digits: [9, 9] },
  { code: "MC", dial: "+377", trunk: false, digits: [8, 9] },
  { code: "DE", dial: "+49", trunk: true, digits: [6, 11] },
  { code: "ES", dial: "+34", trunk: false, digits: [9, 9] },
  { code: "IT", dial: "+39", trunk: false, digits: [6, 11] },
  { code: "PT", dial: "+351", trunk: false, digits: [9, 9] },
  { code: "NL", dial: "+31", trunk: true, digits: [9, 9] },
  { code: "GB", dial: "+44", trunk: true, digits: [9, 10] },
];

/** Whether `length` digits make a national significant number of this country. */
const nationalLength = (country: PhoneCountry, length: number) =>
  length >= country.digits[0] && length <= country.digits[1];

/**
 * The digits after "+": a trunk 0 written after the dialling code of a country that has one ("+33 06 12…")
 * is not dialled from abroad, so it goes.
 */
function dialledFromAbroad(digits: string): string {
  const country = PHONE_COUNTRIES.find((c) => {
    const code = c.dial.slice(1);
    return c.trunk && digits.startsWith(`${code}0`) && nationalLength(c, digits.length - code.length - 1);
  });
  if (!country) return `+${digits}`;
  return `${country.dial}${digits.slice(country.dial.length)}`;
}

/**
 * A typed phone number in international form (E.164), for the country chosen beside it (France when unknown):
 * "06 12 34 56 78", "33612345678", "0033612345678", "+33 (0)6 12 34 56 78" with France → "+33612345678". A
 * number with its own + or 00 prefix keeps its code; the country's code typed without them is read as such
 * when the digits after it make a whole national number and all the digits could not be a national number
 * (an Italian mobile may begin with 39); otherwise the number is national and loses its trunk 0, if the
 * country has one.
 */
export function internationalPhone(countryCode: string, typed: string): string {
  // "(0)" is the trunk prefix shown beside the code ("+33 (0)6…"), never dialled with it.
  const compact = typed.replace(/\(0\)/g, "").replace(/[\s.\-()]/g, "");
  if (compact.startsWith("+")) return dialledFromAbroad(compact.slice(1));
  if (compact.startsWith("00")) return dialledFromAbroad(compact.slice(2));
  const country = PHONE_COUNTRIES.find((c) => c.code === countryCode) ?? PHONE_COUNTRIES[0]!;
  const code = country.dial.slice(1);
  const national = country.trunk ? compact.replace(/^0/, "") : compact;
  const withCode =
    compact.startsWith(code) &&
    nationalLength(country, compact.length - code.length) &&
    // A country with a trunk 0 has no national number beginning with its code; one without may.
    (country.trunk || compact.length > country.digits[1]);
  return withCode ? dialledFromAbroad(compact) : `${country.dial}${national}`;
}
