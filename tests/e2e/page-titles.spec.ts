import { expect, test } from "./fixtures";
import { submitPassword } from "./helpers";

/**
 * Spec 001 §2.1: every page's title is the route's title and the product's name, "<page> – Portail Avantages".
 * The card and wallet pages name the card or wallet shown (a more pertinent title, RGAA 8.6, than one shared
 * by all of them); the panels over a page name the panel.
 */
const PRODUCT = "Portail Avantages";

test("the public pages: sign-in, lost and new password, activation, e-mail confirmation, legal pages, not found", async ({
  page,
}) => {
  for (const [path, title] of [
    ["/login", "Connexion"],
    ["/lost-password", "Mot de passe oublié"],
    ["/reset-password", "Nouveau mot de passe"],
    ["/activate", "Activer mon compte"],
    ["/user-confirmation", "Confirmation de l’adresse e-mail"],
    ["/terms", "Conditions générales d’utilisation"],
    ["/privacy", "Politique de confidentialité"],
    ["/cookies", "Cookies"],
    ["/accessibilite", "Déclaration d’accessibilité"],
    ["/plan-du-site", "Plan du site"],
    ["/nowhere-at-all", "Page introuvable"],
  ] as const) {
    await page.goto(path);
    await expect(page, path).toHaveTitle(`${title} – ${PRODUCT}`);
  }
});

test("the forced password change", async ({ page, makeAccount }) => {
  const account = await makeAccount({ profile: false, mfa: null, passwordChangeRequired: true });
  await page.goto("/login");
  await submitPassword(page, account.email);
  await expect(page).toHaveURL(/\/force-change-password$/);
  await expect(page).toHaveTitle(`Choisissez votre mot de passe – ${PRODUCT}`);
});

test("the signed-in pages: cards, wallets, store locator, offers, refunds, allowances, notifications, settings, support, sign-out", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  const account = await makeAccount({
    cards: [{ type: "virtual", lastFour: "5556" }],
    wallets: [{ name: "Culture", type: "culture", balance: 5_000 }],
    features: {
      expenseRequests: { any: true },
      allowances: { any: true, carpooling: true, bicycle: true, subscription: true },
    },
  });
  await signInAs(page, account);
  for (const [path, title] of [
    ["/cards", "Carte virtuelle •••• 5556"],
    ["/wallets", "Culture"],
    ["/store-locator", "Trouver un commerce"],
    ["/plans", "Services et partenaires"],
    ["/plans/expense-requests", "Demandes de remboursement"],
    ["/plans/expense-requests/new", "Demander un remboursement"],
    ["/plans/allowances", "Indemnités mobilité"],
    ["/plans/allowances/new", "Demander une indemnité mobilité"],
    ["/notifications", "Notifications"],
    ["/settings", "Profil"],
    ["/settings/notifications", "Notifications"],
    ["/settings/security", "Sécurité"],
    ["/support", "Aide"],
    ["/nowhere-at-all", "Page introuvable"],
    ["/logout", "Déconnexion"],
  ] as const) {
    await page.goto(path);
    await expect(page, path).toHaveTitle(`${title} – ${PRODUCT}`);
  }
});
