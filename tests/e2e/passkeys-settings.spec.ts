import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectAccessible, expectNoHorizontalScroll, latestCodeFor, wrongCodeFor } from "./helpers";
import { virtualAuthenticator } from "./passkeys";
import { deviceNameFromUserAgent } from "../../app/domain/device-name";
import { formatDate } from "../../app/domain/dates";
import { findPasskey, listPasskeys, savePasskey } from "../../app/.server/services/passkeys";
import type { DB } from "../../app/.server/db";
import { newSoftCredential, passkeyRecord } from "../support/soft-authenticator";

/**
 * Issue 32 item 1: the passkeys of the security settings. With JavaScript, a person adds one after a fresh
 * confirmation (a code from the outbox, then the passkey itself), sees it listed with its dates, renames it (a
 * bad name refused with 400) and removes it — in Chromium with a virtual authenticator (CDP WebAuthn). Without
 * JavaScript, a passkey already there is listed, renamed and removed the same way, and no add button is shown.
 * Nobody reaches another person's passkey, on the page as on the post. Each test makes its own account.
 */
const jsOn = () => test.info().project.use.javaScriptEnabled !== false;
const CODE_SUBJECT = "Votre code pour ajouter une clé d’accès";
const today = () => formatDate(new Date().toISOString());

/**
 * A passkey stored as a registration would store it, in the database only (its key is never used here: no ceremony
 * runs with it, so no authenticator is needed, with JavaScript off too).
 */
function storePasskey(db: DB, userId: string, name: string, options: { backedUp?: boolean; at?: Date } = {}) {
  const synced = options.backedUp ?? false;
  const credential = newSoftCredential({ backupEligible: synced, backedUp: synced });
  return savePasskey(db, userId, passkeyRecord(credential, name), options.at);
}

const panel = (page: Page) => page.locator("dialog.panel-dialog");
const passkeysCard = (page: Page) =>
  page.locator("section", { has: page.getByRole("heading", { name: "Clés d’accès" }) });

test("with JavaScript, a person adds a passkey after a code, confirms with it later, renames it and removes it", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  test.skip(!jsOn(), "WebAuthn needs a script: the JS-off project checks the list, rename and remove below");
  const account = await makeAccount({ cards: [{ type: "physical", lastFour: "3005" }] });
  await signInAs(page, account);
  // The phone's unlock: Chromium's virtual authenticator (its passkeys synced, as a phone's are).
  await virtualAuthenticator(page);

  // None yet: one sentence says what a passkey is; the add link shows once the page runs its script.
  await page.goto("/settings/security");
  const card = passkeysCard(page);
  await expect(card.getByText("Une clé d’accès vous connecte avec le déverrouillage de votre téléphone")).toBeVisible();
  await expectAccessible(page, "security settings, no passkey");
  await card.getByRole("link", { name: "Ajouter une clé d’accès" }).click();

  // Step 1: a fresh confirmation of the account, by a code sent where its codes go.
  await expect(page).toHaveURL(/\/settings\/security\/passkeys\/new$/);
  await expect(panel(page).getByRole("heading", { name: "Ajouter une clé d’accès" })).toBeVisible();
  await expect(panel(page).getByText("Étape 1 sur 3")).toBeVisible();
  // No passkey yet: nothing else to confirm with.
  await expect(page.getByRole("button", { name: "Confirmer avec une clé d’accès" })).toHaveCount(0);
  await expectAccessible(page, "add a passkey, confirm");
  await panel(page)
    .getByRole("button", { name: /^Recevoir un code à / })
    .click();

  // Step 2: the one code step; a wrong code is refused, the right one from the outbox goes on.
  await expect(page).toHaveURL(/\?step=code$/);
  const code = await latestCodeFor(page.request, account.email, CODE_SUBJECT);
  await page.getByLabel("Code à 6 chiffres").fill(wrongCodeFor(code));
  await page.getByRole("button", { name: "Valider le code" }).click();
  await expect(page.getByRole("link", { name: "Ce code est incorrect. Vérifiez-le et réessayez" })).toBeVisible();
  await expect(page).toHaveTitle(/^Erreur : /);
  await expectAccessible(page, "add a passkey, wrong code");
  await page.getByLabel("Code à 6 chiffres").fill(code);
  await page.getByRole("button", { name: "Valider le code" }).click();

  // Step 3: the name, prefilled after this browser, then the virtual authenticator makes the passkey.
  await expect(page).toHaveURL(/\?step=add$/);
  await expect(panel(page).getByText("C’est bien vous. Vous avez 10 minutes pour créer la clé d’accès.")).toBeVisible();
  const deviceName = deviceNameFromUserAgent(await page.evaluate(() => navigator.userAgent));
  await expect(page.getByLabel("Nom de la clé d’accès")).toHaveValue(deviceName);
  await expectAccessible(page, "add a passkey, name");
  await page.getByRole("button", { name: "Créer la clé d’accès" }).click();

  await expect(page).toHaveURL(/\/settings\/security$/);
  await expect(
    page.getByText(`Clé d’accès « ${deviceName} » ajoutée. Vous pourrez l’utiliser à votre prochaine connexion.`),
  ).toBeVisible();
  const item = card.getByRole("listitem").filter({ has: page.getByRole("heading", { name: deviceName }) });
  await expect(item.getByText(`Ajoutée le ${today()}`)).toBeVisible();
  await expect(item.getByText("Jamais utilisée")).toBeVisible();
  await expect(item.getByText("Synchronisée", { exact: true })).toBeVisible();
  await expectAccessible(page, "security settings, one passkey added");
  // The person is told by e-mail, in case it was not them.
  const outbox = await (await page.request.get("/dev/outbox")).text();
  expect(outbox).toContain("Une clé d’accès a été ajoutée à votre compte");

  // Adding another: the passkey itself confirms the account now (no code), and counts as used.
  await card.getByRole("link", { name: "Ajouter une clé d’accès" }).click();
  await panel(page).getByRole("button", { name: "Confirmer avec une clé d’accès" }).click();
  await expect(page).toHaveURL(/\?step=add$/);
  // The same authenticator cannot hold two passkeys of one account: the browser refuses, the panel says so.
  await page.getByRole("button", { name: "Créer la clé d’accès" }).click();
  await expect(panel(page).getByRole("alert")).toHaveText("Cette clé d’accès est déjà enregistrée pour votre compte.");
  await expectAccessible(page, "add a passkey, already registered");
  await panel(page).getByRole("link", { name: "Fermer", exact: true }).click();
  await expect(item.getByText(`Dernière utilisation le ${today()}`)).toBeVisible();

  // Renaming: a bad name is refused with its words (400), a good one is saved.
  await item.getByRole("link", { name: `Renommer la clé d’accès « ${deviceName} »` }).click();
  await expect(panel(page).getByRole("heading", { name: "Renommer la clé d’accès" })).toBeVisible();
  const name = page.getByLabel("Nom de la clé d’accès");
  await expect(name).toHaveValue(deviceName);
  await name.fill("x".repeat(61));
  const [refused] = await Promise.all([
    page.waitForResponse((response) => response.request().method() === "POST"),
    page.getByRole("button", { name: "Enregistrer le nom" }).click(),
  ]);
  expect(refused.status()).toBe(400);
  await expect(page.getByRole("link", { name: "Le nom ne peut pas dépasser 60 caractères" })).toBeVisible();
  await expect(page).toHaveTitle(/^Erreur : /);
  await expectAccessible(page, "rename a passkey, name too long");
  await name.fill("Ordinateur du bureau");
  await page.getByRole("button", { name: "Enregistrer le nom" }).click();
  await expect(page).toHaveURL(/\/settings\/security$/);
  await expect(page.getByText("La clé d’accès s’appelle désormais « Ordinateur du bureau ».")).toBeVisible();

  // Removing the only one: the panel says the sign-in goes back to a code, and where it is sent.
  await card.getByRole("link", { name: "Supprimer la clé d’accès « Ordinateur du bureau »" }).click();
  await expect(panel(page).getByText(/^C’est votre seule clé d’accès : ensuite, vous vous connecterez/)).toBeVisible();
  await expectAccessible(page, "remove a passkey, confirmation");
  await panel(page).getByRole("button", { name: "Supprimer la clé d’accès", exact: true }).click();
  await expect(page).toHaveURL(/\/settings\/security$/);
  await expect(page.getByText("Clé d’accès « Ordinateur du bureau » supprimée.")).toBeVisible();
  await expect(card.getByText("Une clé d’accès vous connecte avec le déverrouillage")).toBeVisible();
  await expectAccessible(page, "security settings, passkey removed");
});

test("a passkey already there is listed, renamed and removed, without JavaScript as with it", async ({
  page,
  makeAccount,
  signInAs,
  e2eDatabase,
}) => {
  const { db } = e2eDatabase.handle;
  const account = await makeAccount({ cards: [{ type: "physical", lastFour: "3005" }] });
  const older = await storePasskey(db, account.userId, "Téléphone perso", {
    backedUp: true,
    at: new Date(Date.now() - 86_400_000),
  });
  const newer = await storePasskey(db, account.userId, "Ordinateur portable");
  await signInAs(page, account);

  await page.goto("/settings/security");
  const card = passkeysCard(page);
  // Newest first; the one kept by a password manager says so.
  await expect(card.getByRole("heading", { level: 3 })).toHaveText(["Ordinateur portable", "Téléphone perso"]);
  const synced = card.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Téléphone perso" }) });
  await expect(synced.getByText("Synchronisée", { exact: true })).toBeVisible();
  await expect(card.getByText("Synchronisée", { exact: true })).toHaveCount(1);
  if (jsOn()) {
    await expect(card.getByRole("link", { name: "Ajouter une clé d’accès" })).toBeVisible();
  } else {
    await expect(card.getByRole("link", { name: "Ajouter une clé d’accès" })).toHaveCount(0);
    // In a <noscript>, which a browser with JavaScript off shows (Playwright's does not): read in the page's HTML.
    const html = await (await page.request.get("/settings/security")).text();
    expect(html).toMatch(
      /<noscript><p class="hint">Pour ajouter une clé d’accès, activez JavaScript[^<]*<\/p><\/noscript>/,
    );
  }
  await expectAccessible(page, "security settings, two passkeys");

  // An empty name: 400, the error summary and the field's message, the title saying "Erreur".
  await card.getByRole("link", { name: "Renommer la clé d’accès « Ordinateur portable »" }).click();
  await expect(page).toHaveURL(new RegExp(`/settings/security/passkeys/${newer.id}$`));
  await page.getByLabel("Nom de la clé d’accès").fill("   ");
  const [refused] = await Promise.all([
    page.waitForResponse((response) => response.request().method() === "POST"),
    page.getByRole("button", { name: "Enregistrer le nom" }).click(),
  ]);
  expect(refused.status()).toBe(400);
  await expect(
    page.getByRole("link", { name: "Donnez un nom à cette clé d’accès, par exemple celui de l’appareil" }),
  ).toBeVisible();
  await expect(page).toHaveTitle(/^Erreur : /);
  await expectAccessible(page, "rename a passkey, empty name");
  await page.getByLabel("Nom de la clé d’accès").fill("  PC du salon  ");
  await page.getByRole("button", { name: "Enregistrer le nom" }).click();
  await expect(page).toHaveURL(/\/settings\/security$/);
  await expect(page.getByText("La clé d’accès s’appelle désormais « PC du salon ».")).toBeVisible();
  await expect(card.getByRole("heading", { level: 3 })).toHaveText(["PC du salon", "Téléphone perso"]);
  await expectAccessible(page, "security settings, passkey renamed");

  // Removing one of two: no word of going back to codes, the other one stays.
  await card.getByRole("link", { name: "Supprimer la clé d’accès « Téléphone perso »" }).click();
  await expect(page.getByRole("heading", { name: "Supprimer la clé d’accès" })).toBeVisible();
  await expect(page.getByText("La clé d’accès « Téléphone perso » ne permettra plus de vous connecter")).toBeVisible();
  await expect(page.getByText(/C’est votre seule clé d’accès/)).toHaveCount(0);
  await expectAccessible(page, "remove a passkey, confirmation");
  await page.getByRole("button", { name: "Supprimer la clé d’accès", exact: true }).click();
  await expect(page).toHaveURL(/\/settings\/security$/);
  await expect(page.getByText("Clé d’accès « Téléphone perso » supprimée.")).toBeVisible();
  await expect(card.getByRole("heading", { level: 3 })).toHaveText(["PC du salon"]);
  expect(await findPasskey(db, account.userId, older.id)).toBeNull();

  // Without JavaScript, the confirmation by code still works, and the last step says why it cannot go on.
  if (!jsOn()) {
    await page.goto("/settings/security/passkeys/new");
    await page.getByRole("button", { name: /^Recevoir un code à / }).click();
    await page.getByLabel("Code à 6 chiffres").fill(await latestCodeFor(page.request, account.email, CODE_SUBJECT));
    await page.getByRole("button", { name: "Valider le code" }).click();
    await expect(page).toHaveURL(/\?step=add$/);
    await expect(page.getByText("Étape 3 sur 3")).toBeVisible();
    const html = await (await page.request.get(page.url())).text();
    expect(html).toMatch(
      /<noscript><p class="alert alert--warning">La création d’une clé d’accès a besoin de JavaScript/,
    );
    await expect(page.getByRole("button", { name: "Créer la clé d’accès" })).toHaveCount(0);
    await expectAccessible(page, "add a passkey without JavaScript, last step");
  }
});

test("the light version (Save-Data) lists the passkeys but offers no adding, and says why", async ({
  page,
  makeAccount,
  signInAs,
  e2eDatabase,
}) => {
  const account = await makeAccount({ cards: [{ type: "physical", lastFour: "3005" }] });
  await storePasskey(e2eDatabase.handle.db, account.userId, "Téléphone perso");
  await signInAs(page, account);
  await page.setExtraHTTPHeaders({ "Save-Data": "on" });
  await page.goto("/settings/security");
  const card = passkeysCard(page);
  await expect(card.getByRole("heading", { level: 3 })).toHaveText(["Téléphone perso"]);
  await expect(card.getByRole("link", { name: "Ajouter une clé d’accès" })).toHaveCount(0);
  await expect(card.getByText("Pour ajouter une clé d’accès, activez JavaScript")).toBeVisible();
  await expect(card.getByText(/^Version légère : votre navigateur demande d’économiser les données/)).toBeVisible();
  await expectAccessible(page, "security settings, light version");
});

test.describe("on a 320 px wide phone", () => {
  test.use({ viewport: { width: 320, height: 640 } });

  test("a long unbroken passkey name wraps: the list and its panels scroll only downwards", async ({
    page,
    makeAccount,
    signInAs,
    e2eDatabase,
  }) => {
    const account = await makeAccount({ cards: [{ type: "physical", lastFour: "3005" }] });
    const long = "Ordinateur".repeat(6);
    const passkey = await storePasskey(e2eDatabase.handle.db, account.userId, long, { backedUp: true });
    await signInAs(page, account);
    await page.goto("/settings/security");
    await expect(passkeysCard(page).getByRole("heading", { name: long })).toBeVisible();
    await expectNoHorizontalScroll(page, "security settings with a long passkey name at 320 px");
    await page.goto(`/settings/security/passkeys/${passkey.id}?step=remove`);
    await expect(page.getByText(`La clé d’accès « ${long} » ne permettra plus`)).toBeVisible();
    await expectNoHorizontalScroll(page, "remove panel with a long passkey name at 320 px");
    await page.goto("/settings/security/passkeys/new");
    await expectNoHorizontalScroll(page, "add panel at 320 px");
  });
});

test("removing the last passkey of an account without codes never locks it out: it is asked to choose its codes", async ({
  page,
  makeAccount,
  signInAs,
  e2eDatabase,
}) => {
  // No e-mail or SMS code set up: the passkey alone stood for the second factor (spec 001 §4, decision 0061).
  const account = await makeAccount({ mfa: null, cards: [{ type: "physical", lastFour: "3005" }] });
  const only = await storePasskey(e2eDatabase.handle.db, account.userId, "Téléphone pro");
  await signInAs(page, account);
  await page.goto(`/settings/security/passkeys/${only.id}?step=remove`);
  await expect(page.getByText(/^C’est votre seule clé d’accès et aucun code de connexion n’est activé/)).toBeVisible();
  await expectAccessible(page, "remove the last passkey of an account without codes");
  await page.getByRole("button", { name: "Supprimer la clé d’accès", exact: true }).click();

  // Held until a code channel is chosen, as any account without a second factor; the e-mail is offered.
  await expect(page).toHaveURL(/\/secure-account\/second-factor$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sécurisez votre compte");
  await expect(page.getByRole("link", { name: "Activer Par e-mail" })).toBeVisible();
  await expectAccessible(page, "secure account after the last passkey was removed");
});

test("another person's passkey, or an unknown one, is neither shown, renamed nor removed", async ({
  page,
  makeAccount,
  signInAs,
  e2eDatabase,
}) => {
  const { db } = e2eDatabase.handle;
  const owner = await makeAccount({ cards: [{ type: "physical", lastFour: "3005" }] });
  const theirs = await storePasskey(db, owner.userId, "Téléphone de quelqu’un d’autre");
  const intruder = await makeAccount({ cards: [{ type: "physical", lastFour: "3005" }] });
  await signInAs(page, intruder);

  for (const id of [theirs.id, "pk_unknown"]) {
    await page.goto(`/settings/security/passkeys/${id}`);
    await expect(page).toHaveURL(/\/settings\/security$/);
    await expect(page.getByText("Cette clé d’accès n’existe pas ou plus dans votre compte.")).toBeVisible();
    await expect(page.getByText("Téléphone de quelqu’un d’autre")).toHaveCount(0);
  }
  await expectAccessible(page, "security settings, someone else's passkey refused");

  const renamed = await page.request.post(`/settings/security/passkeys/${theirs.id}`, {
    form: { intent: "rename", name: "Volé" },
    maxRedirects: 0,
  });
  expect(renamed.status()).toBe(302);
  expect(renamed.headers()["location"]).toBe("/settings/security");
  const removed = await page.request.post(`/settings/security/passkeys/${theirs.id}?step=remove`, {
    form: { intent: "remove" },
    maxRedirects: 0,
  });
  expect(removed.status()).toBe(302);
  expect(await findPasskey(db, owner.userId, theirs.id)).toMatchObject({ name: "Téléphone de quelqu’un d’autre" });
  expect(await listPasskeys(db, intruder.userId)).toEqual([]);
});

test("the registration's options need a fresh confirmation of this account", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  const account = await makeAccount({ cards: [{ type: "physical", lastFour: "3005" }] });
  await signInAs(page, account);
  // No confirmation yet: no options (so no challenge), whatever the name.
  const refused = await page.request.post("/settings/security/passkeys/ceremony", {
    form: { for: "register", step: "options", name: "Mon téléphone" },
  });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toEqual({ error: "passkeys.settings.new.confirmFirst" });
  // The add step itself sends back to the confirmation.
  await page.goto("/settings/security/passkeys/new?step=add");
  await expect(page).toHaveURL(/\/settings\/security\/passkeys\/new$/);
  await expect(page.getByText("Étape 1 sur 3")).toBeVisible();
  // Confirming with a passkey when the account has none: nothing to offer.
  const none = await page.request.post("/settings/security/passkeys/ceremony", {
    form: { for: "confirm", step: "options" },
  });
  expect(none.status()).toBe(404);
  // Anything else than the two ceremonies is refused.
  const unknown = await page.request.post("/settings/security/passkeys/ceremony", {
    form: { for: "signIn", step: "options" },
  });
  expect(unknown.status()).toBe(400);
});
