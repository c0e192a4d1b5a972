import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { CLAIRE, expectAccessible, MARIE, signIn } from "./helpers";

/**
 * Spec 000 §2 "Create card", §6: creating a card from the card page, in a side panel. The card is
 * created on an account of the test's own, shaped like the demo's marie (two funders, a virtual
 * licence at Acme France and a physical one at CSE Acme); the refusals are checked on marie, unchanged.
 */
const virtualCardsIn = (page: Page) =>
  page
    .getByRole("navigation", { name: "Navigation principale" })
    .filter({ visible: true })
    .getByRole("link", { name: /^Carte virtuelle •••• \d{4}/ });

test("a cardholder creates her virtual card from the card page and sees it in the navigation", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  const account = await makeAccount({
    cards: [
      { type: "physical", lastFour: "4242" },
      { type: "virtual", lastFour: "5556" },
    ],
    freeLicences: ["virtual_card"],
    otherFunders: [{ name: "CSE Acme", freeLicences: ["physical_card"] }],
  });
  await signInAs(page, account);
  await page.goto("/cards");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Carte physique •••• 4242");
  const before = await virtualCardsIn(page).count();
  expect(before).toBeGreaterThan(0);
  await page.getByRole("link", { name: "Créer une carte" }).last().click();
  await expect(page).toHaveURL(/\/cards\/card_[\w-]+\/new-card$/);
  const panel = page.getByRole("dialog", { name: "Créer une carte" });
  await expect(panel).toBeVisible();
  await expect(page).toHaveTitle("Créer une carte – Portail Avantages");

  // Two funders can issue: a select. Acme France has a virtual licence left, no physical one.
  const funder = panel.getByLabel("Qui est le financeur de la carte ?");
  await expect(funder).toHaveValue(/grp_/);
  await expect(funder.locator("option:checked")).toHaveText("Acme France");
  await expect(panel.getByRole("radio", { name: "Carte physique" })).toBeDisabled();
  await expect(panel.getByText("Indisponible : plus aucune licence de carte physique chez ce financeur")).toBeVisible();
  await expect(panel.getByRole("radio", { name: "Carte virtuelle" })).toBeEnabled();
  await expectAccessible(page, "new card, Acme France");

  // Another funder shows its own licences (a GET form: a button without JS, on change with JS).
  await funder.selectOption({ label: "CSE Acme" });
  if (test.info().project.name === "js-off")
    await panel.getByRole("button", { name: "Afficher les cartes de ce financeur" }).click();
  await expect(panel.getByRole("radio", { name: "Carte virtuelle" })).toBeDisabled();
  await expect(panel.getByRole("radio", { name: "Carte physique" })).toBeEnabled();
  await expect(panel.getByText("Licences disponibles : 1")).toBeVisible();
  await funder.selectOption({ label: "Acme France" });
  if (test.info().project.name === "js-off")
    await panel.getByRole("button", { name: "Afficher les cartes de ce financeur" }).click();
  await expect(panel.getByRole("radio", { name: "Carte virtuelle" })).toBeEnabled();

  // No type chosen: said on the fieldset.
  await panel.getByRole("button", { name: "Continuer" }).click();
  await expect(page.getByRole("link", { name: "Choisissez le type de carte : physique ou virtuelle" })).toBeVisible();
  await expect(page).toHaveTitle("Erreur : Créer une carte – Portail Avantages");
  await expectAccessible(page, "new card, no type");

  await page.getByRole("dialog", { name: "Créer une carte" }).getByRole("radio", { name: "Carte virtuelle" }).check();
  const form = page.getByRole("dialog", { name: "Créer une carte" }).locator("form[method=post]");
  const requestId = await form.locator("input[name=request]").inputValue();
  const group = await form.locator("input[name=group]").inputValue();
  const wizardPath = new URL(page.url()).pathname;
  await page.getByRole("dialog", { name: "Créer une carte" }).getByRole("button", { name: "Continuer" }).click();
  await expect(page.getByText("Votre carte a été créée.")).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Carte virtuelle •••• \d{4}$/);
  await expect(virtualCardsIn(page)).toHaveCount(before + 1);
  const created = (await page.getByRole("heading", { level: 1 }).textContent())!;
  await expect(virtualCardsIn(page).filter({ hasText: created })).toHaveAttribute("aria-current", "page");
  await expectAccessible(page, "new virtual card");

  // The same submit again (a double click, or Back then resubmit): refused, nothing new.
  const replay = await page.request.post(wizardPath, {
    form: { step: "card", request: requestId, group, type: "virtual" },
  });
  expect(replay.status()).toBe(400);
  expect(await replay.text()).toContain("Cette carte a déjà été demandée : aucune autre carte n’a été créée.");
  await page.reload();
  await expect(virtualCardsIn(page)).toHaveCount(before + 1);

  // The licence is used: Acme France has no virtual card left; CSE Acme still offers a physical one.
  await page.goto(`${new URL(page.url()).pathname}/new-card`);
  await expect(page.getByRole("radio", { name: "Carte virtuelle" })).toBeDisabled();
});

test("a replayed or forged card request is refused with a message and creates nothing", async ({ page }) => {
  await signIn(page, MARIE);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Carte physique •••• 4242");
  const cardPath = new URL(page.url()).pathname;
  // A step the request has not reached, or a request that does not exist: 400 and the first step.
  const unknown = await page.goto(`${cardPath}/new-card?step=summary&request=creq_AAAAAAAAAAAAAAAA`);
  expect(unknown?.status()).toBe(400);
  await expect(
    page.getByText("Cette demande de carte est introuvable. Recommencez depuis la première étape."),
  ).toBeVisible();
  await expect(page.getByRole("heading", { name: "Étape 1 sur 4 : Choisir la carte" })).toBeVisible();
  const tampered = await page.goto(`${cardPath}/new-card?step=9`);
  expect(tampered?.status()).toBe(400);
  await expect(page.getByText("Cette étape n’existe pas : reprenez à l’étape affichée.")).toBeVisible();
  await expectAccessible(page, "new card, tampered step");

  // A group marie does not belong to, posted by hand.
  const cardsBefore = await virtualCardsIn(page).count();
  const forged = await page.request.post(`${cardPath}/new-card`, {
    form: { step: "card", request: "creq_BBBBBBBBBBBBBBBB", group: "grp_not_hers", type: "virtual" },
  });
  expect(forged.status()).toBe(400);
  expect(await forged.text()).toContain("Ce financeur ne peut pas vous attribuer de carte");
  await page.reload();
  await expect(virtualCardsIn(page)).toHaveCount(cardsBefore);
});

test("claire, with no licence left, sees why she cannot create a card", async ({ page }) => {
  await signIn(page, CLAIRE);
  await expect(page.getByRole("heading", { name: "Nouvelle carte" })).toHaveCount(0);
  await page.locator("summary", { hasText: "Actions sur la carte" }).click();
  await page.getByRole("link", { name: "Créer une carte" }).click();
  const panel = page.getByRole("dialog", { name: "Créer une carte" });
  await expect(
    panel.getByText(
      "Vous ne pouvez pas créer plus de cartes : toutes les cartes offertes par vos financeurs ont déjà été créées.",
    ),
  ).toBeVisible();
  await expect(panel.getByRole("button", { name: "Continuer" })).toHaveCount(0);
  await expectAccessible(page, "new card, no licence");
});
