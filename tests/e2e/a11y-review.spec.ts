import { resolve } from "node:path";
import type { CDPSession, Locator, Page } from "@playwright/test";
import { conformityOf } from "../../app/content/accessibility-record";
import { todayInParis } from "../../app/domain/dates";
import { expect, test } from "./fixtures";
import { expectAccessible } from "./helpers";

/**
 * Issue 34's hand review, kept as journeys (decision 0068, the evidence of RGAA 12.8, 12.9, 7.1, 8.6, 11.1 and
 * 11.10 in app/content/accessibility-record.ts):
 * - Tab then Shift+Tab through every step of every wizard (card, refund, bicycle allowance, subscription):
 *   every control of the step is reached, in reading order (the markup's order, drawn top to bottom), and left
 *   (no trap); Shift+Tab walks the same controls backwards;
 * - a screen-reader pass of the refund wizard through Chromium's accessibility tree (what a screen reader reads):
 *   the dialog and its step said in text, every control named, required and refused fields said so;
 * - the accessibility statement: its address, its sections in the model's order, the state the record gives,
 *   the same in the footer's link.
 */
const PHONE = { width: 375, height: 740 };
const BAKERY = resolve("tests/fixtures/receipts/boulangerie-2026-11-14.jpg");
const BIKE_SHOP = resolve("tests/fixtures/receipts/cycles-du-rhone-2026-11-02.pdf");
const IBAN = "FR76 3000 6000 0112 3456 7890 189";
const CARDS = [{ type: "physical" as const, lastFour: "4242" }];
const year = todayInParis().slice(0, 4);
const today = todayInParis().split("-").reverse().join("/");

const continueFrom = (panel: Locator) => panel.getByRole("button", { name: "Continuer", exact: true }).click();

/** What a person can operate: links, buttons, fields, summaries, and anything given a role of one. */
const INTERACTIVE =
  "a[href], button, input:not([type=hidden]), select, textarea, summary, iframe, [tabindex], [role=button], [role=link], [role=switch], [role=radio], [role=checkbox], [role=tab]";

/**
 * Marks the step's controls in the markup's order (the reading order), leaving out those no one can reach on
 * purpose (disabled, hidden, inert, a radio of a group whose checked one is the stop, an element made focusable
 * only for scripts with tabindex -1 and no interactive role). Returns a short description of each and its box,
 * all measured at once (focusing scrolls the panel, which would move the boxes between two measures).
 */
async function markControls(container: Locator) {
  return container.evaluate((root, selector) => {
    const controls: { text: string; top: number; left: number; bottom: number; area: number }[] = [];
    const radioGroupsSeen = new Set<string>();
    for (const element of root.querySelectorAll<HTMLElement>(selector)) {
      element.removeAttribute("data-review");
      const native = element.matches("a[href], button, input, select, textarea, summary, iframe");
      if (!native && element.getAttribute("tabindex") === "-1") continue;
      if ((element as HTMLButtonElement).disabled || element.closest("[inert]")) continue;
      if (!element.checkVisibility({ visibilityProperty: true })) continue;
      if (element instanceof HTMLInputElement && element.type === "radio") {
        // A radio group is one Tab stop (its checked radio, or its first): the arrows move within it.
        const group = `${element.form?.id ?? ""}/${element.name}`;
        const checked = root.querySelector(`input[type=radio][name="${CSS.escape(element.name)}"]:checked`);
        if (radioGroupsSeen.has(group) || (checked && checked !== element)) continue;
        radioGroupsSeen.add(group);
      }
      element.setAttribute("data-review", String(controls.length));
      const label = element.getAttribute("aria-label") ?? element.textContent?.trim().slice(0, 40) ?? "";
      const box = element.getBoundingClientRect();
      controls.push({
        text: `${element.tagName.toLowerCase()} ${(element as HTMLInputElement).name ?? ""} ${label}`.trim(),
        top: box.top,
        left: box.left,
        bottom: box.bottom,
        area: box.width * box.height,
      });
    }
    return controls;
  }, INTERACTIVE);
}

/** The mark of the focused element (null when focus is outside the step's controls). */
const focusedMark = (page: Page) =>
  page.evaluate(() => document.activeElement?.closest("[data-review]")?.getAttribute("data-review") ?? null);

/**
 * The reading order is the order drawn: each control is drawn, and below the one before it or on the same line
 * further right (a line: the two boxes overlap vertically).
 */
function expectDrawnInOrder(controls: Awaited<ReturnType<typeof markControls>>, state: string) {
  controls.forEach((control, i) => {
    expect(control.area, `${state}: « ${control.text} » is drawn`).toBeGreaterThan(0);
    if (i === 0) return;
    const before = controls[i - 1]!;
    const sameLine = control.top < before.bottom && before.top < control.bottom;
    expect(
      sameLine ? control.left > before.left : control.top >= before.bottom - 1,
      `${state}: « ${control.text} » is drawn after « ${before.text} »`,
    ).toBe(true);
  });
}

/**
 * Tab from the first control to past the last, then Shift+Tab back: each control in turn, none skipped, none
 * twice, and focus leaves the last and the first one (no keyboard trap, RGAA 12.9).
 */
async function expectTabWalk(page: Page, container: Locator, state: string) {
  const controls = await markControls(container);
  expect(controls.length, `${state}: the step has controls`).toBeGreaterThan(0);
  expectDrawnInOrder(controls, state);
  const names = controls.map((c) => c.text);
  // Start from the first control, then go on with the keyboard alone.
  await container.locator('[data-review="0"]').focus();
  for (let i = 1; i < names.length; i++) {
    await page.keyboard.press("Tab");
    expect(await focusedMark(page), `${state}: Tab ${i} reaches « ${names[i]} »`).toBe(String(i));
  }
  await page.keyboard.press("Tab");
  expect(await focusedMark(page), `${state}: Tab leaves the last control`).not.toBe(String(names.length - 1));
  await container.locator(`[data-review="${names.length - 1}"]`).focus();
  for (let i = names.length - 2; i >= 0; i--) {
    await page.keyboard.press("Shift+Tab");
    expect(await focusedMark(page), `${state}: Shift+Tab back to « ${names[i]} »`).toBe(String(i));
  }
  await page.keyboard.press("Shift+Tab");
  expect(await focusedMark(page), `${state}: Shift+Tab leaves the first control`).not.toBe("0");
  test.info().annotations.push({ type: "tab stops", description: `${state}: ${names.length}` });
}

/** The step's heading is on screen, then its controls are walked with the keyboard and axe checks it. */
async function reviewStep(page: Page, panel: Locator, heading: string | RegExp, state: string) {
  await expect(panel.getByRole("heading", { name: heading })).toBeVisible({ timeout: 30_000 });
  await expectTabWalk(page, panel, state);
  await expectAccessible(page, state);
}

/** The IBAN, typed only when the step asks for it (no saved account, or another one chosen). */
async function ibanIfAsked(panel: Locator) {
  const iban = panel.getByRole("textbox", { name: /IBAN/ });
  if ((await iban.count()) > 0 && (await iban.first().isVisible())) await iban.first().fill(IBAN);
}

test.use({ viewport: PHONE });

test("the card wizard: Tab and Shift+Tab through every step", async ({ page, makeAccount, signInAs }) => {
  test.setTimeout(120_000);
  await signInAs(page, await makeAccount({ cards: CARDS, freeLicences: ["physical_card"] }));
  await page.goto("/cards");
  await page.getByRole("link", { name: "Créer une carte" }).last().click();
  const panel = page.getByRole("dialog", { name: "Créer une carte" });
  await reviewStep(page, panel, "Étape 1 sur 4 : Choisir la carte", "card wizard, type");
  await panel.getByRole("radio", { name: "Carte physique" }).check();
  await continueFrom(panel);
  await reviewStep(page, panel, "Étape 2 sur 4 : Code PIN", "card wizard, PIN");
  await panel.getByLabel("Code PIN", { exact: true }).fill("2580");
  await panel.getByLabel("Confirmez le code PIN").fill("2580");
  await continueFrom(panel);
  await reviewStep(page, panel, "Étape 3 sur 4 : Adresse de livraison", "card wizard, address");
  await panel.getByLabel("Numéro et rue").fill("12 rue de la République");
  await panel.getByLabel("Code postal").fill("69002");
  await panel.getByLabel("Ville").fill("Lyon");
  await continueFrom(panel);
  await reviewStep(page, panel, "Étape 4 sur 4 : Récapitulatif", "card wizard, summary");
});

/** The refund wizard up to its summary, each step reviewed by `step` (a keyboard walk, or the tree). */
async function throughRefundWizard(
  page: Page,
  step: (panel: Locator, heading: string | RegExp, state: string) => Promise<void>,
) {
  await page.goto("/plans/expense-requests/new");
  const panel = page.getByRole("dialog", { name: "Demander un remboursement" });
  await step(panel, "Type de dépense", "refund wizard, type");
  await panel.getByRole("radio", { name: "Culture" }).check();
  await continueFrom(panel);
  await step(panel, "Étape 1 sur 4 : Justificatif", "refund wizard, receipt");
  await panel.getByLabel("Votre justificatif").setInputFiles(BAKERY);
  await panel.getByRole("button", { name: "Envoyer le justificatif" }).click();
  await expect(panel.getByRole("link", { name: "Justificatif 1" })).toBeVisible();
  await step(panel, "Étape 1 sur 4 : Justificatif", "refund wizard, receipt sent");
  await continueFrom(panel);
  await expect(panel.getByRole("heading", { name: "Étape 2 sur 4 : Détails de la dépense" })).toBeVisible();
  // The receipt being read: waited for (with JavaScript its end arrives in place; without, « Vérifier
  // maintenant » looks again), so that the walk does not race it.
  const skip = panel.getByRole("link", { name: "Continuer sans attendre" });
  if (test.info().project.use.javaScriptEnabled === false) {
    await expect(async () => {
      if (await skip.isVisible()) await panel.getByRole("link", { name: "Vérifier maintenant" }).click();
      await expect(skip).toBeHidden({ timeout: 500 });
    }).toPass({ timeout: 30_000 });
  } else await expect(skip).toBeHidden({ timeout: 30_000 });
  await step(panel, "Étape 2 sur 4 : Détails de la dépense", "refund wizard, details");
  // A refused submission (no amount): the errors are part of the step a person reads and walks.
  await panel.getByLabel("Montant payé").fill("");
  await continueFrom(panel);
  await expect(panel.locator(".error-summary")).toBeVisible();
  await step(panel, "Étape 2 sur 4 : Détails de la dépense", "refund wizard, details refused");
  await panel.getByLabel("Nom de l’établissement").fill("pain & co");
  await panel.getByRole("button", { name: "Rechercher" }).click();
  await panel.getByRole("radio", { name: "Boulangerie Pain & Co" }).check();
  await panel.getByLabel("Date de l’achat").fill("14/11/2026");
  await panel.getByLabel("Montant payé").fill("9,10");
  await continueFrom(panel);
  await step(panel, /^Étape 3 sur 4/, "refund wizard, payment");
  await ibanIfAsked(panel);
  await continueFrom(panel);
  await step(panel, /^Étape 4 sur 4/, "refund wizard, summary");
}

const refundAccount = {
  features: { expenseRequests: { any: true } },
  wallets: [{ name: "Culture", type: "culture" as const, balance: 20000 }],
  cards: CARDS,
};

test("the refund wizard: Tab and Shift+Tab through every step", async ({ page, makeAccount, signInAs }) => {
  test.setTimeout(180_000);
  await signInAs(page, await makeAccount(refundAccount));
  await throughRefundWizard(page, (panel, heading, state) => reviewStep(page, panel, heading, state));
});

test("the bicycle allowance: Tab and Shift+Tab through every step", async ({ page, makeAccount, signInAs }) => {
  test.setTimeout(180_000);
  const account = await makeAccount({
    cards: CARDS,
    features: { allowances: { any: true, bicycle: true } },
    otherFunders: [
      {
        name: "CSE Acme",
        group: {
          address_line1: "3 avenue Foch",
          address_zipcode: "69006",
          address_city: "Lyon",
          address_country: "FR",
        },
      },
    ],
  });
  await signInAs(page, account);
  await page.goto("/plans/allowances/new?type=bicycle");
  const panel = page.getByRole("dialog", { name: "Indemnité kilométrique vélo" });
  await reviewStep(page, panel, /^Étape 1 sur 3/, "bicycle allowance, introduction");
  await continueFrom(panel);
  await reviewStep(page, panel, "Étape 2 sur 3 : Vos trajets", "bicycle allowance, journeys");
  await panel.getByLabel("Financeur").selectOption({ label: "CSE Acme" });
  if (test.info().project.use.javaScriptEnabled === false) await panel.getByRole("button", { name: "Choisir" }).click();
  const home = panel.getByRole("group", { name: "Adresse de votre domicile" });
  await expect(panel.getByRole("group", { name: "Adresse de votre lieu de travail" }).getByLabel("Ville")).toHaveValue(
    "Lyon",
  );
  await home.getByLabel("Numéro et voie").fill("8 rue des Lilas");
  await home.getByLabel("Code postal").fill("69003");
  await home.getByLabel("Ville").fill("Lyon");
  await panel.getByLabel("Date de début").fill(`01/01/${year}`);
  await panel.getByLabel("Date de fin").fill(today);
  await panel.getByLabel("Jours au bureau").fill("1");
  await ibanIfAsked(panel);
  await continueFrom(panel);
  await reviewStep(page, panel, "Étape 3 sur 3 : Vérification", "bicycle allowance, summary");
});

test("the subscription allowance: Tab and Shift+Tab through every step", async ({ page, makeAccount, signInAs }) => {
  test.setTimeout(180_000);
  await signInAs(
    page,
    await makeAccount({ cards: CARDS, features: { allowances: { any: true, subscription: true } } }),
  );
  await page.goto("/plans/allowances/new?type=subscription");
  const panel = page.getByRole("dialog", { name: "Abonnement de transport" });
  await reviewStep(page, panel, /^Étape 1 sur 4/, "subscription, introduction");
  await panel.getByRole("button", { name: "Commencer" }).click();
  await reviewStep(page, panel, "Étape 2 sur 4 : Justificatifs", "subscription, documents");
  await panel.getByLabel("Titre de transport ou facture").setInputFiles(BAKERY);
  await panel.getByLabel("Attestation d’abonnement").setInputFiles(BIKE_SHOP);
  await panel.getByRole("button", { name: "Envoyer les documents" }).click();
  await reviewStep(page, panel, "Étape 3 sur 4 : Votre abonnement", "subscription, details");
  await panel.getByLabel(/^Début de l’abonnement/).fill(`01/11/${year}`);
  await panel.getByLabel(/^Fin de l’abonnement/).fill(`31/12/${year}`);
  await panel.getByLabel(/^Prix de l’abonnement/).fill("86,40");
  await ibanIfAsked(panel);
  await continueFrom(panel);
  await reviewStep(page, panel, "Étape 4 sur 4 : Vérifiez et signez", "subscription, summary");
});

type AXNode = {
  ignored: boolean;
  role?: { value?: string };
  name?: { value?: string };
  description?: { value?: string };
  properties?: { name: string; value: { value?: unknown } }[];
};

/** The page as a screen reader gets it: Chromium's accessibility tree (inert and hidden content left out). */
async function accessibilityTree(cdp: CDPSession): Promise<AXNode[]> {
  const { nodes } = (await cdp.send("Accessibility.getFullAXTree")) as { nodes: AXNode[] };
  return nodes.filter((node) => !node.ignored);
}

const property = (node: AXNode, name: string) => node.properties?.find((p) => p.name === name)?.value.value;
const CONTROL_ROLES = new Set(["textbox", "combobox", "radio", "checkbox", "button", "link", "switch", "spinbutton"]);

test("a screen-reader pass of the refund wizard through the accessibility tree", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  test.setTimeout(180_000);
  await signInAs(page, await makeAccount(refundAccount));
  const cdp = await page.context().newCDPSession(page);
  await throughRefundWizard(page, async (panel, heading, state) => {
    await expect(panel.getByRole("heading", { name: heading })).toBeVisible({ timeout: 30_000 });
    const nodes = await accessibilityTree(cdp);
    // The dialog (a region of the page without JavaScript) and the step, said in words, not only drawn.
    expect(
      nodes.some(
        (n) => ["dialog", "region"].includes(n.role?.value ?? "") && n.name?.value === "Demander un remboursement",
      ),
      `${state}: the panel is named`,
    ).toBe(true);
    const headings = nodes.filter((n) => n.role?.value === "heading").map((n) => String(n.name?.value));
    expect(
      headings.some((h) => (typeof heading === "string" ? h === heading : heading.test(h))),
      state,
    ).toBe(true);
    // Every control has a name; a required one says so; a refused one is invalid and its error is read with it.
    for (const node of nodes.filter((n) => CONTROL_ROLES.has(n.role?.value ?? ""))) {
      expect(String(node.name?.value ?? "").trim(), `${state}: a ${node.role?.value} without a name`).not.toBe("");
    }
    const invalid = nodes.filter((n) => property(n, "invalid") === "true");
    if (state.endsWith("refused")) {
      expect(invalid.length, `${state}: the refused fields are invalid`).toBeGreaterThan(0);
      for (const node of invalid) {
        expect(node.description?.value ?? "", `${state}: ${node.name?.value} reads its error`).toMatch(/Erreur :/);
        expect(property(node, "required"), `${state}: ${node.name?.value} is said required`).toBe(true);
      }
      expect(
        nodes.some((n) => String(n.name?.value).startsWith("Il y a un problème") || n.role?.value === "alert"),
        `${state}: the error summary is in the tree`,
      ).toBe(true);
    } else {
      // Chromium says an unanswered required radio group is invalid from the start (its own validity, not
      // aria-invalid): only the other controls are expected valid before a submission.
      const refused = invalid.filter((n) => n.role?.value !== "radio").map((n) => n.name?.value);
      expect(refused, `${state}: nothing refused yet`).toEqual([]);
    }
    await expectAccessible(page, `${state} (accessibility tree)`);
  });
  await cdp.detach();
});

const FOOTER_LINK = {
  total: "Accessibilité : totalement conforme",
  partial: "Accessibilité : partiellement conforme",
  none: "Accessibilité : non conforme",
} as const;

test("the accessibility statement: its address, the model's sections, the record's state", async ({ page }) => {
  const old = await page.request.get("/accessibility", { maxRedirects: 0 });
  expect(old.status()).toBe(301);
  expect(old.headers().location).toBe("/accessibilite");

  await page.goto("/login");
  const state = conformityOf();
  await page.getByRole("contentinfo").getByRole("link", { name: FOOTER_LINK[state.level] }).click();
  await expect(page).toHaveURL(/\/accessibilite$/);
  await expect(page).toHaveTitle(/^Déclaration d’accessibilité/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Déclaration d’accessibilité");
  await expect(page.getByRole("main").getByRole("heading", { level: 2 })).toHaveText([
    "État de conformité",
    "Résultats des tests",
    "Contenus non accessibles",
    "Établissement de cette déclaration",
    "Retour d’information et contact",
    "Voies de recours",
  ]);
  const word = { total: "totalement conforme", partial: "partiellement conforme", none: "n’est pas conforme" };
  const main = page.getByRole("main");
  await expect(main.getByText(word[state.level])).toBeVisible();
  await expect(main.getByText(`révèle que ${String(state.rate).replace(".", ",")} % des critères`)).toBeVisible();
  await expect(page.getByText(`${state.rgaaReviewed} critères du RGAA 4.1`)).toBeVisible();
  await expect(page.getByRole("link", { name: /Défenseur des droits \(formulaire en ligne\)/ })).toHaveAttribute(
    "href",
    "https://formulaire.defenseurdesdroits.fr/",
  );
  await expect(page.getByRole("link", { name: /délégué du Défenseur des droits/ })).toBeVisible();
  await expect(page.getByText("09 69 39 00 00")).toBeVisible();
  await expect(page.locator("address").getByText("Libre réponse 71120")).toBeVisible();
  await expect(page.locator("address").getByText("75342 Paris CEDEX 07")).toBeVisible();
  await expect(page.locator("address")).toHaveAttribute("lang", "fr");
  await expectAccessible(page, "accessibility statement");
});
