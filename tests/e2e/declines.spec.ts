import type { Page } from "@playwright/test";
import { addCalendarDays, isFrenchPublicHoliday } from "../../app/domain/calendar";
import { todayInParis } from "../../app/domain/dates";
import { expect, test, type TestAccount } from "./fixtures";
import { expectAccessible, expectNoHorizontalScroll } from "./helpers";

/**
 * Issue 30 §2 and §3, "Done when": a payment made on the sandbox terminal is the first row of the card's
 * transactions; a decline where several wallets paid a part and, with the overflow, fell short says its figures on
 * the card page and in the notification centre. Each journey pays with a fresh copy of marie (•••• 4242 pays from
 * Titres-restaurant, Mobilité and Cadeaux de Noël in that order; 200 € on Cadeaux de Noël; 50 € of overflow).
 */

/** The first day from today + 2 that is neither a Sunday nor a public holiday: titres-restaurant pay, nothing spent. */
function weekday(): string {
  let day = addCalendarDays(todayInParis(), 2);
  while (new Date(`${day}T12:00:00Z`).getUTCDay() === 0 || isFrenchPublicHoliday(day)) day = addCalendarDays(day, 1);
  return day;
}

interface Payment {
  amount: string;
  merchant: "restaurant" | "supermarket";
  name: string;
  /** The Paris day (default: the terminal's, now). */
  day?: string;
}

/** Pays at the terminal with marie's •••• 4242; answers the decision's section. */
async function pay(page: Page, marie: TestAccount, payment: Payment) {
  await page.goto("/dev/terminal");
  await page.getByLabel("4 derniers chiffres de la carte").fill("4242");
  await page.getByLabel("E-mail du titulaire").fill(marie.email);
  await page.getByLabel("Montant (€)").fill(payment.amount);
  await page.getByLabel("Commerçant", { exact: true }).selectOption(payment.merchant);
  await page.getByLabel("Nom du commerçant").fill(payment.name);
  await page.getByLabel("Ville du commerçant").fill("Lyon");
  if (payment.day) {
    await page.getByLabel("Date du paiement").fill(payment.day);
    await page.getByLabel("Heure du paiement").fill("12:30");
  }
  await page.getByRole("button", { name: "Payer" }).click();
  const decision = page.locator("#decision");
  await expect(decision.getByRole("heading")).toHaveText(/^Paiement de .* (accepté|refusé)$/);
  return decision;
}

const transactions = (page: Page) => page.getByRole("region", { name: "Transactions", exact: true });

test("a payment just made on the terminal is the first row of the card's transactions, waiting for its capture", async ({
  page,
  makeMarie,
  signInAs,
}) => {
  const marie = await makeMarie();
  const decision = await pay(page, marie, { amount: "14,20", merchant: "restaurant", name: "Chez Paul" });
  await expect(decision.getByRole("heading")).toHaveText("Paiement de 14,20 € accepté");

  await signInAs(page, marie);
  await page.goto(`/cards/${marie.cards["4242"]}`);
  const rows = transactions(page).getByRole("list", { name: "Transactions acceptées" }).locator(":scope > li");
  const first = rows.first();
  await expect(first).toContainText("Chez Paul");
  await expect(first).toContainText("-14,20 €");
  await expect(first).toContainText("En attente");
  await expect(first).toContainText("Réservé sur :");
  // Then marie's two other approvals waiting for capture, then the captured payments, newest first.
  await expect(rows.nth(1)).toContainText("En attente");
  await expect(rows.nth(3)).toContainText("Acceptée");
  // Still a reserved amount (its own section keeps its meaning), under an id of its own.
  const held = page.getByRole("region", { name: "Montants réservés" }).getByRole("listitem").first();
  await expect(held).toContainText("Chez Paul");
  expect(await held.getAttribute("id")).toBe((await first.getAttribute("id"))!.replace(/^tx-/, "reserved-"));
  await expectAccessible(page, "card with the payment just made first");

  // Pages through: 7, then 7 more starting where the first page ended, nothing listed twice.
  const firstPage = await rows.evaluateAll((items) => items.map((i) => i.id));
  await transactions(page).getByRole("link", { name: "Voir plus de transactions" }).click();
  await expect(rows).toHaveCount(14);
  const twoPages = await rows.evaluateAll((items) => items.map((i) => i.id));
  expect(twoPages.slice(0, 7)).toEqual(firstPage);
  expect(new Set(twoPages).size).toBe(14);
  await expectAccessible(page, "two pages of transactions");
});

test("a decline where the wallets and the overflow fall short says its figures on the card and in the notification", async ({
  page,
  makeMarie,
  signInAs,
}) => {
  const marie = await makeMarie();
  const day = weekday();
  await pay(page, marie, { amount: "14,20", merchant: "restaurant", name: "Chez Paul", day });
  // 420 € at a supermarket the same day: 10,80 € left of the day's 25 € of titres-restaurant, Mobilité not accepted,
  // the 200 € of Cadeaux de Noël, and 209,20 € left for a saved card allowed 50 €.
  const decision = await pay(page, marie, { amount: "420", merchant: "supermarket", name: "Carrefour Market", day });
  await expect(decision.getByRole("heading")).toHaveText("Paiement de 420,00 € refusé");
  await expect(decision).toContainText(
    "Refusée : 420,00 € demandés ; ici vos portefeuilles pouvaient payer 210,80 € :",
  );
  await expectAccessible(page, "terminal, explained decline");

  await signInAs(page, marie);
  await page.goto(`/cards/${marie.cards["4242"]}?tab=declined`);
  const declined = transactions(page)
    .getByRole("list", { name: "Transactions refusées" })
    .locator(":scope > li")
    .first();
  await expect(declined).toContainText("Carrefour Market");
  await expect(declined).toContainText(
    "Refusée : 420,00 € demandés ; ici vos portefeuilles pouvaient payer 210,80 € :",
  );
  const figures = declined.getByRole("list", { name: /420,00 € demandés/ }).getByRole("listitem");
  await expect(figures).toHaveText([
    "Titres-restaurant 10,80 € (reste du plafond de 25,00 € du jour)",
    "Mobilité 0,00 € (non accepté chez ce commerçant)",
    "Cadeaux de Noël 200,00 € (solde disponible)",
    "Carte enregistrée : jusqu’à 50,00 €, il en fallait 209,20 €",
  ]);
  // Not the first rule met: the 25 € of titres-restaurant is one wallet's figure, not the cause.
  await expect(declined).not.toContainText("plafond de 25 € par jour des titres-restaurant atteint");
  await expectAccessible(page, "declined tab with its figures");
  await page.setViewportSize({ width: 375, height: 740 });
  await expectNoHorizontalScroll(page, "declined tab with its figures, phone");

  await page.goto("/notifications");
  const notification = page.getByRole("listitem").filter({ hasText: "Carrefour Market" }).first();
  await expect(notification).toContainText("420,00 €");
  await expect(notification).toContainText("420,00 € demandés ; ici vos portefeuilles pouvaient payer 210,80 €");
  await expect(notification).toContainText("Cadeaux de Noël 200,00 € (solde disponible)");
  await expectAccessible(page, "notification centre with the decline");
});
