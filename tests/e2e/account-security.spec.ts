import { randomInt } from "node:crypto";
import { expect, test } from "./fixtures";
import { expectAccessible, latestCodeFor, submitPassword, wrongCodeFor } from "./helpers";

/**
 * Spec 001 §4 pending-change and MFA-required steps, §6 bypassMFA: an account like the demo's paul
 * (no second factor, no bypass, a phone change awaiting its code) is held until both are settled.
 * The account is this test's own, signed in through the real forms.
 */
const CHANGE_SUBJECT = "Confirmez votre nouveau numéro";

test("a cardholder confirms his pending phone change with the code from the outbox, sets up MFA by SMS and reaches his card", async ({
  page,
  makeAccount,
}) => {
  // A number of its own (ending in 00 01, as the masked display below expects).
  const NEW_PHONE = `+337${String(randomInt(0, 10_000)).padStart(4, "0")}0001`;
  const paul = await makeAccount({
    mfa: null,
    pendingPhone: NEW_PHONE,
    cards: [{ type: "physical", lastFour: "3005" }],
  });
  await page.goto("/login");
  await submitPassword(page, paul.email);

  // The pending change comes first.
  await expect(page).toHaveURL(/\/secure-account\/pending\/phone$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sécurisez votre compte");
  await expect(page.getByRole("heading", { name: "Confirmez votre nouveau numéro" })).toBeVisible();
  await expect(page.getByText(NEW_PHONE)).toBeVisible();
  await expect(page).toHaveTitle("Confirmez votre nouveau numéro – Portail Avantages");
  await expectAccessible(page, "secure account, pending change");

  // Nothing else opens meanwhile: every signed-in page leads back here.
  await page.goto("/cards");
  await expect(page).toHaveURL(/\/secure-account\/pending\/phone$/);
  await page.goto("/settings/security");
  await expect(page).toHaveURL(/\/secure-account\/pending\/phone$/);

  // The code the portal sent to the new number when paul asked for the change (the demo seed did).
  const code = await latestCodeFor(page.request, NEW_PHONE, CHANGE_SUBJECT);
  const wrong = wrongCodeFor(code);
  await page.getByLabel("Code à 6 chiffres").fill(wrong);
  await page.getByRole("button", { name: "Confirmer le changement" }).click();
  await expect(page.getByRole("link", { name: "Ce code est incorrect. Vérifiez-le et réessayez" })).toBeVisible();
  await expect(page.getByLabel("Code à 6 chiffres")).toHaveValue("");
  await expect(page).toHaveTitle(/^Erreur : /);
  await expectAccessible(page, "secure account, wrong code");

  await page.getByLabel("Code à 6 chiffres").fill(code.replace(/(\d{3})/, "$1 "));
  await page.getByRole("button", { name: "Confirmer le changement" }).click();

  // Then the second factor, which cannot be skipped.
  await expect(page).toHaveURL(/\/secure-account\/second-factor$/);
  await expect(page.getByText("Le changement est confirmé.")).toBeVisible();
  await expect(page.getByText(NEW_PHONE)).toBeVisible();
  await expect(page.getByText("Recommandé", { exact: true })).toBeVisible();
  await expectAccessible(page, "secure account, choose a channel");
  await page.goto("/wallets");
  await expect(page).toHaveURL(/\/secure-account\/second-factor$/);

  await page.getByRole("link", { name: "Activer par SMS" }).click();
  await expect(page).toHaveURL(/\/secure-account\/second-factor\?channel=SMS$/);
  await expect(
    page.getByText(`Vos codes de connexion et de sécurité seront envoyés par SMS au ${NEW_PHONE}.`),
  ).toBeVisible();
  await expectAccessible(page, "secure account, confirm SMS");
  await page.getByRole("button", { name: "Confirmer" }).click();

  await expect(page).toHaveURL(/\/cards\/card_[\w-]+$/);
  await expect(page.getByText("La double authentification est activée. Votre compte est sécurisé.")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Carte physique •••• 3005");
  await expectAccessible(page, "his card");

  // Once set up, the step is gone; his next sign-in asks for a code sent by SMS to the new number.
  await page.goto("/secure-account");
  await expect(page).toHaveURL(/\/cards/);
  await page.context().clearCookies();
  await page.goto("/login");
  await submitPassword(page, paul.email);
  await expect(page).toHaveURL(/\/login\/code$/);
  await expect(page.getByText(/•• •• •• 00 01 \(par SMS\)/)).toBeVisible();
  await page.getByLabel("Code à 6 chiffres").fill(await latestCodeFor(page.request, NEW_PHONE));
  await page.getByRole("button", { name: "Valider le code" }).click();
  await expect(page).toHaveURL(/\/cards/);
});
