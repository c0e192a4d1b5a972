import { randomBytes } from "node:crypto";
import { request as apiRequest, type Page } from "@playwright/test";
import { expect, test, type TestAccount } from "./fixtures";
import { expectAccessible, paymentDay } from "./helpers";
import { listPushSubscriptions } from "../../app/.server/services/push-subscriptions";
import { saveLightVersion } from "../../app/.server/services/profile";
import { browserSubscription, startPushService, type BrowserSubscription } from "../support/push-service";

/**
 * Web Push in the notification settings (issue 33 item 2, Contract B). With JavaScript, turning on a Push box
 * asks the browser's permission, subscribes this browser with the server's VAPID key and stores the
 * subscription for the signed-in person; every Push box off at a save removes it; a refused permission gets a
 * hint and the choices still save. Without JavaScript, and on the light version, the Push column says what push
 * needs and the form works as before. The e2e servers have VAPID keys and allow the loopback push service
 * (playwright.config.ts). Each journey has an account of its own (fixtures.ts).
 */

const jsOn = () => test.info().project.use.javaScriptEnabled !== false;
const CARD = { cards: [{ type: "virtual" as const, lastFour: "4242" }] };
const NO_SCRIPT = "Les notifications push demandent l’application mobile ou un navigateur avec JavaScript.";
const SAVED = "Vos préférences de notification sont enregistrées.";

/** A subscription as a browser's push service hands it out: its endpoint on loopback, fresh P-256 keys. */
const loopbackSubscription = () => browserSubscription(`http://127.0.0.1:9/push/${randomBytes(12).toString("hex")}`);

/**
 * Runs in the page before its scripts: Chromium's `PushManager.subscribe` would ask Google's push service, which
 * cannot be reached offline (and a test must not depend on it), so it is replaced by one that hands out the
 * subscription given, kept in localStorage as the browser keeps its own (getSubscription, unsubscribe), and
 * records the options the page passed. Everything else is the browser's: the permission, the service worker's
 * registration, the page's post to the server.
 */
function replacePushService(subscription: BrowserSubscription) {
  const KEY = "e2e-push-subscription";
  const handed = (json: typeof subscription) => ({
    endpoint: json.endpoint,
    expirationTime: null,
    options: { userVisibleOnly: true, applicationServerKey: null },
    getKey: () => null,
    toJSON: () => json,
    unsubscribe: async () => {
      localStorage.removeItem(KEY);
      return true;
    },
  });
  PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
    const key = options?.applicationServerKey;
    const bytes = ArrayBuffer.isView(key) ? new Uint8Array(key.buffer, key.byteOffset, key.byteLength) : null;
    const base64url =
      bytes &&
      btoa(String.fromCharCode(...bytes))
        .replace(/\+/g, "-")
        .replace(/\//g, "_");
    localStorage.setItem(
      "e2e-push-options",
      JSON.stringify({ userVisibleOnly: options?.userVisibleOnly, key: base64url?.replace(/=+$/, "") }),
    );
    localStorage.setItem(KEY, JSON.stringify(subscription));
    return handed(subscription) as unknown as PushSubscription;
  };
  PushManager.prototype.getSubscription = async function () {
    const stored = localStorage.getItem(KEY);
    return stored ? (handed(JSON.parse(stored) as typeof subscription) as unknown as PushSubscription) : null;
  };
}

async function openSettings(
  page: Page,
  account: TestAccount,
  signInAs: (page: Page, account: TestAccount) => Promise<void>,
) {
  await signInAs(page, account);
  await page.goto("/settings/notifications");
  await expect(page.getByRole("heading", { level: 1, name: "Notifications" })).toBeVisible();
}

/**
 * The sentence under the table, describing the Push column's switch: shown as is on the light page; in a
 * <noscript> on the full one, which a browser with JavaScript off shows (Playwright's does not): read in its HTML.
 */
async function expectPushNeedsJavaScript(page: Page) {
  const column = page.getByRole("checkbox", { name: "Push (toutes)" });
  if (jsOn()) {
    await expect(page.getByText(NO_SCRIPT)).toBeVisible();
    await expect(column).toHaveAccessibleDescription(NO_SCRIPT);
  } else {
    expect(await page.content()).toContain(
      `<noscript><p id="push-device" class="push-device hint">${NO_SCRIPT}</p></noscript>`,
    );
    await expect(column).toHaveAttribute("aria-describedby", "push-device");
  }
}

/** An account paying at the sandbox terminal with a card of its own. */
const LAST_FOUR = "7313";
const PAYING = {
  wallets: [{ name: "Titres-restaurant", type: "meal" as const, balance: 15240 }],
  cards: [{ type: "physical" as const, lastFour: LAST_FOUR, wallets: ["Titres-restaurant"] }],
};

/** 14,20 € at a restaurant with the account's card, on the sandbox terminal (decision 0037), on a weekday: accepted. */
async function payAtTerminal(page: Page, account: TestAccount) {
  await page.goto("/dev/terminal");
  await page.getByLabel("4 derniers chiffres de la carte").fill(LAST_FOUR);
  await page.getByLabel("E-mail du titulaire").fill(account.email);
  await page.getByLabel("Montant (€)").fill("14,20");
  await page.getByLabel("Commerçant", { exact: true }).selectOption("restaurant");
  await page.getByLabel("Nom du commerçant").fill("Chez Paul");
  await page.getByLabel("Ville du commerçant").fill("Lyon");
  // A weekday at lunch time: titres-restaurant are refused on Sundays, and the journey may run on one.
  await page.getByLabel("Date du paiement").fill(paymentDay());
  await page.getByLabel("Heure du paiement").fill("12:30");
  await page.getByRole("button", { name: "Payer" }).click();
  await expect(page.locator("#decision").getByRole("heading")).toHaveText("Paiement de 14,20 € accepté");
}

/**
 * Hands a decrypted push message to this site's service worker, as Chromium does with what its push service
 * delivers (the DevTools protocol's ServiceWorker.deliverPushMessage).
 */
async function deliverToServiceWorker(page: Page, origin: string, data: string) {
  const devtools = await page.context().newCDPSession(page);
  const registration = new Promise<string>((found) =>
    devtools.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
      const ours = registrations.find((one) => one.scopeURL === `${origin}/` && !one.isDeleted);
      if (ours) found(ours.registrationId);
    }),
  );
  await devtools.send("ServiceWorker.enable");
  await devtools.send("ServiceWorker.deliverPushMessage", { origin, registrationId: await registration, data });
  await devtools.detach();
}

async function save(page: Page) {
  await page.getByRole("button", { name: "Enregistrer mes préférences" }).click();
  await expect(page.getByText(SAVED)).toBeVisible();
}

test.describe("with JavaScript", () => {
  test.skip(() => !jsOn(), "The browser's subscription needs a script: the journey below checks the page without one");

  test("turning on a Push box subscribes this browser, which then receives a payment's push; every Push box off at a save removes it", async ({
    page,
    context,
    baseURL,
    makeAccount,
    signInAs,
    e2eDatabase,
  }) => {
    await context.grantPermissions(["notifications"], { origin: baseURL });
    const pushService = await startPushService();
    try {
      const subscription = pushService.newSubscription();
      await page.addInitScript(replacePushService, subscription);
      const account = await makeAccount(PAYING);
      const stored = () => listPushSubscriptions(e2eDatabase.handle.db, account.userId);
      await openSettings(page, account, signInAs);

      const line = page.locator("#push-device");
      await expect(line).toHaveText("Cet appareil ne reçoit pas les notifications push.");
      await expect(line).toHaveAttribute("role", "status");
      await expect(page.getByText(NO_SCRIPT)).toHaveCount(0);
      await expect(page.getByRole("checkbox", { name: "Push (toutes)" })).toHaveAccessibleDescription(
        "Cet appareil ne reçoit pas les notifications push.",
      );
      expect(await stored()).toEqual([]);
      await expectAccessible(page, "notification settings, this device not subscribed");

      // Approved payments' push is off by default: turning it on is the gesture that subscribes.
      await page.getByRole("checkbox", { name: "Paiements acceptés par notification push" }).check();
      await expect(line).toHaveText("C’est fait : cet appareil recevra vos notifications push.");
      await expect.poll(async () => (await stored()).map((row) => row.endpoint)).toEqual([subscription.endpoint]);
      const worker = await page.evaluate(
        async () => (await navigator.serviceWorker.getRegistration("/"))?.active?.scriptURL,
      );
      expect(worker).toBe(new URL("/sw.js", baseURL).href);
      await expectAccessible(page, "notification settings, this device just subscribed");

      await save(page);
      await page.reload();
      await expect(line).toHaveText("Cet appareil reçoit vos notifications push.");
      await expect(page.getByRole("checkbox", { name: "Paiements acceptés par notification push" })).toBeChecked();
      await expectAccessible(page, "notification settings, this device subscribed");

      // A payment at the terminal: its push reaches the stand-in, which decrypts it with this subscription's keys.
      await payAtTerminal(page, account);
      await expect.poll(() => pushService.received.length).toBe(1);
      const [push] = pushService.received;
      expect(push!.endpoint).toBe(subscription.endpoint);
      const payload = push!.json as { title: string; body: string; path: string; tag: string };
      // The page it is about: the payment on the card's page.
      expect(payload.path).toMatch(new RegExp(`^/cards/${account.cards[LAST_FOUR]}#tx-auth_[\\w-]+$`));
      expect(payload.body).toContain("14,20");
      // Signed with the key the page subscribed with: the server's VAPID public key, given by the loader.
      const options = await page.evaluate(() => JSON.parse(localStorage.getItem("e2e-push-options") ?? "null"));
      expect(options).toEqual({ userVisibleOnly: true, key: push!.vapid.publicKey });

      // The decrypted message handed to the service worker, as the browser would: it shows the notification.
      await deliverToServiceWorker(page, baseURL!, push!.text);
      await expect
        .poll(() =>
          page.evaluate(async () =>
            (await (await navigator.serviceWorker.ready).getNotifications()).map((shown) => ({
              title: shown.title,
              body: shown.body,
              tag: shown.tag,
              data: shown.data as unknown,
            })),
          ),
        )
        .toEqual([{ title: payload.title, body: payload.body, tag: payload.tag, data: { path: payload.path } }]);

      // Every Push box off (the column's switch) and saved: this device's subscription goes, here and on the server.
      await page.goto("/settings/notifications");
      await page.getByRole("checkbox", { name: "Push (toutes)" }).check();
      await page.getByRole("checkbox", { name: "Push (toutes)" }).uncheck();
      await save(page);
      await expect(line).toHaveText("Cet appareil ne recevra plus vos notifications push.");
      await expect.poll(stored).toEqual([]);
      expect(await page.evaluate(() => localStorage.getItem("e2e-push-subscription"))).toBeNull();
      await expectAccessible(page, "notification settings, this device unsubscribed");
    } finally {
      await pushService.close();
    }
  });

  test("the device line's button subscribes this browser with the boxes as they are", async ({
    page,
    context,
    baseURL,
    makeAccount,
    signInAs,
    e2eDatabase,
  }) => {
    await context.grantPermissions(["notifications"], { origin: baseURL });
    const subscription = loopbackSubscription();
    await page.addInitScript(replacePushService, subscription);
    const account = await makeAccount(CARD);
    await openSettings(page, account, signInAs);
    // The defaults already send three types by push: no box to turn on, the button asks for this device.
    await page.getByRole("button", { name: "Les recevoir sur cet appareil" }).click();
    await expect(page.locator("#push-device")).toHaveText("C’est fait : cet appareil recevra vos notifications push.");
    await expect(page.getByRole("button", { name: "Les recevoir sur cet appareil" })).toHaveCount(0);
    await expect
      .poll(async () => (await listPushSubscriptions(e2eDatabase.handle.db, account.userId)).map((row) => row.endpoint))
      .toEqual([subscription.endpoint]);
    await expect(page.getByRole("checkbox", { name: "Paiements acceptés par notification push" })).not.toBeChecked();
    await expect(page.getByRole("checkbox", { name: "Portefeuilles par notification push" })).toBeChecked();
  });

  test("a push service the portal does not allow: said on the line, nothing stored, the button to try again", async ({
    page,
    context,
    baseURL,
    makeAccount,
    signInAs,
    e2eDatabase,
  }) => {
    await context.grantPermissions(["notifications"], { origin: baseURL });
    await page.addInitScript(replacePushService, {
      ...loopbackSubscription(),
      endpoint: "https://push.example.net/send/not-a-browser-push-service",
    });
    const account = await makeAccount(CARD);
    await openSettings(page, account, signInAs);
    await page.getByRole("checkbox", { name: "Paiements acceptés par notification push" }).check();
    await expect(page.locator("#push-device")).toHaveText(
      "Le service de notifications de ce navigateur n’est pas reconnu par le portail.",
    );
    await expect(page.getByRole("button", { name: "Les recevoir sur cet appareil" })).toBeVisible();
    expect(await listPushSubscriptions(e2eDatabase.handle.db, account.userId)).toEqual([]);
    await expectAccessible(page, "notification settings, push service refused");
  });

  test("a refused permission: a hint on how to allow it, and the choices still save", async ({
    page,
    makeAccount,
    signInAs,
    e2eDatabase,
  }) => {
    // No permission granted: the headless browser refuses the prompt, as a person blocking the site would.
    await page.addInitScript(replacePushService, loopbackSubscription());
    const account = await makeAccount(CARD);
    await openSettings(page, account, signInAs);
    const box = page.getByRole("checkbox", { name: "Paiements acceptés par notification push" });
    await box.check();
    const line = page.locator("#push-device");
    await expect(line).toContainText("Votre navigateur bloque les notifications de ce site.");
    await expect(line).toContainText("ils valent aussi pour l’application mobile");
    await expect(box).toBeChecked();
    await expectAccessible(page, "notification settings, permission refused");

    await save(page);
    await page.reload();
    await expect(page.getByRole("checkbox", { name: "Paiements acceptés par notification push" })).toBeChecked();
    await expect(line).toContainText("Votre navigateur bloque les notifications de ce site.");
    expect(await listPushSubscriptions(e2eDatabase.handle.db, account.userId)).toEqual([]);
  });
});

test("the service worker is served from the root, revalidated on each load, and allowed by the CSP", async ({
  page,
}) => {
  const answer = await page.request.get("/sw.js");
  expect(answer.status()).toBe(200);
  expect(answer.headers()["content-type"]).toMatch(/^(text|application)\/javascript/);
  expect(answer.headers()["cache-control"]).toBe("public, max-age=0");
  expect(await answer.text()).toContain('addEventListener("notificationclick"');
  const home = await page.request.get("/login");
  expect(home.headers()["content-security-policy"]).toContain("worker-src 'self'");
});

test("without JavaScript, or on the light version: the Push column says what push needs, and the form saves", async ({
  page,
  makeAccount,
  signInAs,
  e2eDatabase,
}) => {
  const account = await makeAccount(CARD);
  // A browser running scripts gets the light page, which has none: the same page as without JavaScript.
  if (jsOn()) await saveLightVersion(e2eDatabase.handle.db, account.userId, true);
  await openSettings(page, account, signInAs);
  if (jsOn()) await expect(page.locator("script")).toHaveCount(0);

  await expectPushNeedsJavaScript(page);
  await expectAccessible(page, "notification settings, push needs JavaScript");

  await page.getByRole("checkbox", { name: "Paiements acceptés par notification push" }).check();
  await save(page);
  await expect(page.getByRole("checkbox", { name: "Paiements acceptés par notification push" })).toBeChecked();
  await expectPushNeedsJavaScript(page);
  await expectAccessible(page, "notification settings saved, push needs JavaScript");
});

test("the subscription route without a session stores nothing and leads to sign-in", async ({
  baseURL,
  e2eDatabase,
}) => {
  const subscription = loopbackSubscription();
  const anonymous = await apiRequest.newContext({ baseURL, extraHTTPHeaders: { Origin: baseURL! } });
  const answer = await anonymous.post("/settings/notifications/push", {
    form: { intent: "subscribe", subscription: JSON.stringify(subscription) },
    maxRedirects: 0,
  });
  expect(answer.status()).toBe(302);
  expect(answer.headers()["location"]).toMatch(/^\/login/);
  await anonymous.dispose();
  const rows = await e2eDatabase.handle.db
    .selectFrom("push_subscriptions")
    .select("id")
    .where("endpoint", "=", subscription.endpoint)
    .execute();
  expect(rows).toEqual([]);
});
