import { expect, test } from "./fixtures";
import { expectAccessible } from "./helpers";

/**
 * The notification centre (issue 16, decision 0030) on marie's data: the demo's 20 notifications, 16 unread
 * (newest first: a payment accepted, her new card •••• 1881, …; the 4 oldest read), on a copy of marie of this
 * test's own (fixtures `makeMarie`), so that it runs alone and in any order. The bell's count, the panel over the
 * current page, unread only, pages of 15, a card notification's link, mark unread and delete.
 */
test("marie's notifications: unread only, pages past 15, a card's notification, mark unread, delete; the count follows", async ({
  page,
  makeMarie,
  signInAs,
  javaScriptEnabled,
}) => {
  test.setTimeout(90_000);
  const marie = await makeMarie();
  const mainCard = marie.cards["4242"]!;
  const newCard = marie.cards["1881"]!;

  await signInAs(page, marie);
  await page.goto(`/cards/${mainCard}`);
  const bell = page.getByRole("link", { name: /^Notifications/ }).first();
  await expect(bell).toHaveAccessibleName("Notifications, 16 non lues");
  await bell.click();
  await expect(page).toHaveURL(new RegExp(`/notifications\\?back=%2Fcards%2F${mainCard}`));
  const items = page.locator(".notification-centre__list > li");
  await expect(items).toHaveCount(15);
  await expect(items.first()).toContainText("Un paiement par carte a été accepté.");
  await expect(items.nth(1)).toContainText("Votre nouvelle carte est prête.");
  if (javaScriptEnabled) {
    // With JS the notifications are marked read as they come into view: the count goes down.
    await expect.poll(async () => (await bell.getAttribute("aria-label")) ?? "").not.toBe("Notifications, 16 non lues");
  } else {
    // Without JS the 15 shown (all unread) are marked read once rendered: 1 unread remains.
    await expect(bell).toHaveAccessibleName("Notifications, 1 non lue");
  }
  await expectAccessible(page, "notification centre");

  // Unread only is a link: only unread ones (or the empty state) are listed.
  await page.getByRole("link", { name: "Non lues seulement" }).click();
  await expect(page.getByRole("link", { name: "Non lues seulement" })).toHaveAttribute("aria-current", "page");
  if (!javaScriptEnabled) {
    // The one left unread is her paid refund; shown, it is read now.
    await expect(items).toHaveCount(1);
    await expect(items.first()).toContainText("Votre demande de remboursement est payée.");
    await expect(items.first()).toContainText("Non lue");
    await expect(bell).toHaveAccessibleName("Notifications");
  }
  await expectAccessible(page, "unread only");

  // Back to all of them; pages of 15: "Voir plus" shows all 20, then no more.
  await page.getByRole("link", { name: "Toutes" }).click();
  await expect(page.getByRole("link", { name: "Toutes" })).toHaveAttribute("aria-current", "page");
  await expect(items).toHaveCount(15);
  await page.getByRole("link", { name: "Voir plus" }).click();
  await expect(items).toHaveCount(20);
  await expect(page.getByRole("link", { name: "Voir plus" })).toHaveCount(0);
  await expect(items.last()).toContainText("Votre nouvelle carte est prête.");
  await expectAccessible(page, "all 20 notifications");
  const beyond = await page.request.get(`/notifications?back=%2Fcards&page=3`);
  expect(beyond.status()).toBe(404);

  // Mark the oldest (read: her card •••• 4242's creation) unread: the flash says so and the count goes up.
  const oldest = items.last();
  await expect(oldest).not.toContainText("Non lue");
  const before = (await bell.getAttribute("aria-label")) ?? "";
  await oldest.getByRole("button", { name: "Marquer comme non lue" }).click();
  await expect(page.getByText("La notification est marquée comme non lue.")).toBeVisible();
  await expect(items.last()).toContainText("Non lue");
  await expect(bell).not.toHaveAccessibleName(before);
  if (!javaScriptEnabled) await expect(bell).toHaveAccessibleName("Notifications, 1 non lue");
  await expectAccessible(page, "notification marked unread");

  // Delete it: gone, and the count goes down again.
  const afterUnread = (await bell.getAttribute("aria-label")) ?? "";
  await items.last().getByRole("button", { name: "Supprimer" }).click();
  await expect(page.getByText("La notification est supprimée.")).toBeVisible();
  await expect(items).toHaveCount(19);
  await expect(bell).not.toHaveAccessibleName(afterUnread);
  if (!javaScriptEnabled) await expect(bell).toHaveAccessibleName("Notifications");
  await expectAccessible(page, "notification deleted");

  // Her new card's notification leads to that card; closing the centre goes back to the page it was opened over.
  await items.nth(1).getByRole("link", { name: "Voir" }).click();
  await expect(page).toHaveURL(new RegExp(`/cards/${newCard}$`));
  await expect(page.getByRole("heading", { level: 1, name: "Carte physique •••• 1881" })).toBeVisible();
  await bell.click();
  await expect(page).toHaveURL(new RegExp(`/notifications\\?back=%2Fcards%2F${newCard}`));
  await page.getByRole("link", { name: /^Fermer/ }).click();
  await expect(page).toHaveURL(new RegExp(`/cards/${newCard}$`));
});

test("a link from another site marks nothing on display: shown unread, the person marks them (decision 0048)", async ({
  page,
  makeMarie,
  signInAs,
  javaScriptEnabled,
}) => {
  const marie = await makeMarie();
  await signInAs(page, marie);
  const portal = test.info().project.use.baseURL!;
  // Another site (the browser says `Sec-Fetch-Site: cross-site`) with a link to the centre.
  await page.route("http://elsewhere.test/**", (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><html lang="fr"><title>Ailleurs</title><a href="${portal}/notifications?back=%2Fcards">Vos notifications</a></html>`,
    }),
  );
  await page.goto("http://elsewhere.test/");
  await page.getByRole("link", { name: "Vos notifications" }).click();
  await expect(page).toHaveURL(/\/notifications\?back=%2Fcards$/);
  const bell = page.getByRole("link", { name: /^Notifications/ }).first();
  const items = page.locator(".notification-centre__list > li");
  await expect(items).toHaveCount(15);
  const markShown = page.getByRole("button", { name: "Marquer ces notifications comme lues" });
  if (javaScriptEnabled) {
    // With JS they are marked as they come into view, as when opened from the portal; no button.
    await expect(markShown).toHaveCount(0);
    await expect
      .poll(async () => (await bell.getAttribute("aria-label")) ?? "", { timeout: 20_000 })
      .not.toBe("Notifications, 16 non lues");
  } else {
    await expect(bell).toHaveAccessibleName("Notifications, 16 non lues");
    await expect(items.first()).toContainText("Non lue");
    await expectAccessible(page, "notification centre opened from another site");
    await markShown.click();
    await expect(bell).toHaveAccessibleName("Notifications, 1 non lue");
    await expect(markShown).toHaveCount(0);
  }
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
  for (const intent of ["read", "markUnread", "delete"]) {
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
