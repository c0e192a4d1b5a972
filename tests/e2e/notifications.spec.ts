import type { Page } from "@playwright/test";
import type { DB } from "../../app/.server/db";
import { authorise } from "../../app/.server/services/authorisations";
import { reviewRefund } from "../../app/.server/services/refunds/review";
import { SandboxMessenger } from "../../app/.server/providers/messaging/sandbox";
import { expect, test, type TestAccount } from "./fixtures";
import { expectAccessible, expectNoHorizontalScroll } from "./helpers";

/**
 * The notification centre (issue 16, decision 0030) on marie's data: the demo's 20 notifications, 16 unread
 * (newest first: a payment accepted, her new card •••• 1881, …; the 4 oldest read), on a copy of marie of this
 * test's own (fixtures `makeMarie`), so that it runs alone and in any order. The bell's count, the panel over the
 * current page, unread only, pages of 15, a card notification's link, mark unread and delete. Each notification
 * says what happened in its facts' words (issue 30 §4) and its buttons carry its sentence in their names.
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
  await expect(items.first()).toContainText(/Paiement accepté : \d+,\d\d\s€ chez \S/);
  await expect(items.nth(1)).toContainText("Votre nouvelle carte physique •••• 1881 est prête.");
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
    await expect(items.first()).toContainText(
      /Demande de remboursement de 350,00\s€ \(Vacances chez .+\) payée : 300,00\s€ versés sur votre compte\./,
    );
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
  await expect(items.last()).toContainText("Votre nouvelle carte physique •••• 4242 est prête.");
  await expectAccessible(page, "all 20 notifications");
  const beyond = await page.request.get(`/notifications?back=%2Fcards&page=3`);
  expect(beyond.status()).toBe(404);

  // Mark the oldest (read: her card •••• 4242's creation) unread: the flash says so and the count goes up.
  const oldest = items.last();
  await expect(oldest).not.toContainText("Non lue");
  const before = (await bell.getAttribute("aria-label")) ?? "";
  await oldest
    .getByRole("button", {
      name: "Marquer comme non lue la notification « Votre nouvelle carte physique •••• 4242 est prête. »",
    })
    .click();
  await expect(page.getByText("La notification est marquée comme non lue.")).toBeVisible();
  await expect(items.last()).toContainText("Non lue");
  await expect(bell).not.toHaveAccessibleName(before);
  if (!javaScriptEnabled) await expect(bell).toHaveAccessibleName("Notifications, 1 non lue");
  await expectAccessible(page, "notification marked unread");

  // Delete it: gone, and the count goes down again.
  const afterUnread = (await bell.getAttribute("aria-label")) ?? "";
  await items
    .last()
    .getByRole("button", { name: "Supprimer la notification « Votre nouvelle carte physique •••• 4242 est prête. »" })
    .click();
  await expect(page.getByText("La notification est supprimée.")).toBeVisible();
  await expect(items).toHaveCount(19);
  await expect(bell).not.toHaveAccessibleName(afterUnread);
  if (!javaScriptEnabled) await expect(bell).toHaveAccessibleName("Notifications");
  await expectAccessible(page, "notification deleted");

  // Her new card's notification leads to that card; closing the centre goes back to the page it was opened over.
  await items.nth(1).getByRole("link", { name: "Votre nouvelle carte physique •••• 1881 est prête." }).click();
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

/** A card payment decided by the authorisation engine now, with its notification (as the terminal makes one). */
async function payNow(db: DB, cardId: string, amount: number, merchant: { name: string; categoryCode: string }) {
  const result = await authorise(
    { db },
    {
      card: { id: cardId },
      amount,
      currency: "EUR",
      merchant: { ...merchant, city: "Lyon", country: "FR" },
      at: new Date(),
      entryMode: "chip_and_pin",
      pinCheck: "match",
    },
    { notify: true },
  );
  if (result.kind === "unknownCard" || !result.authorizationId) throw new Error(`payNow: ${JSON.stringify(result)}`);
  return { kind: result.kind, id: result.authorizationId };
}

/** The centre's entry whose sentence is `text`. */
const entry = (page: Page, text: string | RegExp) =>
  page
    .locator(".notification-centre__list > li")
    .filter({ has: page.locator(".notification__text", { hasText: text }) });

test("each notification says what happened and links to it: a payment accepted, one declined in figures, a refund decided; named buttons", async ({
  page,
  makeMarie,
  makeRefund,
  signInAs,
  e2eDatabase,
}) => {
  test.setTimeout(90_000);
  const { db } = e2eDatabase.handle;
  const marie: TestAccount = await makeMarie();
  const card = marie.cards["4242"]!;
  // A meal at a restaurant is paid; 420 € at a supermarket is more than her wallets and the overflow can pay.
  const approved = await payNow(db, card, 1420, { name: "Chez Paul", categoryCode: "5812" });
  expect(approved.kind).toBe("approved");
  const declined = await payNow(db, card, 42_000, { name: "Carrefour", categoryCode: "5411" });
  expect(declined.kind).toBe("declined");
  // Two refund requests decided by the funder: one accepted (300 € of 350 € refunded), one refused with its reason.
  const messenger = new SandboxMessenger(db);
  const accepted = await makeRefund(marie, {
    type: "culture",
    partner: "Théâtre du Vieux-Lyon",
    amount: 35_000,
    fields: { amount_to_refund: 30_000 },
  });
  expect((await reviewRefund(db, messenger, accepted, { kind: "approve" })).kind).toBe("approved");
  const refused = await makeRefund(marie, { type: "culture", partner: "Théâtre du Vieux-Lyon", amount: 4_590 });
  const refusal = { kind: "refuse", reason: "Le ticket est illisible" } as const;
  expect((await reviewRefund(db, messenger, refused, refusal)).kind).toBe("refused");

  // A row whose stored facts are not JSON (a bad write, an old format): the type's sentence, never an error page.
  await db
    .insertInto("notifications")
    .values({
      id: `ntf_e2e_bad_facts_${marie.userId}`,
      user_id: marie.userId,
      type: "wallet_reload_notification",
      data_id: marie.wallets["Cadeaux de Noël"]!,
      created_at: new Date().toISOString(),
      read_at: null,
      facts: "{not json",
    })
    .execute();

  await signInAs(page, marie);
  await page.goto("/notifications?back=%2Fwallets");
  await expect(entry(page, "Un portefeuille a été rechargé.")).toHaveCount(1);
  const paid = entry(page, "Paiement accepté : 14,20 € chez Chez Paul");
  await expect(paid.getByRole("link", { name: "Paiement accepté : 14,20 € chez Chez Paul" })).toHaveAttribute(
    "href",
    `/cards/${card}#tx-${approved.id}`,
  );
  // The decline: its amount and merchant, then its cause in figures (the card page's explanation).
  const refusedPayment = entry(page, "Paiement refusé : 420,00 € chez Carrefour");
  await expect(refusedPayment.getByRole("link", { name: "Paiement refusé : 420,00 € chez Carrefour" })).toHaveAttribute(
    "href",
    `/cards/${card}?tab=declined#tx-${declined.id}`,
  );
  await expect(refusedPayment.locator(".decline-explanation")).toContainText("420,00 €");
  await expect(
    entry(
      page,
      /Demande de remboursement de 350,00\s€ \(Culture chez Théâtre du Vieux-Lyon\) acceptée : 300,00\s€ seront remboursés le \d\d\/\d\d\/\d{4}\./,
    ),
  ).toHaveCount(1);
  await expect(
    entry(
      page,
      "Demande de remboursement de 45,90 € (Culture chez Théâtre du Vieux-Lyon) refusée : « Le ticket est illisible »",
    ),
  ).toHaveCount(1);

  // Every action is named for its notification (fifteen "Supprimer" told apart): "Supprimer la notification « … »".
  const items = page.locator(".notification-centre__list > li");
  await expect(items).toHaveCount(15);
  const pairs = await items.evaluateAll((entries) =>
    entries.map((li) => ({
      said: li.querySelector(".notification__text a, .notification__text")?.textContent?.replace(/^Non lue\s*/, ""),
      named: li.querySelector("button[value='delete']")?.textContent,
    })),
  );
  for (const { said, named } of pairs)
    expect(named?.replace(/\s+/g, " ")).toBe(`Supprimer la notification « ${said?.trim().replace(/\s+/g, " ")} »`);
  await expectAccessible(page, "notifications with their facts");
  await page.setViewportSize({ width: 320, height: 740 });
  await expectNoHorizontalScroll(page, "notifications at 320 px");
  await page.setViewportSize({ width: 1280, height: 800 });

  // Deleting the decline by its named button: gone, the others stay.
  await refusedPayment
    .getByRole("button", { name: "Supprimer la notification « Paiement refusé : 420,00 € chez Carrefour »" })
    .click();
  await expect(page.getByText("La notification est supprimée.")).toBeVisible();
  await expect(refusedPayment).toHaveCount(0);
  await expect(paid).toHaveCount(1);
  await expectAccessible(page, "a notification with facts deleted");

  // The payment's link opens it in its card's transactions.
  await paid.getByRole("link", { name: "Paiement accepté : 14,20 € chez Chez Paul" }).click();
  await expect(page).toHaveURL(new RegExp(`/cards/${card}#tx-${approved.id}$`));
  await expect(page.locator(`#tx-${approved.id}`)).toContainText("Chez Paul");
});
