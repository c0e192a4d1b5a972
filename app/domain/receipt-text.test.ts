import { expect, test } from "vitest";
import { parseReceiptText, passPeriodOf } from "./receipt-text";

const TODAY = "2026-11-23";

test("the shared bakery ticket (tesseract's reading): date, total TTC, merchant", () => {
  const text =
    "BOULANGERIE PAIN & co\n14 rue Mercière 69002 Lyon\nSIRET 812 345 678 00021\nTel 04 78 06 11 22\n" +
    "14/11/2026 08:42 Ticket 0457\nBaguette tradition 1,30\nCroissant x2 2,60\nsee\nTOTAL TTC 9,10 EUR\n" +
    "dont TVA 5,5% 0,47\nCB 9,10\nMerci de votre visite\n";
  expect(parseReceiptText(text, TODAY)).toEqual({
    ticketDate: "2026-11-14",
    amount: 910,
    companyName: "BOULANGERIE PAIN & co",
  });
});

test("the shared bike-shop invoice (its PDF text): NET A PAYER, not the VAT nor the lines", () => {
  const text =
    "CYCLES DU RHONE\n3 quai Claude Bernard 69007 Lyon\nSIRET 534 221 908 00034\nTel 04 72 11 22 33\n" +
    "02/11/2026 17:05 Ticket A-2231\nRevision velo complete 65,00\nChambre a air 700x28 8,90\nMain d oeuvre 12,00\n" +
    "NET A PAYER 85,90 EUR\ndont TVA 20% 14,32\nCarte bancaire 85,90\nMerci de votre visite";
  expect(parseReceiptText(text, TODAY)).toEqual({
    ticketDate: "2026-11-02",
    amount: 8590,
    companyName: "CYCLES DU RHONE",
  });
});

test("a supermarket ticket: HT and VAT lines, change given back, a loyalty expiry date are all ignored", () => {
  const text = [
    "*** CARREFOUR MARKET ***",
    "Bienvenue",
    "LAIT DEMI ECREME 1,15",
    "PAIN DE MIE 2,49",
    "SOUS-TOTAL 42,30",
    "REMISE FIDELITE -2,00",
    "TOTAL HT 38,20",
    "TVA 5,5% 2,10",
    "TOTAL 40,30 €",
    "ESPECES 50,00",
    "RENDU 9,70",
    "Bon valable jusqu'au 31/12/2026",
    "Le 21.11.2026 à 18h12",
  ].join("\n");
  expect(parseReceiptText(text, TODAY)).toEqual({
    ticketDate: "2026-11-21",
    amount: 4030,
    companyName: "CARREFOUR MARKET",
  });
});

test("two-digit years, a decimal point, the total on the line below its label, thousands separated", () => {
  const text = "Garage Dupont\nFacture n° 2026-118\nDate : 05/10/26\nMONTANT TTC\n1 234.50 EUR\nTVA 20% 205.75";
  expect(parseReceiptText(text, TODAY)).toEqual({
    ticketDate: "2026-10-05",
    amount: 123450,
    companyName: "Garage Dupont",
  });
});

test("OCR noise: O for 0 in a date, stray symbols around the name, A PAYER", () => {
  const text = "| ~ Librairie des Pentes ,\n1O/11/2O26 12:O5\nlivre 18,00\nlivre 7,50\nA PAYER 25,50\nCB 25,50";
  expect(parseReceiptText(text, TODAY)).toEqual({
    ticketDate: "2026-11-10",
    amount: 2550,
    companyName: "Librairie des Pentes",
  });
});

test("a date after today (a misread or a deadline) is never the ticket's date; impossible dates are skipped", () => {
  const text = "Pharmacie du Parc\n31/02/2026 10:00\n12/01/2027 09:30\n03/11/2026\nTOTAL 12,00";
  expect(parseReceiptText(text, TODAY).ticketDate).toBe("2026-11-03");
  expect(parseReceiptText("Magasin\n24/11/2026 10:00\nTOTAL 3,00", TODAY).ticketDate).toBeNull();
});

test("a printed month name counts; the ticket's date is preferred to an expiry date printed earlier", () => {
  expect(parseReceiptText("Cinéma Lumière\nExpire le 01/01/2026\nLe 8 nov. 2026\nMONTANT 9,50", TODAY)).toEqual({
    ticketDate: "2026-11-08",
    amount: 950,
    companyName: "Cinéma Lumière",
  });
});

test("nothing recognisable: all null, never a guess from a VAT or change line", () => {
  expect(parseReceiptText("", TODAY)).toEqual({ ticketDate: null, amount: null, companyName: null });
  expect(parseReceiptText("12345\n--- \nTVA 20% 3,00\nRENDU 1,00", TODAY)).toEqual({
    ticketDate: null,
    amount: null,
    companyName: null,
  });
});

test("without a total keyword, the largest amount in euros", () => {
  expect(parseReceiptText("Marché bio\nPommes 3,20 €\nPoires 4,10 €", TODAY).amount).toBe(410);
});

// ---- Transport passes (issue 31 §5: the subscription's ticket and proof) ----------------------------------

test("a monthly Navigo pass: its period from « du … au … », its price from « Montant TTC »", () => {
  const text = [
    "île-de-france mobilités",
    "Forfait Navigo Mois",
    "Abonnement mensuel",
    "Valable du 01/11/2026 au 30/11/2026",
    "Date d'achat : 28/10/2026 09:14",
    "Montant TTC 86,40 €",
    "dont TVA 10% 7,85",
  ].join("\n");
  expect(passPeriodOf(text)).toEqual({ start: "2026-11-01", end: "2026-11-30" });
  expect(parseReceiptText(text, TODAY).amount).toBe(8640);
});

test("the period's other wordings: printed months, « 1er », a dash, « jusqu’au », two-digit years, OCR's O", () => {
  expect(passPeriodOf("Abonnement annuel TCL\nValidité : du 1er septembre 2026 au 31 août 2027")).toEqual({
    start: "2026-09-01",
    end: "2027-08-31",
  });
  expect(passPeriodOf("Attestation\nPériode : 01.11.26 - 30.11.26")).toEqual({
    start: "2026-11-01",
    end: "2026-11-30",
  });
  expect(passPeriodOf("Abonnement TAN\ndu O1/11/2O26 jusqu’au 31/12/2026")).toEqual({
    start: "2026-11-01",
    end: "2026-12-31",
  });
});

test("a month without its days: the whole month for a monthly pass, twelve months for a yearly one", () => {
  expect(passPeriodOf("Navigo Mois\nnovembre 2026\nPrix 86,40 €")).toEqual({ start: "2026-11-01", end: "2026-11-30" });
  expect(passPeriodOf("Abonnement mensuel\nMois de validité : 02/2028")).toEqual({
    start: "2028-02-01",
    end: "2028-02-29",
  });
  expect(passPeriodOf("Abonnement annuel Vélo'v\nà partir de sept. 2026")).toEqual({
    start: "2026-09-01",
    end: "2027-08-31",
  });
  expect(parseReceiptText("Navigo Mois\nnovembre 2026\nPrix 86,40 €", TODAY).amount).toBe(8640);
});

test("no period said, or one that cannot be a pass's: null, never a guess", () => {
  // A receipt's own date and an expiry are not a period; nor a month on a ticket that is no pass.
  expect(passPeriodOf("BOULANGERIE PAIN & co\n14/11/2026 08:42\nTOTAL TTC 9,10 EUR")).toBeNull();
  expect(passPeriodOf("Carte valable jusqu'au 31/12/2027\nnovembre 2026")).toBeNull();
  expect(passPeriodOf("Facture\nnovembre 2026\nTOTAL 12,00")).toBeNull();
  // An end before the start, an impossible day, a period of several years.
  expect(passPeriodOf("Abonnement du 30/11/2026 au 01/11/2026")).toBeNull();
  expect(passPeriodOf("Abonnement du 31/02/2026 au 31/03/2026")).toBeNull();
  expect(passPeriodOf("Abonnement du 01/01/2026 au 31/12/2028")).toBeNull();
  // A monthly pass whose month is only in an expiry or a purchase line.
  expect(passPeriodOf("Navigo Mois\nExpire fin novembre 2026\nAchat octobre 2026")).toBeNull();
  expect(passPeriodOf("")).toBeNull();
});
