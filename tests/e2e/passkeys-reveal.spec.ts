import { resolve } from "node:path";
import type { Page } from "@playwright/test";
import { expect, test, type TestAccount } from "./fixtures";
import { expectAccessible, latestCodeFor, MARIE, signIn } from "./helpers";
import { credentialsOf, seedPasskey } from "./passkeys";
import { startStripePortal, type StripePortal } from "./stripe-portal";
import { openDatabase } from "../../app/.server/db";
import { removePasskey } from "../../app/.server/services/passkeys";
import { softAuthenticator } from "../support/soft-authenticator";
import { serveStripeJsStandIn, stripeJsRecord } from "../support/stripe-js-stand-in";
import { resourceMissing, type StandInAnswer } from "../support/stripe-stand-in";

/**
 * The reveal of a card's PIN or details with a passkey instead of a code (issue 32 item 3; spec 000 §4 "Reveal"):
 * Chromium's virtual authenticator stands for the phone's unlock (tests/e2e/passkeys.ts). The passkey grants what a
 * right code grants — one showing of that card, then a new check — and sends no code. Without JavaScript, and in the
 * light version, the panel is the code's as before. Each test has accounts of its own (fixtures.ts).
 */

const REVEAL_SUBJECT = "Votre code pour afficher votre carte";
const PASSKEY_BUTTON = "Afficher avec ma clé d’accès";
const jsOn = () => test.info().project.use.javaScriptEnabled !== false;

async function openReveal(page: Page, account: TestAccount, lastFour: string, title: string) {
  await page.goto(`/cards/${account.cards[lastFour]}/reveal`);
  return page.getByRole("dialog", { name: title });
}

/** No reveal code was sent to this address: the outbox has none for it. */
async function expectNoCodeSent(page: Page, email: string) {
  await expect(latestCodeFor(page.request, email, REVEAL_SUBJECT)).rejects.toThrow(/no code/);
}

/** A post from the page itself, as the passkey button makes one (same site, the session's cookie): status and JSON. */
async function postFromPage(page: Page, path: string, fields: Record<string, string>) {
  return page.evaluate(
    async ({ path, fields }) => {
      const response = await fetch(path, { method: "POST", body: new URLSearchParams(fields) });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
    { path, fields },
  );
}

test.describe("with JavaScript", () => {
  test.beforeEach(() => test.skip(!jsOn(), "WebAuthn needs a script: without it the panel is the code's (below)"));

  test("a cardholder shows her PIN with her passkey: no code sent, the PIN shown once, a reload asks again", async ({
    page,
    makeAccount,
    signInAs,
    e2eDatabase,
  }) => {
    const account = await makeAccount({ cards: [{ type: "physical", lastFour: "4242" }] });
    const { authenticator } = await seedPasskey(page, account, e2eDatabase.handle.db);
    await signInAs(page, account);
    const panel = await openReveal(page, account, "4242", "Code PIN");
    await expect(
      panel.getByText(/^Pour afficher le code PIN de la carte, confirmez que c’est bien vous avec/),
    ).toBeVisible();
    // The code stays one click away, and says where it would go.
    const useCode = panel.getByRole("button", { name: "Recevoir un code à la place" });
    await expect(useCode).toHaveAccessibleDescription(/^Un code à 6 chiffres sera alors envoyé à .+ \(par e-mail\)\.$/);
    await expect(panel.getByRole("button", { name: /^Recevoir un code à .+@example\.com/ })).toHaveCount(0);
    await expectAccessible(page, "reveal, ask, with a passkey");

    await panel.getByRole("button", { name: PASSKEY_BUTTON }).click();
    await expect(page).toHaveURL(/\/reveal\?step=show$/);
    await expect(page.frameLocator("iframe[title='Code PIN']").getByText("1234")).toBeVisible();
    // The button that had the focus went with the ask step: the focus stays in the panel, never on <body>.
    await expect.poll(() => page.evaluate(() => Boolean(document.activeElement?.closest("dialog")))).toBe(true);
    await expectAccessible(page, "reveal, PIN shown after the passkey");
    await expectNoCodeSent(page, account.email);
    // The phone's unlock was asked for: its counter moved on.
    const [credential] = await credentialsOf(authenticator);
    expect(credential?.signCount).toBeGreaterThan(0);

    // One check, one showing: a reload asks again.
    await page.reload();
    await expect(page).toHaveURL(/\/reveal$/);
    await expect(page.locator("iframe")).toHaveCount(0);
    await expect(panel.getByRole("button", { name: PASSKEY_BUTTON })).toBeVisible();
  });

  test("a virtual card's number, expiry and CVC with a passkey", async ({
    page,
    makeAccount,
    signInAs,
    e2eDatabase,
  }) => {
    const account = await makeAccount({ cards: [{ type: "virtual", lastFour: "5556" }] });
    await seedPasskey(page, account, e2eDatabase.handle.db);
    await signInAs(page, account);
    const panel = await openReveal(page, account, "5556", "Informations de la carte");
    await expect(panel.getByText(/^Pour afficher le numéro, la date d’expiration et le cryptogramme/)).toBeVisible();
    await panel.getByRole("button", { name: PASSKEY_BUTTON }).click();
    await expect(page).toHaveURL(/\/reveal\?step=show$/);
    const frame = page.frameLocator("iframe[title='Informations de la carte']");
    await expect(frame.locator("#card-number")).toHaveText(/5556$/);
    await expect(frame.locator("#cvc")).toHaveText(/^\d{3}$/);
    await expect(panel.getByRole("button", { name: "Copier le numéro de carte" })).toBeVisible();
    await expectAccessible(page, "reveal, details shown after the passkey");
    await expectNoCodeSent(page, account.email);
  });

  test("the check is bound to its card and its reveal: another card, another person's card and a replay are refused", async ({
    page,
    makeAccount,
    signInAs,
    e2eDatabase,
    baseURL,
  }) => {
    const account = await makeAccount({
      cards: [
        { type: "physical", lastFour: "4242" },
        { type: "virtual", lastFour: "5556" },
      ],
    });
    const other = await makeAccount({ cards: [{ type: "physical", lastFour: "4242" }] });
    const { credential } = await seedPasskey(page, account, e2eDatabase.handle.db);
    await seedPasskey(page, other, e2eDatabase.handle.db, "Téléphone de l’autre");
    await signInAs(page, account);
    await page.goto(`/cards/${account.cards["4242"]}`);
    // The seeded credential answers from Node (its counter well ahead of the virtual authenticator's).
    const phone = softAuthenticator({ origin: baseURL!, rpId: "localhost" });
    const pin = `/cards/${account.cards["4242"]}/reveal/passkey`;
    const details = `/cards/${account.cards["5556"]}/reveal/passkey`;
    const foreign = `/cards/${other.cards["4242"]}/reveal/passkey`;
    const answerFor = async (route: string, counter: number) => {
      const { body } = await postFromPage(page, route, { step: "options" });
      return JSON.stringify(phone.assert(body.options as never, { credential, counter }));
    };

    // Another person's card: sent back to the cards, as the code path does; no challenge made, nothing granted.
    expect(await postFromPage(page, foreign, { step: "options" })).toEqual({ status: 200, body: { to: "/cards" } });
    const own = await answerFor(pin, 10);
    expect(await postFromPage(page, foreign, { step: "verify", answer: own })).toEqual({
      status: 200,
      body: { to: "/cards" },
    });
    await page.goto(`/cards/${other.cards["4242"]}/reveal`);
    await expect(page.getByText("Cette carte n’existe pas ou n’est pas la vôtre.")).toBeVisible();

    // The PIN's check answered to the details' reveal: refused, and spent.
    const forThePin = await answerFor(pin, 20);
    expect(await postFromPage(page, details, { step: "verify", answer: forThePin })).toEqual({
      status: 400,
      body: { error: "passkeys.errors.challenge" },
    });
    await page.goto(`/cards/${account.cards["5556"]}/reveal?step=show`);
    await expect(page).toHaveURL(/\/reveal$/);

    // A right answer opens the PIN's show step once; the same answer again is refused.
    const right = await answerFor(pin, 30);
    expect(await postFromPage(page, pin, { step: "verify", answer: right })).toEqual({
      status: 200,
      body: { to: `/cards/${account.cards["4242"]}/reveal?step=show` },
    });
    await page.goto(`/cards/${account.cards["4242"]}/reveal?step=show`);
    await expect(page.frameLocator("iframe[title='Code PIN']").getByText("1234")).toBeVisible();
    expect(await postFromPage(page, pin, { step: "verify", answer: right })).toEqual({
      status: 400,
      body: { error: "passkeys.errors.challenge" },
    });
    await expectNoCodeSent(page, account.email);
  });

  test("a removed passkey is refused with a clear message, and the code still shows the PIN", async ({
    page,
    makeAccount,
    signInAs,
    e2eDatabase,
  }) => {
    const { db } = e2eDatabase.handle;
    const account = await makeAccount({ cards: [{ type: "physical", lastFour: "4242" }] });
    const { passkey } = await seedPasskey(page, account, db);
    await signInAs(page, account);
    const panel = await openReveal(page, account, "4242", "Code PIN");

    // Removed (from another device) while the phone's prompt was open: its answer names a passkey no longer there.
    await page.route("**/reveal/passkey", async (route) => {
      if (route.request().postData()?.includes("step=verify")) await removePasskey(db, account.userId, passkey.id);
      await route.continue();
    });
    await panel.getByRole("button", { name: PASSKEY_BUTTON }).click();
    const refusal = panel.getByRole("alert");
    await expect(refusal).toHaveText(
      "Cette clé d’accès n’est pas enregistrée pour ce compte : elle a peut-être été supprimée. Utilisez un code.",
    );
    await expect(refusal).toBeFocused();
    await expect(page).toHaveURL(/\/reveal$/);
    await expectAccessible(page, "reveal, a removed passkey refused");
    await page.unroute("**/reveal/passkey");

    // Tried again: the account has no passkey any more.
    await panel.getByRole("button", { name: PASSKEY_BUTTON }).click();
    await expect(refusal).toHaveText("Aucune clé d’accès n’est enregistrée pour ce compte. Utilisez un code.");

    // The code, as before.
    await panel.getByRole("button", { name: "Recevoir un code à la place" }).click();
    await expect(page).toHaveURL(/\/reveal\?step=code$/);
    await panel.getByLabel("Code à 6 chiffres").fill(await latestCodeFor(page.request, account.email, REVEAL_SUBJECT));
    await panel.getByRole("button", { name: "Valider et afficher" }).click();
    await expect(page.frameLocator("iframe[title='Code PIN']").getByText("1234")).toBeVisible();

    // Asked again, the panel is the code's alone: no passkey left to offer.
    await page.reload();
    await expect(panel.getByRole("button", { name: /^Recevoir un code à .+@example\.com/ })).toBeVisible();
    await expect(panel.getByRole("button", { name: PASSKEY_BUTTON })).toHaveCount(0);
  });

  test("the light version has no script, so no passkey button: the code's panel", async ({
    page,
    makeAccount,
    signInAs,
    e2eDatabase,
  }) => {
    const { db } = e2eDatabase.handle;
    const account = await makeAccount({ cards: [{ type: "physical", lastFour: "4242" }] });
    await seedPasskey(page, account, db);
    await db.updateTable("users").set({ light_version: 1 }).where("id", "=", account.userId).execute();
    await signInAs(page, account);
    const panel = await openReveal(page, account, "4242", "Code PIN");
    await expect(page.locator("script")).toHaveCount(0);
    await expect(panel.getByRole("button", { name: /^Recevoir un code à .+@example\.com/ })).toBeVisible();
    await expect(panel.getByRole("button", { name: PASSKEY_BUTTON })).toHaveCount(0);
    await expectAccessible(page, "reveal, ask, light version with a passkey");
  });
});

/**
 * Stripe Issuing draws the secret in the browser (decision 0018): after a passkey, as after a code, the panel's
 * script gets the ephemeral key for Stripe.js's nonce from /cards/:cardId/reveal/key, which spends the grant. A
 * portal of this describe's own with Stripe keys, its API's loopback stand-in answering the keys, and a stand-in of
 * Stripe.js in the browser (as stripe-elements.spec.ts, on the port after the two projects').
 */
test.describe("with Stripe Issuing", () => {
  const port = Number(process.env.E2E_PORT ?? 3100) + 2;
  const base = `http://localhost:${port}`;
  let portal: StripePortal | undefined;
  /** What the portal sent to make each ephemeral key. */
  const keyRequests: Record<string, string>[] = [];
  const answer = (method: string, path: string, form: Record<string, string>): StandInAnswer => {
    if (method !== "POST" || path !== "/v1/ephemeral_keys") return resourceMissing(method, path);
    keyRequests.push(form);
    const keysMade = keyRequests.length;
    const now = Math.floor(Date.now() / 1000);
    const key = { id: `ephkey_${keysMade}`, object: "ephemeral_key", created: now, expires: now + 300 };
    return { status: 200, body: { ...key, secret: `ek_test_passkey_${keysMade}`, livemode: false } };
  };

  test.use({ baseURL: base });
  test.beforeAll(async () => {
    if (!jsOn()) return;
    test.setTimeout(90_000);
    portal = await startStripePortal("e2e-stripe-passkeys", port, answer);
  });
  test.afterAll(async () => {
    await portal?.stop();
  });

  test("the PIN element after a passkey: the key made once for Stripe.js's nonce, the grant spent", async ({
    page,
  }) => {
    test.skip(!jsOn(), "Stripe.js and WebAuthn both need a script");
    await serveStripeJsStandIn(page);
    await signIn(page, MARIE);
    // Her passkey, added once she is signed in (with one, the sign-in itself would ask for it).
    const handle = openDatabase(`file:${resolve("data/e2e-stripe-passkeys.sqlite")}`);
    try {
      const marie = await handle.db
        .selectFrom("users")
        .select("id")
        .where("email", "=", MARIE)
        .executeTakeFirstOrThrow();
      await seedPasskey(page, { userId: marie.id }, handle.db);
    } finally {
      await handle.close();
    }
    const href = await page.locator(`a[href^="/cards/card_"]`, { hasText: "4242" }).first().getAttribute("href");
    const cardPath = new URL(href!, base).pathname;
    await page.goto(`${cardPath}/reveal`);
    const panel = page.getByRole("dialog", { name: "Code PIN" });
    const before = keyRequests.length;
    await panel.getByRole("button", { name: PASSKEY_BUTTON }).click();
    await expect(page).toHaveURL(/\/reveal\?step=show$/);
    await expect(panel.locator("[data-stripe-element=issuingCardPinDisplay]")).toBeVisible();
    const record = await stripeJsRecord(page);
    expect(record.nonces).toHaveLength(1);
    // The key was made for the card and nonce Stripe.js made, and mounted with them.
    const [{ issuingCard, nonce }] = record.nonces as [{ issuingCard: string; nonce: string }];
    expect(keyRequests.slice(before)).toEqual([{ issuing_card: issuingCard, nonce }]);
    expect(record.mounted).toEqual([
      {
        type: "issuingCardPinDisplay",
        options: { issuingCard, nonce, ephemeralKeySecret: `ek_test_passkey_${before + 1}` },
      },
    ]);
    await expectAccessible(page, "Stripe reveal, PIN shown after the passkey");

    // The key spent the grant: no second key, and a reload asks again.
    const again = await page.request.post(`${cardPath}/reveal/key`, {
      form: { nonce: "ephkn_again" },
      headers: { Origin: base },
    });
    expect(again.status()).toBe(403);
    expect(keyRequests).toHaveLength(before + 1);
    await page.reload();
    await expect(page).toHaveURL(/\/reveal$/);
  });
});

test("without JavaScript the panel of an account with a passkey is the code's, as before", async ({
  page,
  makeAccount,
  signInAs,
  e2eDatabase,
}) => {
  test.skip(jsOn(), "The same panel with JavaScript is the tests above");
  const account = await makeAccount({ cards: [{ type: "physical", lastFour: "4242" }] });
  await seedPasskey(page, account, e2eDatabase.handle.db);
  await signInAs(page, account);
  const panel = await openReveal(page, account, "4242", "Code PIN");
  await expect(
    panel.getByText("Pour afficher le code PIN de la carte, confirmez votre identité avec un code à 6 chiffres."),
  ).toBeVisible();
  await expect(panel.getByRole("button", { name: PASSKEY_BUTTON })).toHaveCount(0);
  await expectAccessible(page, "reveal, ask, without JavaScript, with a passkey");
  await panel.getByRole("button", { name: /^Recevoir un code à .+@example\.com/ }).click();
  await expect(page).toHaveURL(/\/reveal\?step=code$/);
  await panel.getByLabel("Code à 6 chiffres").fill(await latestCodeFor(page.request, account.email, REVEAL_SUBJECT));
  await panel.getByRole("button", { name: "Valider et afficher" }).click();
  await expect(page.frameLocator("iframe[title='Code PIN']").getByText("1234")).toBeVisible();
});
