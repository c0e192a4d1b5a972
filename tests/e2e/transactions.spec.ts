import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectAccessible, MARIE, signIn } from "./helpers";

const jsEnabled = () => test.info().project.use.javaScriptEnabled !== false;

const transactions = (page: Page) => page.getByRole("region", { name: "Transactions", exact: true });
const reserved = (page: Page) => page.getByRole("region", { name: "Montants réservés" });

test("marie pages through her approved transactions, then sees the declined ones and the reserved amounts", async ({
  page,
}) => {
  await signIn(page, MARIE);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Carte physique •••• 4242");
  const panel = transactions(page);
  await expect(panel.getByRole("link", { name: "Acceptées" })).toHaveAttribute("aria-current", "page");
  await expect(panel.getByRole("link", { name: "Refusées" })).not.toHaveAttribute("aria-current");
  const approved = panel
    .getByRole("list", { name: "Transactions acceptées" })
    // The items, not the lists of wallets inside them (each payment's split).
    .locator(":scope > li");
  await expect(approved).toHaveCount(7);
  // Issue 30 §2: the two approvals waiting for the merchant's capture first, not to be reported yet.
  await expect(approved.first()).toContainText("Le Petit Café");
  await expect(approved.first()).toContainText("En attente");
  await expect(approved.nth(1)).toContainText("SNCF Connect");
  await expect(approved.nth(1)).toContainText("En attente");
  await expect(approved.nth(0).getByRole("link", { name: /Signaler un problème/ })).toHaveCount(0);
  // Then the captured ones, newest first: merchant, city, date dd/MM/yyyy HH:mm, amount in French format (a
  // debit), status in words.
  const newest = approved.nth(2);
  await expect(newest).toContainText("Le Bistrot des Halles");
  await expect(newest).toContainText("Lyon");
  await expect(newest).toContainText(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
  await expect(newest).toContainText("-12,50 €");
  await expect(newest).toContainText("Acceptée");
  await expect(
    newest.getByRole("link", { name: /^Signaler un problème \(transaction Le Bistrot des Halles du / }),
  ).toBeVisible();
  await expectAccessible(page, "approved transactions, first page");

  await panel.getByRole("link", { name: "Voir plus de transactions" }).click();
  await expect(page).toHaveURL(/\?limit=14#tx-auth_/);
  await expect(approved).toHaveCount(14);
  await expect(panel.getByRole("link", { name: "Voir plus de transactions" })).toHaveCount(0);
  // The link pointed at the first new item.
  expect(new URL(page.url()).hash).toBe(`#${await approved.nth(7).getAttribute("id")}`);
  if (jsEnabled()) {
    // Fetched in place: the first new item takes the focus, and the count is announced.
    await expect(approved.nth(7)).toBeFocused();
    await expect(panel.getByRole("status")).toHaveText("7 transactions de plus affichées.");
  }
  await expectAccessible(page, "approved transactions, two pages");

  await panel.getByRole("link", { name: "Refusées" }).click();
  await expect(page).toHaveURL(/\?tab=declined#transactions$/);
  await expect(panel.getByRole("link", { name: "Refusées" })).toHaveAttribute("aria-current", "page");
  await expect(panel.getByRole("link", { name: "Acceptées" })).not.toHaveAttribute("aria-current");
  const declined = panel
    .getByRole("list", { name: "Transactions refusées" })
    // The items, not the lists of wallets inside them (each payment's split).
    .locator(":scope > li");
  await expect(declined).toHaveCount(3);
  await expect(declined.first()).toContainText("Le Bouchon des Canuts");
  // The demo's Sunday lunch, declined by the engine's rules (issue 17).
  await expect(declined.first()).toContainText("Refusée : les titres-restaurant ne s'utilisent pas le dimanche");
  await expect(declined.nth(1)).toContainText("Refusée : aucun de vos avantages n'est accepté chez ce commerçant");
  // Issue 30 §3: a shortfall says its figures (no wallet accepted there held anything then).
  await expect(declined.nth(2)).toContainText(
    "Refusée : 189,90 € demandés ; ici vos portefeuilles pouvaient payer 0,00 € :",
  );
  await expect(declined.nth(2)).toContainText("Cadeaux de Noël 0,00 € (solde disponible)");
  await expect(panel.getByRole("link", { name: "Voir plus de transactions" })).toHaveCount(0);
  if (jsEnabled()) await expect(panel.getByRole("status")).toHaveText("");
  await expectAccessible(page, "declined transactions");

  const holds = reserved(page)
    .getByRole("list", { name: "Montants réservés" })
    // The items, not the lists of wallets inside them (each payment's split).
    .locator(":scope > li");
  await expect(holds).toHaveCount(2);
  await expect(holds.first()).toContainText("Le Petit Café");
  await expect(holds.first()).toContainText("18,90 €");
  await expect(holds.first()).toContainText("En attente");
  await expect(holds.getByRole("link", { name: /Signaler un problème/ })).toHaveCount(0);
  await expect(reserved(page).getByRole("link", { name: "Voir plus de montants réservés" })).toHaveCount(0);
});

test("a card without transactions shows an empty state for each list", async ({ page }) => {
  await signIn(page, MARIE);
  await page
    .getByRole("navigation", { name: "Navigation principale" })
    .filter({ visible: true })
    .getByRole("link", { name: "Carte virtuelle •••• 5556" })
    .click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Carte virtuelle •••• 5556");
  await expect(transactions(page).getByText("Aucune transaction acceptée.")).toBeVisible();
  await expect(reserved(page).getByText("Aucun montant réservé.")).toBeVisible();
  await expectAccessible(page, "empty approved tab");
  await transactions(page).getByRole("link", { name: "Refusées" }).click();
  await expect(transactions(page).getByText("Aucune transaction refusée.")).toBeVisible();
  await expectAccessible(page, "empty declined tab");
});

test("a problem report needs 10 characters, then is acknowledged on the card", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  // A report is recorded: on an account of the test's own, with marie's payment at the Bistrot.
  const payments = [{ kind: "approved" as const, merchant: "Le Bistrot des Halles", city: "Lyon", amount: 1250 }];
  await signInAs(page, await makeAccount({ cards: [{ type: "physical", lastFour: "4242", payments }] }));
  await page.goto("/cards");
  const cardUrl = page.url();
  await transactions(page)
    .getByRole("list", { name: "Transactions acceptées" })
    .getByRole("link", { name: /^Signaler un problème \(transaction Le Bistrot des Halles/ })
    .click();
  await expect(page).toHaveURL(/\/cards\/card_[\w-]+\/transactions\/auth_[\w-]+\/report$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Signaler un problème");
  await expect(page).toHaveTitle("Signaler un problème – Portail Avantages");
  await expect(page.getByText("Le Bistrot des Halles, Lyon")).toBeVisible();
  await expect(page.getByText("12,50 €")).toBeVisible();
  await expect(page.getByRole("link", { name: "Retour à la carte" })).toHaveAttribute(
    "href",
    new URL(cardUrl).pathname,
  );
  await expectAccessible(page, "report form");

  const field = page.getByLabel("Décrivez le problème");
  await expect(field).toHaveAccessibleDescription("Au moins 10 caractères.");
  await field.fill("  Court   ");
  const refused = page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/report"));
  await page.getByRole("button", { name: "Envoyer le signalement" }).click();
  expect((await refused).status()).toBe(400);
  await expect(page.getByRole("heading", { name: "Il y a un problème" })).toBeVisible();
  await expect(page.getByRole("link", { name: "La description doit comporter au moins 10 caractères" })).toBeVisible();
  await expect(page).toHaveTitle(/^Erreur : Signaler un problème/);
  await expect(field).toHaveValue("  Court   ");
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAccessibleDescription(
    "Au moins 10 caractères. Erreur : La description doit comporter au moins 10 caractères",
  );
  if (jsEnabled()) await expect(page.locator(".error-summary")).toBeFocused();
  await expectAccessible(page, "report form, too short");

  await field.fill("Le montant a été débité deux fois.");
  await page.getByRole("button", { name: "Envoyer le signalement" }).click();
  await expect(page).toHaveURL(cardUrl);
  await expect(
    page.getByText("Votre signalement a bien été envoyé. Notre équipe vous répondra par e-mail."),
  ).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Carte physique •••• 4242");
  await expectAccessible(page, "card page after a report");
});

test("a reserved amount, an unknown transaction or another card's id cannot be reported", async ({ page }) => {
  await signIn(page, MARIE);
  const cardPath = new URL(page.url()).pathname;
  const holdId = (await reserved(page).getByRole("listitem").first().getAttribute("id"))!.replace(/^reserved-/, "");
  const approvedId = (await transactions(page)
    .getByRole("list", { name: "Transactions acceptées" })
    .locator(":scope > li")
    .filter({ hasText: "Acceptée" })
    .first()
    .getAttribute("id"))!.replace(/^tx-/, "");
  for (const path of [
    `${cardPath}/transactions/${holdId}/report`,
    `${cardPath}/transactions/auth_unknown/report`,
    `/cards/card_other/transactions/${approvedId}/report`,
  ]) {
    const response = await page.request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(302);
    expect(response.headers()["location"], path).toBe("/cards");
  }
  await page.goto(`${cardPath}/transactions/${holdId}/report`);
  await expect(page.getByText("Cette transaction n’existe pas ou ne peut pas être signalée.")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Carte physique •••• 4242");
});
