import { describe, expect, test } from "vitest";
import fr from "../../../locales/fr/translation.json";
import { DECLINE_CODES } from "~/domain/authorisation";
import { cardPaymentSentence, declineReason, declineSentence, type RecordedDecline } from "./card-payment-words";

/** Every reason a payment is recorded declined with: the rules' and the issuer's own (the Stripe webhook). */
const RECORDED: RecordedDecline[] = [...DECLINE_CODES, "declined_by_issuer"];

describe("a card payment's words outside a page", () => {
  test("every decline has a sentence starting with « Refusée : »", () => {
    for (const code of RECORDED) expect(declineSentence(code)).toMatch(/^Refusée : \S/);
  });

  test("the sentences are the declined tab's words: one wording, the catalogue's (decision 0037)", () => {
    const words = fr.cards.transactions;
    // The lifecycle's reasons of a released approval are words of the catalogue too, but not declines.
    expect([...RECORDED].sort()).toEqual(
      Object.keys(words.reasons)
        .filter((code) => code !== "expired" && code !== "reversed")
        .sort(),
    );
    for (const code of RECORDED) {
      expect(declineReason(code)).toBe((words.reasons as Record<string, string>)[code]);
      expect(declineSentence(code)).toBe(
        `${words.status.declined} : ${(words.reasons as Record<string, string>)[code]}`,
      );
    }
    expect(declineSentence("card_frozen")).toBe("Refusée : votre carte est gelée");
    expect(declineSentence("meal_sunday")).toBe("Refusée : les titres-restaurant ne s'utilisent pas le dimanche");
    expect(declineSentence("card_not_activated")).toBe("Refusée : votre carte n'est pas encore activée");
    expect(declineSentence("insufficient_funds")).toBe("Refusée : solde insuffisant et dépassement non autorisé");
  });

  test("the notification's sentence: accepted, or refused with the reason", () => {
    const values = { amount: "12,50 €", merchant: "Le Petit Café" };
    expect(cardPaymentSentence({ kind: "approved" }, values)).toBe("Paiement de 12,50 € chez Le Petit Café accepté.");
    expect(cardPaymentSentence({ kind: "declined", code: "meal_sunday" }, values)).toBe(
      "Paiement de 12,50 € chez Le Petit Café refusé : les titres-restaurant ne s'utilisent pas le dimanche.",
    );
  });
});
