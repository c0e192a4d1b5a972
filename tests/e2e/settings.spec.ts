import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import {
  DEMO_PASSWORD,
  expectAccessible,
  expectNoHorizontalScroll,
  latestCodeFor,
  MARIE,
  signIn,
  submitPassword,
} from "./helpers";

/**
 * Spec 001 §2.4 settings: tabs that are links; the profile (nothing-changed refusal, an e-mail change
 * confirmed from the link sent to the new address), notification preferences, password change. The
 * journeys that change something do it on accounts of their own (fixtures.ts); marie is only read.
 */
const PHONE = "+33612345678";
const NEW_PASSWORD = "Autre-Mot2passe!";

async function confirmationLinkFor(request: APIRequestContext, email: string): Promise<string> {
  const html = (await (await request.get("/dev/outbox")).text()).replace(/&amp;/g, "&");
  const message = html
    .split('class="outbox__message"')
    .slice(1)
    .find((m) => m.includes(`>${email}<`) && m.includes("Confirmez votre nouvelle adresse e-mail"));
  const link = message && /https?:\/\/[^\s<"]+\/user-confirmation\?[^\s<"]+/.exec(message);
  if (!link) throw new Error(`no confirmation link for ${email}`);
  return new URL(link[0]).pathname + new URL(link[0]).search;
}

async function changePassword(page: Page, current: string, next: string) {
  await page.getByLabel("Mot de passe actuel").fill(current);
  await page.getByLabel("Nouveau mot de passe", { exact: true }).fill(next);
  await page.getByLabel("Confirmez le nouveau mot de passe").fill(next);
  await page.getByRole("button", { name: "Changer le mot de passe" }).click();
}

test("the profile: tabs as links, a save with no change refused, an e-mail change confirmed by its link", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  // A long journey: twelve page states checked by axe (each in a twin page when JavaScript is off).
  test.setTimeout(90_000);
  const account = await makeAccount({ phone: PHONE, cards: [{ type: "physical", lastFour: "4242" }] });
  const MARIE = account.email;
  await signInAs(page, account);
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/settings\/profile$/);
  const tabs = page.getByRole("navigation", { name: "Paramètres" });
  await expect(tabs.getByRole("link", { name: "Profil" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByText(`Connecté en tant que ${MARIE}`)).toBeVisible();
  await expect(page.getByText(/ne peuvent être modifiés que par le support/)).toBeVisible();
  await expect(page.getByRole("checkbox", { name: /J’accepte/ })).toBeDisabled();
  await expectAccessible(page, "profile");

  await page.getByRole("button", { name: "Enregistrer" }).click();
  await expect(page.getByRole("link", { name: /Aucune modification à enregistrer/ })).toBeVisible();
  await expectAccessible(page, "profile, nothing changed");

  // Bad input: a phone under 10 characters, an address already used by someone else.
  await page.getByLabel("Téléphone mobile").fill("06 12");
  await page.getByRole("button", { name: "Enregistrer" }).click();
  await expect(
    page.getByRole("link", { name: "Le numéro de téléphone doit comporter au moins 10 caractères" }),
  ).toBeVisible();
  await page.getByLabel("Téléphone mobile").fill("+33 6 12 34 56 78");
  await page.getByLabel("Adresse e-mail").fill("claire.petit@example.com");
  await page.getByRole("button", { name: "Enregistrer" }).click();
  await expect(page.getByRole("link", { name: /déjà utilisée par un autre compte/ })).toBeVisible();
  await expectAccessible(page, "profile, e-mail taken");

  const newEmail = `nouvelle-${MARIE}`;
  await page.getByLabel("Adresse e-mail").fill(newEmail);
  await page.getByRole("button", { name: "Enregistrer" }).click();
  await expect(page).toHaveURL(/\/settings\/profile\/confirm\/email$/);
  await expect(
    page.getByText("Le changement doit encore être confirmé avec le code envoyé.", { exact: false }),
  ).toBeVisible();
  await expect(page.getByText(newEmail)).toBeVisible();
  await expectAccessible(page, "confirm new e-mail");

  // The profile shows the pending address read-only, with confirm and cancel.
  await page.getByRole("link", { name: "Revenir au profil" }).click();
  await expect(page.getByLabel("Adresse e-mail")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Confirmer la nouvelle adresse" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Annuler le changement d’adresse" })).toBeVisible();
  await expectAccessible(page, "profile, e-mail change pending");
  // Every other page offers the pending step until it is settled.
  await page.goto("/cards");
  await expect(
    page.getByText("Un changement d’adresse e-mail est en cours : confirmez-le ou annulez-le."),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: "Confirmer ou annuler" })).toHaveAttribute(
    "href",
    "/settings/profile/confirm/email",
  );
  await expectAccessible(page, "card page, pending change notice");
  // No second factor can be chosen meanwhile: the step says so and leads to the pending one.
  await page.goto("/settings/security/mfa/SMS");
  await expect(page.getByText(/Un changement d’adresse e-mail attend sa confirmation/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Confirmer" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Confirmer la nouvelle adresse" })).toHaveAttribute(
    "href",
    "/settings/profile/confirm/email",
  );
  await expectAccessible(page, "second factor, change pending");

  // The link in the e-mail to the new address: opening it changes nothing, the button does.
  const link = await confirmationLinkFor(page.request, newEmail);
  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Confirmation de l’adresse e-mail");
  await expectAccessible(page, "user confirmation");
  await page.getByRole("button", { name: "Confirmer l’adresse" }).click();
  await expect(page.getByText(`Votre nouvelle adresse e-mail ${newEmail} est confirmée`)).toBeVisible();
  // Used once: the same link is refused after that, in the same words as any wrong code.
  await page.goto(link);
  await page.getByRole("button", { name: "Confirmer l’adresse" }).click();
  await expect(page.getByRole("link", { name: /Ce lien ou ce code n’est plus valable/ })).toBeVisible();
  await expectAccessible(page, "user confirmation, spent");

  // Back to the old address, this time with the code typed on the confirmation step.
  await page.goto("/settings/profile");
  await expect(page.getByText(`Connecté en tant que ${newEmail}`)).toBeVisible();
  await page.getByLabel("Adresse e-mail").fill(MARIE);
  await page.getByRole("button", { name: "Enregistrer" }).click();
  await expect(page).toHaveURL(/\/settings\/profile\/confirm\/email$/);
  await page
    .getByLabel("Code à 6 chiffres")
    .fill(await latestCodeFor(page.request, MARIE, "Confirmez votre nouvelle adresse e-mail"));
  await page.getByRole("button", { name: "Confirmer le changement" }).click();
  await expect(page).toHaveURL(/\/settings\/profile$/);
  await expect(page.getByText("Le changement est confirmé.")).toBeVisible();
  await expect(page.getByText(`Connecté en tant que ${MARIE}`)).toBeVisible();
  await expectAccessible(page, "profile, change confirmed");
});

test("a cardholder changes her notification preferences, then her password, and signs in again with the new one", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  const account = await makeAccount({ phone: PHONE, cards: [{ type: "physical", lastFour: "4242" }] });
  const MARIE = account.email;
  await signInAs(page, account);
  await page.goto("/settings/notifications");
  // The settings tab, not the header's bell (also named "Notifications").
  await expect(
    page.getByRole("navigation", { name: "Paramètres" }).getByRole("link", { name: "Notifications" }),
  ).toHaveAttribute("aria-current", "page");
  // Defaults: approved payments off/off, the others on/on.
  await expect(page.getByRole("checkbox", { name: "Paiements acceptés par e-mail" })).not.toBeChecked();
  await expect(page.getByRole("checkbox", { name: "Paiements refusés par notification push" })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: "E-mail (toutes)" })).not.toBeChecked();
  await expectAccessible(page, "notifications");

  await page.getByRole("checkbox", { name: "Paiements acceptés par e-mail" }).check();
  await page.getByRole("checkbox", { name: "Portefeuilles par notification push" }).uncheck();
  await page.getByRole("button", { name: "Enregistrer mes préférences" }).click();
  await expect(page.getByText("Vos préférences de notification sont enregistrées.")).toBeVisible();
  await page.reload();
  await expect(page.getByRole("checkbox", { name: "Paiements acceptés par e-mail" })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: "Portefeuilles par notification push" })).not.toBeChecked();
  await expect(page.getByRole("checkbox", { name: "E-mail (toutes)" })).toBeChecked();

  // The column switch sets every push box, with JavaScript (at once) or without (by the server).
  await page.getByRole("checkbox", { name: "Push (toutes)" }).check();
  await page.getByRole("button", { name: "Enregistrer mes préférences" }).click();
  await expect(page.getByText("Vos préférences de notification sont enregistrées.")).toBeVisible();
  await page.reload();
  for (const type of ["Paiements acceptés", "Paiements refusés", "Demandes de remboursement", "Portefeuilles"]) {
    await expect(page.getByRole("checkbox", { name: `${type} par notification push` })).toBeChecked();
  }
  await expectAccessible(page, "notifications, saved");

  await page.getByRole("navigation", { name: "Paramètres" }).getByRole("link", { name: "Sécurité" }).click();
  await expect(page).toHaveURL(/\/settings\/security$/);
  await expect(page.getByText("Activée. Vos codes arrivent : Par e-mail.")).toBeVisible();
  await expect(page.getByText(/Au moins 8 caractères, dont une majuscule/)).toBeVisible();
  await expectAccessible(page, "security");

  // The preferred channel: SMS after a confirmation step that names the number, then e-mail again.
  await page.getByRole("link", { name: "Activer par SMS" }).click();
  await expect(page).toHaveURL(/\/settings\/security\/mfa\/SMS$/);
  await expect(
    page.getByText("Vos codes de connexion et de sécurité seront envoyés par SMS au +33612345678."),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: "Modifiez-le dans votre profil" })).toHaveAttribute(
    "href",
    "/settings/profile",
  );
  await expectAccessible(page, "security, confirm SMS");
  await page.getByRole("button", { name: "Confirmer" }).click();
  await expect(page.getByText("Vos paramètres de sécurité sont mis à jour.")).toBeVisible();
  await expect(page.getByText("Activée. Vos codes arrivent : Par SMS.")).toBeVisible();
  await page.getByRole("link", { name: "Activer par e-mail" }).click();
  await page.getByRole("button", { name: "Confirmer" }).click();
  await expect(page.getByText("Activée. Vos codes arrivent : Par e-mail.")).toBeVisible();

  await changePassword(page, "pas-le-bon", NEW_PASSWORD);
  await expect(page.getByRole("link", { name: "Le mot de passe actuel est incorrect" })).toBeVisible();
  await expect(page.getByLabel("Mot de passe actuel")).toHaveValue("");
  await expectAccessible(page, "security, wrong current password");
  await changePassword(page, DEMO_PASSWORD, "court");
  await expect(page.getByRole("link", { name: /au moins 8 caractères/ })).toBeVisible();

  await changePassword(page, DEMO_PASSWORD, NEW_PASSWORD);
  await expect(page.getByText("Votre mot de passe est modifié. Vos autres sessions ont été fermées.")).toBeVisible();
  await expectAccessible(page, "security, password changed");

  // Signed out, the old password is refused and the new one works.
  await page.context().clearCookies();
  await page.goto("/login");
  await submitPassword(page, MARIE);
  await expect(
    page.getByRole("link", { name: "L’adresse e-mail ou le mot de passe est incorrect" }).first(),
  ).toBeVisible();
  await submitPassword(page, MARIE, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/login\/code$/);
  await page.getByLabel("Code à 6 chiffres").fill(await latestCodeFor(page.request, MARIE));
  await page.getByRole("button", { name: "Valider le code" }).click();
  await expect(page).toHaveURL(/\/cards/);
});

test.describe("on a 320 px wide phone", () => {
  test.use({ viewport: { width: 320, height: 640 } });

  test("the notification preferences stack: each type with its two named boxes on screen, nothing sideways", async ({
    page,
    makeAccount,
    signInAs,
  }) => {
    const account = await makeAccount({ cards: [{ type: "virtual", lastFour: "5556" }] });
    await signInAs(page, account);
    await page.goto("/settings/notifications");
    // Issue 30 item 7: the Push column was past the right edge, in a sideways scroll.
    await expectNoHorizontalScroll(page, "notification preferences at 320 px");
    for (const type of ["Paiements acceptés", "Paiements refusés", "Demandes de remboursement", "Portefeuilles"]) {
      const row = page.locator("tbody tr", { hasText: type });
      await expect(row.getByText("E-mail", { exact: true })).toBeVisible();
      await expect(row.getByText("Push", { exact: true })).toBeVisible();
      for (const name of [`${type} par e-mail`, `${type} par notification push`]) {
        const box = await page.getByRole("checkbox", { name }).boundingBox();
        expect(box, name).not.toBeNull();
        expect(box!.x + box!.width, name).toBeLessThanOrEqual(320);
      }
    }
    await page.getByRole("checkbox", { name: "Portefeuilles par notification push" }).uncheck();
    await page.getByRole("button", { name: "Enregistrer mes préférences" }).click();
    await expect(page.getByText("Vos préférences de notification sont enregistrées.")).toBeVisible();
    await expect(page.getByRole("checkbox", { name: "Portefeuilles par notification push" })).not.toBeChecked();
    await expectNoHorizontalScroll(page, "notification preferences saved, at 320 px");
    await expectAccessible(page, "notification preferences at 320 px");
  });
});

test("a form sent after the session ended says so and leads to sign-in", async ({ page, makeAccount, signInAs }) => {
  await signInAs(page, await makeAccount({ cards: [{ type: "physical", lastFour: "4242" }] }));
  await page.goto("/settings/security");
  await page.context().clearCookies();
  await changePassword(page, DEMO_PASSWORD, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText("Votre session a expiré. Connectez-vous à nouveau")).toBeVisible();
  await expectAccessible(page, "session expired");
});

test("bad input answers 400 in French, changes nothing and reveals nothing", async ({ page }) => {
  await signIn(page, MARIE);
  const post = (path: string, form: Record<string, string>) => page.request.post(path, { form, maxRedirects: 0 });
  const profile = { intent: "save", email: MARIE, phone: "+33 6 12 34 56 78" };

  const unchanged = await post("/settings/profile", profile);
  expect(unchanged.status()).toBe(400);
  expect(await unchanged.text()).toContain("Aucune modification à enregistrer");
  const taken = await post("/settings/profile", { ...profile, email: "claire.petit@example.com" });
  expect(taken.status()).toBe(400);
  expect(await taken.text()).toContain("déjà utilisée par un autre compte");
  const shortPhone = await post("/settings/profile", { ...profile, phone: "0612" });
  expect(shortPhone.status()).toBe(400);
  expect(await shortPhone.text()).toContain("au moins 10 caractères");
  // An intent the page does not declare, or none, is refused the same way on every route (decision 0021).
  for (const intent of ["delete", ""]) {
    const unknown = await post("/settings/profile", { ...profile, intent });
    expect(unknown.status(), intent).toBe(400);
    expect(await unknown.text(), intent).toContain("Cette action n’est pas reconnue. Rechargez la page et réessayez");
  }

  const wrongCurrent = await post("/settings/security", {
    currentPassword: "pas-le-bon",
    password: NEW_PASSWORD,
    confirmation: NEW_PASSWORD,
  });
  expect(wrongCurrent.status()).toBe(400);
  const weak = await post("/settings/security", {
    currentPassword: DEMO_PASSWORD,
    password: "faible",
    confirmation: "faible",
  });
  expect(weak.status()).toBe(400);
  const mismatch = await post("/settings/security", {
    currentPassword: DEMO_PASSWORD,
    password: NEW_PASSWORD,
    confirmation: `${NEW_PASSWORD}x`,
  });
  expect(mismatch.status()).toBe(400);
  expect(await mismatch.text()).toContain("Les deux nouveaux mots de passe ne sont pas identiques");

  // A confirmation link for an address nobody asked for reads exactly like a wrong code.
  const answers = [];
  for (const email of ["personne@example.com", MARIE]) {
    const res = await post("/user-confirmation", { email, code: "123456" });
    expect(res.status()).toBe(400);
    answers.push((await res.text()).includes("Ce lien ou ce code n’est plus valable"));
  }
  expect(answers).toEqual([true, true]);

  // Nothing changed: same address, same password.
  await page.goto("/settings/profile");
  await expect(page.getByText(`Connecté en tant que ${MARIE}`)).toBeVisible();
  await page.context().clearCookies();
  await page.goto("/login");
  await submitPassword(page, MARIE);
  await expect(page).toHaveURL(/\/login\/code$/);
});
