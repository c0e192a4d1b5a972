import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Locator, Page } from "@playwright/test";
import { monthsOfPeriod, transportSharePercent } from "../../app/domain/allowances";
import { todayInParis } from "../../app/domain/dates";
import { expect, test, type AccountOptions } from "./fixtures";
import { expectAccessible } from "./helpers";
import { navigoPass, plainProof } from "../support/text-pdf";

/**
 * Issue 15 item 4, spec 001 §2.7, §5 "Subscription": the subscription wizard in a side panel over the list
 * of allowances, JS on and off — the two shared receipts as the ticket and the proof, the 75 % of CSE Acme
 * (50 % for the employer), a missing second document, an end after 31 December and a price above its bound
 * refused, the sworn statement, then the list with the new allowance. Each journey has its own account
 * (fixtures.ts).
 */
const TICKET = resolve("tests/fixtures/receipts/boulangerie-2026-11-14.jpg");
const PROOF = resolve("tests/fixtures/receipts/cycles-du-rhone-2026-11-02.pdf");
const IBAN = "FR76 3000 6000 0112 3456 7890 189";
const WITH_SUBSCRIPTION: AccountOptions = {
  cards: [{ type: "physical", lastFour: "4242" }],
  features: { allowances: { any: true, subscription: true } },
  otherFunders: [{ name: "CSE Acme", group: { subscription_share_percent: 75 } }],
};

const year = todayInParis().slice(0, 4);
/** November and December of this year: always a valid subscription period (start this year, end 31 December). */
const START = `${year}-11-01`;
const END = `${year}-12-31`;
const french = (day: string) => day.split("-").reverse().join("/");
const SHARE = transportSharePercent(75, Number(year));
const MONTHS = monthsOfPeriod(START, END);

const panelOf = (page: Page) => page.getByRole("dialog", { name: "Abonnement de transport" });
const priceOf = (panel: Locator) => panel.getByLabel("Prix de l’abonnement pour la période, en euros");

/**
 * Once the documents are read, the details' form (decision 0056): with JavaScript the step asks again by
 * itself; without it the page reloads every 20 s, so the journey follows « Vérifier maintenant » instead.
 */
async function untilRead(panel: Locator) {
  await expect(async () => {
    const check = panel.getByRole("link", { name: "Vérifier maintenant" });
    if (await check.isVisible()) await check.click();
    await expect(priceOf(panel)).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
}
const stepHeading = (panel: Locator) => panel.getByRole("heading", { level: 3 });

test("a subscription with the two receipts at 75 % for CSE Acme: missing proof, end after 31 December, sworn statement", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  const account = await makeAccount(WITH_SUBSCRIPTION);
  await signInAs(page, account);
  await page.goto("/plans/allowances");
  await page.getByRole("link", { name: "Demander une indemnité" }).click();
  await page
    .getByRole("dialog")
    .getByRole("link", { name: /Abonnement/ })
    .click();

  // Abonnement: what the allowance is, each group's share.
  const panel = panelOf(page);
  await expect(stepHeading(panel)).toHaveText("Étape 1 sur 4 : Abonnement");
  await expect(page).toHaveURL(/\/plans\/allowances\/new\?draft=ald_/);
  await expect(panel).toContainText(`CSE Acme : ${SHARE} % du prix de l’abonnement`);
  await expect(panel).toContainText("Acme France : 50 % du prix de l’abonnement");
  await expectAccessible(page, "subscription intro");
  await panel.getByRole("button", { name: "Commencer" }).click();

  // Tickets: the ticket alone, then "send" without the proof: refused on the proof's field.
  await expect(stepHeading(panel)).toHaveText("Étape 2 sur 4 : Justificatifs");
  await expect(page).toHaveURL(/step=tickets/);
  await expectAccessible(page, "tickets, none yet");
  await panel.getByLabel("Titre de transport ou facture").setInputFiles(TICKET);
  await panel.getByRole("button", { name: "Envoyer les documents" }).click();
  await expect(panel.getByRole("list", { name: "Documents enregistrés" })).toContainText(
    "Titre de transport ou facture",
  );
  await expect(stepHeading(panel)).toHaveText("Étape 2 sur 4 : Justificatifs");
  await panel.getByRole("button", { name: "Envoyer le document" }).click();
  await expect(panel.getByText("Ajoutez l’attestation d’abonnement.").first()).toBeVisible();
  await expect(page).toHaveTitle(/^Erreur : /);
  await expectAccessible(page, "tickets, proof missing");

  // "Nouveaux justificatifs" starts again from two empty zones; both sent at once move on to the details.
  await panel.getByRole("button", { name: "Nouveaux justificatifs" }).click();
  await expect(panel.getByRole("list", { name: "Documents enregistrés" })).toHaveCount(0);
  await panel.getByLabel("Titre de transport ou facture").setInputFiles(TICKET);
  await panel.getByLabel("Attestation d’abonnement").setInputFiles(PROOF);
  // With JavaScript the files go by XMLHttpRequest, for the percentage sent; without it, as the form's post.
  const sending = page.waitForRequest((r) => r.method() === "POST" && r.url().includes("step=tickets"));
  await panel.getByRole("button", { name: "Envoyer les documents" }).click();
  expect((await sending).resourceType()).toBe(test.info().project.use.javaScriptEnabled === false ? "document" : "xhr");

  // Details: two groups, so a select; an end after 31 December refused on its field. The bakery ticket's
  // total is read, and proposed as the price (marked); the journey types the subscription's own.
  await expect(stepHeading(panel)).toHaveText("Étape 3 sur 4 : Votre abonnement");
  await expect(page).toHaveURL(/step=details/);
  await untilRead(panel);
  await expect(priceOf(panel)).toHaveValue("9,10");
  await expect(priceOf(panel)).toHaveAccessibleDescription(/^Lu sur le justificatif — vérifiez\. Par exemple 86,40/);
  await expectAccessible(page, "subscription details");
  await panel.getByLabel("Financeur").selectOption({ label: `CSE Acme (${SHARE} %)` });
  await panel.getByLabel("Début de l’abonnement").fill(french(START));
  await panel.getByLabel("Fin de l’abonnement").fill(`01/01/${Number(year) + 1}`);
  await panel.getByLabel("Prix de l’abonnement pour la période, en euros").fill("86,40");
  // No IBAN saved yet: typed, and kept in the profile when sent ("Enregistrer ce compte…" starts ticked).
  await expect(panel.getByLabel(/Enregistrer ce compte dans mon profil/)).toBeChecked();
  await panel.getByLabel("IBAN du compte à créditer").fill(IBAN);
  await panel.getByRole("button", { name: "Continuer", exact: true }).click();
  const endError = "La date de fin ne peut pas dépasser le 31 décembre de l’année du début.";
  await expect(panel.getByLabel("Fin de l’abonnement")).toHaveAccessibleDescription(new RegExp(endError));
  await expect(page).toHaveTitle(/^Erreur : /);
  await expectAccessible(page, "details, end after 31 December");

  // The price's bound, said in the hint: 1 000 € per month of the period (decision 0049). Two months, so
  // 2 000,01 € is refused on the field and in the summary; the page keeps what was typed.
  const price = panel.getByLabel("Prix de l’abonnement pour la période, en euros");
  await expect(price).toHaveAccessibleDescription(/^Par exemple 86,40\. Jusqu’à 1\s000,00\s€ par mois de la période\./);
  await panel.getByLabel("Fin de l’abonnement").fill(french(END));
  await price.fill("2 000,01");
  await panel.getByRole("button", { name: "Continuer", exact: true }).click();
  const tooBig = /Le prix ne peut pas dépasser 1\s000,00\s€ par mois de la période de l’abonnement\./;
  await expect(price).toHaveAccessibleDescription(tooBig);
  await expect(price).toHaveAttribute("aria-invalid", "true");
  await expect(price).toHaveValue("2 000,01");
  await expect(page.getByRole("link", { name: tooBig })).toHaveAttribute("href", `#${await price.getAttribute("id")}`);
  await expect(page).toHaveTitle(/^Erreur : /);
  await expectAccessible(page, "details, price above the bound");
  await price.fill("86,40");
  await panel.getByRole("button", { name: "Continuer", exact: true }).click();

  // Summary: the server's simulation — the share of the price, paid monthly.
  await expect(stepHeading(panel)).toHaveText("Étape 4 sur 4 : Vérifiez et signez");
  const allowance = Math.round((8640 * SHARE) / 100);
  const euros = (cents: number) => `${Math.trunc(cents / 100)},${String(cents % 100).padStart(2, "0")}\\s€`;
  await expect(panel).toContainText("CSE Acme");
  await expect(panel).toContainText(new RegExp(`${euros(allowance)}, soit ${SHARE} % de ${euros(8640)}`));
  await expect(panel).toContainText(
    new RegExp(`${euros(Math.floor(allowance / MONTHS))} par mois pendant ${MONTHS} mois`),
  );
  await expect(panel).toContainText("IBAN se terminant par 0189");
  await expect(panel.getByRole("link", { name: "Attestation d’abonnement" })).toBeVisible();
  await expectAccessible(page, "subscription summary");
  await panel.getByRole("button", { name: "Signer et envoyer" }).click();
  await expect(panel.getByText("Cochez la déclaration sur l’honneur pour confirmer.").first()).toBeVisible();
  await expectAccessible(page, "summary, statement not ticked");
  await panel.getByLabel(/Je déclare sur l’honneur/).check();
  await panel.getByRole("button", { name: "Signer et envoyer" }).click();

  // The list, with the new allowance and the success message.
  await expect(page).toHaveURL(/\/plans\/allowances\?refresh=1$/);
  await expect(page.getByText("Votre demande d’indemnité est envoyée")).toBeVisible();
  const item = page
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name: "Abonnement de transport — CSE Acme" }) });
  await expect(item).toContainText("Envoyée");
  await expect(item).toContainText(`du ${french(START)} au ${french(END)}`);
  await expect(item).toContainText(new RegExp(euros(allowance)));
  await expect(item.getByRole("link", { name: "Justificatif" })).toBeVisible();
  await expect(item.getByRole("link", { name: "Attestation" })).toBeVisible();
  await expectAccessible(page, "list after the subscription");
});

test("bad answers posted by request: 400 with the French message, nothing created", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  const account = await makeAccount(WITH_SUBSCRIPTION);
  await signInAs(page, account);
  await page.goto("/plans/allowances/new?type=subscription");
  await expect(stepHeading(panelOf(page))).toHaveText("Étape 1 sur 4 : Abonnement");
  const draftUrl = page.url();
  const origin = new URL(draftUrl).origin;
  const post = (step: string, form: Record<string, string>) =>
    page.request.post(`${draftUrl}&step=${step}`, { form, headers: { Origin: origin }, maxRedirects: 0 });

  // The details posted before the tickets: not answered, the furthest step reached is shown.
  const early = await post("details", { intent: "continue", amount: "86,40" });
  expect(early.status()).toBe(302);
  expect(early.headers().location).toContain("step=intro");
  // The tickets without any file, and "continue" before both are stored.
  expect((await post("intro", { intent: "continue" })).status()).toBe(302);
  const noFiles = await post("tickets", { intent: "continue" });
  expect(noFiles.status()).toBe(400);
  expect(await noFiles.text()).toContain("Ajoutez l’attestation d’abonnement.");
  // A text file named as a PDF is refused by its bytes.
  const fake = await page.request.post(`${draftUrl}&step=tickets`, {
    multipart: {
      intent: "upload",
      media: { name: "billet.pdf", mimeType: "application/pdf", buffer: Buffer.from("not a pdf at all") },
    },
    headers: { Origin: origin },
    maxRedirects: 0,
  });
  expect(fake.status()).toBe(400);
  expect(await fake.text()).toContain("Ce type de fichier n’est pas accepté");
  // An unknown intent.
  expect((await post("tickets", { intent: "approve" })).status()).toBe(400);

  // Both receipts sent by request: on to the details.
  const both = await page.request.post(`${draftUrl}&step=tickets`, {
    multipart: {
      intent: "upload",
      media: { name: "ticket.jpg", mimeType: "image/jpeg", buffer: readFileSync(TICKET) },
      second_media: { name: "attestation.pdf", mimeType: "application/pdf", buffer: readFileSync(PROOF) },
    },
    headers: { Origin: origin },
    maxRedirects: 0,
  });
  expect(both.status()).toBe(302);
  expect(both.headers().location).toContain("step=details");

  const details = { intent: "continue", start_at: french(START), ends_at: french(END), amount: "86,40", iban: IBAN };
  const stranger = await makeAccount(WITH_SUBSCRIPTION);
  for (const [change, message] of [
    [{ amount: "0" }, "Indiquez un montant supérieur à 0, avec au plus 2 décimales."],
    [{ amount: "douze" }, "Indiquez un montant supérieur à 0, avec au plus 2 décimales."],
    // Above 1 000 € per month of the period (decision 0049): the probe's figure, and a cent over two months' bound.
    [{ amount: "999 999,99" }, "Le prix ne peut pas dépasser 1\u202f000,00\u00a0€ par mois de la période"],
    [{ amount: "2000,01" }, "Le prix ne peut pas dépasser 1\u202f000,00\u00a0€ par mois de la période"],
    [{ start_at: `15/03/${Number(year) - 1}` }, "La date de début doit être dans l’année en cours"],
    [{ ends_at: french(START).replace(/^01/, "00") }, "Ce jour n’existe pas dans ce mois."],
    [{ iban: "FR76 3000 6000 0112 3456 7890 188" }, "L’IBAN n’est pas valide"],
    [{ group_id: stranger.groupId }, "Choisissez un financeur qui prend en charge cette indemnité."],
  ] as const) {
    const refused = await post("details", { group_id: account.groupId, ...details, ...change });
    expect(refused.status(), JSON.stringify(change)).toBe(400);
    expect(await refused.text(), JSON.stringify(change)).toContain(message);
  }
  // The right answers go on to the summary — the price at its bound too —; an amount posted there is not the server's concern.
  expect((await post("details", { group_id: account.groupId, ...details, amount: "2000,00" })).status()).toBe(302);
  expect((await post("details", { group_id: account.groupId, ...details })).status()).toBe(302);
  const unsigned = await post("summary", { intent: "confirm", amount: "999999" });
  expect(unsigned.status()).toBe(400);
  expect(await unsigned.text()).toContain("Cochez la déclaration sur l’honneur pour confirmer.");

  await page.goto("/plans/allowances");
  await expect(page.getByText("Aucune indemnité pour le moment.")).toBeVisible();
});

test("a monthly pass read from its ticket: price and period proposed and marked, the saved IBAN already chosen", async ({
  page,
  makeAccount,
  signInAs,
  e2eDatabase,
}) => {
  const account = await makeAccount(WITH_SUBSCRIPTION);
  await e2eDatabase.handle.db
    .updateTable("users")
    .set({ payout_iban: IBAN.replace(/ /g, "") })
    .where("id", "=", account.userId)
    .execute();
  await signInAs(page, account);
  await page.goto("/plans/allowances/new?type=subscription");
  const panel = panelOf(page);
  await panel.getByRole("button", { name: "Commencer" }).click();

  // This month's Navigo pass (its period and « Montant TTC 86,40 € ») and a proof that says neither.
  const month = todayInParis().slice(0, 7);
  const last = new Date(Date.UTC(Number(year), Number(month.slice(5)), 0)).toISOString().slice(0, 10);
  await panel.getByLabel("Titre de transport ou facture").setInputFiles({
    name: "navigo.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.from(navigoPass(month, "86,40")),
  });
  await panel.getByLabel("Attestation d’abonnement").setInputFiles({
    name: "attestation.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.from(plainProof()),
  });
  await panel.getByRole("button", { name: "Envoyer les documents" }).click();
  await expect(stepHeading(panel)).toHaveText("Étape 3 sur 4 : Votre abonnement");
  const waiting = panel.getByRole("status").filter({ hasText: "Lecture de vos justificatifs en cours" });
  if (await waiting.isVisible()) await expectAccessible(page, "details, documents being read");
  await untilRead(panel);

  // Each value read says so in its description; every one stays editable.
  const marked = /Lu sur le justificatif — vérifiez\./;
  await expect(panel.getByText("Nous avons lu vos justificatifs")).toBeVisible();
  await expect(priceOf(panel)).toHaveValue("86,40");
  await expect(priceOf(panel)).toHaveAccessibleDescription(marked);
  await expect(priceOf(panel)).toBeEditable();
  await expect(panel.getByLabel("Début de l’abonnement")).toHaveValue(french(`${month}-01`));
  await expect(panel.getByLabel("Début de l’abonnement")).toHaveAccessibleDescription(marked);
  await expect(panel.getByLabel("Fin de l’abonnement")).toHaveValue(french(last));
  await expect(panel.getByLabel("Fin de l’abonnement")).toHaveAccessibleDescription(marked);
  // The IBAN the profile holds: chosen, nothing to type.
  await expect(panel.getByLabel("Le compte enregistré (se terminant par 0189)")).toBeChecked();
  await expectAccessible(page, "details prefilled from the ticket");

  await panel.getByLabel("Financeur").selectOption({ label: `CSE Acme (${SHARE} %)` });
  await panel.getByRole("button", { name: "Continuer", exact: true }).click();
  await expect(stepHeading(panel)).toHaveText("Étape 4 sur 4 : Vérifiez et signez");
  await expect(panel).toContainText(`${french(`${month}-01`)}`);
  await expect(panel).toContainText("IBAN se terminant par 0189");
  await expect(panel).toContainText(/86,40\s€/);
  await panel.getByLabel(/Je déclare sur l’honneur/).check();
  await panel.getByRole("button", { name: "Signer et envoyer" }).click();
  await expect(page).toHaveURL(/\/plans\/allowances\?refresh=1$/);
  const item = page
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name: "Abonnement de transport — CSE Acme" }) });
  await expect(item).toContainText(`du ${french(`${month}-01`)} au ${french(last)}`);
  await expectAccessible(page, "list after the subscription read from its ticket");
});
