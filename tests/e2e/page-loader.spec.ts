import type { Page } from "@playwright/test";
import { PAGE_LOADER_DELAY_MS } from "../../app/components/page-loader-timing";
import { expect, test } from "./fixtures";

/**
 * The page loader (spec 000 §2, §9; issue 16 §11, decision 0066): with JS, a navigation lasting more than a
 * moment (PAGE_LOADER_DELAY_MS) shows a progress bar and says so politely; a shorter one shows nothing. Its
 * 300 ms minimum display is in audit-client.spec.ts. Without JS the browser's own indicator
 * does it, so this is a JS journey.
 */

/** Records in the page when the loader's bar appears, and when the last click was made. */
async function watchLoader(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { loaderShownAt: number | null; clickedAt: number | null };
    w.loaderShownAt = null;
    w.clickedAt = null;
    document.addEventListener("click", () => (w.clickedAt = performance.now()), { capture: true });
    new MutationObserver(() => {
      if (w.loaderShownAt === null && document.querySelector(".page-loader")) w.loaderShownAt = performance.now();
    }).observe(document.body, { childList: true, subtree: true });
  });
}

const loaderTimes = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { loaderShownAt: number | null; clickedAt: number | null };
    return { shownAt: w.loaderShownAt, clickedAt: w.clickedAt };
  });

test("a slow navigation shows the loader after its short wait and announces it politely; a fast one shows nothing", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  test.skip(
    test.info().project.use.javaScriptEnabled === false,
    "without JS the browser shows its own progress; the portal's loader is JavaScript's",
  );
  await signInAs(
    page,
    await makeAccount({
      cards: [{ type: "virtual", lastFour: "5556" }],
      wallets: [{ name: "Culture", type: "culture", balance: 5_000 }],
    }),
  );
  await page.goto("/cards");
  const nav = page.getByRole("navigation", { name: "Navigation principale" }).filter({ visible: true });
  const region = page.locator(".page-loader-region");
  // The live region is in the page from the start (so what is put in it is announced), polite, empty.
  await expect(region).toHaveAttribute("role", "status");
  await expect(region).toHaveAttribute("aria-live", "polite");
  await expect(region).toHaveText("");

  // Fast: the page's data answered at once (replayed from a first visit), no loader at all.
  const saved = new Map<string, { status: number; headers: Record<string, string>; body: Buffer }>();
  await page.route("**/plans/integrations.data*", async (route) => {
    const known = saved.get(route.request().url());
    if (known) return route.fulfill(known);
    const response = await route.fetch();
    saved.set(route.request().url(), {
      status: response.status(),
      headers: response.headers(),
      body: await response.body(),
    });
    return route.fulfill({ response });
  });
  await nav.getByRole("link", { name: "Services et partenaires" }).click();
  await expect(page).toHaveURL(/\/plans\/integrations$/);
  await nav.getByRole("link", { name: "Carte virtuelle •••• 5556" }).click();
  await expect(page).toHaveURL(/\/cards\/card_/);
  await watchLoader(page);
  await nav.getByRole("link", { name: "Services et partenaires" }).click();
  await expect(page).toHaveURL(/\/plans\/integrations$/);
  await expect(page.getByRole("heading", { level: 2, name: "Services et partenaires" })).toBeVisible();
  await page.waitForTimeout(500);
  expect((await loaderTimes(page)).shownAt).toBeNull();
  await expect(region).toHaveText("");

  // Slow: the store locator's data takes a while; the loader appears after its short wait (a page without a
  // skeleton of its own, so the region says "Chargement de la page…"), and goes when the page is there.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/store-locator.data*", async (route) => {
    await held;
    await route.continue();
  });
  await watchLoader(page);
  await nav.getByRole("link", { name: "Trouver un commerce" }).click();
  await expect(region.locator(".page-loader")).toBeAttached();
  await expect(region).toHaveText("Chargement de la page…");
  const { shownAt, clickedAt } = await loaderTimes(page);
  expect(shownAt! - clickedAt!).toBeGreaterThanOrEqual(PAGE_LOADER_DELAY_MS);
  release();
  await expect(page).toHaveURL(/\/store-locator$/);
  await expect(region).toHaveText("");
  await expect(region.locator(".page-loader")).toHaveCount(0);
});
