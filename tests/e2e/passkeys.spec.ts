import type { Page } from "@playwright/test";
import type { DB } from "../../app/.server/db";
import { expect, test, type TestAccount } from "./fixtures";
import { expectAccessible, latestCodeFor, signIn, submitPassword } from "./helpers";
import { credentialsOf, virtualAuthenticator } from "./passkeys";

/**
 * Issue 32's whole story, as its "Done when" tells it, in Chromium with a virtual authenticator (CDP WebAuthn,
 * tests/e2e/passkeys.ts) for the phone's unlock: a person adds a passkey in the security settings (after the
 * fresh confirmation by a code), signs out, signs in with password and passkey, signs out, signs in with the
 * passkey alone, shows a PIN with it — no code sent for any of these — then removes it, and the next passkey
 * sign-in is refused in words. Without JavaScript no passkey is offered and the code journey is unchanged.
 * The slices' own journeys (passkeys-sign-in, -settings, -reveal) go into each part's details.
 */
const jsOn = () => test.info().project.use.javaScriptEnabled !== false;
const CARD = { cards: [{ type: "physical" as const, lastFour: "4242" }] };
const ADD_SUBJECT = "Votre code pour ajouter une clé d’accès";
const PASSKEY_SIGN_IN = "Se connecter avec une clé d’accès";

/** The codes sent to this address so far (sign-in, reveal, confirmation), read in the outbox table. */
async function codesSentTo(db: DB, email: string): Promise<number> {
  const rows = await db
    .selectFrom("outbox")
    .select("id")
    .where("recipient", "=", email)
    .where("subject", "like", "%code%")
    .execute();
  return rows.length;
}

async function signOut(page: Page) {
  await page.locator("summary", { hasText: "Mon compte" }).click();
  await page.getByRole("button", { name: "Se déconnecter" }).click();
  await expect(page).toHaveURL(/\/login$/);
}

async function expectOnHerCard(page: Page) {
  await expect(page).toHaveURL(/\/cards\/card_[\w-]+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Carte physique •••• 4242");
}

const passkeysCard = (page: Page) =>
  page.locator("section", { has: page.getByRole("heading", { name: "Clés d’accès" }) });
const panel = (page: Page) => page.locator("dialog.panel-dialog");

/** Adds a passkey through the settings: the add panel, its code from the outbox, the name, the authenticator. */
async function addPasskey(page: Page, account: TestAccount, name: string) {
  await page.goto("/settings/security");
  await expectAccessible(page, "security settings, no passkey");
  await passkeysCard(page).getByRole("link", { name: "Ajouter une clé d’accès" }).click();
  await expectAccessible(page, "add a passkey, confirm");
  await panel(page)
    .getByRole("button", { name: /^Recevoir un code à / })
    .click();
  // The code step once the code is sent, the name step once it is right (the settings' own journey details them).
  await expect(page).toHaveURL(/\?step=code$/);
  await page.getByLabel("Code à 6 chiffres").fill(await latestCodeFor(page.request, account.email, ADD_SUBJECT));
  await page.getByRole("button", { name: "Valider le code" }).click();
  await expect(page).toHaveURL(/\?step=add$/);
  await page.getByLabel("Nom de la clé d’accès").fill(name);
  await expectAccessible(page, "add a passkey, name");
  await page.getByRole("button", { name: "Créer la clé d’accès" }).click();
  await expect(page).toHaveURL(/\/settings\/security$/);
  await expect(page.getByText(`Clé d’accès « ${name} » ajoutée.`, { exact: false })).toBeVisible();
  await expectAccessible(page, "security settings, passkey added");
}

test("a person adds a passkey, signs in with it after the password and alone, shows her PIN, then removes it", async ({
  page,
  makeAccount,
  e2eDatabase,
}) => {
  test.skip(!jsOn(), "WebAuthn needs a script: without it every journey is the code's (the test below)");
  const { db } = e2eDatabase.handle;
  const account = await makeAccount(CARD);
  const authenticator = await virtualAuthenticator(page);
  await signIn(page, account.email);
  await addPasskey(page, account, "Téléphone de la démo");
  const [credential] = await credentialsOf(authenticator);
  expect(credential?.isResidentCredential).toBe(true);
  const codes = await codesSentTo(db, account.email);

  // Password, then the passkey instead of a code.
  await signOut(page);
  await submitPassword(page, account.email);
  await expect(page).toHaveURL(/\/login\/code$/);
  await expectAccessible(page, "second factor with a passkey");
  await page.getByRole("button", { name: "Utiliser ma clé d’accès" }).click();
  await expectOnHerCard(page);
  expect(await codesSentTo(db, account.email)).toBe(codes);

  // The passkey alone: no e-mail typed.
  await signOut(page);
  await expectAccessible(page, "sign-in with the passkey offered");
  await page.getByRole("button", { name: PASSKEY_SIGN_IN }).click();
  await expectOnHerCard(page);
  expect(await codesSentTo(db, account.email)).toBe(codes);

  // The PIN, shown after the phone's unlock.
  await page.goto(`/cards/${account.cards["4242"]}/reveal`);
  const reveal = page.getByRole("dialog", { name: "Code PIN" });
  await expectAccessible(page, "reveal, ask, with a passkey");
  await reveal.getByRole("button", { name: "Afficher avec ma clé d’accès" }).click();
  await expect(page.frameLocator("iframe[title='Code PIN']").getByText("1234")).toBeVisible();
  await expectAccessible(page, "reveal, PIN shown");
  expect(await codesSentTo(db, account.email)).toBe(codes);
  // Three uses of the passkey, each signed with a higher counter by the authenticator.
  const [used] = await credentialsOf(authenticator);
  expect(used?.signCount).toBeGreaterThanOrEqual(3);

  // Removed in the settings: the phone still offers it, the portal refuses it in words.
  await page.goto("/settings/security");
  await passkeysCard(page).getByRole("link", { name: "Supprimer la clé d’accès « Téléphone de la démo »" }).click();
  await expectAccessible(page, "remove the passkey, confirmation");
  await panel(page).getByRole("button", { name: "Supprimer la clé d’accès", exact: true }).click();
  await expect(page.getByText("Clé d’accès « Téléphone de la démo » supprimée.")).toBeVisible();
  await signOut(page);
  await page.getByRole("button", { name: PASSKEY_SIGN_IN }).click();
  const refused = page.getByRole("alert").filter({ hasText: "clé d’accès" });
  await expect(refused).toHaveText(
    "Cette clé d’accès n’est pas enregistrée pour ce compte : elle a peut-être été supprimée. Utilisez un code.",
  );
  await expect(page).toHaveURL(/\/login$/);
  await expectAccessible(page, "sign-in, removed passkey refused");
});

test("without JavaScript no passkey is offered and the code journey signs in", async ({ page, makeAccount }) => {
  test.skip(jsOn(), "with JavaScript the passkey journey above runs");
  const account = await makeAccount(CARD);
  await page.goto("/login");
  await expect(page.getByRole("button", { name: /clé d’accès/ })).toHaveCount(0);
  await expectAccessible(page, "sign-in without JavaScript");
  await signIn(page, account.email);
  await expectOnHerCard(page);
  await page.goto("/settings/security");
  await expect(passkeysCard(page).getByRole("link", { name: "Ajouter une clé d’accès" })).toHaveCount(0);
  await expectAccessible(page, "security settings without JavaScript");
});
