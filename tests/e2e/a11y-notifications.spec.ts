import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectAccessible } from "./helpers";

/**
 * Issue 34's findings on the notification centre, the support and feedback forms, a dead receipt link and the
 * establishment suggestion, as a keyboard and screen-reader user meets them (JS on and off): « Voir plus » lands
 * on the first new notification (RGAA 12.8), every action of the panel names its notification (11.9), an h1 on
 * the dialog routes loaded directly (9.1), a title without « Erreur : » once a refused submission has been
 * followed by an accepted one (8.6), a real 404 page for a receipt that is gone (8.3, 8.5, 9.1), and no autofill
 * of the person's own data into a shop's fields (11.13).
 */

/** An account through onboarding (a card): the signed-in pages open, not the welcome steps. */
const ONBOARDED = { cards: [{ type: "physical" as const, lastFour: "4242" }] };
/** Text as a screen reader gets it: any run of spaces (the amounts' narrow no-break ones too) as one. */
const spoken = (text: string | null) => (text ?? "").replace(/\s+/g, " ").trim();

/** These words as a regular expression, whatever the spaces between them. */
const spaced = (words: string) => words.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "\\s+");

const items = (page: Page) => page.locator(".notification-centre__list > li");

test("« Voir plus »: the first new notification is where the person lands, and the count is said (RGAA 12.8)", async ({
  page,
  makeMarie,
  signInAs,
  javaScriptEnabled,
}) => {
  // marie's copy has 20 notifications: 15 on the first page, 5 more behind « Voir plus ».
  const marie = await makeMarie();
  await signInAs(page, marie);
  await page.goto(`/cards/${marie.cards["4242"]}`);
  await page
    .getByRole("link", { name: /^Notifications/ })
    .first()
    .click();
  await expect(items(page)).toHaveCount(15);

  const more = page.getByRole("link", { name: "Voir plus" });
  await more.focus();
  await page.keyboard.press("Enter");
  await expect(items(page)).toHaveCount(20);
  const firstNew = items(page).nth(15);
  // The address names the first new notification: a bookmark or a reload lands there too.
  const id = await firstNew.getAttribute("id");
  expect(id).toMatch(/^notification-/);
  await expect(page).toHaveURL(new RegExp(`#${id}$`));
  if (javaScriptEnabled) {
    // Focus on the first new one (not the panel's heading, 15 entries above), and the count in a live region.
    await expect(firstNew).toBeFocused();
    await expect(page.getByRole("dialog").getByRole("status")).toContainText([
      "5 notifications de plus, à la suite de la liste.",
    ]);
  } else {
    // The browser opened the longer page at the fragment, not at its top.
    await expect(firstNew).toBeInViewport();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  }
  // The next Tab goes on from there: the first new notification's own link, not the top of the page.
  await page.keyboard.press("Tab");
  await expect(firstNew.getByRole("link").first()).toBeFocused();
  await expectAccessible(page, "notification centre after « Voir plus »");
});

test("every « Supprimer » and « Marquer comme non lue » of the panel is named with its notification (RGAA 11.9)", async ({
  page,
  makeMarie,
  signInAs,
}) => {
  const marie = await makeMarie();
  await signInAs(page, marie);
  await page.goto("/notifications?back=%2Fcards&page=2");
  await expect(items(page)).toHaveCount(20);
  // No bare name left: a screen reader's list of buttons tells them apart.
  await expect(page.getByRole("button", { name: "Supprimer", exact: true })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Marquer comme non lue", exact: true })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Marquer comme lue", exact: true })).toHaveCount(0);
  for (const entry of await items(page).all()) {
    const sentence = spoken(await entry.locator(".notification__text").innerText()).replace(/^Non lue /, "");
    // Read ones also offer « Marquer comme non lue » (with JS, more become read as they are seen): every button
    // of the entry carries its sentence in its name.
    const buttons = entry.getByRole("button");
    const named = spaced(`la notification « ${sentence} »`);
    await expect(buttons.last()).toHaveAccessibleName(new RegExp(`^Supprimer\\s+${named}$`));
    for (const button of await buttons.all())
      await expect(button).toHaveAccessibleName(new RegExp(`^(Supprimer|Marquer\\s+comme\\s+non\\s+lue)\\s+${named}$`));
  }
});

test("the notification centre and the feedback survey loaded directly have one h1 (RGAA 9.1)", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  const account = await makeAccount(ONBOARDED);
  await signInAs(page, account);
  await page.goto("/notifications?back=%2Fcards");
  await expect(page.locator("h1")).toHaveCount(1);
  await expect(page.locator("h1")).toHaveText("Notifications");
  await expectAccessible(page, "notification centre loaded directly");
  await page.goto("/feedback");
  await expect(page.locator("h1")).toHaveCount(1);
  await expect(page.locator("h1")).toHaveText("Donner mon avis");
  await expectAccessible(page, "feedback loaded directly");
});

/**
 * The form's « Envoyer » with nothing written, then with an answer: the title says « Erreur : » for the refusal only,
 * and nothing of it is left once the answer is accepted (no error summary, no field marked invalid).
 */
async function refusedThenAccepted(page: Page, form: { title: string; label: string; answer: string; thanks: string }) {
  const send = page.getByRole("button", { name: "Envoyer", exact: true });
  await send.click();
  await expect(page).toHaveTitle(new RegExp(`^Erreur : ${form.title} – `));
  await page.getByLabel(form.label).fill(form.answer);
  await send.click();
  await expect(page.getByText(form.thanks)).toBeVisible();
  await expect(page).toHaveTitle(new RegExp(`^${form.title} – `));
  await expect(page.locator(".error-summary")).toHaveCount(0);
  await expect(page.locator("[aria-invalid=true]")).toHaveCount(0);
  await expectAccessible(page, `${form.title}: accepted after a refusal`);
}

test("support and feedback: after a refused then an accepted submission the title no longer says « Erreur : » (RGAA 8.6)", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  const account = await makeAccount(ONBOARDED);
  await signInAs(page, account);
  await page.goto("/support?back=%2Fcards");
  await refusedThenAccepted(page, {
    title: "Aide",
    label: "Votre message",
    answer: "Bonjour, ma carte est-elle bien envoyée ?",
    thanks: "Message envoyé.",
  });
  // The feedback survey, once analytics is accepted (as the cookies page records it).
  const consent = await page.request.post("/cookies", {
    form: { intent: "save", analytics: "accept", tagManager: "refuse" },
  });
  expect(consent.ok()).toBe(true);
  await page.goto("/feedback");
  await refusedThenAccepted(page, {
    title: "Donner mon avis",
    label: "Que pourrions-nous améliorer dans le portail ?",
    answer: "Un mode sombre.",
    thanks: "Merci pour votre avis !",
  });
});

test("a dead receipt link answers a French 404 page: HTML, a title, lang, an h1 (RGAA 8.3, 8.5, 9.1)", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  const account = await makeAccount(ONBOARDED);
  await signInAs(page, account);
  const response = await page.goto("/plans/expense-requests/receipts/file_gone");
  expect(response?.status()).toBe(404);
  expect(response?.headers()["content-type"]).toMatch(/^text\/html/);
  await expect(page.locator("html")).toHaveAttribute("lang", "fr");
  await expect(page).toHaveTitle(/^Page introuvable – /);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page introuvable");
  await expectAccessible(page, "a receipt that is gone");
});

test("the establishment suggestion does not offer the person's own data for the shop's fields (RGAA 11.13)", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  const account = await makeAccount(ONBOARDED);
  await signInAs(page, account);
  await page.goto("/plans/suggest-establishment");
  const form = page.locator("form#suggest-establishment");
  const fields = form.locator("input:not([type=hidden]), select, textarea");
  await expect(fields).toHaveCount(8);
  // Every field is about the shop: autofill off, none of the person's tokens (organization, email, tel, address…).
  for (const field of await fields.all()) await expect(field).toHaveAttribute("autocomplete", "off");
});
