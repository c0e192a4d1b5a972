import type { Page } from "@playwright/test";
import { expect, test, type AccountOptions } from "./fixtures";
import { CLAIRE, expectAccessible, MARIE, signIn } from "./helpers";
import { todayInParis } from "../../app/domain/dates";

/**
 * Issue 15 item 1, spec 001 §2.5: the allowances' list (type, period, amounts, masked IBAN, status in
 * words, refusal reason, monthly payouts), cancelling with a confirmation, "Voir plus", the success message
 * after a confirmation, and the tab only for accounts with the allowance feature. Each journey has its
 * own account and allowances (fixtures.ts); the wizards that create them are other journeys'.
 */
const WITH_ALLOWANCES: AccountOptions = {
  features: { allowances: { any: true, carpooling: true, bicycle: true, subscription: true } },
  cards: [{ type: "virtual", lastFour: "5556", wallets: [] }],
};

const LIST = "/plans/allowances";
const items = (page: Page) => page.getByRole("list", { name: "Vos indemnités mobilité" }).locator(":scope > li");
const allowance = (page: Page, title: string) =>
  page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: title, exact: true }) });
const year = todayInParis().slice(0, 4);

const tabs = (page: Page) => page.getByRole("navigation", { name: "Rubriques des avantages" });

test("the list says each allowance in words, with its payouts and refusal reason; cancelling asks first", async ({
  page,
  makeAccount,
  signInAs,
  makeAllowance,
}) => {
  const account = await makeAccount(WITH_ALLOWANCES);
  const sent = await makeAllowance(account, { created_at: new Date(Date.now() - 3_000).toISOString() });
  // Approved by the funder: a payout a month (services/allowances/review.ts reviewAllowance makes the same rows).
  await makeAllowance(
    account,
    {
      type: "bicycle",
      status: "approved",
      is_cancellable: 0,
      travel_role: null,
      amount: 4801,
      amount_before_cap: 4801,
      monthly_amount: 2400,
      number_of_months: 2,
      start_at: `${year}-01-05`,
      ends_at: `${year}-02-20`,
      created_at: new Date(Date.now() - 2_000).toISOString(),
    },
    [
      { month: `${year}-01`, amount: 2400, scheduled_for: `${year}-02-02`, status: "paid" },
      { month: `${year}-02`, amount: 2401, scheduled_for: `${year}-03-02`, status: "scheduled" },
    ],
  );
  await makeAllowance(account, {
    type: "subscription",
    status: "refused",
    is_cancellable: 0,
    refusal_reason: "Attestation illisible",
    travel_role: null,
    days_at_office: null,
    home_address: null,
    work_address: null,
    amount: 4320,
    subscription_amount: 8640,
    percentage: 50,
    monthly_amount: 4320,
    number_of_months: 1,
    created_at: new Date(Date.now() - 1_000).toISOString(),
  });
  await signInAs(page, account);

  // /plans opens the integrations tab (every account has it); the allowances tab is one click away.
  await page.goto("/plans");
  await expect(page).toHaveURL(/\/plans\/integrations$/);
  await tabs(page).getByRole("link", { name: "Indemnités mobilité" }).click();
  await expect(page).toHaveURL(new RegExp(`${LIST}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Avantages");
  await expect(page).toHaveTitle(/^Indemnités mobilité/);
  await expect(tabs(page).getByRole("link", { name: "Indemnités mobilité" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("link", { name: "Demander une indemnité" })).toHaveAttribute("href", `${LIST}/new`);
  await expect(items(page)).toHaveCount(3);
  // Newest first.
  await expect(items(page).first().getByRole("heading")).toHaveText("Abonnement de transport — Acme France");

  const carpooling = allowance(page, "Covoiturage — Acme France");
  await expect(carpooling).toContainText("Envoyée");
  await expect(carpooling).toContainText(/24,00\s€/);
  await expect(carpooling).toContainText("Versement sur le compte se terminant par 0189");
  await expect(carpooling.getByRole("link", { name: /^Annuler l’indemnité Covoiturage/ })).toBeVisible();

  const bicycle = allowance(page, "Indemnité kilométrique vélo — Acme France");
  await expect(bicycle).toContainText("Validée");
  await expect(bicycle).toContainText(`du 05/01/${year} au 20/02/${year}`);
  await expect(bicycle).toContainText(/24,00\s€ par mois pendant 2 mois/);
  const payouts = bicycle.getByRole("list", { name: "Versements" }).getByRole("listitem");
  await expect(payouts).toHaveCount(2);
  await expect(payouts.first()).toHaveText(new RegExp(`^janvier ${year} : 24,00\\s€, versé le 02/02/${year}$`));
  await expect(payouts.last()).toHaveText(new RegExp(`^février ${year} : 24,01\\s€, virement prévu le 02/03/${year}$`));
  await expect(bicycle.getByRole("link", { name: /^Annuler/ })).toHaveCount(0);

  const subscription = allowance(page, "Abonnement de transport — Acme France");
  await expect(subscription).toContainText("Refusée");
  await expect(subscription).toContainText("Motif du refus : Attestation illisible");
  await expect(subscription.getByRole("link", { name: /^Annuler/ })).toHaveCount(0);
  await expectAccessible(page, "allowance list");

  await carpooling.getByRole("link", { name: /^Annuler l’indemnité Covoiturage/ }).click();
  await expect(page).toHaveURL(`${LIST}/${sent}/cancel`);
  const panel = page.getByRole("dialog", { name: "Annuler l’indemnité" });
  await expect(panel).toContainText("Covoiturage");
  await expect(panel).toContainText(/24,00\s€/);
  await expectAccessible(page, "cancel confirmation");
  await panel.getByRole("button", { name: "Annuler l’indemnité" }).click();
  await expect(page.getByText("Votre indemnité est annulée.")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${LIST}$`));
  await expect(allowance(page, "Covoiturage — Acme France")).toContainText("Annulée");
  await expect(allowance(page, "Covoiturage — Acme France").getByRole("link", { name: /^Annuler/ })).toHaveCount(0);
  await expectAccessible(page, "after cancelling");

  // A second cancel (an old tab), an unknown id and someone else's: back to the list with a message.
  await page.goto(`${LIST}/${sent}/cancel`);
  await expect(page).toHaveURL(new RegExp(`${LIST}$`));
  await expect(page.getByText("Cette indemnité ne peut plus être annulée.")).toBeVisible();
  await page.goto(`${LIST}/alw_not-an-allowance/cancel`);
  await expect(page.getByText("Cette indemnité est introuvable.")).toBeVisible();
  const stranger = await makeAccount(WITH_ALLOWANCES);
  const theirs = await makeAllowance(stranger);
  await page.goto(`${LIST}/${theirs}/cancel`);
  await expect(page.getByText("Cette indemnité est introuvable.")).toBeVisible();
  const forged = await page.request.post(`${LIST}/${theirs}/cancel`, {
    form: { intent: "cancel" },
    headers: { Origin: new URL(page.url()).origin },
    maxRedirects: 0,
  });
  expect(forged.status()).toBe(302);
  expect(forged.headers().location).toBe(LIST);
  const unknownIntent = await page.request.post(`${LIST}/${theirs}/cancel`, {
    form: { intent: "approve" },
    headers: { Origin: new URL(page.url()).origin },
    maxRedirects: 0,
  });
  expect(unknownIntent.status()).toBe(400);
});

test("empty at first; ten at a time with “Voir plus”; the message after a confirmation", async ({
  page,
  makeAccount,
  signInAs,
  makeAllowance,
}) => {
  const account = await makeAccount(WITH_ALLOWANCES);
  await signInAs(page, account);
  await page.goto(LIST);
  await expect(page.getByText("Aucune indemnité pour le moment.")).toBeVisible();
  await expectAccessible(page, "empty list");

  const start = Date.now() - 60_000;
  for (let i = 0; i < 11; i++)
    await makeAllowance(account, { amount: 1000 * (i + 1), created_at: new Date(start + i * 1_000).toISOString() });
  await page.goto(`${LIST}?refresh=1`);
  await expect(page.getByRole("status").filter({ hasText: "Votre demande d’indemnité est envoyée" })).toBeVisible();
  await expect(items(page)).toHaveCount(10);
  // Newest first: the eleventh made (110,00 €) leads, the first made (10,00 €) waits behind "Voir plus".
  await expect(items(page).first()).toContainText(/110,00\s€/);
  await expectAccessible(page, "list after a confirmation");
  await page.getByRole("link", { name: "Voir plus" }).click();
  await expect(page).toHaveURL(/\?page=2#alw-/);
  await expect(items(page)).toHaveCount(11);
  await expect(items(page).last()).toContainText(/Indemnité10,00\s€/);
  await expect(page.getByRole("link", { name: "Voir plus" })).toHaveCount(0);
});

test("an account without the allowance feature has no tab, and the list answers 404", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  const account = await makeAccount({
    features: { expenseRequests: { any: true } },
    cards: [{ type: "virtual", lastFour: "5557", wallets: [] }],
  });
  await signInAs(page, account);
  await page.goto("/plans/expense-requests");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Avantages");
  await expect(tabs(page).getByRole("link", { name: "Demandes de remboursement" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Indemnités mobilité" })).toHaveCount(0);
  const answer = await page.goto(LIST);
  expect(answer?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page introuvable");
});

test("the demo: marie's seeded carpooling allowance is in her list; claire, without the feature, has no tab", async ({
  page,
}) => {
  await signIn(page, MARIE);
  await page.goto(LIST);
  const seeded = allowance(page, "Covoiturage — CSE Acme");
  await expect(seeded).toContainText("Envoyée");
  await expect(seeded).toContainText("Versement sur le compte se terminant par 0189");
  await expect(seeded.getByRole("link", { name: /^Annuler l’indemnité Covoiturage/ })).toBeVisible();

  await page.context().clearCookies();
  await signIn(page, CLAIRE);
  await page.goto("/cards");
  await expect(page.getByRole("link", { name: "Indemnités mobilité" })).toHaveCount(0);
  expect((await page.goto(LIST))?.status()).toBe(404);
});
