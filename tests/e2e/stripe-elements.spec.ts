import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { resourceMissing, type RecordedRequest, type StandInAnswer } from "../support/stripe-stand-in";
import { STANDIN_PUBLISHABLE_KEY, startStripePortal, type StripePortal } from "./stripe-portal";
import { serveStripeJsStandIn, stripeJsRecord, type StripeJsBehaviour } from "../support/stripe-js-stand-in";
import { CLAIRE, expectAccessible, latestCodeFor, MARIE, signIn } from "./helpers";

/**
 * Stripe configured (decision 0018): the card reveal with Issuing Elements and the saved-card setup
 * with Stripe Elements, through @stripe/react-stripe-js. This file starts its own portal, configured
 * with Stripe keys and a loopback stand-in of Stripe's API (tests/support/stripe-stand-in.ts); the
 * browser gets a stand-in of Stripe.js (tests/support/stripe-js-stand-in.ts) that records what the
 * portal asked of it and can be told to fail.
 */

const PORT = Number(process.env.E2E_PORT ?? 3100) + 2;
const BASE = `http://localhost:${PORT}`;
const REVEAL_SUBJECT = "Votre code pour afficher votre carte";

/** What the API stand-in answers; `failKeys` makes the ephemeral keys fail. */
const api = { failKeys: false, keysMade: 0, customer: "cus_standin" };

function answer(method: string, path: string, form: Record<string, string>): StandInAnswer {
  const now = Math.floor(Date.now() / 1000);
  if (method === "POST" && path === "/v1/ephemeral_keys") {
    if (api.failKeys) return { status: 500, body: { error: { type: "api_error", message: "stand-in: no key" } } };
    api.keysMade += 1;
    return {
      status: 200,
      body: {
        id: `ephkey_${api.keysMade}`,
        object: "ephemeral_key",
        secret: `ek_test_standin_${api.keysMade}`,
        created: now,
        expires: now + 300,
        livemode: false,
      },
    };
  }
  if (method === "POST" && path === "/v1/customers")
    return { status: 200, body: { id: api.customer, object: "customer" } };
  if (method === "POST" && path === "/v1/setup_intents") {
    api.customer = form.customer ?? api.customer;
    return {
      status: 200,
      body: {
        id: "seti_standin",
        object: "setup_intent",
        client_secret: "seti_standin_secret_abc",
        status: "requires_payment_method",
        customer: api.customer,
      },
    };
  }
  if (method === "GET" && path === "/v1/setup_intents/seti_standin") {
    return {
      status: 200,
      body: {
        id: "seti_standin",
        object: "setup_intent",
        status: "succeeded",
        customer: api.customer,
        payment_method: "pm_standin",
      },
    };
  }
  if (method === "GET" && path === "/v1/payment_methods") {
    const card = {
      id: "pm_standin",
      object: "payment_method",
      customer: api.customer,
      card: { brand: "visa", last4: "4242", exp_month: 12, exp_year: 2039 },
    };
    return { status: 200, body: { object: "list", data: [card], has_more: false, url: "/v1/payment_methods" } };
  }
  return resourceMissing(method, path);
}

let portal: StripePortal | undefined;

const jsOff = () => test.info().project.use.javaScriptEnabled === false;

test.beforeAll(async () => {
  if (jsOff()) return;
  test.setTimeout(90_000);
  portal = await startStripePortal("e2e-stripe", PORT, answer);
});

test.afterAll(async () => {
  await portal?.stop();
});

test.use({ baseURL: BASE });

test.beforeEach(() => {
  test.skip(
    jsOff(),
    "Stripe.js runs only with JavaScript; what the panels say without it is checked here in a JavaScript-off page (the last test)",
  );
  api.failKeys = false;
});

const ephemeralKeyRequests = (): RecordedRequest[] =>
  portal!.stripeApi.requests.filter((r) => r.method === "POST" && r.path === "/v1/ephemeral_keys");

/** The card page of Marie's card ending in these digits. */
async function openCard(page: Page, lastFour: string): Promise<string> {
  const href = await page.locator(`a[href^="/cards/card_"]`, { hasText: lastFour }).first().getAttribute("href");
  if (!href) throw new Error(`no card ending ${lastFour}`);
  const path = new URL(href, BASE).pathname.replace(/\/$/, "");
  await page.goto(path);
  return path;
}

/** Through the one-time code, up to the "show" step of the reveal panel. */
async function revealWithCode(page: Page, cardPath: string, title: string) {
  await page.goto(`${cardPath}/reveal`);
  const panel = page.getByRole("dialog", { name: title });
  await panel.getByRole("button", { name: /Recevoir un code/ }).click();
  await expect(page).toHaveURL(/\/reveal\?step=code$/);
  await panel.getByLabel("Code à 6 chiffres").fill(await latestCodeFor(page.request, MARIE, REVEAL_SUBJECT));
  await panel.getByRole("button", { name: "Valider et afficher" }).click();
  await expect(page).toHaveURL(/\/reveal\?step=show$/);
  return panel;
}

async function signedInWith(page: Page, behaviour: StripeJsBehaviour = {}) {
  await serveStripeJsStandIn(page, behaviour);
  await signIn(page, MARIE);
}

test("card details: the elements are mounted with the card, the nonce Stripe.js made and the key the server made for it", async ({
  page,
}) => {
  await signedInWith(page);
  const cardPath = await openCard(page, "5556");
  const before = ephemeralKeyRequests().length;
  const panel = await revealWithCode(page, cardPath, "Informations de la carte");
  await expect(panel.locator("[data-stripe-element=issuingCardNumberDisplay]")).toBeVisible();

  const record = await stripeJsRecord(page);
  expect(record.keys).toEqual([{ publishableKey: STANDIN_PUBLISHABLE_KEY, locale: "fr" }]);
  expect(record.nonces).toHaveLength(1);
  const { issuingCard, nonce } = record.nonces[0]!;
  const keys = ephemeralKeyRequests().slice(before);
  expect(keys).toHaveLength(1);
  // The server asked for a key for the card the browser made its nonce for, with that nonce and an API version.
  expect(keys[0]!.form).toEqual({ issuing_card: issuingCard, nonce });
  expect(keys[0]!.headers["stripe-version"]).toBeTruthy();
  const secret = `ek_test_standin_${api.keysMade}`;
  const options = { issuingCard, nonce, ephemeralKeySecret: secret };
  expect(record.mounted).toEqual([
    { type: "issuingCardNumberDisplay", options },
    { type: "issuingCardExpiryDisplay", options },
    { type: "issuingCardCvcDisplay", options },
    { type: "issuingCardCopyButton", options: { toCopy: "number" } },
  ]);
  await expectAccessible(page, "Stripe reveal, details shown");

  // The grant was spent by the key: a reload asks for a new code, and the key cannot be asked again.
  const again = await page.request.post(`${cardPath}/reveal/key`, {
    form: { nonce: "ephkn_again" },
    headers: { Origin: BASE },
  });
  expect(again.status()).toBe(403);
  expect(ephemeralKeyRequests().slice(before)).toHaveLength(1);
  await page.reload();
  await expect(page).toHaveURL(/\/reveal$/);
});

test("no key for another person's card: the panel's key route finds the card among the signed-in person's own", async ({
  page,
  browser,
}) => {
  await signedInWith(page);
  const marieCard = await openCard(page, "5556");
  const other = await browser.newContext({ baseURL: BASE, locale: "fr-FR" });
  const claire = await other.newPage();
  await serveStripeJsStandIn(claire);
  await signIn(claire, CLAIRE);
  const before = ephemeralKeyRequests().length;
  const answer = await claire.request.post(`${marieCard}/reveal/key`, {
    form: { nonce: "ephkn_claire" },
    headers: { Origin: BASE },
    maxRedirects: 0,
  });
  expect([answer.status(), answer.headers()["location"]]).toEqual([302, "/cards"]);
  expect(ephemeralKeyRequests().length).toBe(before);
  await other.close();
});

test("PIN: the PIN element is mounted for the physical card, with its own nonce and key", async ({ page }) => {
  await signedInWith(page);
  const cardPath = await openCard(page, "4242");
  const before = ephemeralKeyRequests().length;
  const panel = await revealWithCode(page, cardPath, "Code PIN");
  await expect(panel.locator("[data-stripe-element=issuingCardPinDisplay]")).toBeVisible();
  const record = await stripeJsRecord(page);
  const key = ephemeralKeyRequests().slice(before)[0]!;
  expect(record.mounted).toEqual([
    {
      type: "issuingCardPinDisplay",
      options: {
        issuingCard: key.form.issuing_card,
        nonce: key.form.nonce,
        ephemeralKeySecret: `ek_test_standin_${api.keysMade}`,
      },
    },
  ]);
  expect(record.nonces).toEqual([{ issuingCard: key.form.issuing_card, nonce: key.form.nonce }]);
});

for (const [failure, behaviour, message] of [
  ["Stripe.js cannot load", { fail: "load" }, "L’affichage sécurisé de l’émetteur n’a pas pu être chargé."],
  ["no nonce", { fail: "nonce" }, "L’émetteur n’a pas pu préparer l’affichage sécurisé."],
  ["the elements cannot mount", { fail: "mount" }, "Les informations n’ont pas pu être affichées par l’émetteur."],
] as const) {
  test(`reveal failure, ${failure}: a French message in the panel`, async ({ page }) => {
    await signedInWith(page, behaviour);
    const panel = await revealWithCode(page, await openCard(page, "5556"), "Informations de la carte");
    await expect(panel.getByRole("alert")).toContainText(message);
    await expect(panel.locator("[data-stripe-element]")).toHaveCount(0);
  });
}

test("reveal failure, the server gets no key: a French message, nothing mounted", async ({ page }) => {
  await signedInWith(page);
  api.failKeys = true;
  const panel = await revealWithCode(page, await openCard(page, "5556"), "Informations de la carte");
  await expect(panel.getByRole("alert")).toContainText("L’autorisation d’affichage n’a pas pu être obtenue.");
  expect((await stripeJsRecord(page)).mounted).toEqual([]);
});

/** The "add a credit card" panel of the overflow, with Stripe Elements in it. */
async function openCardSetup(page: Page) {
  const cardPath = await openCard(page, "4242");
  const setupsBefore = portal!.stripeApi.requests.filter((r) => r.path === "/v1/setup_intents").length;
  await page.goto(`${cardPath}/overflow/new-card`);
  const panel = page.getByRole("dialog", { name: "Ajouter une carte bancaire" });
  await expect(panel.locator("[data-stripe-element=card]")).toBeVisible();
  expect(portal!.stripeApi.requests.filter((r) => r.path === "/v1/setup_intents").length).toBe(setupsBefore + 1);
  return panel;
}

test("card setup: confirmCardSetup with the SetupIntent's client secret, then the panel closes with the outcome", async ({
  page,
}) => {
  await signedInWith(page);
  const panel = await openCardSetup(page);
  await expectAccessible(page, "Stripe card setup");
  await panel.getByRole("button", { name: "Enregistrer la carte" }).click();
  await expect(page.getByText("Votre carte a été ajoutée.")).toBeVisible();
  expect((await stripeJsRecord(page)).confirmCardSetup).toEqual([
    { clientSecret: "seti_standin_secret_abc", withCardElement: true },
  ]);
  await expect(page).toHaveURL(/\/overflow$/);
});

for (const [failure, confirmError, message] of [
  [
    "a reason the catalogue knows",
    { type: "card_error", code: "card_declined", message: "Your card was declined." },
    "Votre banque a refusé cette carte. Essayez une autre carte.",
  ],
  [
    "a reason it does not know",
    { type: "card_error", code: "card_velocity_exceeded", message: "Message du prestataire." },
    "Message du prestataire.",
  ],
  [
    "no reason at all",
    { type: "api_error" },
    "La carte n’a pas pu être ajoutée. Vérifiez ses informations ou essayez une autre carte.",
  ],
] as const) {
  test(`card setup failure, ${failure}: the message of spec 000 §8`, async ({ page }) => {
    await signedInWith(page, { confirmError });
    const panel = await openCardSetup(page);
    await panel.getByRole("button", { name: "Enregistrer la carte" }).click();
    await expect(panel.getByRole("alert")).toHaveText(message);
    await expect(page).toHaveURL(/\/overflow\/new-card$/);
    await expect(panel.getByRole("button", { name: "Enregistrer la carte" })).toBeEnabled();
  });
}

test("without JavaScript, both panels say that Stripe's forms need it", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: BASE, locale: "fr-FR" });
  const page = await context.newPage();
  await signIn(page, MARIE);
  const cardPath = await openCard(page, "5556");
  const panel = await revealWithCode(page, cardPath, "Informations de la carte");
  await expect(
    panel.getByText("L’affichage sécurisé de l’émetteur a besoin de JavaScript pour ce type de carte."),
  ).toBeVisible();
  await page.goto(`${await openCard(page, "4242")}/overflow/new-card`);
  await expect(
    page.getByText("Le formulaire sécurisé de notre prestataire de paiement a besoin de JavaScript.", { exact: false }),
  ).toBeVisible();
  await context.close();
});
