import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectAccessible, submitPassword } from "./helpers";

/** Spec 001 §2.1: lost password → e-mail in /dev/outbox → reset password → sign in with the new one. */
const NEW_PASSWORD = "Nouveau-Mot2passe!";

/** The e-mail leaves after the answer: look in the outbox until it is there. */
async function resetLinkFor(request: APIRequestContext, email: string): Promise<string> {
  let found: string | null = null;
  await expect
    .poll(async () => {
      const html = await (await request.get("/dev/outbox")).text();
      const message = html
        .split('class="outbox__message"')
        .slice(1)
        .find((m) => m.includes(email) && m.includes("Choisir un nouveau mot de passe"));
      const link = message && /https?:\/\/[^\s<"]+\/reset-password\/[^\s<"]+/.exec(message.replace(/&amp;/g, "&"));
      found = link ? new URL(link[0]).pathname + new URL(link[0]).search : null;
      return found;
    })
    .not.toBeNull();
  return found!;
}

test("a lost-password → reset-password round trip through the outbox", async ({ page, makeAccount }) => {
  // An account of its own: its password changes.
  const LUCAS = (await makeAccount({ cards: [{ type: "physical", lastFour: "4242" }] })).email;
  await page.goto("/login");
  await page.getByRole("link", { name: "Mot de passe oublié ?" }).click();
  await expect(page).toHaveTitle("Mot de passe oublié – Portail Avantages");
  await expectAccessible(page, "lost password");

  // The same answer for an address without an account.
  await page.getByLabel("Adresse e-mail").fill("personne@example.com");
  await page.getByRole("button", { name: "Recevoir le lien" }).click();
  const sameAnswer = /Si un compte existe pour cette adresse, un e-mail vient de lui être envoyé/;
  await expect(page.getByText(sameAnswer)).toBeVisible();

  await page.goto("/lost-password");
  await page.getByLabel("Adresse e-mail").fill(LUCAS);
  await page.getByRole("button", { name: "Recevoir le lien" }).click();
  await expect(page.getByText(sameAnswer)).toBeVisible();
  await expectAccessible(page, "lost password, sent");

  const link = await resetLinkFor(page.request, LUCAS);
  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Nouveau mot de passe");
  await expect(
    page.getByText(/Au moins 8 caractères, dont une majuscule, une minuscule, un chiffre et un caractère spécial/),
  ).toBeVisible();
  await expectAccessible(page, "reset password");

  await page.getByLabel("Nouveau mot de passe", { exact: true }).fill("nouveau-mot2passe");
  await page.getByLabel("Confirmez le nouveau mot de passe").fill("nouveau-mot2passe");
  await page.getByRole("button", { name: "Enregistrer le mot de passe" }).click();
  await expect(page.getByRole("link", { name: "Le mot de passe doit comporter au moins une majuscule" })).toBeVisible();
  await expect(page.getByLabel("Nouveau mot de passe", { exact: true })).toHaveValue("");
  await expectAccessible(page, "reset password, refused");

  await page.getByLabel("Nouveau mot de passe", { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel("Confirmez le nouveau mot de passe").fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Enregistrer le mot de passe" }).click();
  await expect(page).toHaveURL(/\/login\?email=/);
  await expect(page.getByText("Votre mot de passe est modifié. Connectez-vous avec le nouveau.")).toBeVisible();
  await expect(page.getByLabel("Adresse e-mail")).toHaveValue(LUCAS);

  // The old password no longer works; the new one does.
  await submitPassword(page, LUCAS);
  await expect(
    page.getByRole("link", { name: "L’adresse e-mail ou le mot de passe est incorrect" }).first(),
  ).toBeVisible();
  await submitPassword(page, LUCAS, NEW_PASSWORD);
  // Signed in: the account has a second factor, so the code step comes next.
  await expect(page).toHaveURL(/\/login\/code$/);

  // The link served once.
  const reused = await page.request.get(link);
  expect(reused.status()).toBe(410);
  expect(await reused.text()).toContain("Ce lien a expiré ou a déjà servi.");
});

test("the reset-password page's cancel goes back to sign-in, the address typed, whatever the link's state (spec 001 §2.3)", async ({
  page,
  makeAccount,
}) => {
  const email = (await makeAccount({ cards: [{ type: "physical", lastFour: "4242" }] })).email;
  await page.goto("/lost-password");
  await page.getByLabel("Adresse e-mail").fill(email);
  await page.getByRole("button", { name: "Recevoir le lien" }).click();
  const link = await resetLinkFor(page.request, email);
  const cancel = page.getByRole("link", { name: "Annuler et revenir à la connexion" });

  // A live link: the form, and beside it the way out.
  await page.goto(link);
  await expect(page.getByRole("button", { name: "Enregistrer le mot de passe" })).toBeVisible();
  await expect(cancel).toHaveAttribute("href", `/login?email=${encodeURIComponent(email)}`);
  await cancel.click();
  await expect(page).toHaveURL(`/login?email=${encodeURIComponent(email)}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Connexion");
  await expect(page.getByLabel("Adresse e-mail")).toHaveValue(email);

  // Cancelling changed nothing: the link still opens its form; a refusal keeps the cancel.
  await page.goto(link);
  await page.getByLabel("Nouveau mot de passe", { exact: true }).fill("court");
  await page.getByLabel("Confirmez le nouveau mot de passe").fill("court");
  await page.getByRole("button", { name: "Enregistrer le mot de passe" }).click();
  await expect(page.getByRole("link", { name: /Le mot de passe doit comporter au moins 8 caractères/ })).toBeVisible();
  await expect(cancel).toBeVisible();
  await expectAccessible(page, "reset password, refused, with its cancel");

  // A link that is no longer valid (altered here): the message, a new link, and the same cancel.
  const altered = link.replace(/\/reset-password\/[^?]+/, "/reset-password/ce-lien-n-existe-pas");
  const gone = await page.request.get(altered);
  expect(gone.status()).toBe(410);
  await page.goto(altered);
  await expect(page.getByText("Ce lien a expiré ou a déjà servi.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Recevoir un nouveau lien" })).toBeVisible();
  await expectAccessible(page, "reset password, link expired, with its cancel");
  await cancel.click();
  await expect(page).toHaveURL(`/login?email=${encodeURIComponent(email)}`);
  await expect(page.getByLabel("Adresse e-mail")).toHaveValue(email);
});
