import { expect, test } from "./fixtures";
import { listRecordedEvents } from "../../app/.server/providers/analytics/sandbox";
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

test("the survey: refused until analytics is accepted, then a blank or 10 KB answer refused, an answer sent", async ({
  page,
  makeAccount,
  signInAs,
  e2eDatabase,
}) => {
  test.setTimeout(60_000);
  const account = await makeAccount({ cards: [{ type: "physical", lastFour: "4242" }] });
  await signInAs(page, account);
  await page.goto("/cards");
  await page.locator("summary", { hasText: "Mon compte" }).click();
  await page.getByRole("link", { name: "Donner mon avis" }).click();
  await expect(page).toHaveURL(/\/feedback$/);
  // No consent yet: no survey fetched, no event, a way to the choice.
  await expect(page.getByText("Pour répondre au questionnaire, acceptez d’abord la mesure d’audience.")).toBeVisible();
  await expectAccessible(page, "feedback, no consent");
  expect(await listRecordedEvents(e2eDatabase.handle.db, account.userId)).toEqual([]);

  await page.getByRole("link", { name: "Choisir sur la page Cookies" }).click();
  await page
    .getByRole("group", { name: "Mesure d’audience et questionnaire" })
    .getByRole("radio", { name: "J’accepte" })
    .check();
  await page.getByRole("group", { name: "Gestionnaire de balises" }).getByRole("radio", { name: "Je refuse" }).check();
  await page.getByRole("button", { name: "Enregistrer mon choix" }).click();
  await expect(page.getByText("Votre choix est enregistré.")).toBeVisible();

  await page.goto("/feedback");
  const answer = page.getByLabel("Que pourrions-nous améliorer dans le portail ?");
  await expect(answer).toBeVisible();
  await expectAccessible(page, "feedback, the survey");
  await answer.fill("   ");
  await page.getByRole("button", { name: "Envoyer" }).click();
  await expect(page.getByRole("link", { name: "Écrivez votre réponse." })).toBeVisible();
  await expectAccessible(page, "feedback, blank answer");

  const tooLong = await page.request.post("/feedback", {
    form: { intent: "send", surveyId: "sandbox-survey", response: "a".repeat(10 * 1024) },
  });
  expect(tooLong.status()).toBe(400);
  expect(await tooLong.text()).toContain("Votre réponse ne doit pas dépasser 2 000 caractères.");

  await page.getByLabel("Que pourrions-nous améliorer dans le portail ?").fill("  Un mode sombre, merci.  ");
  await page.getByRole("button", { name: "Envoyer" }).click();
  await expect(page.getByText("Merci pour votre avis !")).toBeVisible();
  await expectAccessible(page, "feedback, sent");
  await page.getByRole("link", { name: "Fermer : Donner mon avis" }).click();
  await expect(page).toHaveURL(/\/cards\//);

  const events = await listRecordedEvents(e2eDatabase.handle.db, account.userId);
  expect(events.filter((e) => e.name === "survey sent").map((e) => e.properties)).toEqual([
    { surveyId: "sandbox-survey", response: "Un mode sombre, merci." },
  ]);
  expect(events.some((e) => e.name === "survey shown")).toBe(true);
});
