import { expect, test } from "./fixtures";
import { expectAccessible } from "./helpers";

/**
 * Spec 001 §2.1 `/activate/:token?email=`: an invitation like the demo's nina's, to an account of the
 * test's own (its link is in /dev/outbox, as the seed's is).
 */
test("an invited employee activates her account from the invitation link, once", async ({ page, makeAccount }) => {
  const NINA = (await makeAccount({ invited: true, mfa: null })).email;
  const html = (await (await page.request.get("/dev/outbox")).text()).replace(/&amp;/g, "&");
  const message = html
    .split('class="outbox__message"')
    .slice(1)
    .find((m) => m.includes(NINA) && m.includes("Activez votre compte avantages"));
  const found = message && /https?:\/\/[^\s<"]+\/activate\/[^\s<"]+/.exec(message);
  expect(found, "the invitation is in the outbox").toBeTruthy();
  const link = new URL(found![0]);
  const path = link.pathname + link.search;

  // The same link for another address says the same as a spent one.
  const other = await page.goto(`${link.pathname}?email=${encodeURIComponent("marie.martin@example.com")}`);
  expect(other?.status()).toBe(410);
  await expect(page.getByText(/Ce lien d’activation n’est pas valable/)).toBeVisible();

  await page.goto(path);
  await expect(page).toHaveTitle("Activer mon compte – Portail Avantages");
  await expect(page.getByText(NINA)).toBeVisible();
  await expectAccessible(page, "activation");

  await page.getByRole("button", { name: "Terminer l’activation" }).click();
  await expect(page).toHaveTitle(/^Erreur : Activer mon compte/);
  await expect(page.getByRole("link", { name: "Saisissez votre nom" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Saisissez le nouveau mot de passe" })).toBeVisible();
  await expect(page.getByRole("link", { name: /Acceptez les conditions générales/ })).toBeVisible();
  await expectAccessible(page, "activation refused");

  await page.getByLabel("Nom", { exact: true }).fill("Roux");
  await page.getByLabel("Prénom").fill("Nina");
  await page.getByLabel("Téléphone mobile").fill("06 22 33 44 55");
  await page.getByLabel("Mot de passe", { exact: true }).fill("Premier-Mot2passe");
  await page.getByLabel("Confirmez le mot de passe").fill("Premier-Mot2passe");
  await page.getByLabel(/J’accepte les conditions générales/).check();
  await page.getByRole("button", { name: "Terminer l’activation" }).click();

  // Signed in, and on to her first card.
  await expect(page).toHaveURL(/\/onboarding$/);
  await expect(page.getByLabel("Prénom")).toHaveValue("Nina");

  const again = await page.request.get(path);
  expect(again.status()).toBe(410);
});
