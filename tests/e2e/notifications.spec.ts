import type { NotificationTable } from "../../app/.server/db/schema";
import { expect, test } from "./fixtures";
import { expectAccessible } from "./helpers";

/**
 * The notification centre (issue 16, decision 0030): the bell's count, the panel over the current page,
 * unread only, pages of 15, a card notification's link, mark unread and delete. On an account of its own,
 * given 20 notifications: the newest is its card's creation, then 16 wallet reloads, then 3 already read.
 */
test("the bell opens the centre: unread only, pages of 15, a card's notification, mark unread, delete; the count follows", async ({
  page,
  makeAccount,
  signInAs,
  e2eDatabase,
  javaScriptEnabled,
}) => {
  test.setTimeout(90_000);
  const account = await makeAccount({
    cards: [{ type: "physical", lastFour: "4242" }],
    wallets: [{ name: "Titres-restaurant", type: "meal", balance: 5000 }],
  });
  const cardId = account.cards["4242"]!;
  const walletId = account.wallets["Titres-restaurant"]!;
  const now = Date.now();
  const at = (hoursAgo: number) => new Date(now - hoursAgo * 3_600_000).toISOString();
  const row = (id: string, type: string, dataId: string, hoursAgo: number, read = false): NotificationTable => ({
    id: `ntf_e2e_${id}_${cardId}`,
    user_id: account.userId,
    type,
    data_id: dataId,
    created_at: at(hoursAgo),
    read_at: read ? at(30) : null,
  });
  await e2eDatabase.handle.db
    .insertInto("notifications")
    .values([
      row("card", "card_created_to_user_notification", cardId, 1),
      ...Array.from({ length: 16 }, (_, i) => row(`reload_${i}`, "wallet_reload_notification", walletId, 2 + i)),
      ...Array.from({ length: 3 }, (_, i) => row(`read_${i}`, "wallet_expire_in_notification", walletId, 40 + i, true)),
    ])
    .execute();

  await signInAs(page, account);
  await page.goto(`/cards/${cardId}`);
  const bell = page.getByRole("link", { name: /^Notifications/ }).first();
  await expect(bell).toHaveAccessibleName("Notifications, 17 non lues");
  await bell.click();
  await expect(page).toHaveURL(new RegExp(`/notifications\\?back=%2Fcards%2F${cardId}`));
  const items = page.locator(".notification-centre__list > li");
  await expect(items).toHaveCount(15);
  await expect(items.first()).toContainText("Votre nouvelle carte est prête.");
  if (javaScriptEnabled) {
    // With JS the notifications are marked read as they come into view: the count goes down.
    await expect.poll(async () => (await bell.getAttribute("aria-label")) ?? "").not.toBe("Notifications, 17 non lues");
  } else {
    // Without JS the 15 shown are marked read once rendered: 2 unread remain.
    await expect(bell).toHaveAccessibleName("Notifications, 2 non lues");
  }
  await expectAccessible(page, "notification centre");

  // Pages of 15: "Voir plus" shows all 20, then no more.
  await page.getByRole("link", { name: "Voir plus" }).click();
  await expect(items).toHaveCount(20);
  await expect(page.getByRole("link", { name: "Voir plus" })).toHaveCount(0);

  // Unread only is a link; a page beyond the last is a 404 in French.
  await page.getByRole("link", { name: "Non lues seulement" }).click();
  await expect(page.getByRole("link", { name: "Non lues seulement" })).toHaveAttribute("aria-current", "page");
  const beyond = await page.goto(`/notifications?back=%2Fcards&page=9`);
  expect(beyond?.status()).toBe(404);
  await expect(page.getByText("Cette page de notifications n’existe pas.")).toBeVisible();

  // Mark one unread, then delete it: the flash says so and the count follows.
  await page.goto(`/notifications?back=%2Fcards%2F${cardId}&page=2`);
  await expect(items).toHaveCount(20);
  const oldest = items.last();
  await expect(oldest).not.toContainText("Non lue");
  const before = (await bell.getAttribute("aria-label")) ?? "";
  await oldest.getByRole("button", { name: "Marquer comme non lue" }).click();
  await expect(page.getByText("La notification est marquée comme non lue.")).toBeVisible();
  await expect(items.last()).toContainText("Non lue");
  await expect(bell).not.toHaveAccessibleName(before);
  await expectAccessible(page, "notification marked unread");
  const afterUnread = (await bell.getAttribute("aria-label")) ?? "";
  await items.last().getByRole("button", { name: "Supprimer" }).click();
  await expect(page.getByText("La notification est supprimée.")).toBeVisible();
  await expect(items).toHaveCount(19);
  await expect(bell).not.toHaveAccessibleName(afterUnread);

  // The card's notification leads to the card; closing goes back to the page it was opened over.
  await items.first().getByRole("link", { name: "Voir" }).click();
  await expect(page).toHaveURL(new RegExp(`/cards/${cardId}$`));
  await bell.click();
  await page.getByRole("link", { name: /^Fermer/ }).click();
  await expect(page).toHaveURL(new RegExp(`/cards/${cardId}$`));
});

test("another person's notification cannot be marked or deleted (404, nothing changed)", async ({
  page,
  makeAccount,
  signInAs,
  e2eDatabase,
}) => {
  const owner = await makeAccount();
  const other = await makeAccount({ cards: [{ type: "physical", lastFour: "4242" }] });
  const id = `ntf_e2e_foreign_${owner.userId}`;
  await e2eDatabase.handle.db
    .insertInto("notifications")
    .values({
      id,
      user_id: owner.userId,
      type: "wallet_reload_notification",
      data_id: null,
      created_at: new Date().toISOString(),
      read_at: null,
    })
    .execute();
  await signInAs(page, other);
  await page.goto("/notifications?back=%2Fcards");
  await expect(page.getByText("Vous n’avez aucune notification.")).toBeVisible();
  for (const intent of ["markUnread", "delete"]) {
    const response = await page.request.post("/notifications?back=%2Fcards", {
      form: { intent, id },
      headers: { Origin: new URL(page.url()).origin },
    });
    expect(response.status()).toBe(404);
  }
  const row = await e2eDatabase.handle.db
    .selectFrom("notifications")
    .selectAll()
    .where("id", "=", id)
    .executeTakeFirst();
  expect(row?.read_at).toBeNull();
});
