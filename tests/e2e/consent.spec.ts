import { expect, test } from "./fixtures";
import { expectAccessible } from "./helpers";

/**
 * Issue 16 §8: /cookies explains the cookies and records a real choice, refused by default, changeable at
 * any time from the footer; a forged value is refused with a French message and changes nothing.
 */
test("a visitor sees the explanation and no choice to make before signing in", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("contentinfo").getByRole("link", { name: "Gestion des cookies" }).click();
  await expect(page).toHaveURL(/\/cookies$/);
  await expect(page.getByRole("heading", { level: 1, name: "Cookies" })).toBeVisible();
  await expect(page.getByText(/seuls les cookies strictement nécessaires sont utilisés/)).toBeVisible();
  await expect(page.getByRole("radio")).toHaveCount(0);
  await expectAccessible(page, "cookies, signed out");
});

test("marie accepts then refuses analytics from the footer's link; her choice is kept", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  const account = await makeAccount({ cards: [{ type: "physical", lastFour: "4242" }] });
  await signInAs(page, account);
  await page.goto("/cards");
  await page.getByRole("contentinfo").getByRole("link", { name: "Gestion des cookies" }).click();
  await expect(page).toHaveURL(/\/cookies$/);
  // Refused by default: nothing chosen yet.
  await expect(page.getByText(/Vous n’avez pas encore fait de choix/)).toBeVisible();
  const analytics = page.getByRole("group", { name: "Mesure d’audience et questionnaire" });
  const tags = page.getByRole("group", { name: "Gestionnaire de balises" });
  await expect(analytics.getByRole("radio", { name: "J’accepte" })).not.toBeChecked();
  await expectAccessible(page, "cookies, never chosen");

  // Saving with no answer: the French error summary, nothing recorded.
  await page.getByRole("button", { name: "Enregistrer mon choix" }).click();
  await expect(page.getByRole("link", { name: "Choisissez « J’accepte » ou « Je refuse »." }).first()).toBeVisible();
  await expectAccessible(page, "cookies, no answer");

  await analytics.getByRole("radio", { name: "J’accepte" }).check();
  await tags.getByRole("radio", { name: "Je refuse" }).check();
  await page.getByRole("button", { name: "Enregistrer mon choix" }).click();
  await expect(page.getByText("Votre choix est enregistré.")).toBeVisible();
  await expect(page.getByText(/mesure d’audience acceptée, gestionnaire de balises refusé/)).toBeVisible();
  await expect(analytics.getByRole("radio", { name: "J’accepte" })).toBeChecked();
  await expectAccessible(page, "cookies, analytics accepted");

  await page.reload();
  await analytics.getByRole("radio", { name: "Je refuse" }).check();
  await page.getByRole("button", { name: "Enregistrer mon choix" }).click();
  await expect(page.getByText(/mesure d’audience refusée, gestionnaire de balises refusé/)).toBeVisible();
  await expect(analytics.getByRole("radio", { name: "Je refuse" })).toBeChecked();
});

test("a forged consent value is a 400 with a French message, and changes nothing", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  const account = await makeAccount();
  await signInAs(page, account);
  const response = await page.request.post("/cookies", { form: { analytics: "yes-please", tagManager: "accept" } });
  expect(response.status()).toBe(400);
  expect(await response.text()).toContain("Choisissez « J’accepte » ou « Je refuse ».");
  await page.goto("/cookies");
  await expect(page.getByText(/Vous n’avez pas encore fait de choix/)).toBeVisible();
});
