import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectAccessible, latestCodeFor, MARIE, pageWithScripts, signIn } from "./helpers";

/**
 * What axe cannot see (issue 13, findings 4, 5 and 11): focus hidden under an open menu or below the
 * fold of a sticky navigation, words split in the middle at 320 px, a clipped reveal frame, the current
 * wallet off-screen, a visible label missing from the accessible name, motion without reduced motion.
 * Nothing here changes data: menus are opened, pages are read, one reveal code is asked for.
 */

const jsOn = () => test.info().project.use.javaScriptEnabled !== false;

/** Where the focused element is, and whether it is inside the viewport and the topmost thing at its centre. */
async function focusState(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return { describe: "body", visible: false, inViewport: false, uncovered: false };
    const r = el.getBoundingClientRect();
    const describe = `${el.tagName.toLowerCase()} "${(el.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 50)}"`;
    const inViewport =
      r.width > 0 &&
      r.height > 0 &&
      r.top >= -1 &&
      r.left >= -1 &&
      r.bottom <= innerHeight + 1 &&
      r.right <= innerWidth + 1;
    // A link wrapping over two lines has a box per line: the centre of each is checked, one must be it.
    let hit: Element | null = null;
    let uncovered = false;
    for (const box of [...el.getClientRects()].filter((b) => b.width > 0 && b.height > 0)) {
      const x = Math.min(Math.max(box.left + box.width / 2, 0), innerWidth - 1);
      const y = Math.min(Math.max(box.top + box.height / 2, 0), innerHeight - 1);
      hit = document.elementFromPoint(x, y);
      uncovered = hit !== null && (hit === el || el.contains(hit));
      if (uncovered) break;
    }
    return {
      describe,
      visible: true,
      inViewport,
      uncovered,
      hitBy: hit ? `${hit.tagName.toLowerCase()}.${hit.className}` : "nothing",
    };
  });
}

/** Tabs forward through the whole page (until focus leaves the document or comes back), checking each stop. */
async function tabThrough(page: Page, state: string, maxStops = 80) {
  const seen: string[] = [];
  for (let i = 0; i < maxStops; i++) {
    await page.keyboard.press("Tab");
    const focus = await focusState(page);
    if (focus.describe === "body") break;
    const where = `${state}, stop ${i + 1}: ${focus.describe}`;
    expect(focus.inViewport, `${where} is outside the viewport`).toBe(true);
    expect(focus.uncovered, `${where} is covered by ${focus.hitBy}`).toBe(true);
    if (seen.includes(focus.describe + i)) break;
    seen.push(focus.describe + i);
    if (focus.describe.startsWith('a "Google Play') || focus.describe.startsWith('a "Android')) break;
  }
  expect(seen.length, `${state}: Tab reached something`).toBeGreaterThan(3);
}

const PAGES = [
  { name: "card page", path: "/cards" },
  { name: "wallet page", path: "/wallets" },
  { name: "settings", path: "/settings" },
];

const userMenuToggle = (page: Page) => page.locator("summary.user-menu__toggle");
const mobileMenuToggle = (page: Page) => page.locator("summary.mobile-menu__toggle");

test.describe("at 320 px", () => {
  test.use({ viewport: { width: 320, height: 640 } });

  test("Tab never lands on something hidden or covered, with each menu open", async ({ page }) => {
    test.setTimeout(180_000);
    await signIn(page, MARIE);
    for (const { name, path } of PAGES) {
      for (const menu of ["no menu", "user menu", "Menu"] as const) {
        await page.goto(path);
        if (menu !== "no menu") {
          const toggle = menu === "user menu" ? userMenuToggle(page) : mobileMenuToggle(page);
          await toggle.click();
          await expect(toggle.locator("xpath=..")).toHaveAttribute("open", "");
          if (menu === "user menu") await expectAccessible(page, `${name}, ${menu} open at 320 px`);
        } else {
          await page.locator("body").focus();
        }
        await tabThrough(page, `${name} at 320 px, ${menu}`);
      }
    }
  });

  test("Escape closes each menu and gives focus back to its button (JS)", async ({ page }) => {
    // Skipped without JS on purpose: a <details> cannot close on Escape without a script. What matters
    // without JS, that an open menu covers nothing (the navigation is in the flow, the user menu's
    // floating panel steps aside as the focus leaves it), is checked in both projects by the Tab test above.
    test.skip(!jsOn(), "closing on Escape needs JavaScript; without it an open menu still covers no focus");
    await signIn(page, MARIE);
    for (const toggle of [userMenuToggle(page), mobileMenuToggle(page)]) {
      const details = toggle.locator("xpath=..");
      await toggle.click();
      await expect(details).toHaveAttribute("open", "");
      await page.keyboard.press("Tab");
      await page.keyboard.press("Escape");
      await expect(details).not.toHaveAttribute("open", "");
      await expect(toggle).toBeFocused();
      // Focus leaving the menu closes it too.
      await toggle.click();
      await expect(details).toHaveAttribute("open", "");
      await page.getByRole("link", { name: "Aller au contenu" }).focus();
      await expect(details).not.toHaveAttribute("open", "");
    }
  });

  test("no word is split in the middle on the signed-in pages, menus open", async ({ page }) => {
    await signIn(page, MARIE);
    for (const path of ["/cards", "/wallets", "/settings/profile", "/settings/notifications", "/settings/security"]) {
      await page.goto(path);
      for (const toggle of [mobileMenuToggle(page), userMenuToggle(page)]) {
        await toggle.click();
        const target = await pageWithScripts(page);
        const split = await target.evaluate(() => {
          const found: string[] = [];
          const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            // Text not rendered (a closed menu, visually hidden) has no lines to compare.
            const parent = node.parentElement;
            if (!parent || !parent.checkVisibility({ contentVisibilityAuto: true, visibilityProperty: true })) continue;
            if (parent.closest(".visually-hidden")) continue;
            const text = node.textContent ?? "";
            // Letters and digits only: a line may break at a space, a hyphen or a slash, never inside a word.
            for (const match of text.matchAll(/[\p{L}\p{N}’']{2,24}/gu)) {
              const range = document.createRange();
              range.setStart(node, match.index);
              range.setEnd(node, match.index + match[0].length);
              const lines = new Set(
                [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)),
              );
              if (lines.size > 1) found.push(match[0]);
            }
          }
          return found;
        });
        if (target !== page) await target.context().close();
        expect(split, `words split on ${path}`).toEqual([]);
        await page.goto(path);
      }
    }
  });

  test("the current wallet is on screen in the wallet strip", async ({ page }) => {
    await signIn(page, MARIE);
    await page.goto("/wallets");
    const strip = page.getByRole("navigation", { name: /portefeuille/i }).getByRole("link");
    const count = await strip.count();
    expect(count).toBeGreaterThan(2);
    // The last wallet, the one furthest along the strip, loaded as a page of its own (a click would
    // scroll the strip to the link first).
    await page.goto((await strip.nth(count - 1).getAttribute("href"))!);
    const current = page.locator(".wallet-strip__link[aria-current='page']");
    await expect(current).toHaveCount(1);
    const box = await current.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.x, "current wallet starts on screen").toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width, "current wallet ends on screen").toBeLessThanOrEqual(320);
    await expectAccessible(page, "last wallet at 320 px");
  });

  test("the user-menu button's name contains its visible text, with no dangling dash", async ({ page }) => {
    await signIn(page, MARIE);
    const toggle = userMenuToggle(page);
    // What is seen at 320 px: the initials (the groups are not shown at this width).
    const visible = (await toggle.locator(".user-menu__initials").innerText()).trim();
    expect(visible).toBe("MM");
    await expect(toggle.locator(".user-menu__groups")).toBeHidden();
    await expect(toggle).toHaveAccessibleName(/^MM\b/);
    await expect(toggle).toHaveAccessibleName(/Mon compte \(Marie Martin\)$/);
  });

  test("the revealed card details fit their frame, also with larger text spacing", async ({ page }) => {
    await signIn(page, MARIE);
    // The virtual card: its details (number, expiry, CVC) can be shown.
    const href = await page
      .locator(".side-nav--mobile a", { hasText: "Carte virtuelle •••• 5556" })
      .getAttribute("href");
    await page.goto(href!);
    await page.locator("summary", { hasText: "Actions sur la carte" }).click();
    await page.getByRole("link", { name: "Afficher le numéro, la date et le cryptogramme" }).click();
    const panel = page.getByRole("dialog", { name: "Informations de la carte" }).or(page.locator("#reveal"));
    await panel.getByRole("button", { name: /Recevoir un code/ }).click();
    await expect(page).toHaveURL(/\/reveal\?step=code$/);
    const code = await latestCodeFor(page.request, MARIE, "Votre code pour afficher votre carte");
    await page.getByLabel("Code à 6 chiffres").fill(code);
    await page.getByRole("button", { name: "Valider et afficher" }).click();
    await expect(page).toHaveURL(/\/reveal\?step=show$/);
    const frameElement = page.locator("iframe[title='Informations de la carte']");
    const cvc = page.frameLocator("iframe[title='Informations de la carte']").locator("#cvc");
    await expect(cvc).toBeVisible();
    const fits = async (state: string) => {
      const outer = await frameElement.boundingBox();
      const inner = await cvc.boundingBox();
      expect(outer && inner, state).toBeTruthy();
      expect(inner!.y + inner!.height, `${state}: the CVC is inside the frame`).toBeLessThanOrEqual(
        outer!.y + outer!.height,
      );
    };
    await fits("320 px");
    if (jsOn()) {
      // WCAG 1.4.12 text spacing, applied inside the frame as a bookmarklet would.
      const frame = page.frames().find((f) => f.url().includes("/sandbox-issuer/reveal/"));
      expect(frame).toBeTruthy();
      await frame!.evaluate(() => {
        const style = document.createElement("style");
        style.textContent =
          "* { line-height: 1.5 !important; letter-spacing: .12em !important; word-spacing: .16em !important; } p, dd, dt { margin-bottom: 2em !important; }";
        document.head.append(style);
      });
      await fits("320 px with text spacing");
    }
  });
});

test.describe("at 1024 × 500", () => {
  test.use({ viewport: { width: 1024, height: 500 } });

  test("Tab never lands on something hidden or covered, with the user menu open or not", async ({ page }) => {
    test.setTimeout(120_000);
    await signIn(page, MARIE);
    for (const { name, path } of PAGES) {
      for (const menu of ["no menu", "user menu"] as const) {
        await page.goto(path);
        if (menu === "user menu") {
          await userMenuToggle(page).click();
          await expect(userMenuToggle(page).locator("xpath=..")).toHaveAttribute("open", "");
        } else {
          await page.locator("body").focus();
        }
        await tabThrough(page, `${name} at 1024×500, ${menu}`);
      }
    }
    await expectAccessible(page, "settings at 1024×500");
  });

  test("Escape closes the user menu and gives focus back to its button (JS)", async ({ page }) => {
    // Skipped without JS on purpose: Escape handling is a script; the JS-off menu (in the flow, never
    // covering focus) is checked in both projects by the Tab test above.
    test.skip(!jsOn(), "closing on Escape needs JavaScript");
    await signIn(page, MARIE);
    const toggle = userMenuToggle(page);
    await toggle.click();
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Escape");
    await expect(toggle.locator("xpath=..")).not.toHaveAttribute("open", "");
    await expect(toggle).toBeFocused();
  });
});

test("reduced motion also stills pseudo-elements", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto("/login");
  const target = await pageWithScripts(page);
  if (target !== page) await target.emulateMedia({ reducedMotion: "reduce" });
  const duration = await target.evaluate(() => {
    const track = document.createElement("span");
    track.className = "switch__track";
    document.body.append(track);
    const value = getComputedStyle(track, "::after").transitionDuration;
    track.remove();
    return value;
  });
  if (target !== page) await target.context().close();
  expect(
    duration.split(",").every((d) => parseFloat(d) === 0),
    `::after transition ${duration}`,
  ).toBe(true);
});
