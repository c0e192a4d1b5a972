import { expect, test } from "./fixtures";
import { expectAccessible } from "./helpers";
import { payoutDay } from "../../app/domain/allowances";
import { frenchDay, todayInParis } from "../../app/domain/dates";

/**
 * Issue 15 item 6: the funder's side of mobility allowances in the sandbox (/dev/allowances): approve an
 * allowance into monthly payouts, refuse one with a reason. The allowances are this journey's own
 * (fixtures.ts `makeAllowance`); the employee's list of them is another journey's (allowances-list).
 */

test("the sandbox reviewer approves an allowance into monthly payouts and refuses another with a reason", async ({
  page,
  makeAccount,
  makeAllowance,
}) => {
  const account = await makeAccount({ features: { allowances: { any: true, carpooling: true } } });
  const today = todayInParis();
  const month = `${today.slice(0, 7)}-01`;
  // A carpooling allowance of this month, 9,00 € paid over the month: one payout.
  const approved = await makeAllowance(account, {
    start_at: month,
    ends_at: today,
    amount: 900,
    amount_before_cap: 900,
    monthly_amount: 900,
  });
  const refused = await makeAllowance(account, { amount: 250, amount_before_cap: 250, monthly_amount: 250 });

  await page.goto("/dev/allowances");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Indemnités à examiner (bac à sable)");
  const item = (id: string) => page.getByRole("listitem").filter({ hasText: id });
  await expect(item(approved)).toContainText("Covoiturage — 9,00 €");
  await expect(item(approved)).toContainText(account.email);
  await expect(item(approved)).toContainText(`du ${frenchDay(month)} au ${frenchDay(today)}`);
  await expectAccessible(page, "sandbox allowance reviewer");

  await item(approved).getByRole("button", { name: "Valider" }).click();
  await expect(page.getByText("Indemnité validée : les versements mensuels sont programmés.")).toBeVisible();
  // No longer waiting: its payout is listed instead.
  const payout = page.getByRole("listitem").filter({ hasText: approved });
  await expect(payout).toHaveCount(1);
  await expect(payout).toContainText(
    `9,00 € pour ${today.slice(5, 7)}/${today.slice(0, 4)}, prévu le ${frenchDay(payoutDay(today.slice(0, 7), today))}`,
  );
  await expect(payout.getByRole("button")).toHaveCount(0);

  await item(refused).getByLabel("Motif").fill("Trajet déjà indemnisé par un autre financeur");
  await item(refused).getByRole("button", { name: "Refuser" }).click();
  await expect(page.getByText("Indemnité refusée.")).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: refused })).toHaveCount(0);
  await expectAccessible(page, "after the review");
});
