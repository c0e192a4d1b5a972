import { expect, test, type AccountOptions } from "./fixtures";
import { CLAIRE, expectAccessible, signIn } from "./helpers";

/**
 * Issue 16 item 2, spec 000 §2 "Integrations page", §6, §7: the services and partners cards, a partner
 * opened in a new tab through the sandbox partner-link provider (a single-use link), Klaro refused
 * without access, claire's empty message, forged partners. JS on and off (the form posts into a new tab
 * either way). Each journey has its own account, but claire's (the demo's, read only).
 */
const EVERYTHING: AccountOptions = {
  features: {
    integrations: {
      uggy: true,
      "uggy-vouchers": true,
      rosaly: true,
      joko: true,
      klaro: true,
      "decathlon-integrations": true,
    },
    allowances: { any: true },
    expenseRequests: { any: true },
  },
  cards: [{ type: "virtual", lastFour: "5561", wallets: [] }],
};
const PAGE = "/plans/integrations";

test("the services and partners cards; a partner opens in a new tab, once", async ({ page, makeAccount, signInAs }) => {
  const account = await makeAccount(EVERYTHING);
  await signInAs(page, account);
  await page.goto("/plans");
  await expect(page).toHaveURL(new RegExp(`${PAGE}$`));
  await expect(page).toHaveTitle("Services et partenaires – Portail Avantages");
  const tabs = page.getByRole("navigation", { name: "Rubriques des avantages" });
  await expect(tabs.getByRole("link", { name: "Services et partenaires" })).toHaveAttribute("aria-current", "page");

  const services = page.getByRole("region", { name: "Services" });
  await expect(services.getByRole("link", { name: "Ouvrir « Demandes de remboursement »" })).toHaveAttribute(
    "href",
    "/plans/expense-requests",
  );
  await expect(services.getByRole("link", { name: "Ouvrir « Indemnités mobilité »" })).toHaveAttribute(
    "href",
    "/plans/allowances",
  );
  const partners = page.getByRole("region", { name: "Partenaires" });
  await expect(partners.getByRole("heading", { level: 3 })).toHaveText([
    "Uggy – bons d’achat",
    "Uggy",
    "Rosaly",
    "Joko",
    "Klaro",
    "Decathlon – intranet",
    "Decathlon – MyPeopleDoc",
    "Decathlon – Winchapps",
  ]);
  await expectAccessible(page, "integrations page");

  const [tab] = await Promise.all([
    page.context().waitForEvent("page"),
    partners.getByRole("button", { name: /^Ouvrir Uggy \(nouvel onglet\)$/ }).click(),
  ]);
  await tab.waitForLoadState();
  await expect(tab.getByRole("heading", { level: 1 })).toHaveText("Uggy");
  await expect(tab).toHaveURL(/\/sandbox-partner\/[\w-]{20,}$/);
  // Single use: the same link again is refused.
  const again = await tab.reload();
  expect(again?.status()).toBe(404);
  await expect(tab.getByRole("heading", { level: 1 })).toHaveText("Lien invalide");
  await tab.close();
  // The portal's page stayed as it was.
  await expect(page).toHaveURL(new RegExp(`${PAGE}$`));
});

test("Klaro without access: the no-access message in the new tab; with access again, Klaro opens", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  const account = await makeAccount(EVERYTHING);
  await page.goto("/dev/partners");
  await page.getByLabel("Adresse e-mail du compte").fill(account.email);
  await page.getByRole("button", { name: "Retirer l’accès à Klaro" }).click();
  await expect(page.getByText("L’accès à Klaro est retiré pour ce compte.")).toBeVisible();

  await signInAs(page, account);
  await page.goto(PAGE);
  const klaro = page.getByRole("button", { name: /^Ouvrir Klaro/ });
  const [refused] = await Promise.all([page.context().waitForEvent("page"), klaro.click()]);
  await refused.waitForLoadState();
  await expect(refused.getByRole("alert")).toHaveText(
    "Klaro : Vous n’avez pas accès à ce service. Rapprochez-vous de votre financeur.",
  );
  await expect(refused).toHaveTitle(/^Erreur : Services et partenaires/);
  await expectAccessible(refused, "integrations page, Klaro refused");
  await refused.close();

  await page.goto("/dev/partners");
  await page.getByLabel("Adresse e-mail du compte").fill(account.email);
  await page.getByRole("button", { name: "Rendre l’accès à Klaro" }).click();
  await expect(page.getByText("L’accès à Klaro est rendu à ce compte.")).toBeVisible();
  await page.goto(PAGE);
  const [opened] = await Promise.all([
    page.context().waitForEvent("page"),
    page.getByRole("button", { name: /^Ouvrir Klaro/ }).click(),
  ]);
  await opened.waitForLoadState();
  await expect(opened.getByRole("heading", { level: 1 })).toHaveText("Klaro");
});

test("a forged partner, or one the account's flags do not show: 404 in French, nothing opened", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  const account = await makeAccount({ ...EVERYTHING, features: { integrations: { joko: ["g1"] } } });
  await signInAs(page, account);
  await page.goto(PAGE);
  await expect(page.getByRole("region", { name: "Partenaires" }).getByRole("heading", { level: 3 })).toHaveText([
    "Joko",
  ]);
  await expect(page.getByRole("region", { name: "Services" })).toHaveCount(0);
  for (const partner of ["uggy", "evil", "decathlon-intranet", "x".repeat(500)]) {
    const answer = await page.request.post(PAGE, { form: { intent: "openPartner", partner }, maxRedirects: 0 });
    expect(answer.status(), partner).toBe(404);
    expect(await answer.text()).toContain("Ce partenaire n’existe pas ou ne vous est pas proposé.");
  }
  const unknown = await page.request.post(PAGE, { form: { intent: "pay", partner: "joko" }, maxRedirects: 0 });
  expect(unknown.status()).toBe(400);
  const opened = await page.request.post(PAGE, { form: { intent: "openPartner", partner: "joko" }, maxRedirects: 0 });
  expect(opened.status()).toBe(303);
  expect(opened.headers()["location"]).toMatch(/\/sandbox-partner\/[\w-]{20,}$/);
});

test("claire has no service nor partner: the empty message", async ({ page }) => {
  await signIn(page, CLAIRE);
  await page.goto(PAGE);
  await expect(
    page.getByText("Aucun service ni partenaire n’est proposé par votre financeur pour le moment."),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: /^Ouvrir/ })).toHaveCount(0);
  await expectAccessible(page, "integrations page, empty");
});
