import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectAccessible, expectReflow } from "./helpers";

/**
 * The site map (`/plan-du-site`, RGAA 12.1: a second way to every page besides the menus), JS on and off:
 * reached from the footer's legal navigation signed out and signed in; signed in it lists every portal page the
 * person's menus offer (side navigation, header, user menu, footer) and the settings' pages, in sections under
 * h2 headings with nested lists; signed out only the public pages. axe and the 320 px checks on each state.
 */

const DESKTOP = { width: 1280, height: 800 };

/** The portal pages (paths, without query or fragment) the signed-in frame's menus link to. */
async function menuPages(page: Page): Promise<string[]> {
  const paths = await page.evaluate(() => {
    const menus = [
      'nav.side-nav:not(.side-nav--mobile) a[href^="/"]',
      '.user-menu__list a[href^="/"]',
      '.site-header a[href^="/notifications"], a.support-button',
      '.site-footer__legal a[href^="/"]',
    ];
    return menus.flatMap((selector) =>
      [...document.querySelectorAll<HTMLAnchorElement>(selector)].map((a) => a.getAttribute("href")!),
    );
  });
  return [...new Set(paths.map((path) => path.replace(/[?#].*$/s, "")))].filter((p) => p !== "/plan-du-site");
}

/** The links of the site map's main content, as paths (fragment kept, as the light version's). */
async function mapLinks(page: Page): Promise<string[]> {
  return page
    .getByRole("main")
    .getByRole("link")
    .evaluateAll((links) => links.map((a) => a.getAttribute("href")!));
}

test("signed out: the footer's « Plan du site » lists the public pages", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await page.goto("/login");
  await page.getByRole("contentinfo").getByRole("link", { name: "Plan du site" }).click();
  await expect(page).toHaveURL(/\/plan-du-site$/);
  await expect(page).toHaveTitle(/^Plan du site/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Plan du site");
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { level: 2 })).toHaveText(["Votre compte", "Informations légales"]);
  expect(await mapLinks(page)).toEqual([
    "/login",
    "/lost-password",
    "/terms",
    "/privacy",
    "/accessibilite",
    "/cookies",
  ]);
  // The links are a list under their section's heading (read as « liste, 2 éléments » after the heading).
  await expect(main.getByRole("list").nth(1).getByRole("listitem")).toHaveText(["Connexion", "Mot de passe oublié"]);
  await expectAccessible(page, "site map, signed out");
  await expectReflow(page, "site map, signed out");
  await main.getByRole("link", { name: "Mot de passe oublié" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Mot de passe oublié");
});

test("signed in: every page of the person's menus, by section, from the footer", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  await page.setViewportSize(DESKTOP);
  const account = await makeAccount({
    features: { expenseRequests: { any: true }, allowances: { any: true } },
    cards: [
      { type: "physical", lastFour: "4242" },
      { type: "virtual", lastFour: "5556" },
    ],
    wallets: [{ name: "Culture", type: "culture", balance: 20000 }],
  });
  await signInAs(page, account);
  await page.goto("/store-locator");
  const menus = await menuPages(page);
  await page.getByRole("contentinfo").getByRole("link", { name: "Plan du site" }).click();
  await expect(page).toHaveURL(/\/plan-du-site$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Plan du site");
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { level: 2 })).toHaveText([
    "Cartes",
    "Portefeuilles",
    "Avantages",
    "Aide et services",
    "Paramètres",
    "Informations légales",
  ]);
  await expect(main.getByRole("link", { name: "Carte physique •••• 4242" })).toBeVisible();
  await expect(main.getByRole("link", { name: "Carte virtuelle •••• 5556" })).toBeVisible();
  await expect(main.getByRole("link", { name: "Culture" })).toBeVisible();
  for (const name of ["Services et partenaires", "Demandes de remboursement", "Indemnités mobilité"]) {
    await expect(main.getByRole("link", { name })).toBeVisible();
  }

  // Nothing the menus offer is missing from the map (the same sources: a new menu entry shows here too).
  const links = await mapLinks(page);
  const paths = links.map((href) => href.replace(/[?#].*$/s, ""));
  expect(menus.length).toBeGreaterThan(10);
  for (const path of menus) expect(paths, `${path} in the site map`).toContain(path);
  for (const path of ["/settings/notifications", "/settings/security", "/settings/profile#light-version"]) {
    expect(links).toContain(path);
  }
  // The light version sits in a list nested under « Profil », the page it is set on (the last item holding
  // « Profil » is its own: the section « Paramètres » holds it too).
  const profile = main
    .getByRole("listitem")
    .filter({ has: page.getByRole("link", { name: "Profil", exact: true }) })
    .last();
  await expect(profile.getByRole("list").getByRole("link")).toHaveText(["Version légère (sans JavaScript)"]);
  await expectAccessible(page, "site map, signed in");
  await expectReflow(page, "site map, signed in");

  await main.getByRole("link", { name: "Demandes de remboursement" }).click();
  await expect(page).toHaveURL(/\/plans\/expense-requests$/);
});

test("signed in without plan features: only the pages the menus offer", async ({ page, makeAccount, signInAs }) => {
  const account = await makeAccount({ cards: [{ type: "virtual", lastFour: "5556" }] });
  await signInAs(page, account);
  await page.goto("/plan-du-site");
  const main = page.getByRole("main");
  await expect(main.getByRole("link", { name: "Services et partenaires" })).toBeVisible();
  await expect(main.getByRole("link", { name: "Demandes de remboursement" })).toHaveCount(0);
  await expect(main.getByRole("link", { name: "Indemnités mobilité" })).toHaveCount(0);
  await expect(main.getByText("Aucun portefeuille")).toBeVisible();
  await expectAccessible(page, "site map, signed in, no plan features");
});
