import { resolve } from "node:path";
import type { Page } from "@playwright/test";
import { expect, test, type AccountOptions } from "./fixtures";
import { expectAccessible, expectReflow, latestCodeFor, pageWithScripts, TEXT_SPACING_CSS } from "./helpers";

/**
 * Issue 34, the dialogs' findings: RGAA 7.1 (a panel's <dialog> stays modal through Escape — after a full
 * page load, after typing, pressed twice — or closes cleanly by its route, focus inside then back to its
 * opener, what was typed kept), Escape at every step of every panel the journeys open, 10.12 (the panel's
 * header wraps with WCAG text spacing at 320 px), 10.7 (the PIN frame's focus indicator, measured) and WCAG
 * 3.3.7 (the subscription's documents step keeps the valid file when the other is refused). Each journey has
 * its own account (fixtures.ts).
 */

const jsOn = () => test.info().project.use.javaScriptEnabled !== false;
const NO_DIALOG_WITHOUT_JS =
  "without JavaScript a panel is a region of the page, not a dialog: Escape has nothing to close, and « Fermer » is a plain link";

const CARDS = [{ type: "physical" as const, lastFour: "4242" }];
const BIKE_SHOP = resolve("tests/fixtures/receipts/cycles-du-rhone-2026-11-02.pdf");

/**
 * The panel's state as a person meets it: every <dialog> is either gone or open and modal (never drawn while
 * closed), focus is inside it, and the page behind is out of Chromium's accessibility tree (inert).
 */
async function expectModalOrGone(page: Page, behind: string) {
  const state = () =>
    page.evaluate(() => {
      const dialogs = [...document.querySelectorAll("dialog")];
      if (dialogs.length === 0) return "gone";
      if (dialogs.some((d) => !d.open || !d.matches(":modal"))) return "a dialog drawn but not modal";
      return document.activeElement?.closest("dialog") ? "modal" : "modal, focus outside it";
    });
  let seen = "";
  await expect.poll(async () => (seen = await state())).toMatch(/^(gone|modal)$/);
  if (seen !== "modal") return;
  // Read while the dialog is modal: if it closed meanwhile (the page under it came back), what was read is that page's.
  const names = await accessibleNames(page);
  if ((await state()) === "modal") expect(names).not.toContain(behind);
}

/**
 * The state right now, not waited for: a closed <dialog> still drawn, or a modal one without focus, is what a
 * person meets between Escape and the page under it.
 */
const stateNow = (page: Page) =>
  page.evaluate(() => {
    const dialogs = [...document.querySelectorAll("dialog")];
    if (dialogs.length === 0) return "gone";
    if (dialogs.some((d) => !d.open || !d.matches(":modal"))) return "a dialog drawn but not modal";
    return "modal";
  });

/** A slow connection: every page's data arrives 400 ms late, so a second Escape comes before the page under it. */
const slowData = (page: Page) =>
  page.route(/\.data(\?|$)/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 400));
    await route.continue();
  });

/** The names in Chromium's own accessibility tree (inert content is left out of it). */
async function accessibleNames(page: Page): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = (await cdp.send("Accessibility.getFullAXTree")) as {
    nodes: { ignored: boolean; name?: { value?: unknown } }[];
  };
  await cdp.detach();
  return nodes.filter((node) => !node.ignored).map((node) => String(node.name?.value ?? ""));
}

/** Waits until the page's script has made the server's open <dialog> modal (a full page load). */
const untilModal = (page: Page) =>
  expect.poll(() => page.evaluate(() => document.querySelector("dialog")?.matches(":modal") ?? false)).toBe(true);

test.describe("RGAA 7.1: the wizards' dialogs through Escape", () => {
  test("the refund wizard opened by a full page load: Escape twice keeps it modal, then closes it to the list", async ({
    page,
    makeAccount,
    signInAs,
  }) => {
    // Skipped without JavaScript: there the panel is a region of the page, not a <dialog>, so Escape has
    // nothing to close (its « Fermer » link is followed without JavaScript in card-actions.spec.ts).
    test.skip(!jsOn(), NO_DIALOG_WITHOUT_JS); // Reason: no <dialog> without JavaScript, so Escape has nothing to close.
    const account = await makeAccount({
      features: { expenseRequests: { any: true } },
      wallets: [{ name: "Culture", type: "culture", balance: 20000 }],
      cards: CARDS,
    });
    await signInAs(page, account);
    await page.goto("/plans/expense-requests/new");
    const panel = page.getByRole("dialog", { name: "Demander un remboursement" });
    await panel.getByRole("radio", { name: "Culture" }).check();
    await panel.getByRole("button", { name: "Continuer", exact: true }).click();
    const ticket = panel.getByRole("heading", { name: "Étape 1 sur 4 : Justificatif" });
    await expect(ticket).toBeVisible();

    // A full page load of the step: the draft is worth keeping, so Escape asks first.
    await page.goto(page.url());
    await untilModal(page);
    await page.keyboard.press("Escape");
    const confirm = panel.getByRole("heading", { name: "Abandonner cette demande ?" });
    await expect(confirm).toBeVisible();
    await expectModalOrGone(page, "Mes demandes de remboursement");
    // Escape on the confirmation keeps the request (as « Reprendre »), again and again: never a closed dialog drawn.
    await page.keyboard.press("Escape");
    await expectModalOrGone(page, "Mes demandes de remboursement");
    await expect(ticket).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(confirm).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(ticket).toBeVisible();
    await expectModalOrGone(page, "Mes demandes de remboursement");
    await expectAccessible(page, "refund wizard, after Escape four times");

    // Closing for good: the confirmation's button, then the list without any dialog.
    await page.keyboard.press("Escape");
    await panel.getByRole("button", { name: "Oui, abandonner" }).click();
    await expect(page.locator("dialog")).toHaveCount(0);
  });

  test("the refund wizard opened from the list, Escape twice on a slow connection: modal until the list is back, then focus on its opener", async ({
    page,
    makeAccount,
    signInAs,
  }) => {
    // Skipped without JavaScript: there the panel is a region of the page, not a <dialog>, so Escape has
    // nothing to close (its « Fermer » link is followed without JavaScript in card-actions.spec.ts).
    test.skip(!jsOn(), NO_DIALOG_WITHOUT_JS); // Reason: no <dialog> without JavaScript, so Escape has nothing to close.
    const account = await makeAccount({
      features: { expenseRequests: { any: true } },
      wallets: [{ name: "Culture", type: "culture", balance: 20000 }],
      cards: CARDS,
    });
    await signInAs(page, account);
    await page.goto("/plans/expense-requests");
    const opener = page.getByRole("link", { name: "Demander un remboursement" }).first();
    await opener.focus();
    await page.keyboard.press("Enter");
    await untilModal(page);
    await expectModalOrGone(page, "Mes demandes de remboursement");
    await slowData(page);
    await page.keyboard.press("Escape");
    await page.keyboard.press("Escape");
    expect(await stateNow(page)).toMatch(/^(gone|modal)$/);
    await expect(page.locator("dialog")).toHaveCount(0);
    await expect(page).toHaveURL(/\/plans\/expense-requests$/);
    await expect(opener).toBeFocused();
  });

  test("the allowance wizard: typed, then Escape twice: still modal, and what was typed is still there", async ({
    page,
    makeAccount,
    signInAs,
  }) => {
    // Skipped without JavaScript: there the panel is a region of the page, not a <dialog>, so Escape has
    // nothing to close (its « Fermer » link is followed without JavaScript in card-actions.spec.ts).
    test.skip(!jsOn(), NO_DIALOG_WITHOUT_JS); // Reason: no <dialog> without JavaScript, so Escape has nothing to close.
    const options: AccountOptions = {
      cards: CARDS,
      features: { allowances: { any: true, bicycle: true } },
    };
    await signInAs(page, await makeAccount(options));
    await page.goto("/plans/allowances/new?type=bicycle");
    const panel = page.getByRole("dialog", { name: "Indemnité kilométrique vélo" });
    await panel.getByRole("button", { name: "Continuer", exact: true }).click();
    const details = panel.getByRole("heading", { name: "Étape 2 sur 3 : Vos trajets" });
    await expect(details).toBeVisible();
    // Opened again by a full page load, then typed into.
    await page.goto(page.url());
    await untilModal(page);
    const street = panel.getByRole("group", { name: "Adresse de votre domicile" }).getByLabel("Numéro et voie");
    await street.fill("");
    await street.pressSequentially("14 quai Claude Bernard");
    await page.keyboard.press("Escape");
    await expect(panel.getByRole("heading", { name: "Abandonner cette demande ?" })).toBeVisible();
    await expectModalOrGone(page, "Mes indemnités mobilité");
    await page.keyboard.press("Escape");
    await expect(details).toBeVisible();
    await expectModalOrGone(page, "Mes indemnités mobilité");
    await expect(street).toHaveValue("14 quai Claude Bernard");
    // Twice more, with « Reprendre » this time: the same.
    await page.keyboard.press("Escape");
    await panel.getByRole("link", { name: "Reprendre" }).click();
    await expect(street).toHaveValue("14 quai Claude Bernard");
    await expectModalOrGone(page, "Mes indemnités mobilité");
  });
});

/** Every panel the journeys open, on marie's card and pages: each step loaded by a full page load. */
const PANELS = (card: string) => [
  { path: `${card}/freeze`, behind: "Actions sur la carte" },
  { path: `${card}/stop`, behind: "Actions sur la carte" },
  { path: `${card}/delivery`, behind: "Actions sur la carte" },
  { path: `${card}/reveal?kind=pin`, behind: "Actions sur la carte" },
  { path: `${card}/reveal?kind=details`, behind: "Actions sur la carte" },
  { path: `${card}/unlock-pin`, behind: "Actions sur la carte" },
  { path: `${card}/new-card`, behind: "Actions sur la carte" },
  { path: `${card}/priority`, behind: "Actions sur la carte" },
  { path: `${card}/overflow`, behind: "Actions sur la carte" },
  { path: `${card}/overflow/new-card`, behind: "Actions sur la carte" },
  { path: "/notifications", behind: "Actions sur la carte" },
  { path: "/feedback", behind: "Actions sur la carte" },
  { path: `/support?back=${encodeURIComponent(card)}`, behind: "Actions sur la carte" },
  { path: "/plans/expense-requests/new", behind: "Mes demandes de remboursement" },
  { path: "/plans/allowances/new", behind: "Mes indemnités mobilité" },
  { path: "/settings/security/passkeys/new", behind: "Sécurité" },
];

test("Escape at every panel the journeys open: each closes by its route, never leaving a closed dialog drawn", async ({
  page,
  makeMarie,
  signInAs,
}) => {
  // Skipped without JavaScript: there the panel is a region of the page, not a <dialog>, so Escape has
  // nothing to close (its « Fermer » link is followed without JavaScript in card-actions.spec.ts).
  test.skip(!jsOn(), NO_DIALOG_WITHOUT_JS); // Reason: no <dialog> without JavaScript, so Escape has nothing to close.
  test.setTimeout(180_000);
  const marie = await makeMarie();
  await signInAs(page, marie);
  const card = `/cards/${marie.cards["4242"]}`;
  await slowData(page);
  for (const { path, behind } of PANELS(card)) {
    await page.goto(path);
    await expect(page.getByRole("dialog"), path).toBeVisible();
    await untilModal(page);
    await expectModalOrGone(page, behind);
    const before = page.url();
    // Pressed twice before the page under it has come (a slow connection): modal until it is there.
    await page.keyboard.press("Escape");
    await page.keyboard.press("Escape");
    expect(await stateNow(page), path).toMatch(/^(gone|modal)$/);
    await expect.poll(() => page.url(), { message: path }).not.toBe(before);
    await expectModalOrGone(page, behind);
  }
  // The reveal panel's code step, reached by its own form and typed into.
  await page.goto(`${card}/reveal?kind=pin`);
  const reveal = page.getByRole("dialog", { name: "Code PIN" });
  await reveal.getByRole("button", { name: /Recevoir un code/ }).click();
  await expect(page).toHaveURL(/step=code/);
  await reveal.getByLabel("Code à 6 chiffres").pressSequentially("12");
  await page.keyboard.press("Escape");
  await expect(page).toHaveURL(new RegExp(`${card}$`));
  await expectModalOrGone(page, "Actions sur la carte");
});

test("RGAA 10.12: with WCAG text spacing at 320 px the panel's header wraps, « Fermer » whole, no sideways scroll", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  await page.setViewportSize({ width: 320, height: 640 });
  const account = await makeAccount({
    features: { expenseRequests: { any: true } },
    wallets: [{ name: "Culture", type: "culture", balance: 20000 }],
    cards: CARDS,
  });
  await signInAs(page, account);
  await page.goto("/plans/expense-requests/new");
  await expect(page.getByRole("dialog", { name: "Demander un remboursement" })).toBeVisible();
  // WCAG 1.4.12's spacing, in a page that can measure (the same HTML without scripts when JS is off).
  const target = await pageWithScripts(page);
  // A constructed style sheet: the portal's CSP refuses an inline <style>, not this.
  await target.evaluate((css) => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  }, TEXT_SPACING_CSS);
  const header = await target.evaluate(() => {
    const close = document.querySelector<HTMLElement>(".panel-dialog__close")!;
    const box = close.getBoundingClientRect();
    const words = document.createRange();
    words.selectNodeContents(close.firstChild!);
    const text = words.getBoundingClientRect();
    return {
      closeRight: box.right,
      textRight: text.right,
      textLines: words.getClientRects().length,
      viewport: document.documentElement.clientWidth,
      scrollWidth: document.documentElement.scrollWidth,
      headerOverflows: [...document.querySelectorAll<HTMLElement>(".panel-dialog__header")].some(
        (h) => h.scrollWidth > h.clientWidth,
      ),
    };
  });
  // « Fermer » is on one line, inside its link and inside the screen; nothing scrolls sideways.
  expect(header.textLines).toBe(1);
  expect(header.textRight).toBeLessThanOrEqual(header.closeRight + 0.5);
  expect(header.closeRight).toBeLessThanOrEqual(header.viewport);
  expect(header.headerOverflows).toBe(false);
  expect(header.scrollWidth).toBeLessThanOrEqual(header.viewport);
  // And the whole page as LAYOUT checks every state (decision 0069).
  await expectReflow(page, "refund wizard at 320 px");
});

/** WCAG's relative luminance of "rgb(r, g, b)". */
function luminance(color: string): number {
  const [r, g, b] = (color.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((c) => {
    const s = Number(c) / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
const contrast = (a: string, b: string) => {
  const [l1, l2] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (l1! + 0.05) / (l2! + 0.05);
};

test("RGAA 10.7: the PIN frame shows a focus indicator of at least 3:1 when it has focus, and takes none it cannot show", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  const account = await makeAccount({ cards: CARDS });
  await signInAs(page, account);
  await page.goto(`/cards/${account.cards["4242"]}/reveal?kind=pin`);
  const panel = page.getByRole("dialog", { name: "Code PIN" });
  await panel.getByRole("button", { name: /Recevoir un code/ }).click();
  const code = await latestCodeFor(page.request, account.email, "Votre code pour afficher votre carte");
  await panel.getByLabel("Code à 6 chiffres").fill(code);
  await panel.getByRole("button", { name: "Valider et afficher" }).click();
  await expect(page.frameLocator("iframe[title='Code PIN']").getByText(/^\d{4}$/)).toBeVisible();
  // Reached with the keyboard: Tab from the sentence before it (without JS, in the script-free twin page).
  const target = await pageWithScripts(page);
  await target.locator("iframe[title='Code PIN']").waitFor();
  await target.evaluate(() => {
    const before = document.querySelector("iframe[title='Code PIN']")!.previousElementSibling as HTMLElement;
    before.tabIndex = -1;
    before.focus();
  });
  await target.keyboard.press("Tab");
  const ringOf = () =>
    target.evaluate(() => {
      const frame = document.querySelector<HTMLIFrameElement>("iframe[title='Code PIN']")!;
      const style = getComputedStyle(frame);
      return {
        focused: document.activeElement === frame,
        outlineStyle: style.outlineStyle,
        outlineWidth: parseFloat(style.outlineWidth),
        outlineColor: style.outlineColor,
        shadow: style.boxShadow,
        background: getComputedStyle(frame.closest("dialog")!).backgroundColor,
      };
    });
  if (!jsOn()) {
    // No script can draw a ring on a focused frame: Tab goes past it (its text is still read through the frame).
    expect((await ringOf()).focused).toBe(false);
    return;
  }
  await expect.poll(async () => (await ringOf()).outlineStyle).toBe("solid");
  const ring = await ringOf();
  expect(ring.focused).toBe(true);
  expect(ring.outlineWidth).toBeGreaterThanOrEqual(2);
  // The yellow outline alone is pale on white: the dark ring around it is what gives the contrast.
  const ringColor = /rgb\([^)]*\)/.exec(ring.shadow)?.[0] ?? ring.outlineColor;
  expect(
    Math.max(contrast(ring.outlineColor, ring.background), contrast(ringColor, ring.background)),
  ).toBeGreaterThanOrEqual(3);
  // Focus leaving the frame takes the ring with it.
  await page.keyboard.press("Tab");
  await expect.poll(async () => (await ringOf()).outlineStyle).toBe("none");
  await expectAccessible(page, "PIN shown, focus past the frame");
});

test("WCAG 3.3.7: the documents step keeps the valid PDF when the other file is refused, listed with « Supprimer »", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  const account = await makeAccount({
    cards: CARDS,
    features: { allowances: { any: true, subscription: true } },
  });
  await signInAs(page, account);
  await page.goto("/plans/allowances/new?type=subscription");
  const panel = page.getByRole("dialog", { name: "Abonnement de transport" });
  await panel.getByRole("button", { name: "Commencer" }).click();
  await expect(panel.getByRole("heading", { name: "Étape 2 sur 4 : Justificatifs" })).toBeVisible();
  await panel.getByLabel("Titre de transport ou facture").setInputFiles(BIKE_SHOP);
  await panel.getByLabel("Attestation d’abonnement").setInputFiles({
    name: "attestation.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.from("not a pdf at all"),
  });
  await panel.getByRole("button", { name: "Envoyer les documents" }).click();

  // The refusal is on the proof alone; the ticket is kept, listed with its own « Supprimer ».
  await expect(page).toHaveTitle(/^Erreur : /);
  const kept = panel.getByRole("list", { name: "Documents enregistrés" });
  await expect(kept).toContainText("Titre de transport ou facture");
  await expect(kept).toContainText("cycles-du-rhone-2026-11-02.pdf");
  await expect(panel.getByLabel("Titre de transport ou facture")).toHaveCount(0);
  await expect(panel.getByLabel("Attestation d’abonnement")).toHaveAttribute("aria-invalid", "true");
  const remove = kept.getByRole("button", { name: "Supprimer : Titre de transport ou facture" });
  await expect(remove).toBeVisible();
  await expectAccessible(page, "subscription documents, proof refused, ticket kept");

  // Only the refused one is sent again; or the kept one removed, and its field is back.
  await remove.click();
  await expect(panel.getByRole("list", { name: "Documents enregistrés" })).toHaveCount(0);
  await expect(panel.getByLabel("Titre de transport ou facture")).toBeVisible();
  await panel.getByLabel("Titre de transport ou facture").setInputFiles(BIKE_SHOP);
  await panel.getByLabel("Attestation d’abonnement").setInputFiles(BIKE_SHOP);
  await panel.getByRole("button", { name: "Envoyer les documents" }).click();
  await expect(
    panel.getByRole("heading", { name: /^Étape 3 sur 4/ }).or(panel.getByText(/lecture/i).first()),
  ).toBeVisible({
    timeout: 15_000,
  });
});
