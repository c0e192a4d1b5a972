import type { Locator, Page } from "@playwright/test";
import { parisDayAfter } from "../../app/domain/dates";
import { expect, test } from "./fixtures";
import { expectAccessible, expectNoHorizontalScroll, signIn } from "./helpers";

/**
 * Issue 30 §1, a phone-first card page: what the card can spend on the first screen of a phone, the card's
 * actions (the PIN unlock included) in its menu, and its state in words that match its delivery.
 */
test.use({ viewport: { width: 375, height: 740 } });

const balances = (page: Page) => page.getByRole("region", { name: "Soldes" });
const available = (page: Page) =>
  balances(page)
    .locator("div", { has: page.getByText("Solde disponible", { exact: true }) })
    .locator("dd");
const walletRows = (page: Page) => page.getByRole("region", { name: "Portefeuilles liés" }).getByRole("listitem");
const menuSummary = (page: Page) => page.locator("summary", { hasText: "Actions sur la carte" });
const menuLink = (page: Page, name: string) => page.locator(".card-menu").getByRole("link", { name });

/** The bottom of an element, in CSS pixels from the top of the page as loaded (nothing has scrolled it). */
async function bottomOf(locator: Locator): Promise<number> {
  const box = await locator.boundingBox();
  if (!box) throw new Error("not displayed");
  return box.y + box.height;
}

/** Every figure the card can spend: the available balance and each linked wallet's, inside the first `height` px. */
async function expectBalancesOnFirstScreen(page: Page, height: number, state: string) {
  await expect(available(page)).toBeVisible();
  expect(await bottomOf(available(page)), `available balance, ${state}`).toBeLessThanOrEqual(height);
  const rows = await walletRows(page).all();
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) expect(await bottomOf(row), `${await row.innerText()}, ${state}`).toBeLessThanOrEqual(height);
}

/** Opens the card's menu (again, if a click that landed while the page hydrated was undone) until `name` shows. */
async function openMenuUntil(page: Page, name: string) {
  await expect(async () => {
    if (!(await menuLink(page, name).isVisible())) await menuSummary(page).click();
    await expect(menuLink(page, name)).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 10_000 });
}

test("after signing in on a phone, the available balance and every wallet's balance are on the first screen", async ({
  page,
  makeMarie,
}) => {
  const marie = await makeMarie();
  await signIn(page, marie.email);
  await expect(page).toHaveURL(`/cards/${marie.cards["4242"]}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Carte physique •••• 4242");
  await expect(walletRows(page)).toHaveText([/Titres-restaurant/, /Mobilité/, /Cadeaux de Noël/]);
  await expectBalancesOnFirstScreen(page, 740, "375 × 740");
  await expect(page.getByText("Carte active")).toBeVisible();
  // Icons are drawn, never emoji (a phone without an emoji font showed an empty box).
  expect(await page.locator("main").innerHTML()).not.toMatch(/\p{Extended_Pictographic}/u);
  await expectAccessible(page, "card page, 375 px");

  // A delivered physical card whose PIN can be chosen again: the unlock is one of the menu's actions, and the
  // menu floats over the page instead of pushing it down.
  // (With JavaScript the open menu is scrolled into view, so distances are measured from the wallets.)
  const image = page.getByRole("region", { name: "Carte physique •••• 4242" });
  const wallets = page.getByRole("region", { name: "Portefeuilles liés" });
  const imageBelowWallets = async () => (await image.boundingBox())!.y - (await wallets.boundingBox())!.y;
  const closedGap = await imageBelowWallets();
  await openMenuUntil(page, "Débloquer le code PIN");
  await expect(menuLink(page, "Débloquer le code PIN")).toHaveAttribute(
    "href",
    `/cards/${marie.cards["4242"]}/unlock-pin`,
  );
  expect(await imageBelowWallets()).toBe(closedGap);
  await expectAccessible(page, "card page, menu open");
  await menuLink(page, "Débloquer le code PIN").click();
  await expect(page.getByRole("dialog", { name: "Débloquer le code PIN" })).toBeVisible();
  await expectAccessible(page, "unlock PIN panel, 375 px");

  // The narrowest phone: still on the first screen, and nothing scrolls sideways.
  await page.setViewportSize({ width: 320, height: 740 });
  await page.goto(`/cards/${marie.cards["4242"]}`);
  await expectBalancesOnFirstScreen(page, 740, "320 × 740");
  await expectNoHorizontalScroll(page, "card page, 320 px");
  await expectAccessible(page, "card page, 320 px");
});

test("a card says where it is until it arrives, and offers the PIN unlock only once delivered", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  const eta = parisDayAfter(new Date(), 5);
  const account = await makeAccount({
    wallets: [{ name: "Titres-restaurant", type: "meal", balance: 9000 }],
    cards: [
      // Just made: a PIN that can be chosen, but the card has never been at a terminal.
      {
        type: "physical",
        lastFour: "7001",
        shippingStatus: "pending",
        pinCanUpdate: true,
        wallets: ["Titres-restaurant"],
      },
      { type: "physical", lastFour: "7002", shippingStatus: "shipped", shippingEta: eta, pinCanUpdate: true },
      { type: "physical", lastFour: "7003", shippingStatus: "failure" },
      { type: "virtual", lastFour: "7004", wallets: ["Titres-restaurant"] },
    ],
  });
  await signInAs(page, account);

  await page.goto(`/cards/${account.cards["7001"]}`);
  await expect(page.getByText("Carte en préparation : elle n’est pas encore expédiée.")).toBeVisible();
  await expect(page.getByText("Carte active")).toHaveCount(0);
  await expectBalancesOnFirstScreen(page, 740, "card in preparation");
  await expectAccessible(page, "card in preparation");
  await openMenuUntil(page, "Suivre la livraison");
  await expect(menuLink(page, "Afficher le code PIN")).toBeVisible();
  await expect(menuLink(page, "Débloquer le code PIN")).toHaveCount(0);
  // Typing the panel's address follows the menu's rule: the card page, not a PIN form for a card never delivered.
  await page.goto(`/cards/${account.cards["7001"]}/unlock-pin`);
  await expect(page).toHaveURL(new RegExp(`/cards/${account.cards["7001"]}$`));
  await expect(page.getByRole("dialog", { name: "Débloquer le code PIN" })).toHaveCount(0);

  await page.goto(`/cards/${account.cards["7002"]}`);
  const day = eta.split("-").reverse().join("/");
  await expect(page.getByText(`Carte en cours de livraison – arrivée prévue le ${day}`)).toBeVisible();
  await expect(page.getByText("Carte active")).toHaveCount(0);
  await expectAccessible(page, "card in transit");
  await openMenuUntil(page, "Suivre la livraison");
  await expect(menuLink(page, "Débloquer le code PIN")).toHaveCount(0);

  // A failed delivery is said in words (not only in red) and leads to the tracking panel and its support link.
  await page.goto(`/cards/${account.cards["7003"]}`);
  const failed = page.getByText("Échec de la livraison : contactez le support pour recevoir votre carte.");
  await expect(failed).toBeVisible();
  await expectAccessible(page, "card with a failed delivery");
  await page.locator(".card-status").getByRole("link", { name: "Suivre la livraison" }).click();
  const panel = page.getByRole("dialog", { name: "Suivi de livraison" }).or(page.locator("#delivery"));
  await expect(panel.getByRole("link", { name: "Signaler un problème de livraison au support" })).toBeVisible();

  await page.goto(`/cards/${account.cards["7004"]}`);
  await expect(page.getByText("Carte active")).toBeVisible();
  await expectAccessible(page, "virtual card");
  await openMenuUntil(page, "Afficher le numéro, la date et le cryptogramme");
  await expect(menuLink(page, "Débloquer le code PIN")).toHaveCount(0);
  await expect(menuLink(page, "Suivre la livraison")).toHaveCount(0);
});

test.describe("on a desktop", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("the card image and its menu on the left, the balances and wallets beside them", async ({
    page,
    makeMarie,
    signInAs,
  }) => {
    const marie = await makeMarie();
    await signInAs(page, marie);
    await page.goto(`/cards/${marie.cards["4242"]}`);
    const image = await page.getByRole("region", { name: "Carte physique •••• 4242" }).boundingBox();
    const figures = await balances(page).boundingBox();
    const summary = await menuSummary(page).boundingBox();
    // Two columns: the image left of the balances, at the same height; the menu right under the image.
    expect(image!.x + image!.width).toBeLessThanOrEqual(figures!.x);
    expect(Math.abs(image!.y - figures!.y)).toBeLessThanOrEqual(1);
    expect(summary!.y).toBeGreaterThanOrEqual(image!.y + image!.height);
    expect(summary!.y - (image!.y + image!.height)).toBeLessThanOrEqual(32);
    await expectBalancesOnFirstScreen(page, 800, "1280 × 800");
    await expectAccessible(page, "card page, 1280 px");
  });
});
