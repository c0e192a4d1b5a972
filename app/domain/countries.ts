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

/** Dialling codes offered next to the phone number; France first, as the default (spec 001 §2.3). */
export const PHONE_COUNTRIES: readonly { code: string; dial: string }[] = [
  { code: "FR", dial: "+33" },
  { code: "BE", dial: "+32" },
  { code: "LU", dial: "+352" },
  { code: "CH", dial: "+41" },
  { code: "MC", dial: "+377" },
  { code: "DE", dial: "+49" },
  { code: "ES", dial: "+34" },
  { code: "IT", dial: "+39" },
  { code: "PT", dial: "+351" },
  { code: "NL", dial: "+31" },
  { code: "GB", dial: "+44" },
];

/**
 * "06 12 34 56 78" with France → "+33612345678". A number typed with its own + or 00 prefix keeps it;
 * a national number loses its leading 0 for the dialling code.
 */
export function internationalPhone(countryCode: string, typed: string): string {
  const compact = typed.replace(/[\s.\-()]/g, "");
  if (compact.startsWith("+")) return compact;
  if (compact.startsWith("00")) return `+${compact.slice(2)}`;
  const dial = PHONE_COUNTRIES.find((c) => c.code === countryCode)?.dial ?? "+33";
  return `${dial}${compact.replace(/^0/, "")}`;
}
