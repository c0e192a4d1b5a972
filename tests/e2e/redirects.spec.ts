import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { CLAIRE, DEMO_PASSWORD, expectAccessible, signIn, submitPassword } from "./helpers";

/**
 * Issue 11, findings 2 and 7: Chromium never leaves the portal, whatever a route parameter or
 * `redirectTo` holds. Every request the browser makes is watched (redirect hops included); one to
 * evil.example (a reserved name that never resolves) would also fail the navigation.
 */
function watchOffsite(page: Page): string[] {
  const offsite: string[] = [];
  page.context().on("request", (request) => {
    if (new URL(request.url()).hostname.endsWith("evil.example")) offsite.push(request.url());
  });
  return offsite;
}

test("hostile ids in the retry route lead to the card list with a message: not to another site, /etc/passwd or an error", async ({
  page,
}) => {
  const offsite = watchOffsite(page);
  await signIn(page, CLAIRE);
  const origin = new URL(page.url()).origin;
  for (const id of ["..%2F%09%2Fevil.example", "..%2F..%2F..%2Fetc%2Fpasswd", "%0d%0aX", "%00", "%E2%82%AC%20carte"]) {
    await page.goto(`/cards/${id}/transactions/x/retry`);
    expect(new URL(page.url()).origin, id).toBe(origin);
    await expect(page, id).toHaveURL(/\/cards\/card_[\w-]+$/);
    await expect(page.getByText("Cette carte n’existe pas ou n’est pas la vôtre.")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Carte virtuelle •••• 7777");
  }
  await expectAccessible(page, "card page after a hostile retry link");
  expect(offsite).toEqual([]);
});

test("after sign-in, a redirectTo with dot segments or encoded dots stays on the portal, from the link or posted directly", async ({
  page,
}) => {
  const offsite = watchOffsite(page);
  for (const redirectTo of [
    "/.//evil.example",
    "/..//evil.example",
    "/%2e//evil.example",
    "/%2E%2E//evil.example/x",
    "/cards/..//evil.example",
  ]) {
    // The link a phishing mail would carry.
    await page.context().clearCookies();
    await page.goto(`/login?redirectTo=${encodeURIComponent(redirectTo)}`);
    await submitPassword(page, CLAIRE);
    await expect(page, redirectTo).toHaveURL(/\/cards\/card_[\w-]+$/);

    // The sign-in form posted as it is, with that redirectTo (what a forged form of this origin sends).
    await page.context().clearCookies();
    await page.goto("/login");
    const origin = new URL(page.url()).origin;
    const postData = new URLSearchParams({ email: CLAIRE, password: DEMO_PASSWORD, redirectTo }).toString();
    await page.route("**/login?forged", (route) =>
      route.continue({
        method: "POST",
        postData,
        headers: { ...route.request().headers(), origin, "content-type": "application/x-www-form-urlencoded" },
      }),
    );
    await page.goto("/login?forged");
    await page.unrouteAll();
    expect(new URL(page.url()).origin, redirectTo).toBe(origin);
    await expect(page, redirectTo).toHaveURL(/\/cards\/card_[\w-]+$/);
  }
  expect(offsite).toEqual([]);
});
