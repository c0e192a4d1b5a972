import type { Page } from "@playwright/test";
import { expect, test, type AccountOptions } from "./fixtures";
import { expectAccessible } from "./helpers";
import { addWorkingDays } from "../../app/domain/calendar";
import { frenchDay, todayInParis } from "../../app/domain/dates";

/**
 * Spec 001 §2.6 "List", issue 14 items 1 and 4: the refund requests' list, cancelling with a confirmation
 * (the reserved amount released on the wallet page), and the funder's sandbox review (approve: the payout
 * date shown; refuse: the reason shown; ask for a correction). Each journey has its own account and requests
 * (fixtures.ts); the wizard that creates requests is another journey's.
 */
const WITH_REFUNDS: AccountOptions = {
  features: { expenseRequests: { any: true } },
  wallets: [{ name: "Culture", type: "culture", balance: 30000 }],
  cards: [{ type: "virtual", lastFour: "5556", wallets: ["Culture"] }],
};

const LIST = "/plans/expense-requests";
const requests = (page: Page) => page.getByRole("list", { name: /^(En cours|Terminées)$/ }).getByRole("listitem");
const request = (page: Page, partner: string) =>
  page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: partner }) });
/** The wallet page's one reserved figure and the line of its parts (issue 30 §5). */
const reservedBox = (page: Page) =>
  page
    .getByRole("region", { name: "Détails" })
    .locator(".balances > div")
    .filter({ has: page.locator("dt", { hasText: /^Réservé$/ }) });
const reservedFigure = (page: Page) => reservedBox(page).locator("dd").first();
const reservedParts = (page: Page) => reservedBox(page).locator("dd.amount-parts");

test("the list's tabs; cancelling the cancellable request after a confirmation releases what it held on the wallet", async ({
  page,
  makeAccount,
  signInAs,
  makeRefund,
}) => {
  const account = await makeAccount(WITH_REFUNDS);
  const sent = await makeRefund(account, {
    type: "culture",
    partner: "Théâtre du Vieux-Lyon",
    amount: 12000,
    split: { Culture: 12000 },
  });
  await makeRefund(account, {
    type: "culture",
    partner: "Librairie des Terreaux",
    amount: 4590,
    fields: { status: "refused", is_cancellable: 0, refusal_reason: "Achat hors du catalogue culture" },
  });
  await signInAs(page, account);

  await page.goto(`/wallets/${account.wallets.Culture}`);
  await expect(reservedParts(page)).toHaveText(
    "dont paiements par carte en attente : 0,00 € · demandes de remboursement en attente : 120,00 €",
  );
  await expect(reservedFigure(page)).toHaveText("120,00 €");

  await page.goto(LIST);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Avantages");
  await expect(page).toHaveTitle(/^Demandes de remboursement/);
  await expect(page.getByRole("link", { name: "En cours" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("link", { name: "Demander un remboursement" })).toHaveAttribute(
    "href",
    "/plans/expense-requests/new",
  );
  await expect(requests(page)).toHaveCount(1);
  const theatre = request(page, "Théâtre du Vieux-Lyon");
  await expect(theatre).toContainText("Envoyée, en attente de validation");
  await expect(theatre).toContainText("120,00 €");
  await expectAccessible(page, "refund list, in progress");

  await page.getByRole("link", { name: "Terminées" }).click();
  await expect(page).toHaveURL(/\?tab=finished/);
  const refused = request(page, "Librairie des Terreaux");
  await expect(refused).toContainText("Refusée");
  await expect(refused).toContainText("Motif du refus : Achat hors du catalogue culture");
  await expect(refused.getByRole("link", { name: /Annuler/ })).toHaveCount(0);
  await expectAccessible(page, "refund list, finished");

  await page.getByRole("link", { name: "En cours" }).click();
  await request(page, "Théâtre du Vieux-Lyon")
    .getByRole("link", { name: /^Annuler la demande/ })
    .click();
  const panel = page.getByRole("dialog", { name: "Annuler la demande" });
  await expect(panel).toContainText("120,00 €");
  await expect(panel).toContainText("Théâtre du Vieux-Lyon");
  await expectAccessible(page, "cancel confirmation");
  await panel.getByRole("button", { name: "Annuler la demande" }).click();
  await expect(page.getByText("Votre demande de remboursement est annulée.")).toBeVisible();
  await expect(page).toHaveURL(/\?tab=finished/);
  await expect(request(page, "Théâtre du Vieux-Lyon")).toContainText("Annulée");
  await expectAccessible(page, "after cancelling");

  await page.goto(`/wallets/${account.wallets.Culture}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Culture");
  await expect(reservedFigure(page)).toHaveText("0,00 €");
  await expect(reservedParts(page)).toContainText("demandes de remboursement en attente : 0,00 €");
  await expect(page.getByText(/^Une demande de remboursement en attente garde son montant réservé/)).toHaveCount(0);

  // A second cancel (an old tab, a bookmark) and someone else's or an unknown id: back to the list with a message.
  await page.goto(`${LIST}/${sent}/cancel`);
  await expect(page).toHaveURL(new RegExp(`${LIST}$`));
  await expect(page.getByText("Cette demande ne peut plus être annulée.")).toBeVisible();
  await page.goto(`${LIST}/exr_not-a-request/cancel`);
  await expect(page.getByText("Cette demande de remboursement est introuvable.")).toBeVisible();
  const stranger = await makeAccount(WITH_REFUNDS);
  const theirs = await makeRefund(stranger, {
    type: "culture",
    partner: "Théâtre du Vieux-Lyon",
    amount: 5000,
    split: { Culture: 5000 },
  });
  await page.goto(`${LIST}/${theirs}/cancel`);
  await expect(page.getByText("Cette demande de remboursement est introuvable.")).toBeVisible();
  const forged = await page.request.post(`${LIST}/${theirs}/cancel`, {
    form: { intent: "cancel" },
    headers: { Origin: new URL(page.url()).origin },
    maxRedirects: 0,
  });
  expect(forged.status()).toBe(302);
  expect(forged.headers().location).toBe(LIST);
});

test("the sandbox reviewer approves one request (its payout date shown), refuses another and asks to correct a third", async ({
  page,
  makeAccount,
  signInAs,
  makeRefund,
}) => {
  const account = await makeAccount(WITH_REFUNDS);
  const approved = await makeRefund(account, {
    type: "culture",
    partner: "Cinéma Lumière Bellecour",
    amount: 2400,
    split: { Culture: 2400 },
  });
  const refused = await makeRefund(account, {
    type: "culture",
    partner: "Librairie du Marais",
    amount: 3100,
    split: { Culture: 3100 },
  });
  const corrected = await makeRefund(account, {
    type: "culture",
    partner: "Atelier Poterie Saint-Georges",
    amount: 5500,
    split: { Culture: 5500 },
  });

  const review = async (id: string, action: string, reason?: string) => {
    await page.goto("/dev/expense-requests");
    const item = page.getByRole("listitem").filter({ hasText: id });
    if (reason) await item.getByLabel("Motif").fill(reason);
    await item.getByRole("button", { name: action }).click();
  };
  await page.goto("/dev/expense-requests");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Demandes à examiner (bac à sable)");
  await expectAccessible(page, "sandbox reviewer");
  await review(approved, "Valider");
  await expect(page.getByText("Demande validée : le virement est programmé.")).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: approved })).toHaveCount(1); // now a scheduled payout
  await review(refused, "Refuser", "Facture au nom d’une autre personne");
  await expect(page.getByText("Demande refusée.")).toBeVisible();
  await review(corrected, "Demander une correction", "Le montant ne se lit pas sur le ticket");
  await expect(page.getByText("Correction demandée.")).toBeVisible();

  await signInAs(page, account);
  await page.goto(LIST);
  const cinema = request(page, "Cinéma Lumière Bellecour");
  await expect(cinema).toContainText("Validée, remboursement en cours");
  await expect(cinema).toContainText(
    `Virement prévu le ${frenchDay(addWorkingDays(todayInParis(), 7))} : 24,00 € sur le compte se terminant par 0189`,
  );
  await expect(cinema.getByRole("link", { name: /Annuler/ })).toHaveCount(0);
  const pottery = request(page, "Atelier Poterie Saint-Georges");
  await expect(pottery).toContainText("À corriger : Le montant ne se lit pas sur le ticket");
  await expect(pottery.getByRole("link", { name: /^Corriger la demande/ })).toHaveAttribute(
    "href",
    `${LIST}/${corrected}`,
  );
  await expectAccessible(page, "reviewed requests in progress");
  await page.getByRole("link", { name: "Terminées" }).click();
  await expect(request(page, "Librairie du Marais")).toContainText(
    "Motif du refus : Facture au nom d’une autre personne",
  );
  // The approved request's wallet was debited and the refused one's hold released: only the one to correct holds.
  await page.goto(`/wallets/${account.wallets.Culture}`);
  await expect(reservedParts(page)).toContainText("demandes de remboursement en attente : 55,00 €");
  await expect(reservedFigure(page)).toHaveText("55,00 €");
});

test("a paid request explains its amounts: the receipt, what was refunded, the fees, the day and account it was paid to", async ({
  page,
  makeAccount,
  signInAs,
  makeRefund,
  e2eDatabase,
}) => {
  const account = await makeAccount(WITH_REFUNDS);
  const finished = { status: "paid", is_cancellable: 0 } as const;
  // Paid in part, with fees: its payout left on 29 October 2026 (00:15 in Paris), after being due on the 28th.
  const partial = await makeRefund(account, {
    type: "holidays",
    partner: "Gîtes du Vercors",
    amount: 35000,
    fields: { ...finished, amount_to_refund: 30000, fees: 150, payout_date: "2026-10-28" },
  });
  await e2eDatabase.handle.db
    .insertInto("payouts")
    .values({
      id: `pay_${partial}`,
      user_id: account.userId,
      expense_request_id: partial,
      amount: 30000,
      iban: "FR7630006000011234567890189",
      scheduled_for: "2026-10-28",
      status: "paid",
      created_at: "2026-10-19T09:00:00Z",
      paid_at: "2026-10-28T23:15:00Z",
    })
    .execute();
  // Paid whole, recorded without a payout row: its day only, and its fees as a figure (whether they came off the
  // transfer is not known).
  await makeRefund(account, {
    type: "culture",
    partner: "Librairie des Terreaux",
    amount: 2590,
    fields: { ...finished, fees: 100, payout_date: "2026-10-02" },
  });
  // Paid whole, its fees taken off the transfer (98,50 € of 100,00 €).
  const cinema = await makeRefund(account, {
    type: "culture",
    partner: "Cinéma Lumière Bellecour",
    amount: 10000,
    fields: { ...finished, fees: 150, payout_date: "2026-10-05" },
  });
  await e2eDatabase.handle.db
    .insertInto("payouts")
    .values({
      id: `pay_${cinema}`,
      user_id: account.userId,
      expense_request_id: cinema,
      amount: 9850,
      iban: "FR7630006000011234567890189",
      scheduled_for: "2026-10-05",
      status: "paid",
      created_at: "2026-09-25T09:00:00Z",
      paid_at: "2026-10-05T08:00:00Z",
    })
    .execute();
  await makeRefund(account, {
    type: "culture",
    partner: "Théâtre du Vieux-Lyon",
    amount: 4000,
    fields: { status: "cancelled", is_cancellable: 0 },
  });
  await signInAs(page, account);
  await page.goto(`${LIST}?tab=finished`);

  const gites = request(page, "Gîtes du Vercors");
  await expect(gites).toContainText("Remboursée");
  await expect(gites.locator("dl div").filter({ hasText: "Montant du justificatif" })).toContainText("350,00 €");
  await expect(gites.locator("dl div").filter({ hasText: /^Remboursé/ })).toContainText("300,00 €");
  await expect(gites.locator("dl div").filter({ hasText: /^Frais/ })).toContainText("1,50 €");
  await expect(gites).toContainText(
    "Remboursement partiel : 300,00 € remboursés sur les 350,00 € du justificatif ; 50,00 € restent à votre charge.",
  );
  // The payout transferred the whole 300,00 €: the fees did not come off it.
  await expect(gites).toContainText("Frais de 1,50 €, non déduits du virement : 300,00 € versés.");
  await expect(gites).toContainText("Versé le 29/10/2026 : 300,00 € sur le compte se terminant par 0189");
  await expect(gites).not.toContainText("Montant à rembourser");

  const books = request(page, "Librairie des Terreaux");
  await expect(books).toContainText("Versé le 02/10/2026 sur le compte se terminant par 0189");
  await expect(books).not.toContainText("Remboursement partiel");
  await expect(books).toContainText("Frais enregistrés sur ce remboursement : 1,00 €.");
  await expect(books).not.toContainText("déduits du virement");

  const cinemaItem = request(page, "Cinéma Lumière Bellecour");
  await expect(cinemaItem).toContainText("Frais de 1,50 € déduits du virement : 98,50 € versés.");
  await expect(cinemaItem).toContainText("Versé le 05/10/2026 : 98,50 € sur le compte se terminant par 0189");
  await expect(cinemaItem).not.toContainText("Remboursement partiel");

  const theatre = request(page, "Théâtre du Vieux-Lyon");
  await expect(theatre.locator("dl div").filter({ hasText: "Montant demandé" })).toContainText("40,00 €");
  await expect(theatre).toContainText(
    "Aucun virement : ce que cette demande réservait sur vos portefeuilles leur a été rendu.",
  );
  await expect(theatre).not.toContainText("Versé le");
  await expectAccessible(page, "finished requests explained");
});

test("ten requests a page; Voir plus shows ten more; an empty tab says so", async ({
  page,
  makeAccount,
  signInAs,
  makeRefund,
}) => {
  const account = await makeAccount(WITH_REFUNDS);
  const start = Date.now() - 3_600_000;
  for (let i = 0; i < 11; i++) {
    await makeRefund(account, {
      type: "culture",
      partner: "Librairie des Terreaux",
      amount: 1000 + i,
      fields: { created_at: new Date(start + i * 60_000).toISOString() },
    });
  }
  await signInAs(page, account);
  await page.goto(LIST);
  await expect(requests(page)).toHaveCount(10);
  await expect(requests(page).first()).toContainText("10,10 €");
  await page.getByRole("link", { name: "Voir plus" }).click();
  await expect(requests(page)).toHaveCount(11);
  await expect(requests(page).last()).toContainText("10,00 €");
  await expect(page.getByRole("link", { name: "Voir plus" })).toHaveCount(0);
  await page.getByRole("link", { name: "Terminées" }).click();
  await expect(page.getByText("Aucune demande terminée pour le moment.")).toBeVisible();
  await expectAccessible(page, "empty finished tab");
});

test("without the refund feature the list and its panels answer 404", async ({ page, makeAccount, signInAs }) => {
  const account = await makeAccount({ ...WITH_REFUNDS, features: {} });
  await signInAs(page, account);
  expect((await page.goto(LIST))?.status()).toBe(404);
  expect((await page.goto(`${LIST}/exr_x/cancel`))?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(/introuvable/i);
});
