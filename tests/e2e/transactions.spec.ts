import { expect, test } from "@playwright/test";
import { expectAccessible, MARIE, signIn } from "./helpers";

test("marie pages through her approved transactions, sees the declined and the reserved amounts", async ({ page }) => {
  await signIn(page, MARIE);
  const panel = page.getByRole("region", { name: "Transactions" });
  await expect(panel.getByRole("link", { name: "Acceptées" })).toHaveAttribute("aria-current", "page");
  const approved = panel.getByRole("list", { name: "Acceptées" }).getByRole("listitem");
  await expect(approved).toHaveCount(7);
  await expect(approved.first()).toContainText(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
  await expect(approved.first()).toContainText("€");

  await panel.getByRole("link", { name: "Voir plus de transactions" }).click();
  await expect(approved).toHaveCount(12);
  await expect(page).toHaveURL(/limit=14/);
  await expect(panel.getByRole("link", { name: "Voir plus de transactions" })).toHaveCount(0);
  if (test.info().project.use.javaScriptEnabled !== false) {
    // The first new item takes the focus, and the count is announced.
    await expect(approved.nth(7)).toBeFocused();
    await expect(panel.getByRole("status").first()).toHaveText("5 transactions de plus affichées.");
  }
  await expectAccessible(page, "approved transactions, page 2");

  await panel.getByRole("link", { name: "Refusées" }).click();
  await expect(page).toHaveURL(/tab=declined/);
  await expect(panel.getByRole("link", { name: "Refusées" })).toHaveAttribute("aria-current", "page");
  const declined = panel.getByRole("list", { name: "Refusées" }).getByRole("listitem");
  await expect(declined).toHaveCount(3);
  await expect(declined.first()).toContainText("Refusée");
  await expect(panel.getByText("plafond quotidien atteint", { exact: false })).toBeVisible();
  await expectAccessible(page, "declined transactions");

  const reserved = panel.getByRole("list", { name: "Montants réservés" }).getByRole("listitem");
  await expect(reserved).toHaveCount(2);
});

test("a problem report needs 10 characters, then is acknowledged", async ({ page }) => {
  await signIn(page, MARIE);
  const panel = page.getByRole("region", { name: "Transactions" });
  await panel.getByRole("list", { name: "Acceptées" }).getByRole("link", { name: /^Signaler un problème/ }).first().click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Signaler un problème");
  await expectAccessible(page, "report form");

  await page.getByLabel("Décrivez le problème").fill("Trop court");
  await page.getByLabel("Décrivez le problème").fill("Court");
  await page.getByRole("button", { name: "Envoyer le signalement" }).click();
  await expect(page.getByRole("link", { name: "La description doit comporter au moins 10 caractères" })).toBeVisible();
  await expect(page).toHaveTitle(/^Erreur : Signaler un problème/);
  await expect(page.getByLabel("Décrivez le problème")).toHaveValue("Court");
  await expectAccessible(page, "report form, too short");

  await page.getByLabel("Décrivez le problème").fill("Le montant a été débité deux fois.");
  await page.getByRole("button", { name: "Envoyer le signalement" }).click();
  await expect(page.getByText("Votre signalement a bien été envoyé. Notre équipe vous répondra par e-mail.")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Carte physique •••• 4242");
});

test("a frozen amount, or someone else's transaction, cannot be reported", async ({ page }) => {
  await signIn(page, MARIE);
  const cardPath = new URL(page.url()).pathname;
  const response = await page.request.get(`${cardPath}/transactions/auth_unknown/report`, { maxRedirects: 0 });
  expect(response.status()).toBe(302);
  await page.goto(`${cardPath}/transactions/auth_unknown/report`);
  await expect(page.getByText("Cette transaction n’existe pas ou ne peut pas être signalée.")).toBeVisible();
});
