import type { Page } from "@playwright/test";
import { listRecordedEvents } from "../../app/.server/providers/analytics/sandbox";
import type { DB } from "../../app/.server/db";
import { expect, test, type AccountOptions, type TestAccount } from "./fixtures";
import { expectAccessible } from "./helpers";

/**
 * Issue 16 §7, decision 0031: the tag manager's six events. The server records them (the sandbox
 * analytics keeps them in the database) with JavaScript on and off — the links' clicks through their
 * `ping`, or the beacon that replaces it when JavaScript navigates; with JavaScript and TAG_MANAGER_ID
 * (`sandbox` on the journeys' servers) the same events reach `window.dataLayer`. Nothing of it before
 * the person accepts on /cookies.
 */
const ACCOUNT: AccountOptions = {
  features: { expenseRequests: { any: true }, integrations: { uggy: true } },
  cards: [{ type: "physical", lastFour: "4242" }],
  wallets: [{ name: "Culture", type: "culture", balance: 5000 }],
  freeLicences: ["virtual_card"],
};
const BAKERY = "tests/fixtures/receipts/boulangerie-2026-11-14.jpg";
const IBAN = "FR76 3000 6000 0112 3456 7890 189";

const jsOn = () => test.info().project.name === "js-on";
const nav = (page: Page) => page.getByRole("navigation", { name: "Navigation principale" }).filter({ visible: true });

async function chooseOnCookies(page: Page, analytics: "J’accepte" | "Je refuse", tags: "J’accepte" | "Je refuse") {
  await page.goto("/cookies");
  await page
    .getByRole("group", { name: "Mesure d’audience et questionnaire" })
    .getByRole("radio", { name: analytics })
    .check();
  await page.getByRole("group", { name: "Gestionnaire de balises" }).getByRole("radio", { name: tags }).check();
  await page.getByRole("button", { name: "Enregistrer mon choix" }).click();
  await expect(page.getByText("Votre choix est enregistré.")).toBeVisible();
}

/** The tag-manager events recorded for this account, sorted (the clicks' pings arrive in their own time). */
async function recorded(db: DB, account: TestAccount) {
  const events = await listRecordedEvents(db, account.userId);
  return events.map((e) => JSON.stringify({ event: e.name, ...e.properties })).sort();
}

/** What the page's dataLayer received, sorted, without the container's own start event. */
async function dataLayerOf(page: Page) {
  const entries = await page.evaluate(() => (window as { dataLayer?: { event?: string }[] }).dataLayer ?? null);
  if (entries === null) return null;
  return entries
    .filter((entry) => entry.event !== "gtm.js")
    .map((entry) => JSON.stringify(entry))
    .sort();
}

test("accepting the tag manager: the six events are recorded by the server, and copied to the dataLayer with JS", async ({
  page,
  makeAccount,
  signInAs,
  e2eDatabase,
}) => {
  test.setTimeout(150_000);
  const account = await makeAccount(ACCOUNT);
  await signInAs(page, account);
  // The tag manager alone: its own events are recorded, nothing else (analytics refused).
  await chooseOnCookies(page, "Je refuse", "J’accepte");
  await page.goto("/cards");
  const html = await page.content();
  expect(html).toContain("window.dataLayer=window.dataLayer||[]");
  // The sandbox id: nothing loaded from outside.
  expect(html).not.toContain("googletagmanager");
  await expect(nav(page).getByRole("link", { name: "Services et partenaires" })).toHaveAttribute(
    "ping",
    "/events?name=clickMenu&target=%2Fplans%2Fintegrations",
  );
  if (jsOn()) expect(await dataLayerOf(page)).toEqual([]);
  await expectAccessible(page, "card page with the tag manager");

  // 1. The debit-priority panel (clickShowWalletsPriority).
  await page.locator("summary", { hasText: "Actions sur la carte" }).click();
  await page.getByRole("link", { name: "Ordre de débit des portefeuilles" }).click();
  await expect(page.getByRole("dialog", { name: "Ordre de débit des portefeuilles" })).toBeVisible();
  await page
    .getByRole("link", { name: /^Fermer/ })
    .first()
    .click();
  await expect(page.getByRole("dialog")).toHaveCount(0);

  // 2. and 3. A card's creation: its link (clickCreateCard), its final submission (submitCreateCard).
  await page.getByRole("link", { name: "Créer une carte" }).last().click();
  const wizard = page.getByRole("dialog", { name: "Créer une carte" });
  await wizard.getByRole("radio", { name: "Carte virtuelle" }).check();
  await wizard.getByRole("button", { name: "Continuer" }).click();
  await expect(page.getByText("Votre carte a été créée.")).toBeVisible();

  // 4. The side menu (clickMenu with its target), then 5. a partner (clickPartner), in a new tab.
  await nav(page).getByRole("link", { name: "Services et partenaires" }).click();
  await expect(page).toHaveURL(/\/plans\/integrations$/);
  const [tab] = await Promise.all([
    page.context().waitForEvent("page"),
    page.getByRole("button", { name: /^Ouvrir Uggy \(nouvel onglet\)$/ }).click(),
  ]);
  await tab.waitForLoadState();
  await expect(tab.getByRole("heading", { level: 1 })).toHaveText("Uggy");
  await tab.close();

  // 6. A refund request sent (submitCreateExpenseRequest with its type), reached from the menu again.
  await nav(page).getByRole("link", { name: "Demandes de remboursement" }).click();
  await page.getByRole("link", { name: "Demander un remboursement" }).click();
  const panel = page.getByRole("dialog", { name: "Demander un remboursement" });
  await panel.getByRole("radio", { name: "Culture" }).check();
  await panel.getByRole("button", { name: "Continuer", exact: true }).click();
  await panel.getByLabel("Votre justificatif").setInputFiles(BAKERY);
  await panel.getByRole("button", { name: "Envoyer le justificatif" }).click();
  await expect(panel.getByRole("link", { name: "Justificatif 1" })).toBeVisible();
  await panel.getByRole("button", { name: "Continuer", exact: true }).click();
  const skip = panel.getByRole("link", { name: "Continuer sans attendre" });
  if (await skip.isVisible()) await skip.click();
  await panel.getByLabel("Nom de l’établissement").fill("pain & co");
  await panel.getByRole("button", { name: "Rechercher" }).click();
  await panel.getByRole("radio", { name: "Boulangerie Pain & Co" }).check();
  await panel.getByLabel("Date de l’achat").fill("14/11/2026");
  await panel.getByLabel("Montant payé").fill("9,10");
  await panel.getByRole("button", { name: "Continuer", exact: true }).click();
  await panel.getByLabel("IBAN du compte à créditer").fill(IBAN);
  await panel.getByRole("button", { name: "Continuer", exact: true }).click();
  await panel.getByRole("checkbox", { name: /Je déclare sur l’honneur/ }).check();
  await panel.getByRole("button", { name: "Envoyer ma demande" }).click();
  await expect(page.getByText("Votre demande de remboursement a bien été envoyée.")).toBeVisible();

  const expected = [
    { event: "clickShowWalletsPriority" },
    { event: "clickCreateCard" },
    { event: "submitCreateCard" },
    { event: "clickMenu", target: "/plans/integrations" },
    { event: "clickPartner", partner: "uggy" },
    { event: "clickMenu", target: "/plans/expense-requests" },
    { event: "submitCreateExpenseRequest", type: "culture" },
  ]
    .map((e) => JSON.stringify(e))
    .sort();
  await expect.poll(() => recorded(e2eDatabase.handle.db, account)).toEqual(expected);
  // With JS: the same events, once each, in the page's dataLayer (one document: every step above was in-page).
  if (jsOn()) expect(await dataLayerOf(page)).toEqual(expected);
});

test("refusing the tag manager and analytics: no snippet, no ping, nothing recorded", async ({
  page,
  makeAccount,
  signInAs,
  e2eDatabase,
}) => {
  const account = await makeAccount(ACCOUNT);
  await signInAs(page, account);
  await chooseOnCookies(page, "Je refuse", "Je refuse");
  await page.goto("/cards");
  expect(await page.content()).not.toContain("dataLayer");
  if (jsOn()) expect(await dataLayerOf(page)).toBeNull();
  const menuLink = nav(page).getByRole("link", { name: "Services et partenaires" });
  await expect(menuLink).not.toHaveAttribute("ping", /.*/);
  await page.locator("summary", { hasText: "Actions sur la carte" }).click();
  await page.getByRole("link", { name: "Ordre de débit des portefeuilles" }).click();
  await expect(page.getByRole("dialog", { name: "Ordre de débit des portefeuilles" })).toBeVisible();
  await page
    .getByRole("link", { name: /^Fermer/ })
    .first()
    .click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await nav(page).getByRole("link", { name: "Services et partenaires" }).click();
  const [tab] = await Promise.all([
    page.context().waitForEvent("page"),
    page.getByRole("button", { name: /^Ouvrir Uggy \(nouvel onglet\)$/ }).click(),
  ]);
  await tab.waitForLoadState();
  await tab.close();
  // A click reported anyway (a ping written by hand) is answered, and not recorded either.
  const ping = await page.request.post("/events?name=clickCreateCard", {
    headers: { "Content-Type": "text/ping" },
    data: "PING",
  });
  expect(ping.status()).toBe(204);
  if (jsOn()) expect(await dataLayerOf(page)).toBeNull();
  // The partner's opening (recorded in the background) has had its time.
  await page.reload();
  expect(await listRecordedEvents(e2eDatabase.handle.db, account.userId)).toEqual([]);
});

test("forged clicks and partners are refused and never recorded", async ({
  page,
  makeAccount,
  signInAs,
  e2eDatabase,
}) => {
  const account = await makeAccount(ACCOUNT);
  const other = await makeAccount(ACCOUNT);
  await signInAs(page, account);
  await chooseOnCookies(page, "J’accepte", "J’accepte");
  const before = await listRecordedEvents(e2eDatabase.handle.db, account.userId);

  const forged = [
    // Another person's card and wallet, a page that is no menu entry, an outside address.
    `/events?name=clickMenu&target=${encodeURIComponent(`/cards/${other.cards["4242"]}`)}`,
    `/events?name=clickMenu&target=${encodeURIComponent(`/wallets/${other.wallets.Culture}`)}`,
    "/events?name=clickMenu&target=%2Fsettings%2Fsecurity",
    "/events?name=clickMenu&target=https%3A%2F%2Fevil.example",
    // No target, two targets, an unknown or a non-click event, a property a link never sends.
    "/events?name=clickMenu",
    "/events?name=clickMenu&target=%2Fcards&target=%2Fwallets",
    "/events?name=clickEverything",
    "/events?name=survey%20sent",
    "/events?name=clickPartner&partner=uggy",
    "/events?name=clickCreateCard&card=x",
    "/events",
  ];
  for (const url of forged) {
    const answer = await page.request.post(url, { form: {} });
    expect(answer.status(), url).toBe(400);
  }
  // A partner the flags do not show, or no partner at all: 404, nothing asked, nothing recorded.
  for (const partner of ["klaro", "evil-partner"]) {
    const answer = await page.request.post("/plans/integrations", { form: { intent: "openPartner", partner } });
    expect(answer.status()).toBe(404);
  }
  // The text/ping body is taken at /events only.
  const elsewhere = await page.request.post("/plans/integrations", {
    headers: { "Content-Type": "text/ping" },
    data: "PING",
  });
  expect(elsewhere.status()).toBe(415);
  // A real entry of this person's menu is taken.
  const own = await page.request.post(`/events?name=clickMenu&target=${encodeURIComponent("/store-locator")}`, {
    headers: { "Content-Type": "text/ping" },
    data: "PING",
  });
  expect(own.status()).toBe(204);
  expect((await listRecordedEvents(e2eDatabase.handle.db, account.userId)).slice(before.length)).toEqual([
    expect.objectContaining({ name: "clickMenu", properties: { target: "/store-locator" } }),
  ]);
});
