import type { Locator, Page } from "@playwright/test";
import { daysWithoutSundays } from "../../app/domain/allowances";
import { frenchDay, todayInParis } from "../../app/domain/dates";
import type { DB } from "../../app/.server/db";
import { expect, test, type AccountOptions, type TestAccount } from "./fixtures";
import { expectAccessible, expectNoHorizontalScroll } from "./helpers";

/**
 * Spec 001 §2.7, §5, issue 15: the carpooling and bicycle wizards, a side panel over the list of
 * allowances, JS on and off. Each journey has its own account: a member of its employer (Acme France, in
 * Paris) and of CSE Acme at 3 avenue Foch 69006 Lyon, as the demo's marie; both pay 0,25 €/km, 600 € a year.
 */
const IBAN = "FR76 3000 6000 0112 3456 7890 189";
const CARDS = [{ type: "physical" as const, lastFour: "4242" }];
const MARIE_LIKE: AccountOptions = {
  cards: CARDS,
  features: { allowances: { any: true, carpooling: true, bicycle: true } },
  otherFunders: [
    {
      name: "CSE Acme",
      group: { address_line1: "3 avenue Foch", address_zipcode: "69006", address_city: "Lyon", address_country: "FR" },
    },
  ],
};

const today = todayInParis();
const yearStart = `${today.slice(0, 4)}-01-01`;
/** 20 days at the office, or the period's most when it is shorter (early January). */
const DAYS = Math.min(20, daysWithoutSundays(yearStart, today));
const tomorrow = (() => {
  const d = new Date(`${today}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
})();

const panelOf = (page: Page, name: string) => page.getByRole("dialog", { name });
const jsOn = () => test.info().project.use.javaScriptEnabled !== false;

async function continueFrom(panel: Locator) {
  await panel.getByRole("button", { name: "Continuer", exact: true }).click();
}

/** Euros shown the French way ("1 234,50 €") as cents. */
function cents(text: string): number {
  const m = /(\d[\d\s\u202f\u00a0]*),(\d{2})\s*€/.exec(text);
  if (!m) throw new Error(`no amount in ${text}`);
  return Number(m[1]!.replace(/\D/g, "")) * 100 + Number(m[2]);
}

async function fillAddress(panel: Locator, legend: string, line1: string, zipcode: string, city: string) {
  const group = panel.getByRole("group", { name: legend });
  await group.getByLabel("Numéro et voie").fill(line1);
  await group.getByLabel("Code postal").fill(zipcode);
  await group.getByLabel("Ville").fill(city);
}

/** The days at the office: a slider with JavaScript, a text field stating its maximum without. */
async function fillDays(panel: Locator, days: number) {
  const field = panel.getByLabel("Jours au bureau");
  if (jsOn()) {
    await expect(field).toHaveAttribute("type", "range");
    await field.fill(String(days));
    await expect(panel.getByText(`${days} jours`, { exact: true })).toBeVisible();
  } else {
    await field.fill(String(days));
  }
}

/**
 * The group: with JavaScript choosing fills the work address at once (the "Choisir" button is gone once
 * the page runs its scripts); without, "Choisir" posts it and the page comes back filled.
 */
async function chooseGroup(panel: Locator, name: string) {
  const choose = panel.getByRole("button", { name: "Choisir" });
  if (jsOn()) await expect(choose).toHaveCount(0);
  await panel.getByLabel("Financeur").selectOption({ label: name });
  if (!jsOn()) await choose.click();
}

/** The CSE Acme group of this account. */
async function cseGroupId(db: DB, account: TestAccount) {
  const row = await db
    .selectFrom("groups")
    .innerJoin("memberships", "memberships.group_id", "groups.id")
    .select("groups.id")
    .where("memberships.user_id", "=", account.userId)
    .where("groups.name", "=", "CSE Acme")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** An allowance already approved with this group this year, for `amount` cents (it counts towards the caps). */
const usedAllowance = (groupId: string, amount: number) => ({
  group_id: groupId,
  type: "bicycle",
  status: "approved" as const,
  amount,
  monthly_amount: amount,
  amount_before_cap: amount,
  start_at: yearStart,
  ends_at: yearStart,
  travel_role: null,
});

test("marie-like asks a carpooling allowance as a driver for CSE Acme: work address from the group, the simulation in words, signed, listed", async ({
  page,
  makeAccount,
  signInAs,
  e2eDatabase,
}) => {
  test.setTimeout(180_000);
  const { db } = e2eDatabase.handle;
  const account = await makeAccount(MARIE_LIKE);
  await signInAs(page, account);

  // The type choice, then the carpooling wizard's first step.
  await page.goto("/plans/allowances/new");
  let panel = panelOf(page, "Demander une indemnité mobilité");
  await expect(panel.getByRole("link", { name: "Covoiturage" })).toBeVisible();
  await expect(panel.getByRole("link", { name: "Indemnité kilométrique vélo" })).toBeVisible();
  // Subscription is not among this account's features.
  await expect(panel.getByRole("link", { name: "Abonnement de transport" })).toHaveCount(0);
  await expectAccessible(page, "allowance wizard, type choice");
  await panel.getByRole("link", { name: "Covoiturage" }).click();

  panel = panelOf(page, "Indemnité covoiturage");
  await expect(panel.getByRole("heading", { name: "Étape 1 sur 3 : Indemnité" })).toBeVisible();
  await expect(page).toHaveURL(/\/plans\/allowances\/new\?draft=ald_[^&]+&step=intro$/);
  await expect(panel.getByText(/^CSE Acme : 0,25\s€ par kilomètre, au plus 600,00\s€ par an\./)).toBeVisible();
  await expectAccessible(page, "allowance wizard, intro");
  await continueFrom(panel);

  await expect(panel.getByRole("heading", { name: "Étape 2 sur 3 : Vos trajets" })).toBeVisible();
  await expectAccessible(page, "allowance wizard, details");
  const work = panel.getByRole("group", { name: "Adresse de votre lieu de travail" });
  // Choosing the group fills the work address: at once with JS, after "Choisir" without.
  await chooseGroup(panel, "CSE Acme");
  await expect(work.getByLabel("Numéro et voie")).toHaveValue("3 avenue Foch");
  await expect(work.getByLabel("Code postal")).toHaveValue("69006");
  await expect(work.getByLabel("Ville")).toHaveValue("Lyon");
  await expect(panel.getByLabel("Financeur")).toHaveValue(await cseGroupId(db, account));

  await fillAddress(panel, "Adresse de votre domicile", "8 rue des Lilas", "69003", "Lyon");
  await panel.getByLabel("Date de début").fill(frenchDay(yearStart));
  await panel.getByLabel("Date de fin").fill(frenchDay(today));
  await fillDays(panel, DAYS);
  await panel.getByRole("radio", { name: "Conducteur" }).check();
  await panel.getByLabel(/^IBAN du compte/).fill(IBAN);
  await continueFrom(panel);

  // The first simulation of a server loads the geodata (lazily, once): it may take a few seconds.
  await expect(panel.getByRole("heading", { name: "Étape 3 sur 3 : Vérification" })).toBeVisible({ timeout: 30_000 });
  const summary = panel.locator("dl.summary-list");
  await expect(summary.getByText("8 rue des Lilas 69003 Lyon FR")).toBeVisible();
  await expect(summary.getByText("3 avenue Foch 69006 Lyon FR")).toBeVisible();
  await expect(summary.getByText("Conducteur")).toBeVisible();
  await expect(summary.getByText("se terminant par 0189")).toBeVisible();
  await expect(summary.getByText(/km \(estimation/)).toBeVisible();
  await expect(summary.getByText(/^0,25\s€ par kilomètre$/)).toBeVisible();
  // allowance = round trip × days × rate, as the summary writes it.
  const computation = await summary.getByText(/ km × \d+ jours × 0,25\s€ = /).textContent();
  const m = /([\d,]+) km × (\d+) jours × 0,25\s€ = (.+)$/.exec(computation ?? "");
  expect(m).not.toBeNull();
  const roundTripHundredths = Number(m![1]!.replace(",", ""));
  expect(roundTripHundredths).toBeGreaterThan(100); // Lyon 3e – Lyon 6e: one to a few kilometres each way
  expect(roundTripHundredths).toBeLessThan(2000);
  expect(Number(m![2])).toBe(DAYS);
  const amount = cents(m![3]!);
  expect(amount).toBe(Math.round((roundTripHundredths * DAYS * 25) / 100));
  await expect(summary.getByText(/par mois pendant \d+ mois/)).toBeVisible();
  await expect(panel.getByText(/il vous restera .* de votre plafond annuel/)).toBeVisible();
  await expectAccessible(page, "allowance wizard, summary");

  // Unticked: refused on the checkbox, by request too.
  const unsigned = await page.request.post(page.url(), { form: { intent: "confirm", amount: "999999" } });
  expect(unsigned.status()).toBe(400);
  expect(await unsigned.text()).toContain("Cochez la déclaration sur l’honneur pour confirmer.");
  await panel.getByRole("button", { name: "Confirmer" }).click();
  await expect(panel.getByText("Cochez la déclaration sur l’honneur pour confirmer.").first()).toBeVisible();
  await expectAccessible(page, "allowance wizard, summary refused");
  await panel.getByRole("checkbox", { name: /Je déclare sur l’honneur/ }).check();
  await panel.getByRole("button", { name: "Confirmer" }).click();

  await expect(page).toHaveURL(/\/plans\/allowances\?refresh=1$/);
  await expect(page.getByText("Votre demande d’indemnité est envoyée : elle apparaît dans la liste.")).toBeVisible();
  await expect(page.getByText("Covoiturage — CSE Acme")).toBeVisible();
  await expectAccessible(page, "allowances list after confirmation");

  // The same draft again: already sent, nothing created twice.
  const draft = await db
    .selectFrom("allowance_drafts")
    .select("id")
    .where("user_id", "=", account.userId)
    .executeTakeFirstOrThrow();
  const again = await page.request.post(`/plans/allowances/new?draft=${encodeURIComponent(draft.id)}&step=summary`, {
    form: { intent: "confirm", sworn_statement: "on" },
    maxRedirects: 0,
  });
  expect(again.status()).toBe(302);
  const rows = await db.selectFrom("allowances").select("amount").where("user_id", "=", account.userId).execute();
  // One allowance, of the server's amount (the 999999 posted earlier was never read).
  expect(rows.map((r) => r.amount)).toEqual([amount]);

  // Its figures, explained in words, in a read-only panel over the list.
  await page.goto("/plans/allowances");
  await page.getByRole("link", { name: /^Voir le calcul de l’indemnité Covoiturage/ }).click();
  const readOnly = panelOf(page, "Votre indemnité mobilité");
  await expect(readOnly.getByText("Envoyée")).toBeVisible();
  await expect(readOnly.getByText(/km aller-retour × \d+ jours au bureau × 0,25\s€ par kilomètre = /)).toBeVisible();
  await expect(readOnly.getByText("se terminant par 0189")).toBeVisible();
  await expect(readOnly.getByRole("button")).toHaveCount(0);
  await expectAccessible(page, "allowance, read-only panel");
});

test("a bicycle allowance whose end is after today is refused on that field; bad answers posted by request are 400s in French", async ({
  page,
  makeAccount,
  signInAs,
  e2eDatabase,
}) => {
  test.setTimeout(120_000);
  const account = await makeAccount(MARIE_LIKE);
  await signInAs(page, account);
  // The refund wizard's mobility road names the bicycle allowance "ikv".
  await page.goto("/plans/allowances/new?type=ikv");
  const panel = panelOf(page, "Indemnité kilométrique vélo");
  await expect(panel.getByRole("heading", { name: "Étape 1 sur 3 : Indemnité" })).toBeVisible();
  await continueFrom(panel);
  await expect(panel.getByRole("heading", { name: "Étape 2 sur 3 : Vos trajets" })).toBeVisible();
  // No travel role for the bicycle.
  await expect(panel.getByRole("radio", { name: "Conducteur" })).toHaveCount(0);
  const details = page.url();

  // What was typed before choosing the group is kept (without JS, through the "Choisir" round trip).
  await fillAddress(panel, "Adresse de votre domicile", "8 rue des Lilas", "69003", "Lyon");
  await panel.getByLabel(/^IBAN du compte/).fill(IBAN);
  await chooseGroup(panel, "CSE Acme");
  await expect(panel.getByRole("group", { name: "Adresse de votre lieu de travail" }).getByLabel("Ville")).toHaveValue(
    "Lyon",
  );
  await expect(panel.getByRole("group", { name: "Adresse de votre domicile" }).getByLabel("Code postal")).toHaveValue(
    "69003",
  );
  await expect(panel.getByLabel(/^IBAN du compte/)).toHaveValue(/^FR76\s?3000/);
  await panel.getByLabel("Date de début").fill(frenchDay(yearStart));
  await panel.getByLabel("Date de fin").fill(frenchDay(tomorrow));
  await panel.getByLabel("Jours au bureau").fill("3");
  await continueFrom(panel);
  const endError = panel.getByText("La date de fin ne peut pas être après aujourd’hui.");
  await expect(endError.first()).toBeVisible();
  await expect(panel.getByLabel("Date de fin")).toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveTitle(/^Erreur : /);
  await expectAccessible(page, "bicycle wizard, end after today refused");

  const cse = await cseGroupId(e2eDatabase.handle.db, account);
  const valid = {
    intent: "continue",
    group_id: cse,
    "home.line1": "8 rue des Lilas",
    "home.zipcode": "69003",
    "home.city": "Lyon",
    "home.country": "FR",
    "work.line1": "3 avenue Foch",
    "work.zipcode": "69006",
    "work.city": "Lyon",
    "work.country": "FR",
    start_at: frenchDay(yearStart),
    ends_at: frenchDay(today),
    days_at_office: "1",
    iban: IBAN,
  };
  // Another id than the account's group: its last character changed (an id ending in "x" stays one otherwise).
  const otherId = (id: string) => `${id.slice(0, -1)}${id.endsWith("x") ? "y" : "x"}`;
  const refusals: [Record<string, string>, string][] = [
    [{ days_at_office: "0" }, "Indiquez un nombre de jours au bureau entre 1 et le nombre de jours de la période"],
    [{ days_at_office: "400" }, "Indiquez un nombre de jours au bureau entre 1 et le nombre de jours de la période"],
    [{ group_id: otherId(account.groupId) }, "Choisissez un financeur qui prend en charge cette indemnité."],
    [{ iban: "FR76 3000 6000 0112 3456 7890 188" }, "IBAN"],
    [{ "home.line1": "rue des Lilas" }, "numéro"],
    [{ start_at: "31/02/2026" }, "Le 31/02/2026 n’existe pas : février 2026 a 28 jours."],
    [{ start_at: "01112026x" }, "Date non reconnue : tapez-la comme 01/11/2026 ou 01112026."],
    [{ ends_at: frenchDay(tomorrow) }, "La date de fin ne peut pas être après aujourd’hui."],
  ];
  for (const [change, message] of refusals) {
    const answer = await page.request.post(details, { form: { ...valid, ...change } });
    expect(answer.status(), JSON.stringify(change)).toBe(400);
    expect(await answer.text(), JSON.stringify(change)).toContain(message);
  }
  // The declared distance by bicycle: 50 km at most (decision 0049), to the metre (its words: the summary's step below).
  const correct = (declared_km: string) =>
    page.request.post(details, { form: { intent: "correctDistance", declared_km }, maxRedirects: 0 });
  for (const declared of ["50,001", "511,63"]) expect((await correct(declared)).status(), declared).toBe(400);
  expect((await correct("50")).status()).toBe(302);
  // Another user's draft is not found, an unknown intent is a 400.
  const foreign = await page.request.post("/plans/allowances/new?draft=ald_nobody&step=details", {
    form: valid,
    maxRedirects: 0,
  });
  expect(foreign.status()).toBe(302);
  const unknown = await page.request.post(details, { form: { ...valid, intent: "pay" } });
  expect(unknown.status()).toBe(400);
  // A type the account does not have: the notice, not an error.
  await page.goto("/plans/allowances/new?type=subscription");
  await expect(
    panelOf(page, "Demander une indemnité mobilité").getByText("Aucun de vos financeurs ne propose cette indemnité."),
  ).toBeVisible();
});

test("an allowance that would pass the yearly cap is reduced, and the summary says so and what remains", async ({
  page,
  makeAccount,
  signInAs,
  e2eDatabase,
  makeAllowance,
}) => {
  test.setTimeout(120_000);
  const account = await makeAccount(MARIE_LIKE);
  const { db } = e2eDatabase.handle;
  const cse = await cseGroupId(db, account);
  // 595 € already granted with CSE Acme this year: 5 € left of its 600 €.
  await makeAllowance(account, usedAllowance(cse, 59500));
  await signInAs(page, account);
  await page.goto("/plans/allowances/new?type=bicycle");
  const panel = panelOf(page, "Indemnité kilométrique vélo");
  // The legal 600 € is per employee: 5 € are left whichever group pays.
  await expect(panel.getByRole("listitem").filter({ hasText: "CSE Acme" })).toContainText(
    /Il vous reste 5,00\s€ cette année\./,
  );
  await continueFrom(panel);
  await chooseGroup(panel, "CSE Acme");
  await expect(panel.getByRole("group", { name: "Adresse de votre lieu de travail" }).getByLabel("Ville")).toHaveValue(
    "Lyon",
  );
  await fillAddress(panel, "Adresse de votre domicile", "8 rue des Lilas", "69003", "Lyon");
  await panel.getByLabel("Date de début").fill(frenchDay(yearStart));
  await panel.getByLabel("Date de fin").fill(frenchDay(today));
  await fillDays(panel, DAYS);
  await panel.getByLabel(/^IBAN du compte/).fill(IBAN);
  await continueFrom(panel);

  await expect(panel.getByRole("heading", { name: "Étape 3 sur 3 : Vérification" })).toBeVisible({ timeout: 30_000 });
  await expect(panel.getByText(/Le plafond annuel a réduit votre indemnité/)).toBeVisible();
  await expect(
    panel.getByText(/il ne restait que 5,00\s€ de votre plafond cette année\. Vous recevrez 5,00\s€/),
  ).toBeVisible();
  await expect(panel.locator("dl.summary-list strong")).toHaveText(/^5,00\s€$/);
  await expectAccessible(page, "bicycle wizard, summary reduced by the cap");

  // The employee corrects the one-way distance: both are shown, the declared one is used.
  const declared = panel.getByLabel(/Corriger la distance aller/);
  await declared.fill("0");
  await panel.getByRole("button", { name: "Corriger la distance" }).click();
  await expect(
    panel.getByText("Indiquez une distance aller en kilomètres, supérieure à 0, par exemple 7,5.").first(),
  ).toBeVisible();
  // Its bound by bicycle, said in the hint (decision 0049): 50,5 km is refused on the field and in the summary.
  await expect(declared).toHaveAccessibleDescription(/par exemple 7,5, jusqu’à 50\skm\./);
  await declared.fill("50,5");
  await panel.getByRole("button", { name: "Corriger la distance" }).click();
  const tooLong = /À vélo, la distance aller ne peut pas dépasser 50\skm\./;
  await expect(declared).toHaveAccessibleDescription(tooLong);
  await expect(declared).toHaveAttribute("aria-invalid", "true");
  await expect(declared).toHaveValue("50,5");
  await expect(page.getByRole("link", { name: tooLong })).toHaveAttribute(
    "href",
    `#${await declared.getAttribute("id")}`,
  );
  await expect(page).toHaveTitle(/^Erreur : /);
  await expectAccessible(page, "bicycle wizard, declared distance above the bound");
  await declared.fill("0,5");
  await panel.getByRole("button", { name: "Corriger la distance" }).click();
  await expect(panel.getByText("Distance que vous avez indiquée, retenue pour le calcul : 0,50 km")).toBeVisible();
  await expect(panel.getByText(/km \(estimation/)).toBeVisible();
  await expect(panel.getByText("1,00 km", { exact: true })).toBeVisible();

  await panel.getByRole("checkbox", { name: /Je déclare sur l’honneur/ }).check();
  await panel.getByRole("button", { name: "Confirmer" }).click();
  await expect(page).toHaveURL(/\/plans\/allowances\?refresh=1$/);
  const created = await db
    .selectFrom("allowances")
    .select(["amount", "distance_declared_m", "distance_estimate_m"])
    .where("user_id", "=", account.userId)
    .where("type", "=", "bicycle")
    .where("status", "=", "sent")
    .executeTakeFirstOrThrow();
  expect(created.distance_declared_m).toBe(500);
  expect(created.distance_estimate_m).toBeGreaterThan(500);
  expect(created.amount).toBeLessThanOrEqual(500);
});

test("with the yearly cap used up, confirming is refused: the summary says why as a warning, nothing is created", async ({
  page,
  makeAccount,
  signInAs,
  e2eDatabase,
  makeAllowance,
}) => {
  test.setTimeout(120_000);
  const account = await makeAccount(MARIE_LIKE);
  const { db } = e2eDatabase.handle;
  await makeAllowance(account, usedAllowance(await cseGroupId(db, account), 60000));
  await signInAs(page, account);
  await page.goto("/plans/allowances/new?type=bicycle");
  const panel = panelOf(page, "Indemnité kilométrique vélo");
  await continueFrom(panel);
  await chooseGroup(panel, "CSE Acme");
  await fillAddress(panel, "Adresse de votre domicile", "8 rue des Lilas", "69003", "Lyon");
  await panel.getByLabel("Date de début").fill(frenchDay(yearStart));
  await panel.getByLabel("Date de fin").fill(frenchDay(today));
  await fillDays(panel, DAYS);
  await panel.getByLabel(/^IBAN du compte/).fill(IBAN);
  await continueFrom(panel);
  await expect(panel.getByRole("heading", { name: "Étape 3 sur 3 : Vérification" })).toBeVisible({ timeout: 30_000 });
  await panel.getByRole("checkbox", { name: /Je déclare sur l’honneur/ }).check();
  await panel.getByRole("button", { name: "Confirmer" }).click();
  await expect(panel.getByText(/Votre demande d’indemnité n’a pas pu être envoyée/)).toBeVisible();
  await expect(panel.getByText(/Le plafond annuel du forfait mobilités durables est atteint/)).toBeVisible();
  await expect(page).toHaveTitle(/^Erreur : /);
  await expectAccessible(page, "bicycle wizard, cap used up");
  const sent = await db
    .selectFrom("allowances")
    .select("id")
    .where("user_id", "=", account.userId)
    .where("status", "=", "sent")
    .execute();
  expect(sent).toEqual([]);

  // Answers the platform refuses once on the summary (here a draft altered behind the wizard's back):
  // those tagged iban and ends_at mark their rows, the others are warnings.
  const draft = await db
    .selectFrom("allowance_drafts")
    .select(["id", "answers"])
    .where("user_id", "=", account.userId)
    .executeTakeFirstOrThrow();
  const answers = JSON.parse(draft.answers) as Record<string, unknown>;
  await db
    .updateTable("allowance_drafts")
    .set({
      answers: JSON.stringify({
        ...answers,
        iban: "FR7630006000011234567890188",
        endsAt: tomorrow,
        home: { line1: "1 rue Inconnue", zipcode: "00000", city: "Nulle-part", country: "FR" },
      }),
    })
    .where("id", "=", draft.id)
    .execute();
  await page.reload();
  await expect(panel.locator("#allowance-summary-iban.field--error")).toContainText("se terminant par 0188");
  await expect(panel.locator("#allowance-summary-iban")).toContainText(/IBAN/);
  await expect(panel.locator("#allowance-summary-ends_at.field--error")).toContainText(
    "La date de fin ne peut pas être après aujourd’hui.",
  );
  await expect(panel.getByRole("status").filter({ hasText: "Adresse introuvable" })).toBeVisible();
  await expectAccessible(page, "bicycle wizard, summary with the platform's refusals");
});

test("closing a started wizard asks first; a foreign allowance is a 404; claire-like without the feature has no wizard", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  const account = await makeAccount(MARIE_LIKE);
  await signInAs(page, account);
  await page.goto("/plans/allowances/new?type=carpooling");
  const panel = panelOf(page, "Indemnité covoiturage");
  // On the first step, closing goes straight to the list.
  await expect(panel.getByRole("link", { name: /^Fermer/ })).toHaveAttribute("href", "/plans/allowances");
  await continueFrom(panel);
  await expect(panel.getByRole("heading", { name: "Étape 2 sur 3 : Vos trajets" })).toBeVisible();
  await panel.getByRole("link", { name: /^Fermer/ }).click();
  await expect(panel.getByRole("heading", { name: "Abandonner cette demande ?" })).toBeVisible();
  await expectAccessible(page, "allowance wizard, close confirmation");
  await panel.getByRole("link", { name: "Reprendre" }).click();
  await expect(panel.getByRole("heading", { name: "Étape 2 sur 3 : Vos trajets" })).toBeVisible();
  await panel.getByRole("link", { name: /^Fermer/ }).click();
  await panel.getByRole("button", { name: "Abandonner la demande" }).click();
  await expect(page).toHaveURL(/\/plans\/allowances$/);

  const foreign = await page.request.get("/plans/allowances/alw_not_yours");
  expect(foreign.status()).toBe(404);

  const claire = await makeAccount({ cards: CARDS });
  await page.context().clearCookies();
  await signInAs(page, claire);
  const none = await page.request.get("/plans/allowances/new?type=carpooling");
  expect(none.status()).toBe(404);
});

test("the period typed with digits only goes on (issue 31 §3); a start after today and a month of 13 are each said as such", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  test.setTimeout(120_000);
  const account = await makeAccount(MARIE_LIKE);
  await signInAs(page, account);
  await page.goto("/plans/allowances/new?type=ikv");
  const panel = panelOf(page, "Indemnité kilométrique vélo");
  await continueFrom(panel);
  await expect(panel.getByRole("heading", { name: "Étape 2 sur 3 : Vos trajets" })).toBeVisible();
  await chooseGroup(panel, "CSE Acme");
  await fillAddress(panel, "Adresse de votre domicile", "8 rue des Lilas", "69003", "Lyon");
  await panel.getByLabel(/^IBAN du compte/).fill(IBAN);
  const start = panel.getByLabel("Date de début");
  const end = panel.getByLabel("Date de fin");
  await expect(start).toHaveAttribute("inputmode", "numeric");
  await expect(start).toHaveAccessibleDescription(/^Entre le .+\. Par exemple 01\/11\/2026 ou 01112026\./);

  // Each field says the rule it breaks: not the year rule for a day of this year (the bug of issue 31).
  const digits = (day: string) => day.split("-").reverse().join("");
  await start.fill(digits(tomorrow));
  await end.fill("1/13/2026");
  await panel.getByLabel("Jours au bureau").fill("3");
  await continueFrom(panel);
  await expect(start).toHaveAccessibleDescription(/La date de début ne peut pas être après aujourd’hui\./);
  await expect(end).toHaveAccessibleDescription(/Le mois doit être entre 01 et 12\./);
  await expect(start).toHaveAttribute("aria-invalid", "true");
  await expectAccessible(page, "bicycle wizard, dates refused");

  // JJMMAAAA and JJ MM AAAA: read, with JS the days' slider follows them at once (the same reader).
  await start.fill(digits(yearStart));
  await end.fill(frenchDay(today).replaceAll("/", " "));
  await fillDays(panel, DAYS);
  await continueFrom(panel);
  await expect(panel.getByRole("heading", { name: "Étape 3 sur 3 : Vérification" })).toBeVisible({ timeout: 30_000 });
  await expectAccessible(page, "bicycle wizard, summary after digits-only dates");
});

/** The IBAN of the demo's marie, saved in her profile (decision 0054). */
const SAVED_IBAN = "FR7630006000011234567890189";

/** What the profile already knows (issue 31 §1): a home in Lyon, and the account ending 0189. */
async function knownInProfile(db: DB, account: TestAccount) {
  await db
    .updateTable("users")
    .set({
      address_line1: "8 rue des Lilas",
      address_line2: null,
      address_zipcode: "69003",
      address_city: "Lyon",
      address_country: "FR",
      payout_iban: SAVED_IBAN,
    })
    .where("id", "=", account.userId)
    .execute();
}

/**
 * The person's work on a bicycle allowance, counted as they would do it (issue 31: "as few clicks and
 * keystrokes as possible"): each click on a link, button, box or field, and each character typed.
 */
function counted() {
  const effort = { clicks: 0, keystrokes: 0 };
  return {
    effort,
    click: async (target: Locator) => {
      effort.clicks += 1;
      await target.click();
    },
    check: async (target: Locator) => {
      effort.clicks += 1;
      await target.check();
    },
    type: async (field: Locator, text: string) => {
      effort.clicks += 1;
      effort.keystrokes += text.length;
      await field.fill(text);
    },
    select: async (field: Locator, label: string) => {
      effort.clicks += 2;
      await field.selectOption({ label });
    },
  };
}

test("an allowance starts with the home address and the IBAN already known: only the dates and the days are typed", async ({
  page,
  makeAccount,
  signInAs,
  e2eDatabase,
}) => {
  test.setTimeout(120_000);
  const { db } = e2eDatabase.handle;
  const account = await makeAccount(MARIE_LIKE);
  await knownInProfile(db, account);
  await signInAs(page, account);
  const you = counted();

  await page.goto("/plans/allowances");
  await you.click(page.getByRole("link", { name: "Demander une indemnité" }));
  await you.click(
    panelOf(page, "Demander une indemnité mobilité").getByRole("link", { name: /Indemnité kilométrique vélo/ }),
  );
  const panel = panelOf(page, "Indemnité kilométrique vélo");
  await you.click(panel.getByRole("button", { name: "Continuer", exact: true }));
  await expect(panel.getByRole("heading", { name: "Étape 2 sur 3 : Vos trajets" })).toBeVisible();

  // The home from the profile, said so; the IBAN saved, chosen by default.
  const home = panel.getByRole("group", { name: "Adresse de votre domicile" });
  await expect(home.getByLabel("Numéro et voie")).toHaveValue("8 rue des Lilas");
  await expect(home.getByLabel("Code postal")).toHaveValue("69003");
  await expect(home.getByText("Reprise de votre profil")).toBeVisible();
  await expect(panel.getByRole("radio", { name: "Le compte enregistré (se terminant par 0189)" })).toBeChecked();
  await expectAccessible(page, "bicycle wizard, details known from the profile");

  // The CSE's address becomes the work address, said in words.
  if (jsOn()) await you.select(panel.getByLabel("Financeur"), "CSE Acme");
  else {
    await you.select(panel.getByLabel("Financeur"), "CSE Acme");
    await you.click(panel.getByRole("button", { name: "Choisir" }));
  }
  const work = panel.getByRole("group", { name: "Adresse de votre lieu de travail" });
  await expect(
    work.getByText(
      "Adresse de travail : celle de votre financeur CSE Acme, 3 avenue Foch, 69006 Lyon — modifiez-la si vous travaillez ailleurs.",
    ),
  ).toBeVisible();
  await expect(work.getByLabel("Numéro et voie")).toHaveValue("3 avenue Foch");
  await you.type(panel.getByLabel("Date de début"), frenchDay(yearStart));
  await you.type(panel.getByLabel("Date de fin"), frenchDay(today));
  if (jsOn()) {
    // The slider: one drag to the days, counted as one click.
    you.effort.clicks += 1;
    await panel.getByLabel("Jours au bureau").fill(String(DAYS));
  } else await you.type(panel.getByLabel("Jours au bureau"), String(DAYS));
  await you.click(panel.getByRole("button", { name: "Continuer", exact: true }));

  await expect(panel.getByRole("heading", { name: "Étape 3 sur 3 : Vérification" })).toBeVisible({ timeout: 30_000 });
  const summary = panel.locator("dl.summary-list");
  await expect(summary.getByText("8 rue des Lilas 69003 Lyon FR")).toBeVisible();
  await expect(summary.getByText("se terminant par 0189")).toBeVisible();
  const max = daysWithoutSundays(yearStart, today);
  await expect(
    summary.getByText(`${DAYS} jours au bureau sur ${max} jours de la période, dimanches exclus`),
  ).toBeVisible();
  // A usual distance (Lyon 3e – Lyon 6e) asks nothing more.
  await expect(panel.getByRole("checkbox", { name: "Je confirme cette distance" })).toHaveCount(0);
  await expectAccessible(page, "bicycle wizard, summary known from the profile");
  await you.check(panel.getByRole("checkbox", { name: /Je déclare sur l’honneur/ }));
  await you.click(panel.getByRole("button", { name: "Confirmer" }));
  await expect(page).toHaveURL(/\/plans\/allowances\?refresh=1$/);

  const [row] = await db.selectFrom("allowances").selectAll().where("user_id", "=", account.userId).execute();
  expect(row).toMatchObject({ type: "bicycle", iban: SAVED_IBAN, home_address: "8 rue des Lilas 69003 Lyon FR" });
  expect(row?.plausibility_flag).toBe(0);
  // The figures of the note (issue 31 "Done when"): what the person did.
  test.info().annotations.push({
    type: "effort",
    description: `bicycle allowance: ${you.effort.clicks} clicks, ${you.effort.keystrokes} keystrokes`,
  });
  console.log(`bicycle allowance (${jsOn() ? "JS" : "no JS"}): ${JSON.stringify(you.effort)}`);
});

test("a Lyon–Paris bicycle commute (home from the profile, work from the group) cannot be signed without « Je confirme cette distance »; with it, it is flagged to the funder", async ({
  page,
  makeAccount,
  signInAs,
  e2eDatabase,
}) => {
  test.setTimeout(180_000);
  const { db } = e2eDatabase.handle;
  // Only the employer, Acme France, at 12 rue de la Paix 75002 Paris: preselected, its address the work's.
  const account = await makeAccount({ cards: CARDS, features: { allowances: { any: true, bicycle: true } } });
  await knownInProfile(db, account);
  await signInAs(page, account);
  await page.goto("/plans/allowances/new?type=bicycle");
  const panel = panelOf(page, "Indemnité kilométrique vélo");
  await continueFrom(panel);
  const work = panel.getByRole("group", { name: "Adresse de votre lieu de travail" });
  await expect(
    work.getByText(/^Adresse de travail : celle de votre financeur Acme France, 12 rue de la Paix, 75002 Paris/),
  ).toBeVisible();
  await expect(panel.getByRole("group", { name: "Adresse de votre domicile" }).getByLabel("Ville")).toHaveValue("Lyon");
  await panel.getByLabel("Date de début").fill(frenchDay(yearStart));
  await panel.getByLabel("Date de fin").fill(frenchDay(today));
  await fillDays(panel, DAYS);
  await continueFrom(panel);

  await expect(panel.getByRole("heading", { name: "Étape 3 sur 3 : Vérification" })).toBeVisible({ timeout: 30_000 });
  const unusual = panel.getByRole("group", { name: "Une distance inhabituelle" });
  await expect(
    unusual.getByText(
      /^Distance aller de [\d\s\u202f\u00a0]+,\d\d km à vélo, au-delà des 25 km habituels : confirmez-la ci-dessous/,
    ),
  ).toBeVisible();
  await expectAccessible(page, "bicycle wizard, an unusual distance to confirm");
  // On the narrowest phones the confirmation fits the width.
  const wide = page.viewportSize();
  await page.setViewportSize({ width: 320, height: 740 });
  await expect(unusual.getByRole("checkbox", { name: "Je confirme cette distance" })).toBeVisible();
  await expectNoHorizontalScroll(page, "an unusual distance to confirm at 320 px");
  const box = await unusual.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(320);
  if (wide) await page.setViewportSize(wide);

  // Signed without the confirmation: refused on its two fields, nothing written.
  await panel.getByRole("checkbox", { name: /Je déclare sur l’honneur/ }).check();
  await panel.getByRole("button", { name: "Confirmer" }).click();
  await expect(panel.getByText(/^Cochez « Je confirme cette distance »/).first()).toBeVisible();
  await expect(panel.getByText("Dites en quelques mots pourquoi cette distance est la bonne.").first()).toBeVisible();
  await expect(page).toHaveTitle(/^Erreur : /);
  await expectAccessible(page, "bicycle wizard, the unusual distance not confirmed");
  // A forged post without it, too: a 400 in French.
  const forged = await page.request.post(page.url(), { form: { intent: "confirm", sworn_statement: "on" } });
  expect(forged.status()).toBe(400);
  expect(await forged.text()).toContain("Je confirme cette distance");
  // A 2 000-character reason: refused with its message.
  const tooLong = await page.request.post(page.url(), {
    form: { intent: "confirm", sworn_statement: "on", distance_confirmed: "on", distance_reason: "x".repeat(2_000) },
  });
  expect(tooLong.status()).toBe(400);
  expect(await tooLong.text()).toContain("La raison ne peut pas dépasser 500 caractères.");
  expect(await db.selectFrom("allowances").select("id").where("user_id", "=", account.userId).execute()).toEqual([]);

  // Confirmed with its reason: signed, flagged.
  await unusual.getByRole("checkbox", { name: "Je confirme cette distance" }).check();
  await unusual.getByLabel("Pourquoi faites-vous cette distance ?").fill("Je dors à Paris trois nuits par semaine.");
  await panel.getByRole("checkbox", { name: /Je déclare sur l’honneur/ }).check();
  await panel.getByRole("button", { name: "Confirmer" }).click();
  await expect(page).toHaveURL(/\/plans\/allowances\?refresh=1$/);
  const [row] = await db.selectFrom("allowances").selectAll().where("user_id", "=", account.userId).execute();
  expect(row).toMatchObject({
    type: "bicycle",
    iban: SAVED_IBAN,
    work_address: "12 rue de la Paix 75002 Paris FR",
    plausibility_flag: 1,
    plausibility_reason: "Je dors à Paris trois nuits par semaine.",
  });

  // The allowance's own panel says it in words.
  await page.goto(`/plans/allowances/${row!.id}`);
  await expect(
    page.getByText(
      /^Distance aller de [\d\s\u202f\u00a0]+,\d\d km à vélo, au-delà des 25 km habituels : confirmée par vous, signalée à votre financeur\.$/,
    ),
  ).toBeVisible();
  await expectAccessible(page, "a flagged allowance's panel");

  // The funder's review sees the flag and the reason.
  await page.goto("/dev/allowances");
  const item = page.getByRole("listitem").filter({ hasText: row!.id });
  await expect(
    item.getByText("À vérifier : distance aller au-delà des 25 km habituels, confirmée par le demandeur."),
  ).toBeVisible();
  await expect(item.getByText("Je dors à Paris trois nuits par semaine.")).toBeVisible();
  await expectAccessible(page, "the funder's review, a flagged allowance");
});
