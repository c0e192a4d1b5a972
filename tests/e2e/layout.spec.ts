import { expect, test } from "./fixtures";
import { CLAIRE, expectAccessible, expectNoHorizontalScroll, MARIE, signIn } from "./helpers";

const BANNER = "Maintenance prévue dimanche de 2 h à 4 h : le portail sera indisponible.";

test("marie's layout: status banner, navigation of her cards, wallets and benefits, user menu", async ({ page }) => {
  await signIn(page, MARIE);
  await expect(page.getByRole("region", { name: "Information du service" })).toHaveText(BANNER);
  await expect(page.getByRole("link", { name: "Aller au contenu" })).toHaveAttribute("href", "#main");

  const nav = page.getByRole("navigation", { name: "Navigation principale" }).filter({ visible: true });
  const entries = [
    "Carte physique •••• 4242",
    "Carte virtuelle •••• 5556",
    "Carte physique •••• 1881",
    "Titres-restaurant",
    "Cadeaux de Noël",
    "Mobilité",
    "Culture",
    // The plans tabs marie has: integrations (everyone), refunds and allowances (her features).
    "Services et partenaires",
    "Demandes de remboursement",
    "Indemnités mobilité",
    "Trouver un commerce",
  ];
  // Prefixes: a card blocked by an earlier journey keeps its entry, marked "(bloquée)".
  for (const name of entries) await expect(nav.getByRole("link", { name: new RegExp(`^${name}`) })).toBeVisible();
  await expect(nav.getByRole("link")).toHaveCount(entries.length);

  await page.locator("summary", { hasText: "Mon compte (Marie Martin)" }).click();
  const menu = page.locator(".user-menu__panel");
  await expect(menu.getByText("Financeurs : Acme France, CSE Acme")).toBeVisible();
  await expect(menu.getByRole("link", { name: "Paramètres" })).toHaveAttribute("href", "/settings/profile");
  for (const name of ["Aide (FAQ)", "Site du service"]) {
    await expect(menu.getByRole("link", { name })).toHaveAttribute("target", "_blank");
  }
  // The terms and the privacy policy are the portal's own pages (which link to the funder's full texts).
  await expect(menu.getByRole("link", { name: "Mentions légales" })).toHaveAttribute("href", "/terms");
  await expect(menu.getByRole("link", { name: "Confidentialité" })).toHaveAttribute("href", "/privacy");
  // Marie cannot manage groups; analytics is configured in the journeys (the sandbox adapter).
  await expect(menu.getByRole("link", { name: /Espace gestionnaire/ })).toHaveCount(0);
  await expect(menu.getByRole("link", { name: "Donner mon avis" })).toHaveAttribute("href", "/feedback");
  await expectAccessible(page, "card page, user menu open");

  // Moving between cards changes the page.
  await nav.getByRole("link", { name: "Carte physique •••• 1881" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Carte physique •••• 1881");
  await expect(page.getByText(/Carte en cours de livraison – arrivée prévue le \d{2}\/\d{2}\/\d{4}/)).toBeVisible();
  await expect(page).toHaveTitle("Carte physique •••• 1881 – Portail Avantages");
  await expectAccessible(page, "card page, shipped card");
});

test("claire, a manager without refunds or allowances, sees the manager entry and no such benefits", async ({
  page,
}) => {
  await signIn(page, CLAIRE);
  const nav = page.getByRole("navigation", { name: "Navigation principale" }).filter({ visible: true });
  // Only the integrations tab (every account has it): claire has neither refunds nor allowances.
  await expect(nav.getByRole("link", { name: "Services et partenaires" })).toHaveAttribute(
    "href",
    "/plans/integrations",
  );
  await expect(nav.getByRole("link", { name: "Demandes de remboursement" })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "Indemnités mobilité" })).toHaveCount(0);
  await page.locator("summary", { hasText: "Mon compte (Claire Petit)" }).click();
  await expect(page.getByRole("link", { name: /^Espace gestionnaire/ })).toBeVisible();
});

test.describe("on a 1280 px screen", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("the user menu floats over the page: opening it moves nothing, Escape and a click outside close it", async ({
    page,
    makeAccount,
    signInAs,
  }) => {
    const account = await makeAccount({ cards: [{ type: "physical", lastFour: "4242" }] });
    await signInAs(page, account);
    await page.goto("/cards");
    const heading = page.getByRole("heading", { level: 1 });
    const before = await heading.boundingBox();
    const toggle = page.locator("summary", { hasText: "Mon compte" });
    await toggle.click();
    const panel = page.locator(".user-menu__panel");
    await expect(panel.getByRole("link", { name: "Paramètres" })).toBeVisible();
    // Issue 30 item 7: the open panel pushed the page down by about 380 px; now the heading stays put.
    expect(await heading.boundingBox()).toEqual(before);
    // The panel lies over the page, under its button, and the focus order still runs summary → panel.
    const [summaryBox, panelBox] = [await toggle.boundingBox(), await panel.boundingBox()];
    expect(panelBox!.y).toBeGreaterThanOrEqual(summaryBox!.y + summaryBox!.height);
    expect(panelBox!.y).toBeLessThan(before!.y + before!.height);
    await expectAccessible(page, "user menu open over the page at 1280 px");

    await toggle.click();
    await expect(panel).toBeHidden();
    // The keyboard leaving the menu never lands under its panel: with JS the menu closes, without JS the
    // panel steps aside while the focus is elsewhere.
    await toggle.click();
    await expect(panel).toBeVisible();
    await page.keyboard.press("Shift+Tab");
    await expect(page.locator(".notification-bell")).toBeFocused();
    await expect(panel).toBeHidden();
    if (test.info().project.use.javaScriptEnabled === false) return;
    await toggle.click();
    await expect(panel).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(panel).toBeHidden();
    await expect(toggle).toBeFocused();
    await toggle.click();
    await expect(panel).toBeVisible();
    await heading.click();
    await expect(panel).toBeHidden();
  });
});

test("an unknown address while signed in: a real 404 inside the layout, navigation kept", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  const account = await makeAccount({ cards: [{ type: "virtual", lastFour: "5556" }] });
  await signInAs(page, account);
  const response = await page.goto("/cards/a/page/that/does/not/exist");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page introuvable");
  await expect(page).toHaveTitle("Page introuvable – Portail Avantages");
  const nav = page.getByRole("navigation", { name: "Navigation principale" }).filter({ visible: true });
  await expect(nav.getByRole("link", { name: "Carte virtuelle •••• 5556" })).toBeVisible();
  await expect(page.locator("summary", { hasText: "Mon compte" })).toBeVisible();
  await expectAccessible(page, "404, signed in");
  // The way back is the navigation's: a card's page.
  await page.getByRole("link", { name: "Revenir à l’accueil" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Carte virtuelle •••• 5556");

  // Signed out, the same address is the public 404: no navigation, no sign-in detour.
  await page.context().clearCookies();
  const signedOut = await page.goto("/cards/a/page/that/does/not/exist");
  expect(signedOut?.status()).toBe(404);
  await expect(page).toHaveURL(/\/cards\/a\/page\/that\/does\/not\/exist$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page introuvable");
  await expect(page.getByRole("navigation", { name: "Navigation principale" })).toHaveCount(0);
  await expect(page.getByRole("contentinfo").getByRole("link", { name: "Conditions d’utilisation" })).toBeVisible();
  await expectAccessible(page, "404, signed out");
});

test.describe("on a 320 px wide phone", () => {
  test.use({ viewport: { width: 320, height: 640 } });

  test("nothing scrolls sideways, and the menu opens and closes without scripts", async ({ page }) => {
    await page.goto("/login");
    await expectNoHorizontalScroll(page, "sign-in");
    await page.goto("/nowhere");
    await expectNoHorizontalScroll(page, "404");

    await signIn(page, MARIE);
    await expectNoHorizontalScroll(page, "card page");
    const toggle = page.locator("summary", { hasText: "Menu" });
    const mobileNav = page.locator(".side-nav--mobile");
    await expect(mobileNav).toBeHidden();
    await toggle.click();
    await expect(mobileNav.getByRole("link", { name: "Carte virtuelle •••• 5556" })).toBeVisible();
    await expectAccessible(page, "card page, mobile menu open");
    await toggle.click();
    await expect(mobileNav).toBeHidden();
  });
});

test.describe("on an iPhone", () => {
  test.use({
    userAgent:
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
  });

  test("the mobile-app banner points to the App Store", async ({ page }) => {
    await page.goto("/login");
    const banner = page.getByRole("region", { name: "Application mobile" });
    await expect(banner).toContainText("L’application Portail Avantages est disponible sur l’App Store.");
    await expect(banner.getByRole("link", { name: "Installer l’application" })).toHaveAttribute(
      "href",
      /apps\.apple\.com/,
    );
  });
});
