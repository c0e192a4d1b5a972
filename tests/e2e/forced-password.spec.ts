import { expect, test } from "./fixtures";
import { expectAccessible, submitPassword } from "./helpers";

/**
 * Spec 001 §2.1 `/force-change-password`: an account like the demo's sophie, given a temporary password
 * (the demo one), chooses her own first. The account is the test's own: its password changes.
 */
const OWN_PASSWORD = "Mon-Propre2mdp!";

test("a newcomer with a temporary password must choose her own before anything else, then is signed in", async ({
  page,
  makeAccount,
}) => {
  const SOPHIE = (await makeAccount({ profile: false, mfa: null, passwordChangeRequired: true })).email;
  // Nothing to do there without a sign-in waiting for it.
  await page.goto("/force-change-password");
  await expect(page).toHaveURL(/\/login$/);

  await submitPassword(page, SOPHIE);
  await expect(page).toHaveURL(/\/force-change-password$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Choisissez votre mot de passe");
  await expectAccessible(page, "force change password");
  // Not signed in yet: the portal still sends her to sign in.
  await page.goto("/cards");
  await expect(page).toHaveURL(/\/login/);
  await page.goto("/force-change-password");

  await page.getByLabel("Nouveau mot de passe", { exact: true }).fill(OWN_PASSWORD);
  await page.getByLabel("Confirmez le nouveau mot de passe").fill("Mon-Propre2mdp?");
  await page.getByRole("button", { name: "Enregistrer mon mot de passe" }).click();
  await expect(
    page.getByRole("link", { name: "Les deux nouveaux mots de passe ne sont pas identiques" }),
  ).toBeVisible();
  await expectAccessible(page, "force change password, mismatch");

  await page.getByLabel("Nouveau mot de passe", { exact: true }).fill(OWN_PASSWORD);
  await page.getByLabel("Confirmez le nouveau mot de passe").fill(OWN_PASSWORD);
  await page.getByRole("button", { name: "Enregistrer mon mot de passe" }).click();
  // Signed in; not onboarded yet, so onboarding comes next.
  await expect(page).toHaveURL(/\/onboarding$/);
  await expect(page.getByText("Votre mot de passe est enregistré. Vous êtes connecté.")).toBeVisible();
  await expectAccessible(page, "onboarding after the forced change");

  // The temporary password is gone.
  await page.context().clearCookies();
  await page.goto("/login");
  await submitPassword(page, SOPHIE);
  await expect(
    page.getByRole("link", { name: "L’adresse e-mail ou le mot de passe est incorrect" }).first(),
  ).toBeVisible();
  await submitPassword(page, SOPHIE, OWN_PASSWORD);
  await expect(page).toHaveURL(/\/onboarding$/);
});
