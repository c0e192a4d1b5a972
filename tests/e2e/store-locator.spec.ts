import type { Page } from "@playwright/test";
import { expect, test, type AccountOptions } from "./fixtures";
import { expectAccessible, expectNoHorizontalScroll } from "./helpers";

/**
 * The store locator (issue 30 item 6, spec 001 §2.9): a search by postcode or town, without JavaScript, over the
 * demo catalogue's partner shops (DEMO.md) that accept the person's own wallets, nearest first; bad searches are
 * refused in French at the field. Each test has an account of its own: a card, a meal wallet and a culture wallet.
 */
const ACCOUNT: AccountOptions = {
  wallets: [
    { name: "Titres-restaurant", type: "meal", balance: 15240 },
    { name: "Culture", type: "culture", balance: 5000 },
  ],
  cards: [{ type: "physical", lastFour: "4242", wallets: ["Titres-restaurant", "Culture"] }],
};

const searchField = (page: Page) => page.getByRole("textbox", { name: "Code postal ou ville" });

/** The first heading of the page's own content: the results' title (the side navigation has headings too). */
const resultsTitle = (page: Page) => page.getByRole("main").getByRole("heading", { level: 2 }).first();

async function searchFor(page: Page, text: string) {
  await searchField(page).fill(text);
  await page.getByRole("button", { name: "Rechercher" }).click();
}

/** "À 1,2 km" / "À 350 m" / "Dans la commune cherchée" → metres. */
function metresOf(text: string): number {
  if (text.includes("Dans la commune cherchée")) return 0;
  const match = /À ([\d\s\u00a0\u202f]+(?:,\d)?)\s*(km|m)\b/.exec(text);
  if (!match) throw new Error(`no distance in ${text}`);
  const value = Number(match[1]!.replace(/[\s\u00a0\u202f]/g, "").replace(",", "."));
  return match[2] === "km" ? value * 1000 : value;
}

test("a search by postcode lists the shops taking the person's wallets, nearest first, with distance and directions", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  await signInAs(page, await makeAccount(ACCOUNT));
  await page.goto("/cards");
  await page
    .getByRole("navigation", { name: "Navigation principale" })
    .filter({ visible: true })
    .getByRole("link", { name: "Trouver un commerce" })
    .click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Trouver un commerce");
  // The mobile apps stay, as a block of the page (no dialog over it).
  const apps = page.getByRole("complementary", { name: "Aussi dans l’application mobile" });
  await expect(apps.getByRole("link", { name: "Télécharger dans l’App Store" })).toBeVisible();
  await expect(apps.getByRole("link", { name: "Disponible sur Google Play" })).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expectAccessible(page, "store locator, before a search");

  await searchFor(page, "69003");
  await expect(page).toHaveURL(/[?&]q=69003\b/);
  await expect(resultsTitle(page)).toHaveText(/^\d+ commerces à moins de 10 km de Lyon 3e Arrondissement \(69003\)$/);
  const shops = page.getByRole("listitem").filter({ has: page.getByRole("heading", { level: 3 }) });
  const names = await shops.getByRole("heading", { level: 3 }).allTextContents();
  // Restaurants, bakeries and cafés for the meal wallet, the book shop, theatre and cinema for culture…
  expect(names).toEqual(
    expect.arrayContaining([
      "Le Bistrot des Halles",
      "Sakura Sushi",
      "Librairie des Terreaux",
      "Théâtre du Vieux-Lyon",
    ]),
  );
  // …never a shop none of them pays at (bicycles: mobility; gifts; a climbing club), nor a closed one.
  for (const other of [
    "Vélo Station Part-Dieu",
    "Boutique Cadeaux Presqu'île",
    "Club Escalade Croix-Rousse",
    "Cinéma Le Royal",
  ])
    expect(names).not.toContain(other);
  const distances = (await shops.locator(".shop__distance").allTextContents()).map(metresOf);
  expect(distances).toEqual([...distances].sort((a, b) => a - b));
  expect(distances.some((d) => d > 0)).toBe(true);
  await expect(shops.filter({ hasText: "Sakura Sushi" })).toContainText(/À 1,8\skm/);

  const bistrot = shops.filter({ has: page.getByRole("heading", { name: "Le Bistrot des Halles" }) });
  await expect(bistrot).toContainText("102 cours Lafayette, 69003 Lyon");
  await expect(bistrot).toContainText("Accepte : Titres-restaurant");
  await expect(shops.filter({ hasText: "Librairie des Terreaux" })).toContainText("Accepte : Culture");
  const directions = bistrot.getByRole("link", { name: /^Itinéraire vers Le Bistrot des Halles/ });
  await expect(directions).toHaveAttribute("target", "_blank");
  await expect(directions).toHaveAttribute(
    "href",
    "https://www.google.com/maps/dir/?api=1&destination=102%20cours%20Lafayette%2C%2069003%20Lyon%2C%20France",
  );
  await expectAccessible(page, "store locator, shops around 69003");
  for (const width of [375, 320]) {
    await page.setViewportSize({ width, height: 740 });
    await expectNoHorizontalScroll(page, `store locator results at ${width} px`);
  }
});

test("an unknown postcode, wildcards and an empty search are refused in French at the field", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  await signInAs(page, await makeAccount(ACCOUNT));
  await page.goto("/store-locator");
  for (const [typed, message] of [
    ["99999", "Aucune commune n’a ce code postal. Vérifiez ses 5 chiffres."],
    [
      "Lyon%",
      "Utilisez seulement des lettres, des chiffres, des espaces, des tirets et des apostrophes (pas de %, _ ni *).",
    ],
    ["", "Saisissez un code postal ou le nom d’une ville."],
  ] as const) {
    await searchFor(page, typed);
    await expect(searchField(page)).toHaveAttribute("aria-invalid", "true");
    await expect(page.locator(".field__error")).toHaveText(`Erreur : ${message}`);
    await expect(page.getByRole("link", { name: message })).toBeVisible();
    await expect(page).toHaveTitle(/^Erreur/);
    await expect(page.getByRole("listitem").filter({ has: page.getByRole("heading", { level: 3 }) })).toHaveCount(0);
    await expectAccessible(page, `store locator, "${typed}" refused`);
  }
  // The radius chosen stays as it was, and a refused URL without one shows the default.
  await page.getByRole("combobox", { name: "Jusqu’à" }).selectOption("20");
  await searchFor(page, "99999");
  await expect(page.getByRole("combobox", { name: "Jusqu’à" })).toHaveValue("20");
  await page.goto("/store-locator?q=99999");
  await expect(page.getByRole("combobox", { name: "Jusqu’à" })).toHaveValue("10");
  // The refusal is the form contract's: 400, never a 500, whatever is typed.
  for (const q of ["99999", "%25", "_", "*", "x".repeat(500), "69003 Marseille", "Zzyzxville"])
    expect((await page.request.get(`/store-locator?q=${q}`)).status(), q).toBe(400);
  // A postcode with a space is the postcode.
  expect((await page.request.get("/store-locator?q=69+003")).status()).toBe(200);
});

test("a town with homonyms asks which one, and an empty area suggests a wider search", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  await signInAs(page, await makeAccount(ACCOUNT));
  await page.goto("/store-locator");
  await searchFor(page, "Saint-Denis");
  await expect(resultsTitle(page)).toHaveText("Plusieurs communes s’appellent « Saint-Denis »");
  await expect(page.getByRole("link", { name: "Saint-Denis – La Réunion (974)" })).toBeVisible();
  await expectAccessible(page, "store locator, homonyms");
  await page.getByRole("link", { name: "Saint-Denis – Seine-Saint-Denis (93)" }).click();
  await expect(resultsTitle(page)).toHaveText(/^\d+ commerces? à moins de 10 km de Saint-Denis \(Seine-Saint-Denis\)$/);
  await expect(page.getByRole("heading", { name: "Librairie du Marais" })).toBeVisible();

  await searchFor(page, "38250");
  await expect(resultsTitle(page)).toHaveText(
    "Aucun commerce acceptant vos portefeuilles à moins de 10 km de Villard-de-Lans (38250)",
  );
  await expectAccessible(page, "store locator, nothing in range");
  await page.getByRole("link", { name: "Chercher jusqu’à 20 km" }).click();
  await expect(page).toHaveURL(/[?&]radius=20\b/);
  await expect(page.getByRole("combobox", { name: "Jusqu’à" })).toHaveValue("20");
});

test("the light version (Save-Data) searches too, without a script", async ({ page, makeAccount, signInAs }) => {
  await signInAs(page, await makeAccount(ACCOUNT));
  await page.setExtraHTTPHeaders({ "save-data": "on" });
  // A GET form: the search is the URL, with no redirect where the header could be lost.
  await page.goto("/store-locator?q=Lyon&radius=5");
  await expect(page.locator("script")).toHaveCount(0);
  await expect(resultsTitle(page)).toHaveText(/^\d+ commerces à moins de 5 km de Lyon \(Rhône\)$/);
  await expect(page.getByRole("heading", { name: "Le Comptoir Lyonnais" })).toBeVisible();
  await expectAccessible(page, "store locator, light version");
});
