import { resolve } from "node:path";
import type { Locator, Page } from "@playwright/test";
import { todayInParis } from "../../app/domain/dates";
import { expect, test, type AccountOptions } from "./fixtures";
import { expectAccessible } from "./helpers";

/**
 * Issue 31 §4, decision 0058: with JavaScript, each wizard of the kit (card, refund, bicycle allowance,
 * subscription) opens its summary at its top on a phone (375×740), focus on the step's heading; without
 * JavaScript the summary is a new page, read from its top, and its heading is as high. Uploads show their
 * progress inside the panel at 320 px. Each journey has its own account (fixtures.ts); the steps before the
 * summary are filled the way a person would, asking only what the step shows (a saved IBAN is not typed).
 */
const PHONE = { width: 375, height: 740 };
const BAKERY = resolve("tests/fixtures/receipts/boulangerie-2026-11-14.jpg");
const BIKE_SHOP = resolve("tests/fixtures/receipts/cycles-du-rhone-2026-11-02.pdf");
const IBAN = "FR76 3000 6000 0112 3456 7890 189";
const CARDS = [{ type: "physical" as const, lastFour: "4242" }];
const year = todayInParis().slice(0, 4);
const today = todayInParis().split("-").reverse().join("/");

const javaScriptDisabled = () => test.info().project.use.javaScriptEnabled === false;
const continueFrom = (panel: Locator) => panel.getByRole("button", { name: "Continuer", exact: true }).click();

/** The IBAN, typed only when the step asks for it (no saved account, or another one chosen). */
async function ibanIfAsked(panel: Locator) {
  const iban = panel.getByRole("textbox", { name: /IBAN/ });
  if ((await iban.count()) > 0 && (await iban.first().isVisible())) await iban.first().fill(IBAN);
}

/**
 * The step opened at its top. With JavaScript: its heading focused, in the top half of the phone's screen.
 * Without: a new page, at its top (not scrolled), the heading on the screen (under the page's own title and
 * tabs, since the panel is a region of the page). The heading's top (y in the viewport) is written in the
 * test's annotations: the figures decision 0058 quotes.
 */
async function expectOpenedAtTop(page: Page, heading: Locator, state: string) {
  await expect(heading).toBeVisible({ timeout: 30_000 });
  const top = async () => (await heading.boundingBox())?.y ?? Number.NaN;
  const message = `${state}: the heading's top`;
  if (javaScriptDisabled()) {
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(await top(), message).toBeLessThanOrEqual(PHONE.height - 50);
  } else {
    await expect(heading).toBeFocused();
    await expect.poll(top, { message }).toBeGreaterThanOrEqual(0);
    await expect.poll(top, { message }).toBeLessThanOrEqual(PHONE.height / 2);
  }
  test.info().annotations.push({ type: "heading y", description: `${state}: ${Math.round(await top())} px` });
  await test.info().attach(state, { body: await page.screenshot(), contentType: "image/png" });
  await expectAccessible(page, state);
}

test.use({ viewport: PHONE });

test("the card wizard's steps and summary open at their top, focus on their heading", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  test.setTimeout(120_000);
  const account = await makeAccount({ cards: CARDS, freeLicences: ["physical_card"] });
  await signInAs(page, account);
  await page.goto("/cards");
  await page.getByRole("link", { name: "Créer une carte" }).last().click();
  const panel = page.getByRole("dialog", { name: "Créer une carte" });
  await panel.getByRole("radio", { name: "Carte physique" }).check();
  await continueFrom(panel);

  await expectOpenedAtTop(page, panel.getByRole("heading", { name: "Étape 2 sur 4 : Code PIN" }), "card wizard, PIN");
  await panel.getByLabel("Code PIN", { exact: true }).fill("2580");
  await panel.getByLabel("Confirmez le code PIN").fill("2580");
  await continueFrom(panel);

  const address = panel.getByRole("heading", { name: "Étape 3 sur 4 : Adresse de livraison" });
  await expectOpenedAtTop(page, address, "card wizard, address");
  // A refusal keeps focus on the error summary, not on the heading.
  await panel.getByLabel("Numéro et rue").fill("");
  await continueFrom(panel);
  if (!javaScriptDisabled()) await expect(panel.locator(".error-summary")).toBeFocused();
  await expect(address).not.toBeFocused();
  await panel.getByLabel("Numéro et rue").fill("12 rue de la République");
  await panel.getByLabel("Code postal").fill("69002");
  await panel.getByLabel("Ville").fill("Lyon");
  await continueFrom(panel);

  await expectOpenedAtTop(
    page,
    panel.getByRole("heading", { name: "Étape 4 sur 4 : Récapitulatif" }),
    "card wizard, summary",
  );
});

test("the refund wizard's summary opens at its top, focus on its heading", async ({ page, makeAccount, signInAs }) => {
  test.setTimeout(180_000);
  const account = await makeAccount({
    features: { expenseRequests: { any: true } },
    wallets: [{ name: "Culture", type: "culture", balance: 20000 }],
    cards: CARDS,
  });
  await signInAs(page, account);
  await page.goto("/plans/expense-requests/new");
  const panel = page.getByRole("dialog", { name: "Demander un remboursement" });
  await panel.getByRole("radio", { name: "Culture" }).check();
  await continueFrom(panel);

  await expectOpenedAtTop(
    page,
    panel.getByRole("heading", { name: "Étape 1 sur 4 : Justificatif" }),
    "refund wizard, ticket",
  );
  await panel.getByLabel("Votre justificatif").setInputFiles(BAKERY);
  await panel.getByRole("button", { name: "Envoyer le justificatif" }).click();
  await expect(panel.getByRole("link", { name: "Justificatif 1" })).toBeVisible();
  await continueFrom(panel);

  // The details: the reading may still run (skipped), then the establishment, the date and the amount.
  await expect(panel.getByRole("heading", { name: "Étape 2 sur 4 : Détails de la dépense" })).toBeVisible();
  const skip = panel.getByRole("link", { name: "Continuer sans attendre" });
  if (await skip.isVisible()) await skip.click();
  await panel.getByLabel("Nom de l’établissement").fill("pain & co");
  await panel.getByRole("button", { name: "Rechercher" }).click();
  await panel.getByRole("radio", { name: "Boulangerie Pain & Co" }).check();
  await panel.getByLabel("Date de l’achat").fill("14/11/2026");
  await panel.getByLabel("Montant payé").fill("9,10");
  await continueFrom(panel);

  await expect(panel.getByRole("heading", { name: /^Étape 3 sur 4/ })).toBeVisible();
  await ibanIfAsked(panel);
  await continueFrom(panel);

  await expectOpenedAtTop(page, panel.getByRole("heading", { name: /^Étape 4 sur 4 : / }), "refund wizard, summary");
});

test("the bicycle allowance's summary opens at its top, focus on its heading", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  test.setTimeout(180_000);
  const options: AccountOptions = {
    cards: CARDS,
    features: { allowances: { any: true, bicycle: true } },
    otherFunders: [
      {
        name: "CSE Acme",
        group: {
          address_line1: "3 avenue Foch",
          address_zipcode: "69006",
          address_city: "Lyon",
          address_country: "FR",
        },
      },
    ],
  };
  const account = await makeAccount(options);
  await signInAs(page, account);
  await page.goto("/plans/allowances/new?type=bicycle");
  const panel = page.getByRole("dialog", { name: "Indemnité kilométrique vélo" });
  await continueFrom(panel);

  await expectOpenedAtTop(
    page,
    panel.getByRole("heading", { name: "Étape 2 sur 3 : Vos trajets" }),
    "bicycle allowance, details",
  );
  await panel.getByLabel("Financeur").selectOption({ label: "CSE Acme" });
  if (javaScriptDisabled()) await panel.getByRole("button", { name: "Choisir" }).click();
  await expect(panel.getByRole("group", { name: "Adresse de votre lieu de travail" }).getByLabel("Ville")).toHaveValue(
    "Lyon",
  );
  const home = panel.getByRole("group", { name: "Adresse de votre domicile" });
  await home.getByLabel("Numéro et voie").fill("8 rue des Lilas");
  await home.getByLabel("Code postal").fill("69003");
  await home.getByLabel("Ville").fill("Lyon");
  await panel.getByLabel("Date de début").fill(`01/01/${year}`);
  await panel.getByLabel("Date de fin").fill(today);
  await panel.getByLabel("Jours au bureau").fill("1");
  await ibanIfAsked(panel);
  await continueFrom(panel);

  // The first simulation of a server loads the geodata (lazily, once): it may take a few seconds.
  await expectOpenedAtTop(
    page,
    panel.getByRole("heading", { name: "Étape 3 sur 3 : Vérification" }),
    "bicycle allowance, summary",
  );
});

test("the subscription allowance's summary opens at its top, focus on its heading", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  test.setTimeout(180_000);
  const account = await makeAccount({ cards: CARDS, features: { allowances: { any: true, subscription: true } } });
  await signInAs(page, account);
  await page.goto("/plans/allowances/new?type=subscription");
  const panel = page.getByRole("dialog", { name: "Abonnement de transport" });
  await panel.getByRole("button", { name: "Commencer" }).click();

  await expectOpenedAtTop(
    page,
    panel.getByRole("heading", { name: "Étape 2 sur 4 : Justificatifs" }),
    "subscription, documents",
  );
  await panel.getByLabel("Titre de transport ou facture").setInputFiles(BAKERY);
  await panel.getByLabel("Attestation d’abonnement").setInputFiles(BIKE_SHOP);
  await panel.getByRole("button", { name: "Envoyer les documents" }).click();

  await expectOpenedAtTop(
    page,
    panel.getByRole("heading", { name: "Étape 3 sur 4 : Votre abonnement" }),
    "subscription, details",
  );
  await panel.getByLabel(/^Début de l’abonnement/).fill(`01/11/${year}`);
  await panel.getByLabel(/^Fin de l’abonnement/).fill(`31/12/${year}`);
  await panel.getByLabel(/^Prix de l’abonnement/).fill("86,40");
  await ibanIfAsked(panel);
  await continueFrom(panel);

  await expectOpenedAtTop(
    page,
    panel.getByRole("heading", { name: "Étape 4 sur 4 : Vérifiez et signez" }),
    "subscription, summary",
  );
});

test("a slow upload shows its progress inside the panel at 320 px; a refused one gives the button back", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  test.skip(javaScriptDisabled(), "without JavaScript the browser shows the upload's progress itself: no script runs");
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 320, height: 740 });
  const account = await makeAccount({
    features: { expenseRequests: { any: true } },
    wallets: [{ name: "Culture", type: "culture", balance: 20000 }],
    cards: CARDS,
  });
  await signInAs(page, account);
  await page.goto("/plans/expense-requests/new");
  const panel = page.getByRole("dialog", { name: "Demander un remboursement" });
  await panel.getByRole("radio", { name: "Culture" }).check();
  await continueFrom(panel);
  const send = panel.getByRole("button", { name: "Envoyer le justificatif" });

  // A file that is not a receipt: refused on its field (the server's words), the button is itself again.
  await panel.getByLabel("Votre justificatif").setInputFiles({
    name: "facture.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.from("MZ this is a program, not a receipt"),
  });
  await send.click();
  await expect(panel.locator(".error-summary")).toBeFocused();
  await expect(
    panel.getByText("Ce type de fichier n’est pas accepté : choisissez un PDF, un PNG ou un JPG.").first(),
  ).toBeVisible();
  await expect(send).not.toHaveAttribute("aria-disabled");
  await expect(panel.locator(".upload-progress")).toHaveCount(0);

  // Every text the polite live region is given, recorded as the upload goes.
  await page.evaluate(() => {
    const region = document.querySelector("dialog form [role=status]")!;
    const said: string[] = ((window as { said?: string[] }).said = []);
    new MutationObserver(() => said.push(region.textContent ?? "")).observe(region, {
      childList: true,
      characterData: true,
      subtree: true,
    });
  });
  // The photo (62 kB) sent at 8 kB/s: about 8 seconds.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 50,
    downloadThroughput: -1,
    uploadThroughput: 8 * 1024,
  });
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST") posts.push(request.url());
  });
  await panel.getByLabel("Votre justificatif").setInputFiles(BAKERY);
  await send.click();

  // The bar is drawn for the eye; screen readers hear the quarters in the status (a11y-waiting.spec.ts).
  const progress = panel.locator(".upload-progress progress");
  await expect(progress).toBeVisible();
  const sending = panel.getByRole("button", { name: "Envoi en cours…" });
  await expect(sending).toHaveAttribute("aria-disabled", "true");
  // Not disabled: it stays in the tab order and keeps focus, its words say what happens.
  await expect(sending).not.toHaveAttribute("disabled");
  await expect.poll(() => progress.evaluate((bar) => (bar as HTMLProgressElement).value)).toBeGreaterThan(0);
  await expect(panel.locator(".upload-progress")).toContainText(/\d+ %/);
  await expect(panel.locator(".upload-progress")).toBeInViewport();
  const box = (await panel.locator(".upload-progress").boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(320);
  await test.info().attach("upload in progress at 320 px", { body: await page.screenshot(), contentType: "image/png" });
  // A second press while the file goes sends nothing more (forced: Playwright will not press an aria-disabled button).
  await sending.click({ force: true });
  await expectAccessible(page, "refund wizard, upload in progress at 320 px");

  await expect(panel.getByRole("link", { name: "Justificatif 1" })).toBeVisible({ timeout: 30_000 });
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  expect(posts.filter((url) => url.includes("step=ticket"))).toHaveLength(1);
  await expect(panel.locator(".upload-progress")).toHaveCount(0);
  // Announced at each quarter at most, never at every percent.
  const said = await page.evaluate(() => (window as { said?: string[] }).said ?? []);
  const announced = said.filter(Boolean);
  expect(announced.length).toBeGreaterThan(0);
  for (const text of announced) expect(text).toMatch(/^Envoi en cours : (0|25|50|75) %$|^Envoi terminé/);
  await expectAccessible(page, "refund wizard, receipt sent");
});
