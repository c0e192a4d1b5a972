import { createHmac } from "node:crypto";
import path from "node:path";
import { expect, test } from "./fixtures";
import { startTestServer, stopTestServer, type TestServer } from "../support/test-server";
import { openDatabase } from "../../app/.server/db";
import { serveCrispStandIn, type CrispEvent } from "../support/crisp-stand-in";
import { expectAccessible, MARIE, signIn } from "./helpers";

/**
 * The support chat configured for Crisp (CRISP_WEBSITE_ID, issue 16 §5, decision 0032). This file starts
 * its own portal so configured; the browser runs the real crisp-sdk-web, whose widget script
 * (client.crisp.chat/l.js, out of reach here) is a stand-in that records what the SDK hands it
 * (tests/support/crisp-stand-in.ts). The stand-in loading at all also shows the CSP allows Crisp there.
 */

const PORT = Number(process.env.E2E_PORT ?? 3100) + 3;
const BASE = `http://localhost:${PORT}`;
/** The default e2e portal (no Crisp), started by playwright.config.ts. */
const PLAIN = `http://localhost:${Number(process.env.E2E_PORT ?? 3100)}`;
const WEBSITE_ID = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
const SECRET = "e2e-crisp-only-session-secret-0123456789abcdef";
const DB_NAME = "e2e-crisp";

let server: TestServer | undefined;
const jsOff = () => test.info().project.use.javaScriptEnabled === false;

test.beforeAll(async () => {
  if (jsOff()) return;
  test.setTimeout(90_000);
  server = await startTestServer(DB_NAME, PORT, {
    PUBLIC_URL: BASE,
    LOG_LEVEL: "warn",
    RATE_LIMIT_SENSITIVE: "1000",
    SESSION_SECRET: SECRET,
    CRISP_WEBSITE_ID: WEBSITE_ID,
  });
});

test.afterAll(async () => {
  await stopTestServer(server);
});

test.use({ baseURL: BASE });

test.beforeEach(() => {
  test.skip(
    jsOff(),
    "Crisp loads only with JavaScript; what /support says without it is read from the server's HTML in the test",
  );
});

/** Marie's id in this portal's database (the demo data it loaded on start). */
async function userIdOf(email: string): Promise<string> {
  const handle = openDatabase(`file:${path.resolve(import.meta.dirname, `../../data/${DB_NAME}.sqlite`)}`);
  try {
    const row = await handle.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    return row.id;
  } finally {
    await handle.close();
  }
}

const pushes = (events: CrispEvent[]) =>
  events.flatMap((event) => (event.kind === "push" ? [{ command: event.command, tokenId: event.tokenId }] : []));

test("Crisp is loaded only on /support, identifies the user by token, carries the card's context and is reset on sign-out", async ({
  page,
}) => {
  const crisp = await serveCrispStandIn(page);
  await signIn(page, MARIE);
  await expect(page).toHaveURL(/\/cards\/card_/);
  const cardId = new URL(page.url()).pathname.split("/")[2]!;
  // Nowhere but the chat: signing in and the card page loaded nothing of Crisp's.
  expect(crisp.scripts).toEqual([]);

  // The CSP is widened for Crisp in this configuration only.
  const csp = (await page.request.get("/cards")).headers()["content-security-policy"] ?? "";
  expect(csp).toMatch(/script-src [^;]*https:\/\/client\.crisp\.chat/);
  expect(csp).toMatch(/connect-src [^;]*wss:\/\/client\.relay\.crisp\.chat/);
  const plainCsp = (await page.request.get(`${PLAIN}/login`)).headers()["content-security-policy"] ?? "";
  expect(plainCsp).toContain("script-src 'self'");
  expect(plainCsp).not.toContain("crisp");

  // Without JS, /support says the chat needs it and where to write instead; no portal form.
  const html = await (await page.request.get("/support?back=/wallets")).text();
  expect(html).toMatch(/<noscript>[^]*La discussion avec le support s’ouvre avec JavaScript[^]*<\/noscript>/);
  expect(html).not.toContain('name="message"');

  await page.getByRole("link", { name: "Aide et discussion" }).click();
  await expect(page.getByRole("dialog", { name: "Aide" })).toBeVisible();
  await expect.poll(() => crisp.events.filter((e) => e.kind === "loaded").length).toBe(1);
  expect(crisp.scripts).toEqual(["https://client.crisp.chat/l.js"]);
  const tokenId = createHmac("sha256", SECRET)
    .update(`crisp:${await userIdOf(MARIE)}`)
    .digest("hex");
  expect(crisp.events[0]).toEqual({ kind: "loaded", websiteId: WEBSITE_ID, tokenId, runtimeConfig: {} });
  await expect.poll(() => pushes(crisp.events).map((p) => p.command)).toContainEqual(["do", "chat:open"]);
  expect(pushes(crisp.events).map((p) => p.command)).toEqual([
    // No e-mail signature (Crisp's identity verification would need Crisp's secret): the SDK sends none.
    ["set", "user:email", [MARIE, null]],
    ["set", "user:nickname", ["Marie Martin"]],
    ["do", "chat:open"],
  ]);
  await expectAccessible(page, "support chat, Crisp opened");

  // Opened about a card (the delivery panel's link), the card is handed over as the session's data.
  await page.goto(`/support?back=/cards/${cardId}&card=${cardId}`);
  await expect.poll(() => crisp.events.filter((e) => e.kind === "loaded").length).toBe(2);
  await expect
    .poll(() => pushes(crisp.events).map((p) => p.command))
    .toContainEqual(["set", "session:data", [[["context", "Carte physique •••• 4242"]]]]);

  // Back on the card, in the page where the widget is loaded, signing out resets Crisp's session and
  // forgets the token before leaving.
  await page
    .getByRole("dialog", { name: "Aide" })
    .getByRole("link", { name: /^Fermer/ })
    .click();
  await expect(page).toHaveURL(new RegExp(`/cards/${cardId}$`));
  const before = pushes(crisp.events).length;
  await page.locator("summary", { hasText: "Mon compte (Marie Martin)" }).click();
  await page.getByRole("button", { name: "Se déconnecter" }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(pushes(crisp.events).slice(before)).toEqual([{ command: ["do", "session:reset", [false]], tokenId: null }]);

  // Signing out from a page where the widget was never loaded forgets Crisp's session cookies, loading nothing.
  await signIn(page, MARIE);
  const loads = crisp.scripts.length;
  const crispCookie = { name: `crisp-client%2Fsession%2F${WEBSITE_ID}`, value: "session_standin", url: BASE };
  await page.context().addCookies([crispCookie]);
  await page.locator("summary", { hasText: "Mon compte (Marie Martin)" }).click();
  await page.getByRole("button", { name: "Se déconnecter" }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect((await page.context().cookies(BASE)).map((c) => c.name)).not.toContain(crispCookie.name);
  expect(crisp.scripts).toHaveLength(loads);
});
