import { describe, expect, test } from "vitest";
import { frenchWords } from "~/i18n/words.server";
import { notificationSentence, readNotificationFacts, type NotificationFacts } from "./notification-facts";

/** The sentence a notification of `type` says with these stored facts, or null (the type's sentence is said). */
const said = (type: string, facts: NotificationFacts | null) => {
  const subject = readNotificationFacts(type, facts);
  return subject ? notificationSentence(frenchWords, subject).replace(/[\u00a0\u202f]/g, " ") : null;
};

describe("each type's facts in words (issue 30 §4)", () => {
  test("card payments: amount and merchant; a decline keeps its code and checked figures", () => {
    expect(said("card_authorization_approved_notification", { amount: 1420, merchant: "Chez Paul" })).toBe(
      "Paiement accepté : 14,20 € chez Chez Paul",
    );
    const detail = { amount: 42_000, wallets: [], overflow: { kind: "none" } };
    const facts = { amount: 42_000, merchant: "Carrefour", code: "insufficient_funds", detail };
    expect(said("card_authorization_declined_notification", facts)).toBe("Paiement refusé : 420,00 € chez Carrefour");
    expect(readNotificationFacts("card_authorization_declined_notification", facts)).toMatchObject({
      code: "insufficient_funds",
      detail,
    });
    // Figures not of the engine's shape are dropped (the short reason is said alone), the rest still stands.
    const badDetail = { ...facts, detail: { amount: "beaucoup" } };
    expect(readNotificationFacts("card_authorization_declined_notification", badDetail)).toMatchObject({
      code: "insufficient_funds",
      detail: null,
    });
  });

  test("cards, wallets", () => {
    expect(said("card_created_to_user_notification", { cardType: "physical", lastFour: "1881" })).toBe(
      "Votre nouvelle carte physique •••• 1881 est prête.",
    );
    expect(
      said("wallet_reload_notification", {
        wallet: "Titres-restaurant",
        amount: 15_000,
        balance: 23_050,
        endDate: "2027-12-31",
      }),
    ).toBe("Portefeuille Titres-restaurant rechargé de 150,00 € (solde 230,50 €), à utiliser jusqu’au 31/12/2027.");
    expect(
      said("wallet_reload_notification", { wallet: "Cadeaux", amount: 8000, balance: null, endDate: "2027-06-16" }),
    ).toBe("Portefeuille Cadeaux rechargé de 80,00 €, à utiliser jusqu’au 16/06/2027.");
    expect(said("wallet_expire_in_notification", { wallet: "Cadeaux", amount: 12_000, endDate: "2026-12-18" })).toBe(
      "Portefeuille Cadeaux : 120,00 € à dépenser au plus tard le 18/12/2026, ce montant expire ensuite.",
    );
  });

  test("refunds and allowances: figures, partner, reason, payout day", () => {
    const refund = { amount: 35_000, amountToRefund: 30_000, expenseType: "Vacances", partner: "Gîtes du Vercors" };
    expect(said("expense_request_approved_notification", { ...refund, payoutDate: "2026-12-04" })).toBe(
      "Demande de remboursement de 350,00 € (Vacances chez Gîtes du Vercors) acceptée : 300,00 € seront remboursés le 04/12/2026.",
    );
    expect(said("expense_request_refused_notification", { ...refund, partner: null, reason: "Ticket illisible" })).toBe(
      "Demande de remboursement de 350,00 € (Vacances) refusée : « Ticket illisible »",
    );
    expect(said("expense_request_refused_notification", { ...refund, reason: null })).toBe(
      "Demande de remboursement de 350,00 € (Vacances chez Gîtes du Vercors) refusée.",
    );
    const allowance = { allowanceType: "carpooling", amount: 3960, startAt: "2026-09-22", endsAt: "2026-11-16" };
    expect(said("allowance_refused_notification", { ...allowance, reason: "Trajet non éligible" })).toBe(
      "Demande d’indemnité de 39,60 € (Covoiturage, du 22/09/2026 au 16/11/2026) refusée : « Trajet non éligible »",
    );
    expect(said("allowance_finished_notification", allowance)).toBe(
      "Indemnité de 39,60 € (Covoiturage, du 22/09/2026 au 16/11/2026) entièrement versée.",
    );
  });
});

describe("facts that do not fit: the type's sentence instead, never an error", () => {
  test.each([
    ["card_authorization_approved_notification", { amount: "14,20", merchant: "Chez Paul" }],
    ["card_authorization_approved_notification", { amount: 1420, merchant: "  " }],
    ["card_authorization_approved_notification", { amount: 14.2, merchant: "Chez Paul" }],
    ["card_created_to_user_notification", { cardType: "plastic", lastFour: "1881" }],
    ["card_created_to_user_notification", { cardType: "virtual", lastFour: "18" }],
    ["wallet_reload_notification", { wallet: "Cadeaux", amount: 8000, endDate: "demain" }],
    ["wallet_expire_in_notification", { amount: 8000, endDate: "2026-12-18" }],
    ["expense_request_approved_notification", { amount: 100, amountToRefund: 100 }],
    ["expense_request_unknown_notification", { amount: 100, amountToRefund: 100, expenseType: "Culture" }],
    ["allowance_approved_notification", { allowanceType: "carpooling", amount: 100, startAt: "x", endsAt: "y" }],
    ["some_new_type_notification", { amount: 100 }],
  ])("%s with %j", (type, facts) => {
    expect(said(type, facts)).toBeNull();
  });

  test("no facts at all (older rows)", () => {
    expect(said("card_authorization_approved_notification", null)).toBeNull();
  });
});
