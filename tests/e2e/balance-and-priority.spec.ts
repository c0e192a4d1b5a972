import type { Page } from "@playwright/test";
import { expect, test, type AccountOptions } from "./fixtures";
import { expectAccessible } from "./helpers";

/**
 * Spec 000 §2 "Wallets priority panel", "Balance overflow panel", "Add credit card panel", §4 retry.
 * Every journey changes its account: each has its own (fixtures.ts), shaped like the demo's marie.
 */
const jsOff = () => test.info().project.name === "js-off";

async function openAction(page: Page, name: string) {
  await page.locator("summary", { hasText: "Actions sur la carte" }).click();
  await page.getByRole("link", { name }).click();
}

const linkedWallets = (page: Page) => page.getByRole("region", { name: "Portefeuilles liés" }).getByRole("listitem");

/** Marie's wallets, saved cards and the payments the journeys below act on. */
const LIKE_MARIE: AccountOptions = {
  wallets: [
    { name: "Titres-restaurant", type: "meal", balance: 15240, dailyLimit: 2500 },
    { name: "Mobilité", type: "mobility", balance: 42000 },
    { name: "Cadeaux de Noël", type: "gift", balance: 20000 },
  ],
  cards: [
    {
      type: "physical",
      lastFour: "4242",
      wallets: ["Titres-restaurant", "Mobilité", "Cadeaux de Noël"],
      payments: [
        {
          kind: "approved",
          merchant: "Le Bistrot des Halles",
          amount: 1250,
          canSwitch: true,
          scopes: ["meal", "gift"],
          paidBy: { "Titres-restaurant": 1250 },
        },
        { kind: "approved", merchant: "Le Comptoir Lyonnais", amount: 6850, overflow: 1850 },
      ],
    },
    { type: "virtual", lastFour: "5556", wallets: ["Titres-restaurant"] },
  ],
  creditCards: [
    { brand: "visa", last4: "4444", isDefault: true },
    { brand: "mastercard", last4: "5454" },
  ],
  overflowLimit: 5000,
};

test("a cardholder reorders •••• 4242's wallets with the buttons; •••• 5556 has too few to order", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  const account = await makeAccount(LIKE_MARIE);
  await signInAs(page, account);
  await page.goto("/cards");
  await expect(linkedWallets(page)).toHaveText([/Titres-restaurant/, /Mobilité/, /Cadeaux de Noël/]);
  await openAction(page, "Ordre de débit des portefeuilles");
  const panel = page.getByRole("dialog", { name: "Ordre de débit des portefeuilles" });
  const rows = panel.getByRole("list", { name: "Portefeuilles dans l’ordre de débit" }).getByRole("listitem");
  await expect(rows).toHaveText([/Titres-restaurant/, /Mobilité/, /Cadeaux de Noël/]);
  await expect(panel.getByRole("button", { name: "Monter Titres-restaurant" })).toBeDisabled();
  await expectAccessible(page, "priority");

  await panel.getByRole("button", { name: "Monter Cadeaux de Noël" }).click();
  await expect(rows).toHaveText([/Titres-restaurant/, /Cadeaux de Noël/, /Mobilité/]);
  await panel.getByRole("button", { name: "Monter Cadeaux de Noël" }).click();
  await expect(rows).toHaveText([/Cadeaux de Noël/, /Titres-restaurant/, /Mobilité/]);
  await expect(panel.getByText("Ordre modifié, pas encore enregistré.")).toBeVisible();
  await expectAccessible(page, "priority, moved");
  await panel.getByRole("button", { name: "Enregistrer l’ordre" }).click();

  await expect(page.getByText("Ordre modifié avec succès")).toBeVisible();
  await page.reload();
  await expect(linkedWallets(page)).toHaveText([/Cadeaux de Noël/, /Titres-restaurant/, /Mobilité/]);

  // A forged order in the URL is refused (400) and the saved order shown.
  const forged = await page.goto(`${new URL(page.url()).pathname}/priority?order=wal_x,wal_y,wal_z`);
  expect(forged?.status()).toBe(400);
  await expect(page.getByText("Cet ordre n’est pas valable : voici l’ordre enregistré.")).toBeVisible();
  await expect(
    page
      .getByRole("dialog", { name: "Ordre de débit des portefeuilles" })
      .getByRole("list", { name: "Portefeuilles dans l’ordre de débit" })
      .getByRole("listitem"),
  ).toHaveText([/Cadeaux de Noël/, /Titres-restaurant/, /Mobilité/]);

  await page.goto(`/cards/${account.cards["5556"]}`);
  await openAction(page, "Ordre de débit des portefeuilles");
  await expect(
    page
      .getByRole("dialog", { name: "Ordre de débit des portefeuilles" })
      .getByText("Il faut au moins 2 portefeuilles liés à la carte pour choisir l’ordre de débit."),
  ).toBeVisible();
  await expectAccessible(page, "priority, too few wallets");
});

test("a cardholder sets her overflow to 120 €, makes her Mastercard the default, adds a test card and deletes it", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  await signInAs(page, await makeAccount(LIKE_MARIE));
  await page.goto("/cards");
  await openAction(page, "Dépassement de solde et cartes bancaires");
  const panel = page.getByRole("dialog", { name: "Dépassement de solde" });
  await expect(panel.getByText(/Le montant minimum prélevé est de 0,50\s€/)).toBeVisible();
  const amount = panel.getByLabel("Montant maximal du dépassement (€)");
  await expect(amount).toHaveValue("50");
  await expectAccessible(page, "overflow");

  // Out of range: refused on the field (the browser's own checks are off: novalidate is not needed for a 400 test).
  if (jsOff()) {
    await amount.fill("151");
    await panel.getByRole("button", { name: "Enregistrer le montant" }).click();
    // In the error summary (issue 13, finding 11) and on the field.
    await expect(page.getByRole("link", { name: "Choisissez un montant entre 50 et 150 €" })).toBeVisible();
    await expect(page.locator("#overflow-amount-error")).toHaveText("Erreur : Choisissez un montant entre 50 et 150 €");
    await expectAccessible(page, "overflow, amount refused");
    await page.getByLabel("Montant maximal du dépassement (€)").fill("120");
    await page.getByRole("button", { name: "Enregistrer le montant" }).click();
    await expect(page.getByText("Montant du dépassement enregistré.")).toBeVisible();
  } else {
    // With JS: the slider and the field move together; saved 1.5 s after the last change.
    await amount.fill("151");
    await expect(panel.getByText("Choisissez un montant entre 50 et 150 €")).toBeVisible({ timeout: 5000 });
    await panel.getByRole("slider", { name: "Montant maximal du dépassement, curseur" }).fill("120");
    await expect(amount).toHaveValue("120");
    await expect(panel.getByText("Montant enregistré : 120,00 €")).toBeVisible({ timeout: 5000 });
  }
  await page.reload();
  await expect(page.getByLabel("Montant maximal du dépassement (€)")).toHaveValue("120");

  // The default switch: turning the Mastercard on turns the Visa off.
  const visaSwitch = page.getByRole("switch", { name: "Carte par défaut : Visa •••• 4444" });
  const mastercardSwitch = page.getByRole("switch", { name: "Carte par défaut : Mastercard •••• 5454" });
  await expect(visaSwitch).toHaveAttribute("aria-checked", "true");
  await expect(mastercardSwitch).toHaveAttribute("aria-checked", "false");
  await mastercardSwitch.click();
  await expect(page.getByText("Cette carte est maintenant votre carte par défaut.")).toBeVisible();
  await expect(page.getByRole("switch", { name: "Carte par défaut : Mastercard •••• 5454" })).toHaveAttribute(
    "aria-checked",
    "true",
  );
  await expect(page.getByRole("switch", { name: "Carte par défaut : Visa •••• 4444" })).toHaveAttribute(
    "aria-checked",
    "false",
  );
  await expectAccessible(page, "overflow, mastercard default");

  // A new card, typed into the sandbox processor's own form (an iframe that posts to the processor).
  await page.getByRole("link", { name: "Ajouter une carte bancaire" }).click();
  const addPanel = page.getByRole("dialog", { name: "Ajouter une carte bancaire" });
  await expect(addPanel).toBeVisible();
  await expectAccessible(page, "add a credit card");
  const fields = page.frameLocator("iframe[title='Formulaire sécurisé de carte bancaire']");
  await fields.getByLabel("Numéro de carte").fill("4000 0000 0000 0002");
  await fields.getByLabel("Date d’expiration").fill("12/39");
  await fields.getByLabel("Cryptogramme (CVC)").fill("123");
  await fields.getByRole("button", { name: "Enregistrer la carte" }).click();
  await expect(fields.getByText("Votre carte a été refusée. Essayez une autre carte.")).toBeVisible();
  await expect(fields.getByLabel("Numéro de carte")).toHaveValue("");
  await fields.getByLabel("Numéro de carte").fill("4242 4242 4242 4242");
  await fields.getByLabel("Date d’expiration").fill("12/39");
  await fields.getByLabel("Cryptogramme (CVC)").fill("123");
  await fields.getByRole("button", { name: "Enregistrer la carte" }).click();
  await fields.getByRole("link", { name: "Continuer" }).click();

  await expect(page.getByText("Votre carte a été ajoutée.")).toBeVisible();
  // The processor's return is a full page load: let its scripts settle (the panel becomes a modal
  // dialog when they run) before clicking in it.
  await page.waitForLoadState("networkidle");
  const overflow = page.getByRole("dialog", { name: "Dépassement de solde" });
  await expect(overflow.getByRole("switch", { name: "Carte par défaut : Visa •••• 4242" })).toHaveAttribute(
    "aria-checked",
    "false",
  );

  // Delete it, after confirming.
  await overflow.getByRole("link", { name: "Supprimer Visa •••• 4242" }).click();
  await expect(page.getByText("Supprimer la carte Visa •••• 4242 ?")).toBeVisible();
  await expectAccessible(page, "overflow, confirm deletion");
  await page.getByRole("button", { name: "Confirmer la suppression" }).click();
  await expect(page.getByText("La carte a été supprimée.")).toBeVisible();
  await expect(page.getByRole("switch", { name: "Carte par défaut : Visa •••• 4242" })).toHaveCount(0);
  await expect(page.getByRole("switch", { name: /Carte par défaut/ })).toHaveCount(2);
});

test("a cardholder retries the overflow payment that failed", async ({ page, makeAccount, signInAs }) => {
  await signInAs(page, await makeAccount(LIKE_MARIE));
  await page.goto("/cards");
  const item = page.getByRole("listitem").filter({ hasText: "Le Comptoir Lyonnais" });
  await expect(item.getByText("Complément de 18,50 € payé par carte bancaire : paiement refusé")).toBeVisible();
  await item.getByRole("button", { name: /Relancer le paiement/ }).click();
  await expect(page.getByText("Le paiement du complément a été effectué.")).toBeVisible();
  const after = page.getByRole("listitem").filter({ hasText: "Le Comptoir Lyonnais" });
  await expect(after.getByText("Complément de 18,50 € payé par carte bancaire", { exact: true })).toBeVisible();
  await expect(after.getByRole("button", { name: /Relancer le paiement/ })).toHaveCount(0);
  await expectAccessible(page, "overflow retried");
});

test("a cardholder moves a transaction onto two wallets; a wrong total is refused", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  await signInAs(page, await makeAccount(LIKE_MARIE));
  await page.goto("/cards");
  const item = page.getByRole("listitem").filter({ hasText: "Le Bistrot des Halles" });
  // The approved tab says the split in words (issue 17): Titres-restaurant paid it all.
  await expect(item.getByRole("list", { name: "Payé avec :" }).getByRole("listitem")).toHaveText([
    "Titres-restaurant : 12,50 €",
  ]);
  await expect(linkedWallets(page)).toHaveText([
    /Titres-restaurant.*152,40\s€/,
    /Mobilité/,
    /Cadeaux de Noël.*200,00\s€/,
  ]);
  await item.getByRole("link", { name: /Changer les moyens de paiement/ }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Changer les moyens de paiement");
  await expect(page.getByRole("group", { name: "Répartissez 12,50 € entre vos portefeuilles" })).toBeVisible();
  // Spec 000 §5: the restaurant accepts meal and gift wallets only; her mobility wallet is not offered.
  await expect(page.getByRole("textbox", { name: /^Montant pris sur/ })).toHaveCount(2);
  await expect(page.getByLabel("Montant pris sur Mobilité (€)")).toHaveCount(0);
  await expectAccessible(page, "switch payment methods");

  await page.getByLabel("Montant pris sur Titres-restaurant (€)").fill("10");
  await page.getByRole("button", { name: "Valider la répartition" }).click();
  await expect(page).toHaveTitle(/^Erreur : Changer les moyens de paiement/);
  await expect(
    page.getByRole("link", { name: "Le total choisi doit être égal au montant de la transaction" }),
  ).toBeVisible();
  await expect(page.getByText("Total choisi : 10,00 € sur 12,50 €.")).toBeVisible();
  await expectAccessible(page, "switch payment methods, wrong total");

  await page.getByLabel("Montant pris sur Cadeaux de Noël (€)").fill("2,50");
  await page.getByRole("button", { name: "Valider la répartition" }).click();
  await expect(page.getByText("Les moyens de paiement de la transaction ont été changés.")).toBeVisible();
  const switched = page.getByRole("listitem").filter({ hasText: "Le Bistrot des Halles" });
  await expect(switched.getByRole("link", { name: /Changer les moyens de paiement/ })).toHaveCount(0);
  // The money moved (decision 0038): 12,50 € back to Titres-restaurant, 10 € taken from it, 2,50 € from Cadeaux.
  await expect(switched.getByRole("list", { name: "Payé avec :" }).getByRole("listitem")).toHaveText([
    "Titres-restaurant : 10,00 €",
    "Cadeaux de Noël : 2,50 €",
  ]);
  await expect(linkedWallets(page)).toHaveText([
    /Titres-restaurant.*154,90\s€/,
    /Mobilité/,
    /Cadeaux de Noël.*197,50\s€/,
  ]);
  await linkedWallets(page).getByRole("link", { name: "Titres-restaurant" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Titres-restaurant");
  await expect(page.getByText("Changement de moyens de paiement")).toBeVisible();
  await expectAccessible(page, "switched payment methods, wallet history");
});
