import { expect, test } from "vitest";
import { IBAN_FRENCH } from "../../../tests/support/iban-french";
import type { AllowanceProblem } from "~/.server/services/allowances/requests";
import { problem } from "~/domain/problems";
import { frenchWords } from "~/i18n/words.server";
import { refusalOf } from "~/routes/+shared/problems.server";
import { ALLOWANCE_WORDS } from "./problems.server";

/** What each refusal of the allowance services said in French when the services still answered keys. */
const FRENCH: Record<AllowanceProblem, string> = {
  startRequired: "Indiquez la date de début.",
  endRequired: "Indiquez la date de fin.",
  startDateInvalid:
    "La date de début doit être dans l’année en cours, ou dans l’année dernière jusqu’au 15 janvier inclus.",
  endAfterToday: "La date de fin ne peut pas être après aujourd’hui.",
  endDateLastDayOfYearInvalid: "La date de fin ne peut pas dépasser le 31 décembre de l’année du début.",
  endBeforeStart: "La date de fin ne peut pas être avant la date de début.",
  periodTooLong: "La période doit durer moins de 18 mois.",
  noWorkingDay: "La période ne compte que des dimanches : choisissez d’autres dates.",
  daysAtOfficeRange:
    "Indiquez un nombre de jours au bureau entre 1 et le nombre de jours de la période, dimanches exclus.",
  distanceConfirmationRequired:
    "Cochez « Je confirme cette distance » : elle dépasse la distance habituelle pour ce mode de transport.",
  distanceReasonRequired: "Dites en quelques mots pourquoi cette distance est la bonne.",
  distanceReasonTooLong: "La raison ne peut pas dépasser 500 caractères.",
  line1Required: "Saisissez le numéro et le nom de la rue",
  line1Numeric: "L’adresse ne peut pas être composée uniquement de chiffres",
  addStreetNumber: "Veuillez ajouter le numéro de rue",
  maxLength50: "Réduisez ce champ à 50 caractères au plus",
  zipcodeRequired: "Saisissez le code postal",
  zipcodeInvalid: "Saisissez un code postal valide, comme 69003",
  cityRequired: "Saisissez la ville",
  cityNumeric: "La ville ne peut pas être composée uniquement de chiffres",
  countryRequired: "Choisissez le pays",
  countryInvalid: "Choisissez un pays dans la liste",
  typeNotAllowed: "Cette indemnité ne vous est pas proposée.",
  groupNotAllowed: "Choisissez un financeur qui prend en charge cette indemnité.",
  amountInvalid: "Indiquez un montant supérieur à 0, avec au plus 2 décimales.",
  subscriptionAmountTooBig: "Le prix ne peut pas dépasser 1 000,00 € par mois de la période de l’abonnement.",
  mediaRequired: "Ajoutez le justificatif (le titre de transport).",
  secondMediaRequired: "Ajoutez l’attestation d’abonnement.",
  travelRoleRequired: "Indiquez si vous êtes conducteur ou passager.",
  distanceInvalid: "Indiquez une distance aller en kilomètres, supérieure à 0, par exemple 7,5.",
  distanceTooLongBicycle: "À vélo, la distance aller ne peut pas dépasser 50 km.",
  distanceTooLongCarpooling: "En covoiturage, la distance aller ne peut pas dépasser 200 km.",
  unknownPostcode: "Adresse introuvable : vérifiez le code postal et la ville.",
  unsupportedCountry: "Seules les adresses en France peuvent être localisées.",
  swornStatementRequired: "Cochez la déclaration sur l’honneur pour confirmer.",
  capReached:
    "Le plafond annuel du forfait mobilités durables est atteint : aucune indemnité ne peut être versée pour cette période.",
  draftNotFound: "Cette demande n’existe plus : recommencez-la.",
  ...IBAN_FRENCH,
};

test("each code of the allowance services says in French what its key said", () => {
  const said = Object.fromEntries(Object.entries(ALLOWANCE_WORDS).map(([code, key]) => [code, frenchWords(key)]));
  expect(said).toEqual(FRENCH);
});

test("the confirmation's refusals are worded at their fields, in the services' order", () => {
  const refusal = refusalOf(
    [problem("iban", "ibanLength"), problem("sworn_statement", "swornStatementRequired")],
    ALLOWANCE_WORDS,
  );
  expect(refusal).toEqual({
    fieldErrors: {
      iban: ["refunds.errors.ibanLength"],
      sworn_statement: ["allowances.errors.swornStatementRequired"],
    },
    formErrors: [],
  });
});
