import { resolve } from "node:path";
import type { CDPSession, Locator, Page } from "@playwright/test";
import type { DB } from "../../app/.server/db";
import { newId } from "../../app/.server/ids";
import { expect, test, type AccountOptions } from "./fixtures";
import { expectAccessible } from "./helpers";

/**
 * Issue 34, RGAA 13.1 and 4.1.3 (decision 0067): a page waiting on the server never reloads itself faster
 * than every 20 s without JavaScript (nor on the light version, which has no script), says so beside a link to
 * check now and one to stop the reloading; with JavaScript it has no meta refresh, looks again by itself and
 * says what changed in a polite live region, focus left where it was. The support chat's conversation is a
 * log (each new message said once) and, after sending, focus is in the emptied text box, on screen. An
 * upload's progress is said in steps (start, each quarter, end), never at nearly every percent. Each journey
 * has its own account (fixtures.ts); the receipt's reading is held "pending" in the database, as a slow reader
 * would leave it, so that the waiting page is met every time.
 */
const BAKERY = resolve("tests/fixtures/receipts/boulangerie-2026-11-14.jpg");
const REFUND_ACCOUNT: AccountOptions = {
  features: { expenseRequests: { any: true } },
  wallets: [{ name: "Culture", type: "culture", balance: 20000 }],
  cards: [{ type: "physical", lastFour: "4242" }],
};
const PHONE = { width: 375, height: 740 };

const jsOff = () => test.info().project.use.javaScriptEnabled === false;
const continueFrom = (panel: Locator) => panel.getByRole("button", { name: "Continuer", exact: true }).click();
const wizardPanel = (page: Page) => page.getByRole("dialog", { name: "Demander un remboursement" });
const detailsHeading = (panel: Locator) =>
  panel.getByRole("heading", { name: "Étape 2 sur 4 : Détails de la dépense" });
const pathOf = (url: string) => {
  const { pathname, search } = new URL(url);
  return pathname + search;
};

/** The draft's reading of its first receipt, as the wizard stores it (JSON), once the reader has finished. */
async function finishedReading(db: DB, userId: string): Promise<string> {
  let reading: string | null = null;
  await expect
    .poll(
      async () => {
        const row = await db
          .selectFrom("expense_request_drafts")
          .select("reading")
          .where("user_id", "=", userId)
          .executeTakeFirst();
        reading = row?.reading ?? null;
        return reading ? (JSON.parse(reading) as { state: string }).state : null;
      },
      { timeout: 60_000 },
    )
    .toBe("done");
  return reading!;
}

async function setReading(db: DB, userId: string, reading: string) {
  await db.updateTable("expense_request_drafts").set({ reading }).where("user_id", "=", userId).execute();
}

/**
 * The refund wizard up to its details step with a receipt whose reading is still pending: the reader's
 * answer is kept aside (returned) and the draft put back to "pending", as a slow reading leaves it.
 */
async function detailsWhileReading(page: Page, db: DB, userId: string): Promise<{ done: string; url: string }> {
  await page.goto("/plans/expense-requests/new");
  const panel = wizardPanel(page);
  await panel.getByRole("radio", { name: "Culture" }).check();
  await continueFrom(panel);
  await panel.getByLabel("Votre justificatif").setInputFiles(BAKERY);
  await panel.getByRole("button", { name: "Envoyer le justificatif" }).click();
  await expect(panel.getByRole("link", { name: "Justificatif 1" })).toBeVisible();
  const done = await finishedReading(db, userId);
  const { fileId } = JSON.parse(done) as { fileId: string };
  await setReading(db, userId, JSON.stringify({ state: "pending", fileId, startedAt: new Date().toISOString() }));
  await continueFrom(panel);
  await expect(detailsHeading(panel)).toBeVisible();
  return { done, url: pathOf(page.url()) };
}

/** The page's meta refresh: its delay in seconds and where it leads, or null when there is none. */
async function metaRefresh(page: Page): Promise<{ seconds: number; url: string } | null> {
  const metas = page.locator('meta[http-equiv="refresh" i]');
  if ((await metas.count()) === 0) return null;
  expect(await metas.count(), "one meta refresh at most").toBe(1);
  const content = (await metas.getAttribute("content")) ?? "";
  const match = /^(\d+);url=(.+)$/.exec(content);
  expect(match, `meta refresh "${content}"`).not.toBeNull();
  return { seconds: Number(match![1]), url: match![2]! };
}

/** Counts the page's own loads (a meta refresh firing is one). */
function countLoads(page: Page) {
  const loads = { count: 0 };
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) loads.count += 1;
  });
  return loads;
}

/** `&amp;` and the like, as they stand in an attribute of the page's HTML. */
const unescape = (text: string) =>
  text
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");

/**
 * The waiting block of a page without JavaScript, read in its HTML: Playwright's Chromium with JavaScript off
 * does not draw `<noscript>` content, which a browser without JavaScript shows (the light page has none and is
 * tested with clicks). Its delay, where it leads, its sentence and its two links.
 */
async function noScriptWaiting(page: Page) {
  const html = await page.content();
  const block = /<noscript>([\s\S]*?)<\/noscript>/.exec(html.slice(html.indexOf('class="waiting"')))?.[1] ?? "";
  const text = block.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
  const meta = /<meta http-equiv="refresh" content="(\d+);url=([^"]+)"/.exec(text);
  const link = (name: string) => {
    const found = new RegExp(`<a [^>]*href="([^"]+)"[^>]*>${name}</a>`).exec(text);
    return found ? unescape(found[1]!) : null;
  };
  return {
    refresh: meta ? { seconds: Number(meta[1]), url: unescape(meta[2]!) } : null,
    text,
    checkNow: link("Vérifier maintenant"),
    stop: link("Arrêter la mise à jour automatique"),
    restart: link("Reprendre la mise à jour automatique"),
  };
}

/** Without JS: the page reloads itself every 20 s at the fastest, says so, and offers to check now and to stop. */
async function expectSlowSelfRefresh(page: Page, checkNowTo: string) {
  const waiting = await noScriptWaiting(page);
  expect(waiting.refresh, "a meta refresh while waiting without JS").not.toBeNull();
  expect(waiting.refresh!.seconds, "never faster than every 20 s (RGAA 13.1, WCAG 2.2.1, F41)").toBeGreaterThanOrEqual(
    20,
  );
  expect(waiting.refresh!.url).toBe(checkNowTo);
  expect(waiting.text).toContain(
    `Cette page se met à jour toute seule toutes les ${waiting.refresh!.seconds} secondes.`,
  );
  expect(waiting.checkNow).toBe(checkNowTo);
  expect(waiting.stop).toMatch(/[?&]poll=off/);
  return waiting;
}

/** On a light page (no script, no `<noscript>`): the same, drawn and followed as a person would. */
async function expectSlowSelfRefreshDrawn(page: Page, where: Locator, checkNowTo: string) {
  const refresh = await metaRefresh(page);
  expect(refresh, "a meta refresh while waiting on a light page").not.toBeNull();
  expect(refresh!.seconds, "never faster than every 20 s (RGAA 13.1, WCAG 2.2.1, F41)").toBeGreaterThanOrEqual(20);
  expect(refresh!.url).toBe(checkNowTo);
  await expect(
    where.getByText(`Cette page se met à jour toute seule toutes les ${refresh!.seconds} secondes.`),
  ).toBeVisible();
  await expect(where.getByRole("link", { name: "Vérifier maintenant" })).toHaveAttribute("href", checkNowTo);
  await expect(where.getByRole("link", { name: "Arrêter la mise à jour automatique" })).toBeVisible();
}

test("13.1 without JS: the receipt being read reloads its step every 20 s at the fastest, can be checked now, stopped and restarted", async ({
  page,
  makeAccount,
  signInAs,
  e2eDatabase,
}) => {
  test.skip(!jsOff(), "the meta refresh is the page without JavaScript's; the light version and JS are tested below");
  test.setTimeout(120_000);
  const account = await makeAccount(REFUND_ACCOUNT);
  await signInAs(page, account);
  const { db } = e2eDatabase.handle;
  const { done, url } = await detailsWhileReading(page, db, account.userId);
  const panel = wizardPanel(page);

  await expect(panel.getByText("Lecture de votre justificatif en cours…")).toBeVisible();
  const waiting = await expectSlowSelfRefresh(page, url);
  await expectAccessible(page, "refund wizard, receipt being read, without JS");
  // Nothing reloads under the person for a while (the old refresh came every 2 s).
  const loads = countLoads(page);
  await page.waitForTimeout(5_000);
  expect(loads.count, "no reload within 5 s").toBe(0);

  // Stopped: no refresh at all, the page says so; « Vérifier maintenant » keeps it stopped, and it restarts.
  await page.goto(waiting.stop!);
  await expect(detailsHeading(panel)).toBeVisible();
  const stopped = await noScriptWaiting(page);
  expect(stopped.refresh).toBeNull();
  expect(stopped.text).toContain("La mise à jour automatique de cette page est arrêtée.");
  expect(stopped.checkNow).toMatch(/[?&]poll=off/);
  expect(stopped.restart).toBe(url);
  await expectAccessible(page, "refund wizard, receipt being read, reloading stopped");
  await page.goto(stopped.checkNow!);
  expect((await noScriptWaiting(page)).refresh).toBeNull();
  await page.goto(stopped.restart!);
  expect((await noScriptWaiting(page)).refresh?.seconds).toBeGreaterThanOrEqual(20);

  // Read meanwhile: « Vérifier maintenant » shows the form, marked as read, and the refresh is gone.
  await setReading(db, account.userId, done);
  await page.goto(waiting.checkNow!);
  await expect(panel.getByText("Nous avons lu votre justificatif")).toBeVisible();
  await expect(panel.getByLabel("Date de l’achat")).toHaveValue("14/11/2026");
  expect(await metaRefresh(page)).toBeNull();
  expect((await page.content()).includes("Vérifier maintenant")).toBe(false);
  await expectAccessible(page, "refund wizard, receipt read, without JS");
});

test("13.1 on the light version (no script, in a browser that runs JavaScript): the same slow refresh and links", async ({
  page,
  makeAccount,
  signInAs,
  e2eDatabase,
}) => {
  test.skip(jsOff(), "the light page is the page without JavaScript, tested above; here a browser that runs scripts");
  test.setTimeout(120_000);
  const account = await makeAccount(REFUND_ACCOUNT);
  await signInAs(page, account);
  const { db } = e2eDatabase.handle;
  const { url } = await detailsWhileReading(page, db, account.userId);
  await db.updateTable("users").set({ light_version: 1 }).where("id", "=", account.userId).execute();

  await page.goto(url);
  await expect(page.locator("script")).toHaveCount(0);
  const main = page.locator("main");
  await expect(main.getByText("Lecture de votre justificatif en cours…")).toBeVisible();
  await expectSlowSelfRefreshDrawn(page, main, url);
  // axe is run once the reloading is stopped: its meta-refresh rule reports every refresh under 20 hours, as it
  // cannot see the link that stops it (decision 0067); the same markup, refresh included, is the no-JS test's.
  await main.getByRole("link", { name: "Arrêter la mise à jour automatique" }).click();
  await expect(page).toHaveURL(/[?&]poll=off/);
  expect(await metaRefresh(page)).toBeNull();
  await expect(main.getByText("La mise à jour automatique de cette page est arrêtée.")).toBeVisible();
  await expectAccessible(page, "refund wizard, receipt being read, light version, reloading stopped");
  await main.getByRole("link", { name: "Vérifier maintenant" }).click();
  await expect(page).toHaveURL(/[?&]poll=off/);
  expect(await metaRefresh(page)).toBeNull();
  await main.getByRole("link", { name: "Reprendre la mise à jour automatique" }).click();
  await expect(page).toHaveURL(url);
  await expectSlowSelfRefreshDrawn(page, main, url);
});

test("13.1 and 4.1.3 with JS: no meta refresh, the step looks again by itself, the same live region says it was read, focus stays", async ({
  page,
  makeAccount,
  signInAs,
  e2eDatabase,
}) => {
  test.skip(jsOff(), "looking again without reloading is JavaScript's; the test above covers the page without it");
  test.setTimeout(120_000);
  const account = await makeAccount(REFUND_ACCOUNT);
  await signInAs(page, account);
  const { db } = e2eDatabase.handle;
  const rechecks: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "GET" && new URL(request.url()).pathname.endsWith(".data")) rechecks.push(request.url());
  });
  const { done } = await detailsWhileReading(page, db, account.userId);
  const panel = wizardPanel(page);

  const heading = detailsHeading(panel);
  await expect(heading).toBeFocused();
  expect(await metaRefresh(page)).toBeNull();
  const region = panel.getByRole("status").filter({ hasText: "Lecture de votre justificatif en cours…" });
  await expect(region).toBeVisible();
  await expect(panel.getByRole("link", { name: "Vérifier maintenant" })).toHaveCount(0);
  await expectAccessible(page, "refund wizard, receipt being read, with JS");
  // The region and the document are marked: a reload, or a region put in the page anew, would lose the mark.
  await region.evaluate((element) => ((element as HTMLElement & { kept?: boolean }).kept = true));
  await page.evaluate(() => ((window as { sameDocument?: boolean }).sameDocument = true));
  const before = rechecks.length;

  await setReading(db, account.userId, done);
  const read = panel.getByRole("status").filter({ hasText: "Nous avons lu votre justificatif" });
  await expect(read).toBeVisible({ timeout: 10_000 });
  expect(rechecks.length, "the step asked again by itself").toBeGreaterThan(before);
  expect(await read.evaluate((element) => (element as HTMLElement & { kept?: boolean }).kept === true)).toBe(true);
  expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);
  await expect(heading).toBeFocused();
  await expect(panel.getByLabel("Date de l’achat")).toHaveValue("14/11/2026");
  // Over: nothing asks again.
  const after = rechecks.length;
  await page.waitForTimeout(3_000);
  expect(rechecks.length).toBe(after);
  await expectAccessible(page, "refund wizard, receipt read, with JS");
});

test("11.10 after « Continuer sans attendre », a refused form comes back with its errors and values while the reading is still pending", async ({
  page,
  makeAccount,
  signInAs,
  e2eDatabase,
}) => {
  test.setTimeout(120_000);
  const account = await makeAccount(REFUND_ACCOUNT);
  await signInAs(page, account);
  await detailsWhileReading(page, e2eDatabase.handle.db, account.userId);
  const panel = wizardPanel(page);
  await panel.getByRole("link", { name: "Continuer sans attendre" }).click();
  await panel.getByLabel("Montant payé").fill("douze");
  await continueFrom(panel);

  // Without JavaScript the refusal is the step's own address, without « reading=skip »: it must still show
  // the form, not the waiting message that would hide the errors and what was typed.
  await expect(panel.getByRole("heading", { name: "Il y a un problème" })).toBeVisible();
  await expect(panel.getByLabel("Montant payé")).toHaveValue("douze");
  await expect(panel.getByLabel("Montant payé")).toHaveAttribute("aria-invalid", "true");
  await expect(panel.getByText("Lecture de votre justificatif en cours…")).toHaveCount(0);
  await expectAccessible(page, "refund wizard, details refused while the receipt is still read");
});

/** A message of the conversation written straight into the portal's database, as a real chat backend would. */
async function addMessage(db: DB, userId: string, author: "user" | "support", body: string) {
  await db
    .insertInto("support_messages")
    .values({ id: newId("sup"), user_id: userId, author, body, context: null, created_at: new Date().toISOString() })
    .execute();
}

test("13.1 the support chat waiting for its answer: a 20 s refresh and its links without JS, none with JS", async ({
  page,
  makeAccount,
  signInAs,
  e2eDatabase,
}) => {
  const account = await makeAccount({ cards: [{ type: "virtual", lastFour: "5556" }] });
  await signInAs(page, account);
  const { db } = e2eDatabase.handle;
  await addMessage(db, account.userId, "user", "Ma carte est-elle active ?");

  await page.goto("/support?back=/wallets");
  const chat = page.getByRole("dialog", { name: "Aide" });
  await expect(chat.getByRole("status").filter({ hasText: "En attente de la réponse du support." })).toBeVisible();
  if (jsOff()) {
    await expectSlowSelfRefresh(page, "/support?back=%2Fwallets");
    // One way to check now: not « Actualiser la conversation » beside « Vérifier maintenant ».
    await expect(chat.getByRole("link", { name: "Actualiser la conversation" })).toHaveCount(0);
    await expectAccessible(page, "support chat, waiting, without JS");
  } else {
    expect(await metaRefresh(page)).toBeNull();
    await expect(chat.getByRole("link", { name: "Vérifier maintenant" })).toHaveCount(0);
    await expectAccessible(page, "support chat, waiting, with JS");
  }
});

test("the support chat's conversation is a polite log: a new answer is added once, nothing else is said again", async ({
  page,
  makeAccount,
  signInAs,
  e2eDatabase,
}) => {
  test.skip(jsOff(), "without JS new messages come with a page load; the log's markup is checked in the next test");
  test.setTimeout(90_000);
  const account = await makeAccount({ cards: [{ type: "virtual", lastFour: "5556" }] });
  await signInAs(page, account);
  const { db } = e2eDatabase.handle;
  await addMessage(db, account.userId, "user", "Ma carte est-elle active ?");
  await page.goto("/support?back=/wallets");
  const chat = page.getByRole("dialog", { name: "Aide" });
  const log = chat.getByRole("log", { name: "Conversation avec le support" });
  await expect(log).toBeVisible();
  await expect(log.getByText("Ma carte est-elle active ?")).toBeVisible();

  // Everything the log is given from now on: the elements added to it, and any text changed in it.
  await log.evaluate((element) => {
    const record: string[] = ((window as { logged?: string[] }).logged = []);
    new MutationObserver((mutations) => {
      for (const mutation of mutations) {
        if (mutation.type === "characterData") record.push(`text: ${mutation.target.textContent}`);
        for (const node of mutation.addedNodes) record.push(`added: ${node.textContent}`);
      }
    }).observe(element, { childList: true, subtree: true, characterData: true });
  });
  await addMessage(db, account.userId, "support", "Oui, elle est active depuis ce matin.");
  await expect(log.getByText("Oui, elle est active depuis ce matin.")).toBeVisible({ timeout: 20_000 });
  // Two more looks at the conversation (the tab shown again) bring nothing new: nothing is said again.
  for (let look = 0; look < 2; look += 1) {
    const data = page.waitForResponse((response) => new URL(response.url()).pathname === "/support.data");
    await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
    await data;
  }
  await page.waitForTimeout(500);
  const logged = await page.evaluate(() => (window as { logged?: string[] }).logged ?? []);
  expect(logged).toHaveLength(1);
  expect(logged[0]).toMatch(/^added: .*Oui, elle est active depuis ce matin\.$/);
  await expectAccessible(page, "support chat, answer added to the log");
});

test("after sending a message, focus is in the emptied text box, on screen and not covered", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  const account = await makeAccount({ cards: [{ type: "virtual", lastFour: "5556" }] });
  await signInAs(page, account);
  await page.setViewportSize(PHONE);
  await page.goto("/support?back=/wallets");
  const chat = page.getByRole("dialog", { name: "Aide" });
  const log = chat.getByRole("log", { name: "Conversation avec le support" });
  await expect(log).toBeVisible();
  const box = chat.getByLabel("Votre message");
  for (const text of ["Ma carte est-elle active ?", "Et le code PIN ?"]) {
    await box.fill(text);
    await chat.getByRole("button", { name: "Envoyer" }).click();
    await expect(log.getByText(text)).toBeVisible();
    await expect(page.getByText("Message envoyé.")).toBeVisible();
    if (jsOff()) continue;
    await expect(box).toBeFocused();
    await expect(box).toHaveValue("");
    await expect(box).toBeInViewport();
    // Not hidden under anything (WCAG 2.4.11): the middle of the box is the box.
    const covered = await box.evaluate((element) => {
      const rect = element.getBoundingClientRect();
      return document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2) !== element;
    });
    expect(covered).toBe(false);
  }
  await expectAccessible(page, "support chat, two messages sent");
});

/** Every progress bar Chromium's accessibility tree holds, with its value. */
async function progressBars(cdp: CDPSession): Promise<string[]> {
  const { nodes } = (await cdp.send("Accessibility.getFullAXTree")) as {
    nodes: { role?: { value?: string }; value?: { value?: unknown }; ignored?: boolean }[];
  };
  return nodes
    .filter((node) => !node.ignored && node.role?.value === "progressbar")
    .map((node) => String(node.value?.value ?? ""));
}

test("an upload's progress is said in steps (start, each quarter, end), never at nearly every percent", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  test.skip(jsOff(), "without JavaScript the browser shows the upload's progress itself: no script runs");
  test.setTimeout(120_000);
  const account = await makeAccount(REFUND_ACCOUNT);
  await signInAs(page, account);
  await page.goto("/plans/expense-requests/new");
  const panel = wizardPanel(page);
  await panel.getByRole("radio", { name: "Culture" }).check();
  await continueFrom(panel);
  await expect(panel.getByLabel("Votre justificatif")).toBeVisible();

  // What the polite region is given, recorded as the upload goes.
  await page.evaluate(() => {
    const region = document.querySelector("dialog form [role=status]")!;
    const said: string[] = ((window as { said?: string[] }).said = []);
    new MutationObserver(() => said.push(region.textContent ?? "")).observe(region, {
      childList: true,
      characterData: true,
      subtree: true,
    });
  });
  // The photo (62 kB) sent at 8 kB/s: about 8 seconds, the accessibility tree read all along.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 50,
    downloadThroughput: -1,
    uploadThroughput: 8 * 1024,
  });
  await panel.getByLabel("Votre justificatif").setInputFiles(BAKERY);
  await panel.getByRole("button", { name: "Envoyer le justificatif" }).click();
  await expect(panel.locator(".upload-progress")).toBeVisible();
  const exposed = new Set<string>();
  const seen = new Set<string>();
  while (await panel.locator(".upload-progress").isVisible()) {
    const percent = await panel
      .locator(".upload-progress")
      .textContent()
      .catch(() => null);
    if (percent) seen.add(percent);
    for (const value of await progressBars(cdp)) exposed.add(value);
    await page.waitForTimeout(150);
  }
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await expect(panel.getByRole("link", { name: "Justificatif 1" })).toBeVisible({ timeout: 30_000 });
  // The bar moved for the eye at many percents…
  expect(seen.size, "the visible percentage moved").toBeGreaterThan(4);
  // …but nothing exposed to assistive technologies changed at each of them: no bar value but a quarter.
  for (const value of exposed) expect(["0", "25", "50", "75", "100"], `progress bar value ${value}`).toContain(value);
  // Said: the start, the quarters, the end, each once.
  const said = (await page.evaluate(() => (window as { said?: string[] }).said ?? [])).filter(Boolean);
  expect(said[0]).toBe("Envoi en cours : 0 %");
  expect(said.at(-1)).toMatch(/^Envoi terminé/);
  expect(new Set(said).size).toBe(said.length);
  expect(said.length).toBeLessThanOrEqual(5);
  for (const text of said) expect(text).toMatch(/^Envoi en cours : (0|25|50|75) %$|^Envoi terminé/);
  await expectAccessible(page, "refund wizard, receipt sent after a slow upload");
});
