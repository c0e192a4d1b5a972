import { readFileSync } from "node:fs";
import { renderToStaticMarkup } from "react-dom/server";
import { expect, test } from "vitest";
import { CARD_BRANDS, CardVisual } from "./CardVisual";

const fr = JSON.parse(readFileSync(new URL("../../locales/fr/translation.json", import.meta.url), "utf8")) as {
  cards: { brands: Record<string, string> };
};
const css = readFileSync(new URL("../styles/app.css", import.meta.url), "utf8");

test("every brand of spec 000 §3 has a French name", () => {
  for (const brand of ["activ", "american-express", "amex", "bancontact", "card", "mastercard", "visa"])
    expect(CARD_BRANDS).toContain(brand);
  // And the two meal-voucher kinds.
  expect(CARD_BRANDS.filter((b) => b.startsWith("meal-voucher"))).toHaveLength(2);
  for (const brand of CARD_BRANDS) expect(fr.cards.brands[brand], brand).toMatch(/\S/);
});

test("activ, card and the meal-voucher kinds have a look of their own; an unknown brand shows as it came", () => {
  for (const brand of ["activ", "card", "meal-voucher", "meal-voucher-card"]) {
    expect(css, brand).toMatch(new RegExp(`\\.card-visual--brand-${brand}\\b[^{]*\\{\\s*background:`));
    const html = renderToStaticMarkup(<CardVisual type="physical" brand={brand} lastFour="4242" frozen={false} />);
    expect(html).toContain(`card-visual--brand-${brand}`);
    expect(html).toContain(`cards.brands.${brand}`);
  }
  const unknown = renderToStaticMarkup(<CardVisual type="virtual" brand="discover" lastFour="0000" frozen={false} />);
  expect(unknown).not.toContain("card-visual--brand-");
  expect(unknown).toContain(">discover<");
});

test("a frozen card wears a badge that says so in words, its snowflake drawn in SVG and hidden from screen readers", () => {
  const html = renderToStaticMarkup(<CardVisual type="physical" brand="visa" lastFour="4242" frozen />);
  expect(html).toContain("card-visual--frozen");
  expect(html).toMatch(
    /<span class="card-visual__badge"><svg class="icon"[^>]*aria-hidden="true"[^>]*>.*<\/svg>cards\.frozenBadge<\/span>/,
  );
  const thawed = renderToStaticMarkup(<CardVisual type="physical" brand="visa" lastFour="4242" frozen={false} />);
  expect(thawed).not.toContain("card-visual__badge");
  expect(thawed).not.toContain("<svg");
});
