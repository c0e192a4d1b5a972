import { readFileSync } from "node:fs";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, test } from "vitest";
import type { DeclineDetail } from "~/domain/authorisation";
import { TranslationProvider, translatorFor } from "~/i18n";
import { DeclineExplanation } from "./DeclineExplanation";

const catalogue = (language: string) =>
  JSON.parse(
    readFileSync(new URL(`../../locales/${language}/translation.json`, import.meta.url), "utf8"),
  ) as Parameters<typeof translatorFor>[0];

/** The component's markup in a language, spaces made plain (Intl writes a narrow no-break space before "€"). */
function render(props: Parameters<typeof DeclineExplanation>[0], language = "fr"): string {
  const html = renderToStaticMarkup(
    <TranslationProvider translate={translatorFor(catalogue(language))} locale={language}>
      <DeclineExplanation {...props} />
    </TranslationProvider>,
  );
  return html.replace(/\u202f|\u00a0/g, " ");
}
/** The text of the markup, each element's edge a "|" (the apostrophe unescaped). */
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, "|")
    .replace(/\|+/g, "|")
    .replace(/&#x27;/g, "'");

/** The decline: 420 € at a supermarket after 14,20 € at Chez Paul. */
const SHORTFALL: DeclineDetail = {
  amount: 42000,
  wallets: [
    { walletId: "w1", name: "Titres-restaurant", type: "meal", canPay: 1080, stop: "meal_daily_cap", limit: null },
    { walletId: "w2", name: "Mobilité", type: "mobility", canPay: 0, stop: "category", limit: null },
    { walletId: "w3", name: "Cadeaux de Noël", type: "gift", canPay: 25000, stop: "balance", limit: null },
  ],
  overflow: { kind: "overMax", max: 5000, needed: 15920 },
};

describe("DeclineExplanation", () => {
  test("a shortfall: the figures are the cause, then each wallet and the saved card, as a list named by it", () => {
    const html = render({ code: "overflow_limit_exceeded", detail: SHORTFALL, lead: "Refusée" });
    expect(text(html)).toBe(
      "|Refusée : 420,00 € demandés ; ici vos portefeuilles pouvaient payer 260,80 € :|" +
        "Titres-restaurant 10,80 € (reste du plafond de 25,00 € du jour)|" +
        "Mobilité 0,00 € (non accepté chez ce commerçant)|" +
        "Cadeaux de Noël 250,00 € (solde disponible)|" +
        "Carte enregistrée : jusqu’à 50,00 €, il en fallait 159,20 €|",
    );
    // The list is named by the sentence that introduces it.
    const id = /<p class="decline-explanation__cause" id="([^"]+)"/.exec(html)?.[1];
    expect(id).toBeTruthy();
    expect(html).toContain(`<ul class="decline-explanation__list" aria-labelledby="${id}">`);
  });

  test("a single rule keeps its short reason; the figures follow", () => {
    const detail: DeclineDetail = {
      amount: 1250,
      wallets: [
        { walletId: "w1", name: "Titres-restaurant", type: "meal", canPay: 0, stop: "meal_sunday", limit: null },
      ],
      overflow: { kind: "none" },
    };
    expect(text(render({ code: "meal_sunday", detail, lead: "Refusée" }))).toBe(
      "|Refusée : les titres-restaurant ne s'utilisent pas le dimanche|" +
        "12,50 € demandés ; ici vos portefeuilles pouvaient payer 0,00 € :|" +
        "Titres-restaurant 0,00 € (pas le dimanche)|Carte enregistrée : aucune carte bancaire par défaut|",
    );
  });

  test("without figures (a frozen card, the issuer's own decline, an older row): the reason alone", () => {
    expect(text(render({ code: "card_frozen", detail: null, lead: "Refusée" }))).toBe(
      "|Refusée : votre carte est gelée|",
    );
    // Said on its own (the notification centre), the reason starts its sentence.
    expect(text(render({ code: "card_frozen", detail: null }))).toBe("|Votre carte est gelée|");
    // A reason the catalogue does not know shows as it came (its first letter a capital), escaped.
    expect(render({ code: "Refus <émetteur>", detail: null })).toContain("Refus &lt;émetteur&gt;");
    expect(text(render({ code: "unknown_code", detail: null }))).toBe("|Unknown_code|");
  });

  test("in English and Dutch too", () => {
    expect(text(render({ code: "insufficient_funds", detail: SHORTFALL }, "en"))).toContain(
      "420,00 € asked; here your wallets could pay 260,80 €:|",
    );
    expect(text(render({ code: "insufficient_funds", detail: SHORTFALL }, "nl"))).toContain(
      "|Opgeslagen kaart: tot 50,00 €, er was 159,20 € nodig|",
    );
  });
});
