import type { DB } from "../../app/.server/db";
import { newId } from "../../app/.server/ids";
import { conformityOf } from "../../app/content/accessibility-record";
import { expect, test } from "./fixtures";
import { expectAccessible } from "./helpers";

/** Issue 16 §4, §5, §10, §11: the support chat, the store locator, the legal pages and the footer's links. */

test("from the delivery panel, a cardholder writes to support about her card and gets the sandbox answer", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  const eta = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
  const account = await makeAccount({
    cards: [{ type: "physical", lastFour: "1881", shippingStatus: "shipped", shippingEta: eta }],
  });
  await signInAs(page, account);
  await page.goto("/cards");
  await page.locator("summary", { hasText: "Actions sur la carte" }).click();
  await page.getByRole("link", { name: "Suivre la livraison" }).click();
  const delivery = page.getByRole("dialog", { name: "Suivi de livraison" });
  await delivery.getByRole("link", { name: "Signaler un problème de livraison au support" }).click();

  const chat = page.getByRole("dialog", { name: "Aide" });
  await expect(chat.getByText("À propos de votre Carte physique •••• 1881")).toBeVisible();
  await expect(chat.getByText("Aucun message pour l’instant.")).toBeVisible();
  await expect(page).toHaveTitle("Aide – Portail Avantages");
  await expectAccessible(page, "support chat, empty");

  // Blank: refused with the message, nothing sent.
  await chat.getByLabel("Votre message").fill("   ");
  await chat.getByRole("button", { name: "Envoyer" }).click();
  await expect(page.getByRole("link", { name: "Saisissez votre message." })).toBeVisible();
  await expect(page).toHaveTitle("Erreur : Aide – Portail Avantages");
  await expectAccessible(page, "support chat, blank message");

  // Markup is shown as the text typed, never as HTML.
  const markup = "Toujours rien <b>reçu</b> <img src=x>";
  await page.getByRole("dialog", { name: "Aide" }).getByLabel("Votre message").fill(markup);
  await page.getByRole("dialog", { name: "Aide" }).getByRole("button", { name: "Envoyer" }).click();
  const conversation = page.getByRole("log", { name: "Conversation avec le support" });
  await expect(conversation.getByText(markup)).toBeVisible();
  await expect(conversation.locator("b, img")).toHaveCount(0);
  await expect(conversation.getByText(/nous avons bien reçu votre message/)).toBeVisible();
  await expect(page.getByText("Message envoyé.")).toBeVisible();
  await expectAccessible(page, "support chat, answered");

  // Closing goes back to the delivery panel it was opened from.
  await page
    .getByRole("dialog", { name: "Aide" })
    .getByRole("link", { name: /^Fermer/ })
    .click();
  await expect(page.getByRole("dialog", { name: "Suivi de livraison" })).toBeVisible();
});

test("the chat button opens the chat over the current page; a foreign card or an outside back link is refused", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  await signInAs(page, await makeAccount({ cards: [{ type: "virtual", lastFour: "5556" }] }));
  await page.goto("/wallets");
  await page.getByRole("link", { name: "Aide et discussion" }).click();
  const chat = page.getByRole("dialog", { name: "Aide" });
  await expect(chat.getByLabel("Votre message")).toBeVisible();
  await chat.getByRole("link", { name: /^Fermer/ }).click();
  await expect(page).toHaveURL(/\/wallets$/);

  const foreign = await page.request.get("/support?card=card_of_someone_else", { maxRedirects: 0 });
  expect(foreign.status()).toBe(404);
  await page.goto("/support?back=https://evil.example/");
  await expect(page.getByRole("dialog", { name: "Aide" }).getByRole("link", { name: /^Fermer/ })).toHaveAttribute(
    "href",
    "/cards",
  );
  const tooLong = await page.request.post("/support", {
    form: { message: "x".repeat(5000) },
    headers: { Origin: new URL(page.url()).origin },
    maxRedirects: 0,
  });
  expect(tooLong.status()).toBe(400);
});

test("the store locator is a page of its own: a search form, and the mobile apps' badges as a block of it", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  await signInAs(page, await makeAccount({ cards: [{ type: "virtual", lastFour: "5556" }] }));
  await page.goto("/cards");
  await page
    .getByRole("navigation", { name: "Navigation principale" })
    .filter({ visible: true })
    .getByRole("link", { name: "Trouver un commerce" })
    .click();
  // The search itself is store-locator.spec.ts's; here, the page the menu leads to.
  await expect(page.getByRole("search").getByRole("textbox", { name: "Code postal ou ville" })).toBeVisible();
  const apps = page.getByRole("complementary", { name: "Aussi dans l’application mobile" });
  await expect(apps.getByRole("link", { name: "Télécharger dans l’App Store" })).toBeVisible();
  await expect(apps.getByRole("link", { name: "Disponible sur Google Play" })).toBeVisible();
  await expect(page).toHaveTitle("Trouver un commerce – Portail Avantages");
  await expectAccessible(page, "store locator");
});

test("the legal pages and the accessibility statement are inside the portal, linked from the footer", async ({
  page,
}) => {
  await page.goto("/login");
  const footer = page.getByRole("navigation", { name: "Informations légales" });
  // The statement's state is the accessibility record's (decision 0068), not a sentence written here.
  const { link: statementLink, status } = {
    total: { link: "Accessibilité : totalement conforme", status: "est totalement conforme avec le référentiel" },
    partial: {
      link: "Accessibilité : partiellement conforme",
      status: "est partiellement conforme avec le référentiel",
    },
    none: { link: "Accessibilité : non conforme", status: "n’est pas conforme avec le référentiel" },
  }[conformityOf().level];
  for (const [link, title] of [
    ["Conditions d’utilisation", "Conditions générales d’utilisation"],
    ["Confidentialité", "Politique de confidentialité"],
    ["Plan du site", "Plan du site"],
    [statementLink, "Déclaration d’accessibilité"],
  ] as const) {
    await footer.getByRole("link", { name: link }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
    await expect(page).toHaveTitle(`${title} – Portail Avantages`);
    await expectAccessible(page, title);
  }
  await expect(page.getByRole("heading", { name: "État de conformité" })).toBeVisible();
  await expect(page.getByText(status)).toBeVisible();
  await expect(page.getByRole("heading", { name: "Voies de recours" })).toBeVisible();
});

/** A message of the conversation written straight into the portal's database, as a real chat backend would. */
async function addMessage(db: DB, userId: string, author: "user" | "support", body: string) {
  await db
    .insertInto("support_messages")
    .values({ id: newId("sup"), user_id: userId, author, body, context: null, created_at: new Date().toISOString() })
    .execute();
}

const jsOff = () => test.info().project.use.javaScriptEnabled === false;

test("without JS, a conversation waiting for its answer refreshes itself, and never with a text box on it", async ({
  page,
  makeAccount,
  signInAs,
  e2eDatabase,
}) => {
  test.skip(!jsOff(), "the meta refresh is for pages without JS; with JS the next test polls instead");
  const account = await makeAccount({ cards: [{ type: "virtual", lastFour: "5556" }] });
  await signInAs(page, account);
  const { db } = e2eDatabase.handle;
  await addMessage(db, account.userId, "user", "Ma carte est-elle active ?");

  await page.goto("/support?back=/wallets");
  const chat = page.getByRole("dialog", { name: "Aide" });
  await expect(chat.getByText(/En attente de la réponse du support/)).toBeVisible();
  await expect(page.locator('meta[http-equiv="refresh"]')).toHaveAttribute(
    "content",
    "20;url=/support?back=%2Fwallets",
  );
  // Nothing to type into on a page that reloads itself: a link gives the box back, without the refresh.
  await expect(chat.getByLabel("Votre message")).toHaveCount(0);
  await expectAccessible(page, "support chat, waiting without JS");

  // The answer arrives: the page shows it by itself, then stops refreshing.
  await addMessage(db, account.userId, "support", "Oui, elle est active depuis ce matin.");
  await expect(chat.getByText("Oui, elle est active depuis ce matin.")).toBeVisible({ timeout: 25_000 });
  await expect(chat.getByText(/En attente de la réponse du support/)).toHaveCount(0);
  await expect(page.locator('meta[http-equiv="refresh"]')).toHaveCount(0);
  await expect(chat.getByLabel("Votre message")).toBeVisible();
  await expect(chat.getByRole("link", { name: /^Fermer/ })).toHaveAttribute("href", "/wallets");

  // Waiting again, the person chooses to write: the box, and no refresh that would lose the text.
  await addMessage(db, account.userId, "user", "Et le code PIN ?");
  await page.reload();
  await chat.getByRole("link", { name: "Écrire un autre message" }).click();
  await expect(page).toHaveURL(/compose=1/);
  await expect(page.locator('meta[http-equiv="refresh"]')).toHaveCount(0);
  await chat.getByLabel("Votre message").fill("Je l’ai oublié.");
  await chat.getByRole("button", { name: "Envoyer" }).click();
  await expect(chat.getByText("Je l’ai oublié.")).toBeVisible();
  await expect(chat.getByRole("link", { name: /^Fermer/ })).toHaveAttribute("href", "/wallets");
});

test("with JS, the open conversation fetches new messages while the tab is visible, keeping what is typed", async ({
  page,
  makeAccount,
  signInAs,
  e2eDatabase,
}) => {
  test.skip(jsOff(), "polling is JavaScript's; the previous test covers the page without it");
  test.setTimeout(90_000);
  const account = await makeAccount({ cards: [{ type: "virtual", lastFour: "5556" }] });
  await signInAs(page, account);
  const { db } = e2eDatabase.handle;
  await addMessage(db, account.userId, "user", "Ma carte est-elle active ?");
  const rechecks: number[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/support.data") rechecks.push(Date.now());
  });

  await page.goto("/support?back=/wallets");
  const chat = page.getByRole("dialog", { name: "Aide" });
  await expect(chat.getByText(/En attente de la réponse du support/)).toBeVisible();
  // With JS the box stays while waiting: polling does not reload the page.
  await chat.getByLabel("Votre message").fill("Un brouillon en cours");
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

  await addMessage(db, account.userId, "support", "Oui, elle est active depuis ce matin.");
  await expect(chat.getByText("Oui, elle est active depuis ce matin.")).toBeVisible({ timeout: 20_000 });
  expect(rechecks.length).toBeGreaterThan(0);
  // No reload happened (with JS there is no meta refresh): the draft is still there.
  await page.waitForTimeout(2_000);
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  await expect(chat.getByLabel("Votre message")).toHaveValue("Un brouillon en cours");

  // A hidden tab is not polled; showing it again rechecks at once.
  await page.evaluate(() => {
    Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
    document.dispatchEvent(new Event("visibilitychange"));
  });
  const hiddenSince = Date.now();
  await addMessage(db, account.userId, "support", "Un second message.");
  await page.waitForTimeout(16_000);
  expect(rechecks.filter((at) => at > hiddenSince)).toEqual([]);
  await expect(chat.getByText("Un second message.")).toHaveCount(0);
  const shownAt = Date.now();
  await page.evaluate(() => {
    Object.defineProperty(document, "hidden", { configurable: true, get: () => false });
    document.dispatchEvent(new Event("visibilitychange"));
  });
  await expect(chat.getByText("Un second message.")).toBeVisible({ timeout: 3_000 });
  // At once, not at the next 15 s tick.
  expect(rechecks.filter((at) => at >= shownAt && at < shownAt + 1_000).length).toBeGreaterThan(0);
  await expect(chat.getByLabel("Votre message")).toHaveValue("Un brouillon en cours");
});
