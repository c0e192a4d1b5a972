import { expect, test } from "./fixtures";
import { listRecordedEvents } from "../../app/.server/providers/analytics/sandbox";
import { getConsent } from "../../app/.server/services/analytics";
import { expectAccessible, signIn } from "./helpers";
import type { Page } from "@playwright/test";

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
  const response = await page.request.post("/cookies", {
    form: { intent: "save", analytics: "yes-please", tagManager: "accept" },
  });
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

/**
 * Issue 31 §6, decision 0059: the consent banner of a first visit, on public and signed-in pages, with
 * "Tout accepter" and "Tout refuser" as two equal buttons and "Personnaliser" leading to /cookies; a
 * plain form, so that each works without JavaScript (and in the light version), then the banner goes.
 */
test.describe("the consent banner", () => {
  test.use({ consentChosen: false, viewport: { width: 375, height: 740 } });

  const bannerOf = (page: Page) => page.getByRole("region", { name: "Cookies du portail" });

  /** The two choices: the same size, the same colours, on the same line (CNIL: refusing is as easy). */
  async function expectEqualChoices(page: Page) {
    const banner = bannerOf(page);
    const accept = banner.getByRole("button", { name: "Tout accepter" });
    const refuse = banner.getByRole("button", { name: "Tout refuser" });
    const [a, r] = [await accept.boundingBox(), await refuse.boundingBox()];
    expect(a && r).toBeTruthy();
    expect([Math.round(a!.width), Math.round(a!.height), Math.round(a!.y)]).toEqual([
      Math.round(r!.width),
      Math.round(r!.height),
      Math.round(r!.y),
    ]);
    const look = (button: typeof accept) =>
      button.evaluate((el) => {
        const style = getComputedStyle(el);
        return [style.backgroundColor, style.color, style.fontSize, style.fontWeight, style.borderColor];
      });
    expect(await look(accept)).toEqual(await look(refuse));
    // In the page's flow, not over it: nothing of the page is hidden under it on a phone.
    expect(await banner.evaluate((el) => getComputedStyle(el).position)).toBe("static");
  }

  test("a first visit to the sign-in page: the banner; « Tout refuser » records it and the banner goes", async ({
    page,
    makeAccount,
    e2eDatabase,
  }) => {
    await page.goto("/login");
    await expect(bannerOf(page)).toBeVisible();
    await expect(bannerOf(page).getByRole("heading", { level: 2, name: "Cookies du portail" })).toBeVisible();
    await expectEqualChoices(page);
    await expectAccessible(page, "sign-in, consent banner");
    // First in the keyboard's order, before the skip link, and no trap: Tab goes on into the page.
    for (const name of ["Tout accepter", "Tout refuser", "Personnaliser", "Aller au contenu"]) {
      await page.keyboard.press("Tab");
      await expect(page.locator(":focus"), name).toHaveAccessibleName(new RegExp(`^${name}`));
    }

    await bannerOf(page).getByRole("button", { name: "Tout refuser" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText("Votre choix est enregistré.")).toBeVisible();
    await expect(bannerOf(page)).toHaveCount(0);
    await expectAccessible(page, "sign-in, choice recorded");
    await page.reload();
    await expect(bannerOf(page)).toHaveCount(0);

    // Signing in: the account takes the browser's choice, and no banner asks again.
    const account = await makeAccount({ cards: [{ type: "physical", lastFour: "4242" }] });
    await signIn(page, account.email);
    await expect(bannerOf(page)).toHaveCount(0);
    const consent = await getConsent(e2eDatabase.handle.db, account.userId);
    expect({ analytics: consent.analytics, tagManager: consent.tagManager }).toEqual({
      analytics: false,
      tagManager: false,
    });
    expect(consent.decidedAt).not.toBeNull();
  });

  test("signed in: no analytics before the choice, « Tout accepter » records it for the account", async ({
    page,
    makeAccount,
    signInAs,
    e2eDatabase,
  }) => {
    const account = await makeAccount({ cards: [{ type: "physical", lastFour: "4242" }] });
    await signInAs(page, account);
    await page.goto("/cards");
    const cardPage = page.url();
    await expect(bannerOf(page)).toBeVisible();
    await expectEqualChoices(page);
    await expectAccessible(page, "cards, consent banner");
    // Pages seen before the choice: nothing recorded, no tag manager in the page.
    await page.goto("/wallets");
    await page.goto("/cards");
    expect(await listRecordedEvents(e2eDatabase.handle.db, account.userId)).toEqual([]);
    await expect(page.locator("script", { hasText: "dataLayer" })).toHaveCount(0);

    await bannerOf(page).getByRole("button", { name: "Tout accepter" }).click();
    await expect(page).toHaveURL(cardPage);
    await expect(page.getByText("Votre choix est enregistré.")).toBeVisible();
    await expect(bannerOf(page)).toHaveCount(0);
    await expectAccessible(page, "cards, choice recorded");
    await page.goto("/cookies");
    await expect(page.getByText(/mesure d’audience acceptée, gestionnaire de balises accepté/)).toBeVisible();
  });

  test("« Personnaliser » leads to /cookies, where the banner is not shown", async ({ page }) => {
    await page.goto("/lost-password");
    await bannerOf(page).getByRole("link", { name: "Personnaliser" }).click();
    await expect(page).toHaveURL(/\/cookies$/);
    await expect(page.getByRole("heading", { level: 1, name: "Cookies" })).toBeVisible();
    await expect(bannerOf(page)).toHaveCount(0);
    await expectAccessible(page, "cookies from the banner");
  });

  test("the light version (Save-Data) shows the banner as a plain form, which works", async ({ page }) => {
    await page.setExtraHTTPHeaders({ "Save-Data": "on" });
    await page.goto("/lost-password");
    await expect(bannerOf(page)).toBeVisible();
    expect(await page.locator("script").count()).toBe(0);
    await bannerOf(page).getByRole("button", { name: "Tout accepter" }).click();
    await expect(page).toHaveURL(/\/lost-password$/);
    await expect(bannerOf(page)).toHaveCount(0);
  });
});
