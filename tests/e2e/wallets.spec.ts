import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { CLAIRE, expectAccessible, MARIE, signIn } from "./helpers";
import { isSunday } from "date-fns";
import { buildWalletTransaction } from "../../app/.server/db/factories";
import { isFrenchPublicHoliday } from "../../app/domain/calendar";
import { todayInParis } from "../../app/domain/dates";

/**
 * Spec 000 §2 "Wallets page": marie's four wallets, paging, a foreign id (the demo world, read only);
 * an account without wallets, and one activating a wallet, are the tests' own (fixtures.ts).
 */
const strip = (page: Page) => page.getByRole("navigation", { name: "Mes portefeuilles" });
const details = (page: Page) => page.getByRole("region", { name: "Détails" });

/** A figure of the wallet's details (its term's first definition), in cents: "1 234,50 €" → 123450. */
async function figure(page: Page, term: string): Promise<number> {
  const text = await details(page)
    .locator(".balances > div")
    .filter({ has: page.locator("dt", { hasText: new RegExp(`^${term}$`) }) })
    .locator("dd")
    .first()
    .innerText();
  return cents(text);
}
const cents = (text: string) => Math.round(Number(text.replace(/[^\d,-]/g, "").replace(",", ".")) * 100);

/**
 * Issue 30 §5: the reserved figure is its two parts' sum, and (a wallet with an amount) available + reserved = total.
 * Returns the parts read, in cents.
 */
async function expectAmountsAgree(page: Page, limited: boolean): Promise<{ frozen: number; refundHolds: number }> {
  const parts = await details(page).locator("dd.amount-parts").innerText();
  const match =
    /^dont paiements par carte en attente : (.+?\s€) · demandes de remboursement en attente : (.+?\s€)$/.exec(parts);
  expect(match, parts).not.toBeNull();
  const [frozen, refundHolds] = [cents(match![1]!), cents(match![2]!)];
  const reserved = await figure(page, "Réservé");
  expect(reserved).toBe(frozen + refundHolds);
  if (limited) expect((await figure(page, "Solde disponible")) + reserved).toBe(await figure(page, "Solde total"));
  return { frozen, refundHolds };
}

test("marie browses her four wallets and their details", async ({ page }) => {
  await signIn(page, MARIE);
  await page.goto("/wallets");
  await expect(page).toHaveURL(/\/wallets\/wal_[\w-]+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Titres-restaurant");
  await expect(strip(page).getByRole("link")).toHaveText([
    /Titres-restaurant/,
    /Mobilité/,
    /Cadeaux de Noël/,
    /Culture.*Illimité/,
  ]);
  await expect(strip(page).getByRole("link", { name: /Titres-restaurant/ })).toHaveAttribute("aria-current", "page");
  await expect(details(page).getByText("Limite de dépense")).toBeVisible();
  await expect(details(page).getByText("Plafond journalier")).toBeVisible();
  await expect(details(page).getByText("25,00 € par jour")).toBeVisible();
  await expect(details(page).getByText("Solde total")).toBeVisible();
  await expect(details(page).getByText("152,40 €")).toBeVisible();
  await expect(details(page).getByText(/^Un paiement par carte en attente est bloqué jusqu’à ce que/)).toBeVisible();
  // The meal wallet's one reserved figure: its pending payment, and no refund request (meal never pays one).
  const meal = await expectAmountsAgree(page, true);
  expect(meal.frozen).toBeGreaterThan(0);
  expect(meal.refundHolds).toBe(0);
  await expect(details(page).getByText(/^Date d’expiration : \d{2}\/\d{2}\/\d{4}$/)).toBeVisible();
  await expect(details(page).getByRole("link", { name: /Où utiliser mes titres-restaurant/ })).toBeVisible();
  await expectAccessible(page, "wallet, meal");

  await strip(page)
    .getByRole("link", { name: /Cadeaux de Noël/ })
    .click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Cadeaux de Noël");
  const balances = page.getByRole("list", { name: "Soldes et dates d’expiration" }).getByRole("listitem");
  await expect(balances).toHaveCount(2);
  await expect(balances.first()).toContainText("120,00 €");
  await expect(balances.first()).toContainText("(dans 20 jours)");
  await expect(balances.nth(1)).toContainText("80,00 €");
  await expect(balances.first().getByRole("progressbar")).toBeVisible();
  await expect(details(page).getByRole("link", { name: /Où utiliser mes chèques cadeaux/ })).toBeVisible();
  await expectAccessible(page, "wallet, gift");

  await strip(page)
    .getByRole("link", { name: /Mobilité/ })
    .click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Mobilité");
  await expect(details(page).getByText("Plafond de 600,00 €, il reste 420,00 €")).toBeVisible();
  await expect(details(page).getByText(/^Disponible du 01\/01\/\d{4} au 31\/12\/\d{4}$/)).toBeVisible();
  await expect(details(page).getByText("Prolongation automatique")).toBeVisible();
  await expect(details(page).getByText("12,00 €", { exact: true })).toBeVisible();
  // The 12,00 € held by a pending card payment is the whole reserved figure, taken off the 420,00 € left.
  expect(await expectAmountsAgree(page, true)).toEqual({ frozen: 1200, refundHolds: 0 });
  expect(await figure(page, "Solde disponible")).toBe(42000 - 1200);
  await expectAccessible(page, "wallet, mobility");

  await strip(page)
    .getByRole("link", { name: /Culture/ })
    .click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Culture");
  await expect(details(page).getByText("Illimité").first()).toBeVisible();
  await expect(details(page).getByText(/n’a pas de plafond/)).toBeVisible();
  // Her two requests in progress (45,90 € and 120,00 €) hold 165,90 € on it: one figure, its parts beside it.
  expect(await expectAmountsAgree(page, false)).toEqual({ frozen: 0, refundHolds: 16590 });
  expect(await figure(page, "Réservé")).toBe(16590);
  await expect(
    details(page).getByText(/^Une demande de remboursement en attente garde son montant réservé/),
  ).toBeVisible();
  await expect(details(page).getByText("Montant réservé", { exact: true })).toHaveCount(0);
  await expectAccessible(page, "wallet, culture");
});

test("marie pages through Titres-restaurant's transactions", async ({ page }) => {
  await signIn(page, MARIE);
  await page.goto("/wallets");
  const processed = page.getByRole("list", { name: "Opérations" }).getByRole("listitem");
  await expect(processed).toHaveCount(7);
  await expect(page.getByRole("list", { name: "Montants réservés" }).getByRole("listitem")).toHaveCount(1);
  await expect(processed.first()).toContainText("€");
  await page.getByRole("link", { name: "Voir plus d’opérations" }).click();
  await expect(processed).toHaveCount(10);
  await expect(processed.last()).toContainText("Rechargement");
  await expect(page.getByRole("link", { name: "Voir plus d’opérations" })).toHaveCount(0);
  await expect(processed.filter({ hasText: "Saveurs d'Asie" })).toHaveCount(1);
  await expectAccessible(page, "wallet transactions, all");
});

test("another user's wallet id, or an unknown one, goes back to marie's wallets with a message", async ({
  page,
  browser,
}) => {
  // Claire's wallet id, read from her own session.
  const claire = await browser.newContext({ baseURL: test.info().project.use.baseURL, locale: "fr-FR" });
  const clairePage = await claire.newPage();
  await signIn(clairePage, CLAIRE);
  await clairePage.goto("/wallets");
  const claireWallet = new URL(clairePage.url()).pathname;
  expect(claireWallet).toMatch(/^\/wallets\/wal_/);
  await claire.close();

  await signIn(page, MARIE);
  for (const path of [claireWallet, "/wallets/wal_unknown"]) {
    await page.goto(path);
    await expect(page.getByText("Ce portefeuille est introuvable. Voici vos portefeuilles.")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Titres-restaurant");
    expect(new URL(page.url()).pathname).not.toBe(claireWallet);
  }
});

test("a cardholder who has no wallet sees the empty state and a way to refresh", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  await signInAs(page, await makeAccount({ cards: [{ type: "physical", lastFour: "3005" }] }));
  await page.goto("/wallets");
  await expect(page).toHaveURL(/\/wallets$/);
  await expect(page.getByRole("heading", { name: "Aucun portefeuille pour le moment" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Actualiser" })).toHaveAttribute("href", "/wallets");
  await expectAccessible(page, "wallets, empty");
});

test("a cardholder activates the mobility wallet her licence offers, once", async ({ page, makeAccount, signInAs }) => {
  const wallets = [{ name: "Titres-restaurant", type: "meal", balance: 5000 }];
  await signInAs(
    page,
    await makeAccount({
      wallets,
      cards: [{ type: "physical", lastFour: "4242", wallets: ["Titres-restaurant"] }],
      freeWalletLicences: ["mobility"],
    }),
  );
  await page.goto("/wallets");
  const before = new URL(page.url()).pathname;
  const licence = await page.locator('input[name="licence"]').getAttribute("value");
  await page.getByRole("button", { name: "Activer le portefeuille Mobilité (Acme France)" }).click();
  await expect(page.getByText("Votre portefeuille est activé.")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Mobilité");
  await expect(strip(page).getByRole("link")).toHaveCount(2);
  await expect(page.getByRole("button", { name: /Activer le portefeuille/ })).toHaveCount(0);
  await expectAccessible(page, "wallet activated");

  // The same form sent again (Back, then the button again): refused, said on the page it came from.
  const origin = new URL(page.url()).origin;
  const postData = new URLSearchParams({ licence: licence ?? "", from: before.split("/").pop()! }).toString();
  await page.route("**/wallets?index", (route) =>
    route.continue({
      method: "POST",
      postData,
      headers: { ...route.request().headers(), origin, "content-type": "application/x-www-form-urlencoded" },
    }),
  );
  await page.goto("/wallets?index");
  await page.unrouteAll();
  await expect(page).toHaveURL(new RegExp(`${before}$`));
  await expect(
    page.getByText("Ce portefeuille ne peut pas être activé : l’offre n’est plus disponible."),
  ).toBeVisible();
  await expect(strip(page).getByRole("link")).toHaveCount(2);
  await expectAccessible(page, "wallet activation refused");
});

test("a meal wallet says what is left today of the titres-restaurant's 25 €, or why not today", async ({
  page,
  makeAccount,
  signInAs,
  e2eDatabase,
}) => {
  const account = await makeAccount({
    wallets: [{ name: "Titres-restaurant", type: "meal", balance: 5000 }],
    cards: [{ type: "physical", lastFour: "4242", wallets: ["Titres-restaurant"] }],
  });
  // A payment of 12,50 € at a restaurant now, as the engine records it once captured (decision 0035).
  const now = new Date();
  await e2eDatabase.handle.db
    .insertInto("wallet_transactions")
    .values(buildWalletTransaction(account.wallets["Titres-restaurant"]!, -1250, now.toISOString(), "Le Petit Café"))
    .execute();
  await signInAs(page, account);
  await page.goto(`/wallets/${account.wallets["Titres-restaurant"]}`);
  const day = todayInParis(now);
  if (isSunday(new Date(`${day}T12:00:00`))) {
    await expect(
      details(page).getByText(/Vos titres-restaurant ne s’utilisent pas aujourd’hui : pas le dimanche/),
    ).toBeVisible();
  } else if (isFrenchPublicHoliday(day)) {
    await expect(details(page).getByText(/pas les jours fériés, sauf si votre employeur l’autorise/)).toBeVisible();
  } else {
    await expect(
      details(page).getByText("Il vous reste 12,50 € à dépenser aujourd’hui en titres-restaurant."),
    ).toBeVisible();
  }
  await expectAccessible(page, "wallet, meal allowance today");
});

test("a pending card payment and a refund request on one wallet: one reserved figure, its parts, the same available amount in the strip", async ({
  page,
  makeAccount,
  makeRefund,
  signInAs,
  e2eDatabase,
}) => {
  const account = await makeAccount({
    wallets: [{ name: "Culture", type: "culture", balance: 30000 }],
    cards: [{ type: "physical", lastFour: "4242", wallets: ["Culture"] }],
  });
  const culture = account.wallets.Culture!;
  await e2eDatabase.handle.db
    .insertInto("wallet_transactions")
    .values(buildWalletTransaction(culture, -1420, new Date().toISOString(), "Librairie Mollat", "frozen"))
    .execute();
  await makeRefund(account, {
    type: "culture",
    partner: "Théâtre du Vieux-Lyon",
    amount: 12000,
    split: { Culture: 12000 },
  });
  // Someone else's request on their own Culture wallet is theirs alone.
  const stranger = await makeAccount({ wallets: [{ name: "Culture", type: "culture", balance: 30000 }] });
  await makeRefund(stranger, {
    type: "culture",
    partner: "Théâtre du Vieux-Lyon",
    amount: 5000,
    split: { Culture: 5000 },
  });

  await signInAs(page, account);
  await page.goto(`/wallets/${culture}`);
  expect(await expectAmountsAgree(page, true)).toEqual({ frozen: 1420, refundHolds: 12000 });
  expect(await figure(page, "Réservé")).toBe(13420);
  expect(await figure(page, "Solde disponible")).toBe(30000 - 13420);
  expect(await figure(page, "Solde total")).toBe(30000);
  await expect(strip(page).getByRole("link", { name: /Culture/ })).toContainText("165,80 €");
  await expect(details(page).getByText(/^Un paiement par carte en attente est bloqué/)).toBeVisible();
  await expect(
    details(page).getByText(/^Une demande de remboursement en attente garde son montant réservé/),
  ).toBeVisible();
  await expectAccessible(page, "wallet, reserved figure and its parts");
});
