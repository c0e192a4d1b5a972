import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectAccessible, latestCodeFor, MARIE, signIn } from "./helpers";

/**
 * Issue 13, findings 2, 3, 6 and 7 (finding 1, the block confirmation, is in card-actions.spec.ts,
 * which blocks the demo cards): what axe cannot see — messages that leave, messages behind a
 * modal dialog, focus falling to <body> between steps or back to the wrong place.
 * The journeys that change something (freeze, default card) do it on accounts of their own (fixtures.ts);
 * the others only read marie.
 */

const jsOn = () => test.info().project.use.javaScriptEnabled !== false;

async function openAction(page: Page, name: string) {
  await page.locator("summary", { hasText: "Actions sur la carte" }).click();
  await page.getByRole("link", { name }).click();
}

/** What has focus: its tag, text and accessible hints, never <body>. */
async function focused(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement === document.body ? null : document.activeElement;
    return {
      tag: element?.tagName.toLowerCase() ?? "body",
      text: (element?.textContent ?? "").trim().replace(/\s+/g, " "),
      id: element?.id ?? "",
      inDialog: Boolean(element?.closest("dialog")),
    };
  });
}

/** The names in Chromium's own accessibility tree (inert content is left out of it). */
async function accessibleNames(page: Page): Promise<string> {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = (await cdp.send("Accessibility.getFullAXTree")) as {
    nodes: { ignored: boolean; name?: { value?: unknown } }[];
  };
  await cdp.detach();
  return nodes
    .filter((node) => !node.ignored)
    .map((node) => String(node.name?.value ?? ""))
    .join("\n");
}

test("finding 2: a flash message stays well beyond 5 s, and keyboard users can close it", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  await signInAs(page, await makeAccount({ cards: [{ type: "physical", lastFour: "4242" }] }));
  await page.goto("/cards");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Carte physique •••• 4242");
  await openAction(page, "Geler la carte");
  await page
    .getByRole("dialog", { name: "Geler la carte" })
    .getByRole("button", { name: "Confirmer le gel de la carte" })
    .click();
  const message = page.getByText(
    "Votre carte est gelée : les paiements sont suspendus jusqu’à ce que vous la dégeliez.",
  );
  await expect(message).toBeVisible();
  // The old auto-hide was 5 s: still there after 6 s, untouched.
  await page.mouse.move(0, 0);
  await page.waitForTimeout(6_500);
  await expect(message).toBeVisible();
  if (jsOn()) {
    const close = page.getByRole("button", { name: "Fermer le message" });
    await expect(close).toBeVisible();
    await expectAccessible(page, "flash message with its close button");
    // Reached with the keyboard from the page's heading (Shift+Tab: the message comes first in <main>).
    await page.getByRole("heading", { level: 1 }).focus();
    for (let i = 0; i < 5 && (await focused(page)).text !== "Fermer le message"; i++)
      await page.keyboard.press("Shift+Tab");
    expect((await focused(page)).text).toBe("Fermer le message");
    await page.keyboard.press("Enter");
    await expect(message).toHaveCount(0);
    // Focus does not fall to <body> with the button.
    expect((await focused(page)).tag).not.toBe("body");
  } else {
    await expect(page.getByRole("button", { name: "Fermer le message" })).toHaveCount(0);
  }
  // And it thaws again.
  await openAction(page, "Dégeler la carte");
  await page
    .getByRole("dialog", { name: "Dégeler la carte" })
    .getByRole("button", { name: "Confirmer le dégel de la carte" })
    .click();
  await expect(page.getByText("Carte active")).toBeVisible();
});

test("finding 3: the default switch's message is in the open panel and in the accessibility tree", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  const creditCards = [
    { brand: "visa", last4: "4444", isDefault: true },
    { brand: "mastercard", last4: "5454" },
  ];
  await signInAs(
    page,
    await makeAccount({ cards: [{ type: "physical", lastFour: "4242" }], creditCards, overflowLimit: 5000 }),
  );
  await page.goto("/cards");
  await openAction(page, "Dépassement de solde et cartes bancaires");
  const panel = page.getByRole("dialog", { name: "Dépassement de solde" });
  const visa = panel.getByRole("switch", { name: "Carte par défaut : Visa •••• 4444" });
  await expect(visa).toHaveAttribute("aria-checked", "true");
  await visa.click();
  const unset = "Cette carte n’est plus votre carte par défaut.";
  await expect(page.getByRole("switch", { name: "Carte par défaut : Visa •••• 4444" })).toHaveAttribute(
    "aria-checked",
    "false",
  );
  await expect(page.getByText(unset)).toBeVisible();
  if (jsOn()) {
    await expect(panel).toBeVisible();
    // Rendered where the person is: inside the modal dialog, in its live region.
    await expect(panel.getByRole("status").filter({ hasText: unset })).toBeVisible();
    expect(await accessibleNames(page)).toContain(unset);
  }
  await expectAccessible(page, "overflow, default switched off, message shown");
  // And back on.
  await page.getByRole("switch", { name: "Carte par défaut : Visa •••• 4444" }).click();
  await expect(page.getByText("Cette carte est maintenant votre carte par défaut.")).toBeVisible();
  if (jsOn()) expect(await accessibleNames(page)).toContain("Cette carte est maintenant votre carte par défaut.");
  await expect(page.getByRole("switch", { name: "Carte par défaut : Visa •••• 4444" })).toHaveAttribute(
    "aria-checked",
    "true",
  );
});

test("finding 6: focus never falls to <body> between the reveal panel's steps", async ({ page }) => {
  // Skipped without JS on purpose: focus is moved by a script between client-side steps. Without JS each
  // step is a full page load and the browser starts at the top of the new page (nothing to move); those
  // pages themselves run JS off in card-actions.spec.ts and balance-and-priority.spec.ts.
  test.skip(!jsOn(), "without JavaScript every step is a new page, read from its top");
  await signIn(page, MARIE);
  await openAction(page, "Afficher le code PIN");
  const panel = page.getByRole("dialog", { name: "Code PIN" });
  await panel.getByRole("button", { name: /Recevoir un code/ }).click();
  await expect(page).toHaveURL(/\/reveal\?step=code$/);
  // The new step's field.
  await expect(panel.getByLabel("Code à 6 chiffres")).toBeFocused();
  const code = await latestCodeFor(page.request, MARIE, "Votre code pour afficher votre carte");
  await page.keyboard.type(code);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/reveal\?step=show$/);
  await expect(page.frameLocator("iframe[title='Code PIN']").getByText("1234")).toBeVisible();
  const after = await focused(page);
  expect(after.tag).not.toBe("body");
  expect(after.inDialog).toBe(true);
  await expectAccessible(page, "reveal, PIN shown, focus in the panel");
});

test("finding 6: cancelling a deletion in the overflow panel returns focus to its Supprimer link", async ({ page }) => {
  // Skipped without JS on purpose: focus is moved by a script between client-side steps. Without JS each
  // step is a full page load and the browser starts at the top of the new page (nothing to move); those
  // pages themselves run JS off in card-actions.spec.ts and balance-and-priority.spec.ts.
  test.skip(!jsOn(), "without JavaScript the cancel is a new page, read from its top");
  await signIn(page, MARIE);
  await openAction(page, "Dépassement de solde et cartes bancaires");
  const panel = page.getByRole("dialog", { name: "Dépassement de solde" });
  const remove = panel.getByRole("link", { name: "Supprimer Mastercard •••• 5454" });
  await remove.click();
  await expect(panel.getByText("Supprimer la carte Mastercard •••• 5454 ?")).toBeVisible();
  await panel.getByRole("link", { name: "Garder la carte" }).focus();
  await page.keyboard.press("Enter");
  await expect(panel.getByText("Supprimer la carte Mastercard •••• 5454 ?")).toHaveCount(0);
  await expect(panel.getByRole("link", { name: "Supprimer Mastercard •••• 5454" })).toBeFocused();
});

test("finding 6: after asking for a reset link, focus is on the success message", async ({ page }) => {
  await page.goto("/lost-password");
  await page.getByLabel("Adresse e-mail").fill("personne@example.com");
  await page.getByRole("button", { name: "Recevoir le lien" }).click();
  const sent = page.getByText("Si un compte existe pour cette adresse, un e-mail vient de lui être envoyé");
  await expect(sent).toBeVisible();
  if (jsOn()) {
    await expect.poll(async () => (await focused(page)).text).toContain("Si un compte existe pour cette adresse");
  }
  await expectAccessible(page, "lost password, sent, focused");
});

test("finding 7: a panel opened from « Actions sur la carte » gives focus back to the menu", async ({ page }) => {
  // Skipped without JS on purpose: focus is moved by a script between client-side steps. Without JS each
  // step is a full page load and the browser starts at the top of the new page (nothing to move); those
  // pages themselves run JS off in card-actions.spec.ts and balance-and-priority.spec.ts.
  test.skip(!jsOn(), "without JavaScript closing a panel loads the card page, read from its top");
  await signIn(page, MARIE);
  const summary = page.locator("summary", { hasText: "Actions sur la carte" });
  // With the keyboard: open the menu, follow "Geler la carte", close with Escape.
  await summary.focus();
  await page.keyboard.press("Enter");
  await page.getByRole("link", { name: "Geler la carte" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("dialog", { name: "Geler la carte" })).toBeVisible();
  // With JS the panel is a modal dialog (Escape closes only that); wait until the page's script made it one.
  await expect.poll(() => page.evaluate(() => document.querySelector("dialog")?.matches(":modal") ?? false)).toBe(true);
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(summary).toBeFocused();
  // The menu is closed, as after a page load.
  await expect(page.locator("details.card-actions")).not.toHaveAttribute("open");
  // The same with the panel's own close link.
  await openAction(page, "Afficher le code PIN");
  await page
    .getByRole("dialog", { name: "Code PIN" })
    .getByRole("link", { name: /^Fermer : Code PIN$/ })
    .click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(summary).toBeFocused();
});
