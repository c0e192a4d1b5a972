import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectAccessible, latestCodeFor, MARIE, signIn, submitPassword } from "./helpers";

/**
 * Issue 13, findings 8–12 (forms): where error links lead, what an error is tied to, required fields
 * said, and a code's time said truly. Every form here is refused: no data other journeys rely on changes.
 */
const jsOn = () => test.info().project.name === "js-on";

/** The ids an element's aria-describedby names. */
async function describedBy(locator: Locator): Promise<string[]> {
  return ((await locator.getAttribute("aria-describedby")) ?? "").split(/\s+/).filter(Boolean);
}

/** The card page marie lands on after signing in. */
async function cardPath(page: Page): Promise<string> {
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Carte physique •••• 4242");
  return new URL(page.url()).pathname;
}

test("finding 12: the sign-in code page says until when the code can be typed", async ({ page }) => {
  await page.goto("/login");
  await submitPassword(page, MARIE);
  await expect(page).toHaveURL(/\/login\/code$/);
  const field = page.getByLabel("Code à 6 chiffres");
  const hint = page.locator(`#${(await describedBy(field))[0]}`);
  // The pending sign-in lasts 15 minutes: the page must not promise an hour.
  await expect(hint).not.toContainText("1 heure");
  await expect(hint).toContainText(
    /^Saisissez-le avant \d{2}:\d{2}:\d{2} : une connexion en attente expire 15 minutes après le mot de passe\./,
  );
  await expectAccessible(page, "sign-in code, its time said");
  await expect(field).toHaveAttribute("aria-required", "true");
  await field.fill(await latestCodeFor(page.request, MARIE));
  await page.getByRole("button", { name: "Valider le code" }).click();
  await cardPath(page);
});

test("finding 8: with no type chosen, the summary link leads to the first type still available", async ({ page }) => {
  await signIn(page, MARIE);
  await page.goto(`${await cardPath(page)}/new-card`);
  const panel = page.getByRole("dialog", { name: "Créer une carte" });
  // Acme France has no physical licence left: that radio is disabled.
  await expect(panel.getByRole("radio", { name: "Carte physique" })).toBeDisabled();
  await panel.getByRole("button", { name: "Continuer" }).click();
  const link = page.getByRole("link", { name: "Choisissez le type de carte : physique ou virtuelle" });
  await expect(link).toHaveAttribute("href", "#card-type-virtual");
  // Finding 11 in the shared radios: the group keeps its hint with the error, and is marked invalid.
  const group = panel.getByRole("group", { name: "Quel type de carte souhaitez-vous créer ?" });
  expect(await describedBy(group)).toEqual(["card-type-hint", "card-type-error"]);
  await expect(group).toHaveAttribute("aria-invalid", "true");
  await expectAccessible(page, "new card, no type chosen");

  await link.click();
  const virtual = panel.getByRole("radio", { name: "Carte virtuelle" });
  if (jsOn()) await expect(virtual).toBeFocused();
  else await expect(page).toHaveURL(/#card-type-virtual$/);
  await expect(virtual).toBeEnabled();
  // The summary and the inline error stay to be read.
  await expect(link).toBeVisible();
  await expect(panel.locator("#card-type-error")).toHaveText(
    "Erreur : Choisissez le type de carte : physique ou virtuelle",
  );
});

test("finding 9: a wrong total is an error of the amounts' group, which its summary link leads to", async ({
  page,
}) => {
  await signIn(page, MARIE);
  await page
    .getByRole("listitem")
    .filter({ hasText: "Le Bistrot des Halles" })
    .getByRole("link", { name: /Changer les moyens de paiement/ })
    .click();
  const group = page.getByRole("group", { name: "Répartissez 12,50 € entre vos portefeuilles" });
  await expect(group).not.toHaveAttribute("aria-invalid", /.*/);
  await page.getByLabel("Montant pris sur Titres-restaurant (€)").fill("1");
  await page.getByRole("button", { name: "Valider la répartition" }).click();
  const link = page.getByRole("link", { name: "Le total choisi doit être égal au montant de la transaction" });
  await expect(link).toHaveAttribute("href", "#switch-amounts");
  await expect(group).toHaveAttribute("id", "switch-amounts");
  await expect(group).toHaveAttribute("aria-invalid", "true");
  expect(await describedBy(group)).toEqual(["switch-total-error"]);
  await expect(page.locator("#switch-total-error")).toHaveText(
    "Erreur : Le total choisi doit être égal au montant de la transaction — Total choisi : 1,00 € sur 12,50 €.",
  );
  // No single amount is wrong: none is marked invalid.
  await expect(group.locator("input[aria-invalid]")).toHaveCount(0);
  await expectAccessible(page, "switch payment methods, wrong total");

  await link.click();
  if (jsOn()) await expect(page.getByLabel("Montant pris sur Titres-restaurant (€)")).toBeFocused();
  else await expect(page).toHaveURL(/#switch-amounts$/);
  await expect(link).toBeVisible();
});

test("finding 10: required fields are announced, with the sentence that says so", async ({ page }) => {
  await page.goto("/login");
  await expect(page.getByText("Tous les champs sont obligatoires sauf mention contraire.")).toBeVisible();
  await expect(page.getByLabel("Adresse e-mail")).toHaveAttribute("aria-required", "true");
  await expect(page.getByLabel("Mot de passe")).toHaveAttribute("aria-required", "true");
  await signIn(page, MARIE);
  const card = await cardPath(page);
  await page.goto("/settings/security");
  const form = page.locator("form").filter({ has: page.getByLabel("Mot de passe actuel") });
  await expect(form.getByText("Tous les champs sont obligatoires sauf mention contraire.")).toBeVisible();
  for (const input of await form.locator("input:not([type=hidden])").all())
    await expect(input).toHaveAttribute("aria-required", "true");
  await expectAccessible(page, "security, required fields");

  await page.goto(`${card}/unlock-pin`);
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByText("Tous les champs sont obligatoires sauf mention contraire.")).toBeVisible();
  const inputs = dialog.locator("form#unlock-pin input:not([type=hidden])");
  expect(await inputs.count()).toBeGreaterThan(1);
  for (const input of await inputs.all()) await expect(input).toHaveAttribute("aria-required", "true");
  await expectAccessible(page, "unlock PIN, required fields");
});

test("finding 11: the block panel's refused reason keeps its hint and marks the group invalid", async ({ page }) => {
  await signIn(page, MARIE);
  await page.goto(`${await cardPath(page)}/stop`);
  const panel = page.getByRole("dialog", { name: "Bloquer la carte" });
  const group = panel.getByRole("group", { name: "Pourquoi bloquez-vous cette carte ?" });
  expect(await describedBy(group)).toEqual(["stop-reason-hint"]);
  // Refused: no reason chosen, the card stays as it is.
  await panel.getByRole("button", { name: "Bloquer définitivement la carte" }).click();
  await expect(page).toHaveTitle(/^Erreur : Bloquer la carte/);
  const ids = await describedBy(group);
  expect(ids[0]).toBe("stop-reason-hint");
  expect(ids).toHaveLength(2);
  await expect(panel.locator(`#${ids[1]}`)).toContainText(/^Erreur :/);
  await expect(group).toHaveAttribute("aria-invalid", "true");
  await expectAccessible(page, "block, no reason");
  // Finding 10: a choice is required (the form has noValidate: the server still decides).
  for (const radio of await group.getByRole("radio").all())
    expect(await radio.evaluate((r: HTMLInputElement) => r.required)).toBe(true);
});

test("finding 11: the overflow amount is a numeric text field; refused without JS, it is summarised", async ({
  page,
}) => {
  await signIn(page, MARIE);
  await page.goto(`${await cardPath(page)}/overflow`);
  const panel = page.getByRole("dialog");
  const amount = panel.getByRole("textbox", { name: "Montant maximal du dépassement (€)" });
  await expect(amount).toHaveAttribute("type", "text");
  await expect(amount).toHaveAttribute("inputmode", "numeric");
  if (jsOn()) {
    // The slider stays beside it with JS.
    await expect(panel.getByRole("slider")).toBeVisible();
    return;
  }
  const saved = await amount.inputValue();
  await amount.fill("cent");
  await panel.getByRole("button", { name: "Enregistrer le montant" }).click();
  const link = page.getByRole("link", { name: "Saisissez un montant en euros, par exemple 80" });
  await expect(link).toHaveAttribute("href", "#overflow-amount");
  await expect(amount).toHaveAttribute("aria-invalid", "true");
  await expect(amount).toHaveValue("cent");
  await expectAccessible(page, "overflow amount refused, no JS");
  expect(saved).toMatch(/^\d+$/);
});
