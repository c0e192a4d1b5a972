/** What each IBAN problem said in French before its code was worded by a table (the refund and allowance forms share them). */
export const IBAN_FRENCH = {
  ibanRequired: "Indiquez votre IBAN.",
  ibanCountry: "L’IBAN doit commencer par le code d’un pays, par exemple FR.",
  ibanNotSepa: "Le remboursement ne peut être versé que sur un compte d’un pays de la zone SEPA.",
  ibanLength: "L’IBAN n’a pas le bon nombre de caractères pour ce pays.",
  ibanFormat: "L’IBAN contient des caractères inattendus.",
  ibanChecksum: "L’IBAN n’est pas valide : vérifiez les chiffres saisis.",
  ibanRibKey: "La clé RIB de cet IBAN ne correspond pas : vérifiez les chiffres saisis.",
} as const;
