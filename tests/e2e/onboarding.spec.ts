import { expect, test } from "./fixtures";
import { expectAccessible, submitPassword } from "./helpers";

/**
 * Spec 001 §2.3: a newcomer like the demo's lucas (no profile, no card, no second factor, a physical
 * and a virtual card licence) completes his profile, creates his physical card and waits for it. One
 * journey (the steps depend on each other), with JavaScript on and off, on an account of its own.
 */
test("a newcomer completes his profile, creates a physical card with a PIN and a Lyon address, waits, reaches his card", async ({
  page,
  makeAccount,
}) => {
  test.setTimeout(90_000);
  const lucas = await makeAccount({ profile: false, mfa: null, freeLicences: ["physical_card", "virtual_card"] });
  const LUCAS = lucas.email;
  await page.goto("/login");
  await submitPassword(page, LUCAS);
  await expect(page).toHaveURL(/\/onboarding$/);
  await expect(page).toHaveTitle("Vos informations – Portail Avantages");
  const steps = page.getByRole("list", { name: "Étapes de l’inscription" });
  await expect(steps.locator("[aria-current=step]")).toContainText("Vos informations");
  await expect(page.getByRole("button", { name: "Se déconnecter" })).toBeVisible();
  await expectAccessible(page, "onboarding, profile");

  // Step 0 refused: every field says what is wrong, on the field.
  await page.getByLabel("Prénom").fill("L");
  await page.getByLabel("Téléphone mobile").fill("06 11 22");
  await page.getByRole("button", { name: "Continuer" }).click();
  await expect(page).toHaveTitle("Erreur : Vos informations – Portail Avantages");
  await expect(page.getByRole("link", { name: "Saisissez au moins 2 lettres" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Saisissez votre nom" })).toBeVisible();
  await expect(
    page.getByRole("link", { name: "Le numéro de téléphone doit comporter au moins 10 caractères" }),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: /Acceptez les conditions générales/ })).toBeVisible();
  await expect(page.getByLabel("Prénom")).toHaveAttribute("aria-invalid", "true");
  await expectAccessible(page, "onboarding, profile refused");

  await page.getByLabel("Prénom").fill("Lucas");
  await page.getByLabel("Nom", { exact: true }).fill("Bernard");
  await page.getByLabel("Téléphone mobile").fill("06 11 22 33 44");
  await page.getByLabel(/J’accepte les conditions générales/).check();
  await page.getByRole("button", { name: "Continuer" }).click();
  await expect(page).toHaveURL(/\/onboarding\/card$/);
  await expect(page.getByText("Vos informations sont enregistrées.")).toBeVisible();
  await expect(steps.locator("[aria-current=step]")).toContainText("Votre carte");

  // The wait screen gives up after more than 3 looks without a card: back to step 0.
  await page.goto("/onboarding/wait?attempt=4");
  await expect(page).toHaveURL(/\/onboarding$/);
  await expect(page.getByText(/Votre carte n’est pas encore prête/)).toBeVisible();
  await expect(page.getByLabel("Prénom")).toHaveValue("Lucas");
  await page.getByRole("button", { name: "Continuer" }).click();
  await expect(page).toHaveURL(/\/onboarding\/card$/);

  // Step 1: one funder (no select), both types with their licence.
  await expect(page.getByText("Financeur de la carte : Acme France")).toBeVisible();
  await expect(page.getByRole("group", { name: "Quel type de carte souhaitez-vous créer ?" })).toBeVisible();
  await expect(page.getByRole("radio", { name: "Carte physique" })).toBeEnabled();
  await expectAccessible(page, "onboarding, card type");
  await page.getByRole("radio", { name: "Carte physique" }).check();
  await page.getByRole("button", { name: "Continuer" }).click();

  // Step 2: the PIN.
  await expect(page).toHaveURL(/\/onboarding\/card\?step=pin&request=creq_/);
  await expect(page.getByRole("heading", { name: "Étape 2 sur 4 : Code PIN" })).toBeVisible();
  await page.getByLabel("Code PIN", { exact: true }).fill("25a0");
  await page.getByLabel("Confirmez le code PIN").fill("25a0");
  await page.getByRole("button", { name: "Continuer" }).click();
  await expect(page.getByRole("link", { name: "Le code PIN doit comporter exactement 4 chiffres" })).toBeVisible();
  await expect(page.getByLabel("Code PIN", { exact: true })).toHaveValue("");
  await expectAccessible(page, "onboarding, PIN refused");
  await page.getByLabel("Code PIN", { exact: true }).fill("2580");
  await page.getByLabel("Confirmez le code PIN").fill("2580");
  await page.getByRole("button", { name: "Continuer" }).click();

  // Back and forward keep the answers: the type stays chosen, the PIN is kept when left empty.
  await expect(page.getByRole("heading", { name: "Étape 3 sur 4 : Adresse de livraison" })).toBeVisible();
  await page.getByRole("link", { name: "Étape précédente" }).click();
  await expect(
    page.getByText("Un code PIN est déjà choisi. Laissez les deux champs vides pour le garder."),
  ).toBeVisible();
  await page.getByRole("link", { name: "Étape précédente" }).click();
  await expect(page.getByRole("radio", { name: "Carte physique" })).toBeChecked();
  await page.getByRole("button", { name: "Continuer" }).click();
  await expect(page.getByRole("heading", { name: "Étape 2 sur 4 : Code PIN" })).toBeVisible();
  await page.getByRole("button", { name: "Continuer" }).click();

  // Step 3: "rue de la Paix" has no street number.
  await expect(page.getByRole("heading", { name: "Étape 3 sur 4 : Adresse de livraison" })).toBeVisible();
  await expect(page.getByLabel("Pays")).toHaveValue("FR");
  await expectAccessible(page, "onboarding, address");
  await page.getByLabel("Numéro et rue").fill("rue de la Paix");
  await page.getByLabel("Code postal").fill("69002");
  await page.getByLabel("Ville").fill("Lyon");
  await page.getByRole("button", { name: "Continuer" }).click();
  await expect(page.getByRole("link", { name: "Veuillez ajouter le numéro de rue" })).toBeVisible();
  await expect(page.getByLabel("Numéro et rue")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Ville")).toHaveValue("Lyon");
  await expectAccessible(page, "onboarding, address refused");
  await page.getByLabel("Numéro et rue").fill("12 rue de la République");
  await page.getByRole("button", { name: "Continuer" }).click();

  // Step 4: the summary, then the card is asked for.
  await expect(page.getByRole("heading", { name: "Étape 4 sur 4 : Récapitulatif" })).toBeVisible();
  await expect(page.getByText("12 rue de la République")).toBeVisible();
  await expect(page.getByText("69002 Lyon")).toBeVisible();
  await expect(page.getByText("Choisi (caché)")).toBeVisible();
  await expectAccessible(page, "onboarding, summary");
  await page.getByRole("button", { name: "Créer ma carte" }).click();

  // Step 2 of onboarding: the wait screen, then "Tout est prêt" (the sandbox issuer takes 3 s). With JS the
  // page looks again every 4 s; without it, it reloads itself every 20 s (decision 0067), so the journey
  // follows « Vérifier maintenant », as a person who does not want to wait would.
  await expect(page).toHaveURL(/\/onboarding\/wait/);
  await expect(page.getByRole("heading", { name: "Presque terminé" })).toBeVisible();
  await expectAccessible(page, "onboarding, waiting");
  const ready = page.getByRole("dialog", { name: "Tout est prêt" });
  await expect(async () => {
    const check = page.getByRole("link", { name: "Vérifier maintenant" });
    if (await check.isVisible()) await check.click();
    await expect(ready).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000, intervals: [2_000] });
  await expect(page).toHaveURL(/\/onboarding\/wait\?attempt=[1-3]$/);
  await expectAccessible(page, "onboarding, ready");
  await ready.getByRole("link", { name: "Voir ma carte" }).click();

  // Onboarded without a second factor: the portal holds him until he sets one up (spec 001 §4, §6).
  await expect(page).toHaveURL(/\/secure-account\/second-factor$/);
  await expect(page.getByRole("heading", { name: "Comment voulez-vous recevoir vos codes ?" })).toBeVisible();
  await expectAccessible(page, "secure account, choice");
  await page.goto("/cards");
  await expect(page).toHaveURL(/\/secure-account\/second-factor$/);
  await page.getByRole("link", { name: "Activer par e-mail" }).click();
  await expect(
    page.getByText(`Vos codes de connexion et de sécurité seront envoyés à l’adresse ${LUCAS}.`),
  ).toBeVisible();
  await expectAccessible(page, "secure account, confirm e-mail");
  await page.getByRole("button", { name: "Confirmer" }).click();

  await expect(page).toHaveURL(/\/cards\/card_[\w-]+$/);
  await expect(page.getByText("La double authentification est activée. Votre compte est sécurisé.")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Carte physique •••• \d{4}$/);
  await expect(page.getByText("Carte en préparation : elle n’est pas encore expédiée.")).toBeVisible();
  // Onboarded now: onboarding sends him to his cards, and the card step too.
  await page.goto("/onboarding");
  await expect(page).toHaveURL(/\/cards\/card_/);
  await page.goto("/onboarding/card");
  await expect(page).toHaveURL(/\/cards\/card_/);

  // Its forms are refused now (a stale tab, or a forged post): names and phone stay as they are.
  const origin = new URL(page.url()).origin;
  const forged = "firstName=Eve&lastName=Attacker&phoneCountry=FR&phone=07+00+00+00+66&terms=on";
  await page.route("**/onboarding?index", (route) =>
    route.continue({
      method: "POST",
      postData: forged,
      headers: { ...route.request().headers(), origin, "content-type": "application/x-www-form-urlencoded" },
    }),
  );
  const refused = await page.goto("/onboarding?index");
  expect(refused?.status()).toBe(403);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Action impossible");
  await expect(page.getByText(/Votre inscription est déjà terminée/)).toBeVisible();
  await expect(page).toHaveTitle("Action impossible – Portail Avantages");
  await expectAccessible(page, "onboarding refused once onboarded");
  await page.unrouteAll();
  await page.goto("/settings/profile");
  await expect(page.getByText("Bernard", { exact: true })).toBeVisible();
  await expect(page.getByText("Attacker")).toHaveCount(0);
});
