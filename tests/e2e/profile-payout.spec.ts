import { expect, test } from "./fixtures";
import { expectAccessible, expectNoHorizontalScroll, latestCodeFor, wrongCodeFor } from "./helpers";

/**
 * Issue 31 §1 (decision 0054): the profile's bank details and postal address, JS on and off. An IBAN is refused
 * on its field (outside SEPA, a wrong checksum), a new one waits for the code sent to the person's second factor
 * (here their e-mail) and is saved only with it, then shown masked; the address is saved at once, or refused
 * whole with the delivery address's words. Each journey works on an account of its own.
 */
const CODE_SUBJECT = "Confirmez votre nouveau compte bancaire";

test("the bank details: refused on the field, set with the code sent by e-mail, shown masked; the bank's e-mail follows", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  test.setTimeout(120_000);
  const account = await makeAccount({ cards: [{ type: "physical", lastFour: "4242" }] });
  await signInAs(page, account);
  await page.goto("/settings/profile");
  const section = page.getByRole("region", { name: "Coordonnées bancaires" });
  await expect(section.getByText(/Aucun compte enregistré/)).toBeVisible();
  await expectAccessible(page, "profile, no account saved");

  const iban = section.getByLabel("IBAN du compte à créditer");
  await iban.fill("BR18 0036 0305 0000 1000 9795 493C 1");
  await section.getByRole("button", { name: "Ajouter ce compte" }).click();
  const notSepa = "Le remboursement ne peut être versé que sur un compte d’un pays de la zone SEPA.";
  await expect(page.getByRole("link", { name: notSepa })).toBeVisible();
  await expect(iban).toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveTitle(/^Erreur : /);
  await expectAccessible(page, "profile, IBAN outside SEPA");
  const refused = await page.request.post("/settings/profile", {
    form: { intent: "iban", iban: "FR76 3000 6000 0112 3456 7890 188" },
  });
  expect(refused.status()).toBe(400);

  await iban.fill("FR76 3000 6000 0112 3456 7890 189");
  await section.getByRole("button", { name: "Ajouter ce compte" }).click();
  await expect(page).toHaveURL(/\/settings\/profile\/confirm\/iban$/);
  await expect(page.getByRole("heading", { name: "Confirmez votre nouveau compte bancaire" })).toBeVisible();
  await expect(page.getByText("FR76 •••• •••• •••• •••• •••0 189")).toBeVisible();
  await expect(page.getByText(/envoyé à votre adresse e-mail/)).toBeVisible();
  await expectAccessible(page, "confirm the new account");

  // Nothing is saved before the code: the profile says a change waits.
  await page.getByRole("link", { name: "Revenir au profil" }).click();
  await expect(section.getByText(/Aucun compte enregistré/)).toBeVisible();
  await expect(section.getByRole("link", { name: "Confirmer le nouveau compte" })).toBeVisible();
  await expect(section.getByRole("button", { name: "Annuler le changement de compte" })).toBeVisible();
  await expectAccessible(page, "profile, account change pending");

  await section.getByRole("link", { name: "Confirmer le nouveau compte" }).click();
  const code = await latestCodeFor(page.request, account.email, CODE_SUBJECT);
  await page.getByLabel("Code à 6 chiffres").fill(wrongCodeFor(code));
  await page.getByRole("button", { name: "Confirmer le changement" }).click();
  await expect(page.getByRole("link", { name: /Ce code est incorrect/ })).toBeVisible();
  await expectAccessible(page, "confirm the new account, wrong code");
  await page.getByLabel("Code à 6 chiffres").fill(code);
  await page.getByRole("button", { name: "Confirmer le changement" }).click();

  await expect(page).toHaveURL(/\/settings\/profile$/);
  await expect(page.getByText("Votre nouveau compte bancaire est enregistré.")).toBeVisible();
  await expect(section.getByText("FR76 •••• •••• •••• •••• •••0 189")).toBeVisible();
  await expect(section.getByLabel("Nouvel IBAN")).toBeVisible();
  await expectAccessible(page, "profile, account saved");
  await expectNoHorizontalScroll(page, "profile, account saved");
  // The bank's message: in the outbox, to the person's address.
  const outbox = await (await page.request.get("/dev/outbox")).text();
  expect(outbox).toContain("Vos coordonnées bancaires ont été modifiées");
});

test("the postal address: refused whole with the field's words, then saved at once", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  test.setTimeout(90_000);
  const account = await makeAccount({ cards: [{ type: "physical", lastFour: "4242" }] });
  await signInAs(page, account);
  await page.goto("/settings/profile");
  const section = page.getByRole("region", { name: "Adresse postale" });
  const line1 = section.getByLabel("Numéro et rue");
  await expect(line1).not.toHaveValue("");
  const before = await line1.inputValue();

  await line1.fill("quai Rambaud");
  await section.getByLabel("Code postal").fill("69002");
  await section.getByRole("button", { name: "Mettre à jour l’adresse" }).click();
  await expect(line1).toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveTitle(/^Erreur : /);
  await expectAccessible(page, "profile, address refused");
  // Nothing saved half-way: the postcode typed with the refused street is not kept.
  await page.goto("/settings/profile");
  await expect(section.getByLabel("Numéro et rue")).toHaveValue(before);
  await expect(section.getByLabel("Code postal")).not.toHaveValue("69002");

  await section.getByLabel("Numéro et rue").fill("12 quai Rambaud");
  await section.getByLabel("Complément d’adresse (facultatif)").fill("Bâtiment B");
  await section.getByLabel("Code postal").fill("69002");
  await section.getByLabel("Ville").fill("Lyon");
  await section.getByLabel("Pays").selectOption("FR");
  await section.getByRole("button", { name: "Mettre à jour l’adresse" }).click();
  await expect(page.getByText("Votre adresse postale est enregistrée.")).toBeVisible();
  await expect(section.getByLabel("Numéro et rue")).toHaveValue("12 quai Rambaud");
  await expect(section.getByLabel("Complément d’adresse (facultatif)")).toHaveValue("Bâtiment B");
  await expectAccessible(page, "profile, address saved");
});
