import { resolve } from "node:path";
import { sql } from "kysely";
import type { Locator, Page } from "@playwright/test";
import type { ExpenseTypeTable } from "../../app/.server/db/schema";
import { expect, test } from "./fixtures";
import { expectAccessible } from "./helpers";

/**
 * Issue 33's audit findings on the server side, JS on and off, axe on each state:
 * - the refund wizard's built-in « Mobilité » on a catalogue without a mobility type (spec 001 §2.6, decision
 *   0065): chosen, every step after it, sent, listed, approved by the funder's sandbox reviewer — a 500 before;
 * - the profile's contact details (spec 001 §5 "Profile save"): an e-mail sent empty is marked invalid, not
 *   "nothing to save"; a phone typed 33612345678 is +33612345678.
 * (The reset-password page's cancel is in password-reset.spec.ts, with that page's other journey.)
 */
const BIKE_SHOP = resolve("tests/fixtures/receipts/cycles-du-rhone-2026-11-02.pdf");
const IBAN = "FR76 3000 6000 0112 3456 7890 189";
const CARDS = [{ type: "physical" as const, lastFour: "4242" }];

const panelOf = (page: Page) => page.getByRole("dialog", { name: "Demander un remboursement" });
const continueFrom = (panel: Locator) => panel.getByRole("button", { name: "Continuer", exact: true }).click();

test.describe("the built-in Mobilité on a catalogue without a mobility type", () => {
  // The catalogue is the server's, shared by every journey: these tests take its mobility type away and give it back.
  test.describe.configure({ mode: "serial" });
  let parked: ExpenseTypeTable | undefined;

  test.beforeAll(async ({ e2eDatabase }) => {
    const db = e2eDatabase.handle.db;
    parked = await db
      .selectFrom("expense_types")
      .selectAll()
      .where("technical_name", "=", "mobility")
      .executeTakeFirst();
    if (!parked) return;
    // The demo's requests of that type keep its id meanwhile (they are other accounts'; none is shown here).
    await sql`pragma foreign_keys = off`.execute(db);
    await db.deleteFrom("expense_types").where("id", "=", parked.id).execute();
    await sql`pragma foreign_keys = on`.execute(db);
  });

  test.afterAll(async ({ e2eDatabase }) => {
    const db = e2eDatabase.handle.db;
    if (!parked) return;
    // The catalogue as the demo had it: this journey's requests and drafts become the demo type's.
    const builtIn = await db
      .selectFrom("expense_types")
      .select("id")
      .where("technical_name", "=", "mobility")
      .executeTakeFirst();
    await sql`pragma foreign_keys = off`.execute(db);
    if (builtIn) {
      await db.updateTable("expense_requests").set({ type_id: parked.id }).where("type_id", "=", builtIn.id).execute();
      await db
        .updateTable("expense_request_drafts")
        .set({ type_id: parked.id })
        .where("type_id", "=", builtIn.id)
        .execute();
      await db.deleteFrom("expense_types").where("id", "=", builtIn.id).execute();
    }
    await db.insertInto("expense_types").values(parked).execute();
    await sql`pragma foreign_keys = on`.execute(db);
    const broken = await sql`pragma foreign_key_check`.execute(db);
    expect(broken.rows).toEqual([]);
  });

  test("chosen, every step after it, sent, listed and approved", async ({
    page,
    makeAccount,
    signInAs,
    e2eDatabase,
  }) => {
    test.setTimeout(180_000);
    const mobilityTypes = () =>
      e2eDatabase.handle.db.selectFrom("expense_types").select("id").where("technical_name", "=", "mobility").execute();
    expect(await mobilityTypes()).toEqual([]);
    const account = await makeAccount({
      features: { expenseRequests: { any: true }, allowances: { any: true } },
      wallets: [{ name: "Mobilité", type: "mobility", balance: 20_000 }],
      cards: CARDS,
    });
    await signInAs(page, account);
    await page.goto("/plans/expense-requests/new");
    const panel = panelOf(page);
    await expect(panel.getByRole("heading", { name: "Type de dépense" })).toBeVisible();
    // One Mobilité, the built-in one: the catalogue has none.
    await expect(panel.getByRole("radio", { name: "Mobilité" })).toHaveCount(1);
    await panel.getByRole("radio", { name: "Mobilité" }).check();
    await expectAccessible(page, "type step, the built-in Mobilité");
    await continueFrom(panel);
    // Chosen, it is in the catalogue (decision 0065), under the id it was offered with.
    await expect(panel.getByRole("heading", { name: "Dépense de mobilité" })).toBeVisible();
    expect(await mobilityTypes()).toEqual([{ id: "ext_mobility" }]);

    await expect(panel.getByRole("heading", { name: "Dépense de mobilité" })).toBeVisible();
    await expectAccessible(page, "mobility subtypes");
    await panel.getByRole("radio", { name: "Achat d’un vélo ou d’un engin de déplacement" }).check();
    await continueFrom(panel);

    await expect(panel.getByRole("heading", { name: "Étape 1 sur 4 : Justificatif" })).toBeVisible();
    await panel.getByLabel("Votre justificatif").setInputFiles(BIKE_SHOP);
    await panel.getByRole("button", { name: "Envoyer le justificatif" }).click();
    await expect(panel.getByRole("link", { name: "Justificatif 1" })).toBeVisible();
    await expectAccessible(page, "ticket step with its receipt");
    await continueFrom(panel);

    // The reading may still run: go on without waiting, the answers are typed.
    const skip = panel.getByRole("link", { name: "Continuer sans attendre" });
    await expect(skip.or(panel.getByLabel("Montant payé"))).toBeVisible();
    if (await skip.isVisible()) await skip.click();
    await panel.getByLabel("Nom de l’établissement").fill("vélo station");
    await panel.getByRole("button", { name: "Rechercher" }).click();
    await panel.getByRole("radio", { name: "Vélo Station Part-Dieu" }).check();
    await panel.getByLabel("Date de l’achat").fill("02/11/2026");
    await panel.getByLabel("Montant payé").fill("89,00");
    await expectAccessible(page, "details step");
    await continueFrom(panel);

    // The mobility wallet pays it (one wallet: it takes the whole amount).
    await expect(panel.getByLabel("Montant pris sur Mobilité (Mobilité)")).toHaveValue("89,00");
    await panel.getByLabel("IBAN du compte à créditer").fill(IBAN);
    await expectAccessible(page, "methods step");
    await continueFrom(panel);

    // Mobility asks for the sworn name (spec 001 §2.6 "Summary step").
    await expect(panel.getByRole("heading", { name: "Vérifiez votre demande" })).toBeVisible();
    await expect(panel.getByText("Vélo Station Part-Dieu")).toBeVisible();
    await panel.getByRole("checkbox", { name: /Je déclare sur l’honneur/ }).check();
    await panel.getByRole("button", { name: "Envoyer ma demande" }).click();
    await expect(panel.getByText("Saisissez vos nom et prénom pour confirmer la déclaration.").first()).toBeVisible();
    await expectAccessible(page, "summary, sworn name missing");
    await panel.getByRole("checkbox", { name: /Je déclare sur l’honneur/ }).check();
    await panel.getByLabel("Vos prénom et nom, pour signer").fill("Alex Essai");
    await panel.getByRole("button", { name: "Envoyer ma demande" }).click();

    await expect(page).toHaveURL(/\/plans\/expense-requests$/);
    await expect(page.getByText("Votre demande de remboursement a bien été envoyée.")).toBeVisible();
    const item = page.getByRole("listitem").filter({ hasText: "Vélo Station Part-Dieu" });
    await expect(item).toContainText("Mobilité");
    await expect(item).toContainText("89,00 €");
    await expectAccessible(page, "list with the mobility request");

    // The funder's sandbox reviewer approves it; the employee sees it approved.
    await page.goto("/dev/expense-requests");
    const awaiting = page.getByRole("listitem").filter({ hasText: account.email }).filter({ hasText: "89,00 €" });
    await expect(awaiting).toHaveCount(1);
    await awaiting.getByRole("button", { name: "Valider" }).click();
    await expect(page.getByText("Demande validée : le virement est programmé.")).toBeVisible();
    await page.goto("/plans/expense-requests");
    await expect(page.getByRole("listitem").filter({ hasText: "Vélo Station Part-Dieu" })).toContainText(
      "Validée, remboursement en cours",
    );
  });

  test("a second person finds the same Mobilité, stored once; without allowances it is not offered", async ({
    page,
    makeAccount,
    signInAs,
  }) => {
    const mobility = await makeAccount({
      features: { expenseRequests: { any: true }, allowances: { any: true } },
      cards: CARDS,
    });
    await signInAs(page, mobility);
    await page.goto("/plans/expense-requests/new");
    await panelOf(page).getByRole("radio", { name: "Mobilité" }).check();
    await continueFrom(panelOf(page));
    await expect(panelOf(page).getByRole("heading", { name: "Dépense de mobilité" })).toBeVisible();

    const without = await makeAccount({ features: { expenseRequests: { any: true } }, cards: CARDS });
    await page.context().clearCookies();
    await signInAs(page, without);
    await page.goto("/plans/expense-requests/new");
    await expect(panelOf(page).getByRole("radio", { name: "Culture" })).toBeVisible();
    await expect(panelOf(page).getByRole("radio", { name: "Mobilité" })).toHaveCount(0);
    await expectAccessible(page, "type step without allowances");
  });
});

test("profile: an e-mail sent empty is marked invalid, and 33612345678 is +33612345678", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  const account = await makeAccount({ phone: "+33612345678", cards: CARDS });
  await signInAs(page, account);
  await page.goto("/settings/profile");
  const email = page.getByLabel("Adresse e-mail", { exact: true });
  const phone = page.getByLabel("Téléphone mobile");
  await email.fill("");
  await phone.fill("06 98 76 54 32");
  await page.getByRole("button", { name: "Enregistrer", exact: true }).click();
  await expect(page.getByRole("link", { name: "Saisissez votre adresse e-mail" })).toBeVisible();
  await expect(email).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText(/Aucune modification à enregistrer/)).toHaveCount(0);
  await expect(page).toHaveTitle(/^Erreur : /);
  await expectAccessible(page, "profile, e-mail empty");

  // The same number typed with its code and no +: not a change.
  await email.fill(account.email);
  await phone.fill("33612345678");
  await page.getByRole("button", { name: "Enregistrer", exact: true }).click();
  await expect(page.getByRole("link", { name: /Aucune modification à enregistrer/ })).toBeVisible();

  // Another number typed so: waits for its code, as +33698765432.
  await phone.fill("33698765432");
  await page.getByRole("button", { name: "Enregistrer", exact: true }).click();
  await expect(page).toHaveURL(/\/settings\/profile\/confirm\/phone$/);
  await page.goto("/settings/profile");
  await expect(page.getByText("+33698765432")).toBeVisible();
});
