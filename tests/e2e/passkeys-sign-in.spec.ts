import type { APIRequestContext, Page } from "@playwright/test";
import { removePasskey } from "../../app/.server/services/passkeys";
import { expect, test, type TestAccount } from "./fixtures";
import { expectAccessible, latestCodeFor, submitPassword } from "./helpers";
import { seedPasskey, setUserVerified } from "./passkeys";

/**
 * Signing in with a passkey (issue 32 items 2 and 5, decision 0061), with Chromium's virtual authenticator
 * standing for the phone's unlock: after the password without any code sent, alone from /login without the
 * e-mail typed, a code instead in one click, a removed passkey and a closed prompt said so. Without
 * JavaScript nothing of it shows: an account with a passkey signs in by code as before.
 */
const jsOn = () => test.info().project.use.javaScriptEnabled !== false;
const CARD = { cards: [{ type: "physical" as const, lastFour: "4242" }] };

/** Whether a sign-in code was sent to this address (the sandbox outbox, as a person reads their mail). */
async function codeSent(request: APIRequestContext, email: string): Promise<boolean> {
  return latestCodeFor(request, email).then(
    () => true,
    () => false,
  );
}

async function expectSignedIn(page: Page) {
  await expect(page).toHaveURL(/\/cards\/card_[\w-]+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Carte physique •••• 4242");
}

async function passwordThenPasskeyStep(page: Page, account: TestAccount) {
  await page.goto("/login");
  await submitPassword(page, account.email);
  await expect(page).toHaveURL(/\/login\/code$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Confirmez votre connexion");
}

test.describe("with JavaScript", () => {
  test.beforeEach(() => test.skip(!jsOn(), "WebAuthn needs a script: without it the sign-in is by code"));

  test("password then passkey: no code is sent, the passkey signs in", async ({ page, makeAccount, e2eDatabase }) => {
    const account = await makeAccount(CARD);
    await seedPasskey(page, account, e2eDatabase.handle.db);
    await page.goto("/login");
    await expect(page.getByRole("button", { name: "Se connecter avec une clé d’accès" })).toBeVisible();
    await expectAccessible(page, "sign-in with the passkey offered");

    await passwordThenPasskeyStep(page, account);
    await expect(page.getByRole("button", { name: "Utiliser un code à la place" })).toBeVisible();
    await expectAccessible(page, "second factor by passkey");
    expect(await codeSent(page.request, account.email)).toBe(false);

    await page.getByRole("button", { name: "Utiliser ma clé d’accès" }).click();
    await expectSignedIn(page);
    expect(await codeSent(page.request, account.email)).toBe(false);
  });

  test("the passkey alone, from /login, without the e-mail typed", async ({ page, makeAccount, e2eDatabase }) => {
    const account = await makeAccount(CARD);
    await seedPasskey(page, account, e2eDatabase.handle.db);
    await page.goto("/login");
    await page.getByRole("button", { name: "Se connecter avec une clé d’accès" }).click();
    await expectSignedIn(page);
    expect(await codeSent(page.request, account.email)).toBe(false);
  });

  test("« Utiliser un code à la place » sends the code, and the code signs in", async ({
    page,
    makeAccount,
    e2eDatabase,
  }) => {
    const account = await makeAccount(CARD);
    await seedPasskey(page, account, e2eDatabase.handle.db);
    await passwordThenPasskeyStep(page, account);
    await page.getByRole("button", { name: "Utiliser un code à la place" }).click();

    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Code de vérification");
    // The passkey stays one click away on the code step.
    await expect(page.getByRole("button", { name: "Utiliser ma clé d’accès à la place" })).toBeVisible();
    await expectAccessible(page, "code step of an account with a passkey");
    await page.getByLabel("Code à 6 chiffres").fill(await latestCodeFor(page.request, account.email));
    await page.getByRole("button", { name: "Valider le code" }).click();
    await expectSignedIn(page);
  });

  test("a removed passkey is refused in words, and the code still signs in", async ({
    page,
    makeAccount,
    e2eDatabase,
  }) => {
    const account = await makeAccount(CARD);
    const { passkey } = await seedPasskey(page, account, e2eDatabase.handle.db);
    expect(await removePasskey(e2eDatabase.handle.db, account.userId, passkey.id)).toBe(true);

    await page.goto("/login");
    await page.getByRole("button", { name: "Se connecter avec une clé d’accès" }).click();
    const alert = page.getByRole("alert").filter({ hasText: "clé d’accès" });
    await expect(alert).toHaveText(
      "Cette clé d’accès n’est pas enregistrée pour ce compte : elle a peut-être été supprimée. Utilisez un code.",
    );
    await expect(alert).toBeFocused();
    await expect(page).toHaveURL(/\/login$/);
    await expectAccessible(page, "sign-in, passkey refused");

    // Without a passkey left, the password asks for the code, as it always did.
    await submitPassword(page, account.email);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Code de vérification");
    await page.getByLabel("Code à 6 chiffres").fill(await latestCodeFor(page.request, account.email));
    await page.getByRole("button", { name: "Valider le code" }).click();
    await expectSignedIn(page);
  });

  test("the person not unlocking the device is told the passkey was not used", async ({
    page,
    makeAccount,
    e2eDatabase,
  }) => {
    const account = await makeAccount(CARD);
    const { authenticator } = await seedPasskey(page, account, e2eDatabase.handle.db);
    await setUserVerified(authenticator, false);
    await passwordThenPasskeyStep(page, account);
    await page.getByRole("button", { name: "Utiliser ma clé d’accès" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "clé d’accès" })).toHaveText(
      "La clé d’accès n’a pas été utilisée : la demande a été annulée ou a expiré. Réessayez ou utilisez un code.",
    );
    await expect(page).toHaveURL(/\/login\/code$/);
    await expectAccessible(page, "second factor, prompt closed");

    // Unlocked this time: the same page, the same button, signed in.
    await setUserVerified(authenticator, true);
    await page.getByRole("button", { name: "Utiliser ma clé d’accès" }).click();
    await expectSignedIn(page);
  });
});

test("without JavaScript no passkey is offered, and an account with one signs in by code", async ({
  page,
  makeAccount,
  e2eDatabase,
}) => {
  test.skip(jsOn(), "the same account with JavaScript is the journeys above");
  const account = await makeAccount(CARD);
  await seedPasskey(page, account, e2eDatabase.handle.db);
  await page.goto("/login");
  await expect(page.getByRole("button", { name: /clé d’accès/ })).toHaveCount(0);
  await expectAccessible(page, "sign-in without JavaScript");

  await submitPassword(page, account.email);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Code de vérification");
  await expect(page.getByRole("button", { name: /clé d’accès/ })).toHaveCount(0);
  await expectAccessible(page, "code step without JavaScript");
  await page.getByLabel("Code à 6 chiffres").fill(await latestCodeFor(page.request, account.email));
  await page.getByRole("button", { name: "Valider le code" }).click();
  await expectSignedIn(page);
});
