import path from "node:path";
import Database from "better-sqlite3";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectAccessible, MARIE, signIn } from "./helpers";
import { e2eDatabaseFile } from "./servers";

/**
 * Issue 12, item 5: a page whose data fails to load keeps the shell and its navigation and says what
 * failed (spec 000 §8). The failure is made by breaking one column of this project's own database for
 * the time of the check (tests/server/load-failures.test.ts covers every page; this is what a person sees).
 */
function breakWhile(sql: [breakIt: string, repair: string]) {
  const db = new Database(path.resolve(e2eDatabaseFile(test.info().project.name)), { fileMustExist: true });
  db.exec(sql[0]);
  return () => {
    db.exec(sql[1]);
    db.close();
  };
}

async function openFromNavigation(page: Page, name: string) {
  await page
    .getByRole("navigation", { name: "Navigation principale" })
    .filter({ visible: true })
    .getByRole("link", { name })
    .click();
}

test("a wallet whose transactions cannot be read: the navigation stays, the page says so, and retrying works once repaired", async ({
  page,
}) => {
  await signIn(page, MARIE);
  const repair = breakWhile([
    "alter table wallet_transactions rename column created_at to created_at_broken",
    "alter table wallet_transactions rename column created_at_broken to created_at",
  ]);
  try {
    await openFromNavigation(page, "Titres-restaurant");
    await expect(page.getByRole("alert")).toHaveText(
      "Ce portefeuille n’a pas pu être chargé. Réessayez dans quelques instants.",
    );
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Portefeuilles");
    await expect(page).toHaveTitle("Erreur : Portefeuilles – Portail Avantages");
    // The whole navigation is still there: another page is one click away.
    const nav = page.getByRole("navigation", { name: "Navigation principale" }).filter({ visible: true });
    await expect(nav.getByRole("link", { name: /^Carte physique •••• 4242/ })).toBeVisible();
    await expectAccessible(page, "wallet page that failed to load");
  } finally {
    repair();
  }
  await page.getByRole("link", { name: "Réessayer" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Titres-restaurant");
  await expect(page.getByRole("alert")).toHaveCount(0);
});

test("a card whose transactions cannot be read says so under the navigation", async ({ page }) => {
  await signIn(page, MARIE);
  const repair = breakWhile([
    "alter table payment_intents rename to payment_intents_broken",
    "alter table payment_intents_broken rename to payment_intents",
  ]);
  try {
    await openFromNavigation(page, "Titres-restaurant");
    await openFromNavigation(page, "Carte physique •••• 4242");
    await expect(page.getByRole("alert")).toHaveText(
      "Les transactions de cette carte n’ont pas pu être chargées. Réessayez dans quelques instants.",
    );
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Cartes");
    await openFromNavigation(page, "Titres-restaurant");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Titres-restaurant");
  } finally {
    repair();
  }
});
