import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectReflow, MARIE, pageWithScripts, REFLOW_VIEWPORT, signIn, TEXT_SPACING_CSS } from "./helpers";

/**
 * Issue 34's layout findings and bad-input paths (decision 0069): RGAA 10.11 on the notification preferences,
 * 400 % zoom, forced colours (Windows high contrast) and reduced motion. The 320 px and text-spacing checks
 * themselves run with every axe check of every journey (tests/e2e/helpers.ts).
 */

test.describe("at 320 px", () => {
  // The text spacing is added as a style element, which the portal's CSP refuses (as a bookmarklet's would be).
  test.use({ viewport: REFLOW_VIEWPORT, bypassCSP: true });

  test("10.11: the notification preferences fit 320 px, their visually hidden names inside the table's box", async ({
    page,
    makeMarie,
    signInAs,
  }) => {
    await signInAs(page, await makeMarie());
    await page.goto("/settings/notifications");
    await expectReflow(page, "notification preferences");
    const target = await pageWithScripts(page);
    for (const spacing of [false, true]) {
      if (spacing) await target.addStyleTag({ content: TEXT_SPACING_CSS });
      const escaping = await target.evaluate(() => {
        const box = document.querySelector(".table-scroll")!;
        const { left, right } = box.getBoundingClientRect();
        const overflowing = box.scrollWidth > box.clientWidth ? [`the table scrolls: ${box.scrollWidth} px`] : [];
        // Each box's name for screen readers (visually hidden) is placed inside the box that holds the table.
        const outside = [...box.querySelectorAll(".visually-hidden")]
          // One pixel of play: the visually hidden rule's own -1px margin.
          .filter(
            (span) => span.getBoundingClientRect().left < left - 1 || span.getBoundingClientRect().right > right + 1,
          )
          .map((span) => span.textContent ?? "");
        return [...overflowing, ...outside];
      });
      expect(escaping, spacing ? "with text spacing" : "as authored").toEqual([]);
    }
  });

  test("10.12: the second-factor choices keep Marie's e-mail inside its card with text spacing", async ({ page }) => {
    await signIn(page, MARIE);
    await page.goto("/settings/security");
    await expectReflow(page, "security settings, second factor");
  });
});

test.describe("at 400 % zoom", () => {
  // 1280 × 800 at 400 %: 320 × 200 CSS pixels drawn at four device pixels each.
  test.use({ viewport: { width: 320, height: 200 }, deviceScaleFactor: 4 });

  test("signed-in pages fit the width, and nothing fixed or sticky hides more than half of the height", async ({
    page,
  }) => {
    await signIn(page, MARIE);
    for (const path of ["/cards", "/wallets", "/settings/security", "/settings/notifications", "/notifications"]) {
      await page.goto(path);
      const target = await pageWithScripts(page);
      const layout = await target.evaluate(() => ({
        wide: document.documentElement.scrollWidth > document.documentElement.clientWidth,
        covering: [...document.querySelectorAll("body *")]
          // A dialog (a panel opened on top) is meant to take the screen; the page's own bars are not.
          .filter((el) => ["fixed", "sticky"].includes(getComputedStyle(el).position) && el.checkVisibility())
          .filter((el) => !el.closest("dialog"))
          .filter((el) => el.getBoundingClientRect().height > window.innerHeight / 2)
          .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join(".")}`),
      }));
      expect(layout, path).toEqual({ wide: false, covering: [] });
    }
  });
});

/** The computed styles of a switch drawn on the page (the overflow setting's control), checked or not. */
async function switchColours(page: Page, checked: boolean) {
  return page.evaluate((checked) => {
    const button = document.createElement("button");
    button.className = "switch";
    button.setAttribute("role", "switch");
    button.setAttribute("aria-checked", String(checked));
    const track = document.createElement("span");
    track.className = "switch__track";
    button.append(track);
    document.body.append(button);
    const trackStyle = getComputedStyle(track);
    const knob = getComputedStyle(track, "::after");
    const canvas = getComputedStyle(document.body).backgroundColor;
    const drawn = {
      // The track is seen against the page: by an outline or a fill that is not the page's colour.
      trackSeen: trackStyle.outlineStyle !== "none" || trackStyle.backgroundColor !== canvas,
      knobSeen: knob.backgroundColor !== trackStyle.backgroundColor,
      fill: trackStyle.backgroundColor,
    };
    button.remove();
    return drawn;
  }, checked);
}

test.describe("with forced colours (Windows high contrast)", () => {
  // CSS behaves the same with scripts or without; the measure needs them.
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "measured with scripts, in the page itself");

  test("focus indicators are outlines, switches keep their track and knob, on and off differ", async ({ page }) => {
    await page.emulateMedia({ forcedColors: "active" });
    await page.goto("/login");
    await page.keyboard.press("Tab");
    const focus = await page.evaluate(() => {
      const style = getComputedStyle(document.activeElement!);
      return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
    });
    // box-shadow is dropped in forced colours: the ring must be an outline, which the system colours redraw.
    expect(focus.style).not.toBe("none");
    expect(focus.width).toBeGreaterThanOrEqual(2);
    const off = await switchColours(page, false);
    const on = await switchColours(page, true);
    expect(off, "switch off").toMatchObject({ trackSeen: true, knobSeen: true });
    expect(on, "switch on").toMatchObject({ trackSeen: true, knobSeen: true });
    expect(on.fill, "on and off look different").not.toBe(off.fill);
  });
});

test.describe("with reduced motion", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "measured with scripts, in the page itself");

  test("nothing moves: no animation or transition on the pages, the page loader, skeletons, dialogs, switches", async ({
    page,
  }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await signIn(page, MARIE);
    const card = await page.getByRole("link", { name: /Carte/ }).first().getAttribute("href");
    for (const path of ["/cards", `${card}/stop`, "/notifications", "/settings/notifications"]) {
      await page.goto(path);
      const moving = await page.evaluate(() => {
        const probes = ["page-loader", "skeleton__line", "switch__track", "spinner"].map((name) => {
          const probe = document.createElement("span");
          probe.className = name;
          document.body.append(probe);
          return probe;
        });
        const found: string[] = [];
        for (const el of document.querySelectorAll("*")) {
          for (const pseudo of [null, "::before", "::after"]) {
            const style = getComputedStyle(el, pseudo);
            const seconds = (list: string) => Math.max(...list.split(",").map((v) => parseFloat(v)));
            if (seconds(style.animationDuration) > 0.01 && style.animationName !== "none")
              found.push(`${el.className}${pseudo ?? ""} animation ${style.animationDuration}`);
            if (seconds(style.transitionDuration) > 0.01) found.push(`${el.className}${pseudo ?? ""} transition`);
          }
        }
        probes.forEach((probe) => probe.remove());
        return found;
      });
      expect(moving, path).toEqual([]);
    }
  });
});
