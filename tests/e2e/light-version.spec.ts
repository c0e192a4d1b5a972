import { createServer, request as forward } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "@playwright/test";
import { expect, test as base, type AccountOptions } from "./fixtures";
import { expectAccessible, latestCodeFor, submitPassword } from "./helpers";

/**
 * The light version for poor networks (issue 18 §3, decision 0040): with the browser's `Save-Data: on`, or the
 * account's "Version légère" setting, pages carry no script element at all — and the journeys still pass, in a
 * browser that runs JavaScript too (the js-on project), because the light page is exactly the no-JS page. Each
 * journey has an account of its own (fixtures.ts).
 */

/**
 * The browser's `Save-Data: on` on every request, as a browser's data saver (once a data-saving proxy) sends it:
 * a pass-through in front of this project's server that adds the header (keeping the browser's Host, so the
 * portal sees its own origin). Not the context's `extraHTTPHeaders`: Chromium leaves those off the request that
 * follows a redirect (after each form), where the page would come back full.
 */
const test = base.extend<{ saveData: string }>({
  saveData: async ({ baseURL }, provide) => {
    const target = new URL(baseURL!);
    const proxy = createServer((incoming, outgoing) => {
      const upstream = forward(
        {
          host: "127.0.0.1",
          port: target.port,
          method: incoming.method,
          path: incoming.url,
          headers: { ...incoming.headers, "save-data": "on" },
        },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
          answer.pipe(outgoing);
        },
      );
      upstream.on("error", () => outgoing.destroy());
      incoming.pipe(upstream);
    });
    await new Promise<void>((listening) => proxy.listen(0, "127.0.0.1", listening));
    await provide(`http://localhost:${(proxy.address() as AddressInfo).port}`);
    proxy.closeAllConnections();
    await new Promise((closed) => proxy.close(closed));
  },
});

const jsOn = () => test.info().project.use.javaScriptEnabled !== false;

/** Not one `<script>` (module, inline, JSON, tag manager…), nor a modulepreload link. */
async function expectNoScript(page: Page, state: string) {
  await expect(page.locator("script"), `scripts on ${state}`).toHaveCount(0);
  await expect(page.locator('link[rel="modulepreload"]'), `modulepreloads on ${state}`).toHaveCount(0);
}

const ACCOUNT: AccountOptions = {
  wallets: [
    { name: "Titres-restaurant", type: "meal", balance: 15240 },
    { name: "Mobilité", type: "mobility", balance: 42000 },
  ],
  cards: [{ type: "physical", lastFour: "4242", wallets: ["Titres-restaurant", "Mobilité"] }],
};

async function openAction(page: Page, name: string) {
  await page.locator("summary", { hasText: "Actions sur la carte" }).click();
  await page.getByRole("link", { name }).click();
}

/** The sign-in's real forms: the password, then the code from the outbox. */
async function signInWithCode(page: Page, email: string) {
  await page.goto("/login");
  await submitPassword(page, email);
  await expect(page).toHaveURL(/\/login\/code$/);
  await page.getByLabel("Code à 6 chiffres").fill(await latestCodeFor(page.request, email));
  await page.getByRole("button", { name: "Valider le code" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Carte physique •••• 4242");
}

async function freezeCard(page: Page) {
  await openAction(page, "Geler la carte");
  const panel = page.getByRole("dialog", { name: "Geler la carte" });
  await expect(panel).toBeVisible();
  await expectNoScript(page, "freeze panel");
  await panel.getByRole("button", { name: "Confirmer le gel de la carte" }).click();
  await expect(
    page.getByText("Votre carte est gelée : les paiements sont suspendus jusqu’à ce que vous la dégeliez."),
  ).toBeVisible();
  await expectNoScript(page, "frozen card");
  await expectAccessible(page, "frozen card, light");
}

async function chooseLightVersion(page: Page, on: boolean) {
  const group = page.getByRole("group", { name: "Version légère" });
  await group.getByRole("radio", { name: on ? "Activée" : "Désactivée (version complète)", exact: true }).check();
  await page.getByRole("button", { name: "Appliquer l’affichage" }).click();
  await expect(
    page.getByText(on ? "La version légère est activée." : "La version complète est rétablie."),
  ).toBeVisible();
}

test.describe("with the browser's Save-Data: on", () => {
  test("no script on any page; sign-in with its code, the wallets' order, a notification setting", async ({
    page,
    makeAccount,
    saveData,
  }) => {
    test.setTimeout(90_000);
    const account = await makeAccount(ACCOUNT);
    await page.goto(`${saveData}/login`);
    await expectNoScript(page, "login");
    // The footer says why the page is light and how to leave (the browser's data saver).
    await expect(page.getByText(/Version légère : votre navigateur demande d’économiser les données/)).toBeVisible();
    await expectAccessible(page, "login, light");

    await submitPassword(page, account.email);
    await expect(page).toHaveURL(/\/login\/code$/);
    await expectNoScript(page, "code");
    await expectAccessible(page, "code, light");
    await page.getByLabel("Code à 6 chiffres").fill(await latestCodeFor(page.request, account.email));
    await page.getByRole("button", { name: "Valider le code" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Carte physique •••• 4242");
    await expectNoScript(page, "card");
    await expectAccessible(page, "card, light");

    // The wallets' debit order, with the panel's buttons (its no-JS form).
    await openAction(page, "Ordre de débit des portefeuilles");
    const panel = page.getByRole("dialog", { name: "Ordre de débit des portefeuilles" });
    const rows = panel.getByRole("list", { name: "Portefeuilles dans l’ordre de débit" }).getByRole("listitem");
    await panel.getByRole("button", { name: "Monter Mobilité" }).click();
    await expect(rows).toHaveText([/Mobilité/, /Titres-restaurant/]);
    await expectNoScript(page, "priority, moved");
    await expectAccessible(page, "priority, light");
    await panel.getByRole("button", { name: "Enregistrer l’ordre" }).click();
    await expect(page.getByText("Ordre modifié avec succès")).toBeVisible();
    await expect(page.getByRole("region", { name: "Portefeuilles liés" }).getByRole("listitem")).toHaveText([
      /Mobilité/,
      /Titres-restaurant/,
    ]);

    await page.goto(`${saveData}/wallets`);
    await expect(page).toHaveURL(/\/wallets\/wal_[\w-]+$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Titres-restaurant");
    await expectNoScript(page, "wallets");
    await expectAccessible(page, "wallets, light");

    await page.goto(`${saveData}/settings/notifications`);
    await expectNoScript(page, "notification settings");
    const box = page.getByRole("checkbox", { name: "Portefeuilles par e-mail" });
    await expect(box).toBeChecked();
    await box.uncheck();
    await page.getByRole("button", { name: "Enregistrer mes préférences" }).click();
    await expect(page.getByText("Vos préférences de notification sont enregistrées.")).toBeVisible();
    await expect(page.getByRole("checkbox", { name: "Portefeuilles par e-mail" })).not.toBeChecked();
    await expectNoScript(page, "notification settings, saved");
    await expectAccessible(page, "notification settings saved, light");

    // The setting says the browser's request wins over it.
    await page.goto(`${saveData}/settings/profile`);
    await expectNoScript(page, "profile settings");
    await expect(
      page.getByText(/Votre navigateur demande d’économiser les données : la version légère reste/),
    ).toBeVisible();
    await expectAccessible(page, "profile settings, light");
  });
});

test("the account's setting: light pages everywhere signed in, remembered across sign-ins, and turned off again", async ({
  page,
  makeAccount,
}) => {
  test.setTimeout(120_000);
  const account = await makeAccount(ACCOUNT);
  // The full version first: scripts, and with JavaScript the app hydrates.
  await signInWithCode(page, account.email);
  await page.goto("/settings/profile");
  // (With JavaScript, React Router takes its script elements out once the app runs: counted without it.)
  if (!jsOn()) expect(await page.locator("script").count()).toBeGreaterThan(0);
  await expect(
    page.getByRole("group", { name: "Version légère" }).getByRole("radio", { name: "Désactivée (version complète)" }),
  ).toBeChecked();
  await expectAccessible(page, "profile settings, display");

  // Bad input is the form's French error, answered 400 (a forged value: the page only offers the two).
  const origin = new URL(page.url()).origin;
  const refused = await page.request.post("/settings/profile", {
    form: { intent: "display", lightVersion: "peut-être" },
    headers: { Origin: origin },
    maxRedirects: 0,
  });
  expect(refused.status()).toBe(400);
  expect(await refused.text()).toContain("Choisissez si la version légère est activée ou désactivée");

  await chooseLightVersion(page, true);
  await expect(page).toHaveURL(/\/settings\/profile$/);
  await expectNoScript(page, "profile settings, light on");
  await expect(page.getByRole("radio", { name: "Activée", exact: true })).toBeChecked();
  // Discreet, in the footer: it is on, and the way back.
  await expect(page.getByRole("link", { name: "Revenir à la version complète" })).toHaveAttribute(
    "href",
    "/settings/profile#light-version",
  );
  await expectAccessible(page, "profile settings, light on");

  await page.goto("/cards");
  await expectNoScript(page, "card");
  await expectAccessible(page, "card, light by the setting");
  await freezeCard(page);
  await page.goto("/wallets");
  await expectNoScript(page, "wallets");
  await expectAccessible(page, "wallets, light by the setting");

  // Remembered for the account: signed out and in again (the sign-in pages themselves are anonymous: full).
  await page.locator("summary.user-menu__toggle").click();
  await page.getByRole("button", { name: "Se déconnecter" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await signInWithCode(page, account.email);
  await expectNoScript(page, "card after a new sign-in");
  await expect(page.getByText("Carte gelée : les paiements sont suspendus.")).toBeVisible();

  // Turned off from the footer's link: the full version again.
  await page.getByRole("link", { name: "Revenir à la version complète" }).click();
  await expect(page).toHaveURL(/\/settings\/profile#light-version$/);
  await chooseLightVersion(page, false);
  await expect(page.getByRole("link", { name: "Revenir à la version complète" })).toHaveCount(0);
  // The scripts are back: with JavaScript, the app runs again on this new document.
  if (jsOn()) await page.waitForFunction(() => (window as { portalHydrated?: boolean }).portalHydrated === true);
  await expectAccessible(page, "profile settings, light off");
});
