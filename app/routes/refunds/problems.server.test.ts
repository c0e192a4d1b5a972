import { expect, test } from "vitest";
import { IBAN_FRENCH } from "../../../tests/support/iban-french";
import { problem } from "~/domain/problems";
import type { RefundProblem } from "~/domain/refunds";
import { frenchWords } from "~/i18n/words.server";
import { refusalOf } from "~/routes/+shared/problems.server";
import { REFUND_WORDS } from "./problems.server";

/**
 * The French each refusal of a refund request had when the service wrote the catalogue keys itself
 * (issue 29): the one words table must say the same, code for code (the record lists every code, so a
 * new code without its sentence here fails the typecheck).
 */
const FRENCH: Record<RefundProblem, string> = {
  typeRequired: "Choisissez un type de dépense.",
  partnerRequired: "Choisissez l’établissement.",
  partnerDisabled: "Cet établissement ne peut pas être choisi.",
  ticketDateRequired: "Indiquez la date de l’achat.",
  ticketDateInvalid: "Indiquez une date valide, par exemple 14/11/2026.",
  // Reworded by issue 31 §3: today is allowed, so "dans le passé" said less than the rule.
  ticketDateFuture: "La date du ticket ne peut pas être après aujourd’hui.",
  amountInvalid: "Indiquez un montant en euros, par exemple 9,10.",
  amountPositive: "Le montant doit être supérieur à 0.",
  amountTooBig: "Le montant ne peut pas dépasser 5 000,00 €.",
  paymentMethodsRequired: "Choisissez au moins un portefeuille.",
  paymentMethodAmountPositive: "Le montant pris sur ce portefeuille doit être supérieur à 0.",
  paymentMethodOverAvailable: "Ce montant dépasse ce que le portefeuille peut rembourser.",
  paymentMethodsTotal: "La somme des montants doit être égale au montant de la dépense.",
  walletNotEligible: "Ce portefeuille ne peut pas rembourser cette dépense.",
  ...IBAN_FRENCH,
  swornStatementRequired: "Cochez la déclaration sur l’honneur pour envoyer votre demande.",
  swornNameRequired: "Saisissez vos nom et prénom pour confirmer la déclaration.",
  swornNameMismatch: "Le nom saisi doit être celui de votre compte.",
  mediaRequired: "Ajoutez un justificatif.",
  mediaNotFound: "Ce justificatif est introuvable : ajoutez-le de nouveau.",
  mediaTwice: "Le même justificatif a été ajouté deux fois.",
  mediaDuplicate: "Ce justificatif a déjà été utilisé pour une autre demande.",
};

test.each(Object.entries(FRENCH))("%s is worded as before", (code, french) => {
  expect(frenchWords(REFUND_WORDS[code as RefundProblem])).toBe(french);
});

test("the table words exactly the refund codes", () => {
  expect(Object.keys(REFUND_WORDS).sort()).toEqual(Object.keys(FRENCH).sort());
});

test("a sent request's problems are worded at their fields, in the form's order", () => {
  const refused = refusalOf(
    [
      problem("amount", "amountTooBig"),
      problem("payment_methods", "walletNotEligible"),
      problem("payment_methods.0.amount", "walletNotEligible"),
      problem("iban", "ibanChecksum"),
    ],
    REFUND_WORDS,
  );
  expect(refused).toEqual({
    fieldErrors: {
      amount: ["refunds.errors.amountTooBig"],
      payment_methods: ["refunds.errors.walletNotEligible"],
      "payment_methods.0.amount": ["refunds.errors.walletNotEligible"],
      iban: ["refunds.errors.ibanChecksum"],
    },
    formErrors: [],
  });
  expect(Object.keys(refused.fieldErrors)).toEqual(["amount", "payment_methods", "payment_methods.0.amount", "iban"]);
});
