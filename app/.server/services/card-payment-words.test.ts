import { describe, expect, test } from "vitest";
import en from "../../../locales/en/translation.json";
import fr from "../../../locales/fr/translation.json";
import nl from "../../../locales/nl/translation.json";
import { authorise, DECLINE_CODES, type AuthorisationInput, type WalletState } from "~/domain/authorisation";
import { formatCents } from "~/domain/money";
import { authorisationInput, walletState } from "../../../tests/support/authorisation-inputs";
import {
  cardPaymentSentence,
  declinedPaymentMail,
  declineReason,
  declineSentence,
  type RecordedDecline,
} from "./card-payment-words";

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

/**
 * The decline explained in French over the engine's cases (issue 30 §3): the decisions are the engine's own
 * (`authorise` of the domain, on a fixed clock), the sentence the e-mail and the push say.
 */
describe("a decline explained in words and figures", () => {
  const SUNDAY = new Date("2026-11-22T11:30:00Z");
  const ARMISTICE = new Date("2026-11-11T12:00:00Z");
  const RESTAURANT = { name: "Chez Paul", city: "Lyon", country: "FR", categoryCode: "5812" };
  const SUPERMARKET = { name: "Carrefour Market", city: "Lyon", country: "FR", categoryCode: "5411" };
  const ATM = { name: "DAB", city: "Lyon", country: "FR", categoryCode: "6011" };
  const saved = { creditCardId: "cc_1", authorizedMax: 5000 };

  const wallet = walletState;
  const marie = () => [
    wallet("Titres-restaurant", "meal", 13820),
    wallet("Mobilité", "mobility", 4200),
    wallet("Cadeaux", "gift", 25000),
  ];

  /** The words of the engine's decision on this request (12,50 € at Chez Paul, Tuesday noon, unless told). */
  function said(fields: Partial<AuthorisationInput>): string {
    const input = authorisationInput({ merchant: RESTAURANT, wallets: marie(), ...fields });
    const decision = authorise(input);
    if (decision.kind !== "declined") throw new Error("approved");
    const values = { amount: formatCents(input.amount), merchant: input.merchant.name };
    // The e-mail's body says the figures; without them, the notification's sentence says it all.
    const mail = declinedPaymentMail(decision, values);
    const sentence = mail ? mail.text.split("\n\n")[0]! : cardPaymentSentence(decision, values);
    // Intl writes a narrow no-break space before "€": a plain space here, for the test's readability.
    return sentence.replace(/\u202f|\u00a0/g, " ");
  }

  test("the issue's 420 € at a supermarket: the shortfall, with what each wallet and the saved card could pay", () => {
    expect(said({ amount: 42000, merchant: SUPERMARKET, mealSpentToday: 1420, overflow: saved })).toBe(
      "Paiement de 420,00 € chez Carrefour Market refusé : 420,00 € demandés ; ici vos portefeuilles pouvaient payer " +
        "260,80 € : Titres-restaurant 10,80 € (reste du plafond de 25,00 € du jour), Mobilité 0,00 € (non accepté " +
        "chez ce commerçant), Cadeaux 250,00 € (solde disponible) ; carte enregistrée : jusqu’à 50,00 €, il en " +
        "fallait 159,20 €.",
    );
    expect(said({ amount: 42000, merchant: SUPERMARKET, mealSpentToday: 1420 })).toMatch(
      /refusé : 420,00 € demandés ; .* carte enregistrée : aucune carte bancaire par défaut\.$/,
    );
  });

  test("the e-mail's subject and the push say the cause in one sentence, its body the figures and the footer", () => {
    const decision = authorise(
      authorisationInput({ amount: 42000, merchant: SUPERMARKET, wallets: marie(), mealSpentToday: 1420 }),
    );
    if (decision.kind !== "declined") throw new Error("approved");
    const values = { amount: formatCents(42000), merchant: "Carrefour Market" };
    const plain = (text: string) => text.replace(/\u202f|\u00a0/g, " ");
    const sentence = plain(cardPaymentSentence(decision, values));
    expect(sentence).toBe(
      "Paiement de 420,00 € chez Carrefour Market refusé : 420,00 € demandés ; ici vos portefeuilles pouvaient payer 260,80 €.",
    );
    const mail = declinedPaymentMail(decision, values)!;
    expect(plain(mail.subject)).toBe(sentence);
    expect(plain(mail.text)).toMatch(
      /^Paiement de 420,00 € .* carte enregistrée : aucune carte bancaire par défaut\.\n\n\S/,
    );
    expect(mail.text.endsWith(fr.notificationCentre.mailFooter)).toBe(true);
    // A decline without figures has no e-mail of its own.
    expect(declinedPaymentMail({ code: "card_frozen", detail: null }, values)).toBeUndefined();
  });

  test("the day's 25 €, Sunday, public holiday: the rule first, then the figures", () => {
    const meal = [wallet("Titres-restaurant", "meal", 13820)];
    expect(said({ amount: 3000, wallets: meal, mealSpentToday: 1420 })).toBe(
      "Paiement de 30,00 € chez Chez Paul refusé : plafond de 25 € par jour des titres-restaurant atteint ; 30,00 € " +
        "demandés ; ici vos portefeuilles pouvaient payer 10,80 € : Titres-restaurant 10,80 € (reste du plafond de " +
        "25,00 € du jour) ; carte enregistrée : aucune carte bancaire par défaut.",
    );
    expect(said({ at: SUNDAY, wallets: [...meal, wallet("Cadeaux", "gift", 0)], overflow: saved })).toBe(
      "Paiement de 12,50 € chez Chez Paul refusé : les titres-restaurant ne s'utilisent pas le dimanche ; 12,50 € " +
        "demandés ; ici vos portefeuilles pouvaient payer 0,00 € : Titres-restaurant 0,00 € (pas le dimanche), " +
        "Cadeaux 0,00 € (solde disponible) ; carte enregistrée : elle ne paie jamais un paiement entier.",
    );
    expect(said({ at: ARMISTICE, wallets: meal })).toMatch(
      /refusé : les titres-restaurant ne s'utilisent pas les jours fériés ; .* \(pas les jours fériés\) ;/,
    );
  });

  test("no wallet accepted here: the merchant is not allowed, each wallet said not accepted", () => {
    expect(said({ merchant: ATM })).toBe(
      "Paiement de 12,50 € chez DAB refusé : aucun de vos avantages n'est accepté chez ce commerçant ; 12,50 € " +
        "demandés ; ici vos portefeuilles pouvaient payer 0,00 € : Titres-restaurant 0,00 € (non accepté chez ce " +
        "commerçant), Mobilité 0,00 € (non accepté chez ce commerçant), Cadeaux 0,00 € (non accepté chez ce " +
        "commerçant) ; carte enregistrée : aucune carte bancaire par défaut.",
    );
  });

  test("today zero, the per-payment limit and the daily limit, with the limit's figure", () => {
    const gift = (fields: Partial<WalletState>) => [wallet("Cadeaux", "gift", 100000, fields)];
    expect(said({ wallets: gift({ zeroLimitDay: "2026-11-24" }) })).toMatch(
      /refusé : votre financeur a suspendu ce portefeuille aujourd'hui ; .*Cadeaux 0,00 € \(suspendu aujourd’hui par votre financeur\)/,
    );
    expect(said({ amount: 3000, wallets: gift({ perTransactionLimit: 2000 }) })).toMatch(
      /refusé : montant supérieur à la limite par paiement ; .*Cadeaux 20,00 € \(limite de 20,00 € par paiement\)/,
    );
    expect(said({ amount: 3000, wallets: gift({ dailyLimit: 5000, spentToday: 4000 }) })).toMatch(
      /refusé : plafond quotidien atteint ; .*Cadeaux 10,00 € \(reste de la limite de 50,00 € par jour\)/,
    );
  });

  test("every wallet empty; the saved card too small, under its minimum, or never alone", () => {
    const empty = [wallet("Titres-restaurant", "meal", 0), wallet("Cadeaux", "gift", 0)];
    expect(said({ wallets: empty, overflow: saved })).toBe(
      "Paiement de 12,50 € chez Chez Paul refusé : 12,50 € demandés ; ici vos portefeuilles pouvaient payer 0,00 € : " +
        "Titres-restaurant 0,00 € (solde disponible), Cadeaux 0,00 € (solde disponible) ; carte enregistrée : elle " +
        "ne paie jamais un paiement entier.",
    );
    const some = [wallet("Cadeaux", "gift", 1000)];
    expect(said({ amount: 1010, wallets: some, overflow: { ...saved, authorizedMax: 20 } })).toMatch(
      /carte enregistrée : dépassement autorisé de 0,20 €, sous le minimum de 0,50 €\.$/,
    );
    expect(said({ amount: 40, wallets: [wallet("Cadeaux", "gift", 10)], overflow: saved })).toMatch(
      /carte enregistrée : elle paie au moins 0,50 €, ce qui aurait fait tout le paiement\.$/,
    );
    expect(said({ amount: 6001, wallets: some, overflow: saved })).toMatch(
      /refusé : 60,01 € demandés ; ici vos portefeuilles pouvaient payer 10,00 € : Cadeaux 10,00 € \(solde disponible\) ; carte enregistrée : jusqu’à 50,00 €, il en fallait 50,01 €\.$/,
    );
  });

  test("a frozen card or a wrong PIN keeps its short reason, without figures", () => {
    const card = { status: "active", frozen: true, activated: true, pinLocked: false, wrongPinCount: 0 };
    expect(said({ card })).toBe("Paiement de 12,50 € chez Chez Paul refusé : votre carte est gelée.");
    expect(said({ entryMode: "chip_and_pin", pinCheck: "mismatch" })).toBe(
      "Paiement de 12,50 € chez Chez Paul refusé : code PIN erroné.",
    );
  });

  test("every stop and every case of the saved card has its words in the three languages", () => {
    const stops = ["category", "meal_sunday", "meal_public_holiday", "meal_daily_cap", "today_zero_limit"];
    const limits = ["transaction_limit_exceeded", "daily_limit_exceeded", "balance", "covered"];
    const cases = ["none", "belowMinimum", "alone", "minimum", "overMax"];
    for (const catalogue of [fr, en, nl]) {
      const explain = catalogue.cards.transactions.explain;
      expect(Object.keys(explain.why).sort()).toEqual([...stops, ...limits].sort());
      expect(Object.keys(explain.overflow).sort()).toEqual([...cases].sort());
    }
  });
});
