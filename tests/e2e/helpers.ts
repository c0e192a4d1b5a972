import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";

/**
 * axe runs as a script in the page. With JavaScript disabled it cannot, so the exact HTML the
 * browser is showing (scripts removed) is checked in a twin page of the same origin and size.
 */
export async function pageWithScripts(page: Page): Promise<Page> {
  if (test.info().project.use.javaScriptEnabled !== false) return page;
  const browser = page.context().browser();
  if (!browser) throw new Error("no browser");
  const twin = await browser.newContext({
    javaScriptEnabled: true,
    bypassCSP: true,
    viewport: page.viewportSize(),
    locale: "fr-FR",
  });
  const twinPage = await twin.newPage();
  const html = (await page.content()).replace(/<script\b[\s\S]*?<\/script>/gi, "");
  await twinPage.route("**/__axe__", (route) => route.fulfill({ status: 200, contentType: "text/html", body: html }));
  await twinPage.goto(new URL("/__axe__", page.url()).toString());
  return twinPage;
}

export const DEMO_PASSWORD = "Demo-Portail-2026!";
export const MARIE = "marie.martin@example.com";
export const CLAIRE = "claire.petit@example.com";

/** Zero violations of WCAG 2.0/2.1/2.2 A and AA on the page as it is now. */
export async function expectAccessible(page: Page, state: string) {
  const target = await pageWithScripts(page);
  const results = await new AxeBuilder({ page: target })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
    .analyze();
  if (target !== page) await target.context().close();
  const summary = results.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`,
  );
  expect(summary, `axe violations on ${state}`).toEqual([]);
}

/** The newest code sent to this address or number (an SMS goes to the number), read from the sandbox outbox like a person would. */
export async function latestCodeFor(
  request: APIRequestContext,
  recipient: string,
  subject = "Votre code de connexion",
): Promise<string> {
  const html = await (await request.get("/dev/outbox")).text();
  const messages = html.split('class="outbox__message"').slice(1);
  for (const message of messages) {
    const to = /class="outbox__recipient">([^<]*)</.exec(message)?.[1];
    if (!to || to !== recipient || !message.includes(subject)) continue;
    const code = /\b(\d{6})\b/.exec(message.slice(message.indexOf("outbox__body")));
    if (code) return code[1]!;
  }
  throw new Error(`no code for ${recipient} in the outbox`);
}

/** A code that is certainly not `code`: every digit moved by 5 (so no test needs an `if`). */
export function wrongCodeFor(code: string): string {
  return code.replace(/\d/g, (d) => String((Number(d) + 5) % 10));
}

export async function submitPassword(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.getByLabel("Adresse e-mail").fill(email);
  await page.getByLabel("Mot de passe").fill(password);
  await page.getByRole("button", { name: "Se connecter", exact: true }).click();
}

/** Signs in through the real forms: password, then the code from the outbox when MFA is on. */
export async function signIn(page: Page, email: string) {
  await page.goto("/login");
  await submitPassword(page, email);
  await page.waitForURL((url) => url.pathname !== "/login");
  if (new URL(page.url()).pathname === "/login/code") {
    const code = await latestCodeFor(page.request, email);
    await page.getByLabel("Code à 6 chiffres").fill(code);
    await page.getByRole("button", { name: "Valider le code" }).click();
    await page.waitForURL((url) => url.pathname !== "/login/code");
  }
}

/** No horizontal scrolling at this width (RGAA 10.11): measured in a page that can run scripts. */
export async function expectNoHorizontalScroll(page: Page, state: string) {
  const target = await pageWithScripts(page);
  const { scrollWidth, clientWidth } = await target.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  if (target !== page) await target.context().close();
  expect(scrollWidth, `horizontal scroll on ${state}`).toBeLessThanOrEqual(clientWidth);
}
