import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { addCalendarDays, isFrenchPublicHoliday } from "../../app/domain/calendar";
import { todayInParis } from "../../app/domain/dates";

function javaScriptOff(): boolean {
  return test.info().project.use.javaScriptEnabled === false;
}

/**
 * The HTML the browser is showing, scripts removed: what a twin page renders without running the app again.
 * The twin runs scripts (axe needs them), so a page shown without JavaScript has its `<noscript>` content
 * unwrapped (the twin would otherwise read it as text and draw nothing) and its meta refresh dropped (the
 * twin must not reload itself under a check).
 */
async function scriptFreeHtml(page: Page): Promise<string> {
  const html = (await page.content()).replace(/<script\b[\s\S]*?<\/script>/gi, "");
  if (!javaScriptOff()) return html;
  return html.replace(/<\/?noscript>/gi, "").replace(/<meta http-equiv="refresh"[^>]*>/gi, "");
}

/**
 * One script-capable twin page per worker (and per browser), reused by every check: a new browser context for
 * each page state would cost more than the checks themselves. It answers `/__twin__` on any origin with the
 * HTML last given to `showInTwin`, so the page's own stylesheets and images load from the server under test.
 * Motion is reduced so a check never measures a panel halfway through its opening animation.
 */
let twin: { browser: Browser; page: Promise<Page>; html: string } | undefined;

async function showInTwin(page: Page, html: string, viewport: { width: number; height: number }): Promise<Page> {
  const browser = page.context().browser();
  if (!browser) throw new Error("no browser");
  if (!twin || twin.browser !== browser || (await twin.page).isClosed()) {
    const state = { browser, html, page: Promise.resolve(undefined as unknown as Page) };
    state.page = browser
      .newContext({ javaScriptEnabled: true, bypassCSP: true, locale: "fr-FR", reducedMotion: "reduce" })
      .then(async (context) => {
        const twinPage = await context.newPage();
        await twinPage.route("**/__twin__", (route) =>
          route.fulfill({ status: 200, contentType: "text/html", body: state.html }),
        );
        return twinPage;
      });
    twin = state;
  }
  twin.html = html;
  const twinPage = await twin.page;
  await twinPage.setViewportSize(viewport);
  await twinPage.goto(new URL("/__twin__", page.url()).toString());
  return twinPage;
}

/**
 * axe runs as a script in the page. With JavaScript disabled it cannot, so the exact HTML the
 * browser is showing (scripts removed) is checked in the twin page, at the same origin and size.
 */
export async function pageWithScripts(page: Page): Promise<Page> {
  if (!javaScriptOff()) return page;
  return showInTwin(page, await scriptFreeHtml(page), page.viewportSize() ?? { width: 1280, height: 720 });
}

export const DEMO_PASSWORD = "Demo-Portail-2026!";
export const MARIE = "marie.martin@example.com";
export const CLAIRE = "claire.petit@example.com";

/**
 * Zero violations of WCAG 2.0/2.1/2.2 A and AA on the page as it is now; then the reflow and text-spacing checks
 * (Contract T, decision 0069), on every page state every journey reaches.
 */
export async function expectAccessible(page: Page, state: string) {
  const target = await pageWithScripts(page);
  const results = await new AxeBuilder({ page: target })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
    .analyze();
  const summary = results.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`,
  );
  expect(summary, `axe violations on ${state}`).toEqual([]);
  // Without JavaScript the twin already shows this page's HTML (axe ran there): it only needs narrowing.
  await checkReflow(page, state, target === page ? undefined : target);
}

/** 320 × 640 CSS pixels: 1280 px at 400 % zoom, the width WCAG 1.4.10 (RGAA 10.11) asks content to fit. */
export const REFLOW_VIEWPORT = { width: 320, height: 640 };

/** WCAG 1.4.12's text spacing (RGAA 10.12), as the usual bookmarklet sets it: nothing may be lost with it. */
export const TEXT_SPACING_CSS =
  "* { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; }" +
  " p { margin-bottom: 2em !important; }";

/**
 * RGAA 10.11 and 10.12 on the page as it is now, in the script-free twin at 320 × 640: no horizontal scroll and
 * no text cut by an `overflow: hidden/clip` box, first as authored, then with WCAG text spacing. Soft
 * assertions: a journey reports every state that fails, not only the first.
 */
export async function expectReflow(page: Page, state: string) {
  await checkReflow(page, state);
}

async function checkReflow(page: Page, state: string, shown?: Page) {
  let twinPage = shown;
  let modal: boolean[] = [];
  if (twinPage) {
    await twinPage.setViewportSize(REFLOW_VIEWPORT);
  } else {
    // Dialogs open as modal in the page are opened as modal in the twin too: the top layer is not in the HTML.
    if (!javaScriptOff())
      modal = await page.evaluate(() => [...document.querySelectorAll("dialog")].map((d) => d.matches(":modal")));
    twinPage = await showInTwin(page, await scriptFreeHtml(page), REFLOW_VIEWPORT);
  }
  const { authored, spaced } = await twinPage.evaluate(
    ({ modal, textSpacing }) => {
      const dialogs = document.querySelectorAll("dialog");
      modal.forEach((isModal, i) => {
        const dialog = dialogs[i];
        if (!isModal || !dialog) return;
        dialog.close();
        dialog.showModal();
      });
      const authored = layoutFaults();
      const style = document.createElement("style");
      style.textContent = textSpacing;
      document.head.append(style);
      return { authored, spaced: layoutFaults() };

      /**
       * What is wrong with the layout as drawn: the page wider than the window (with the outermost elements that
       * stick out), and every piece of text an `overflow: hidden/clip` ancestor cuts off. Visually hidden text (a
       * 1 × 1 clipped box, on purpose) and text inside a scrolling box (reachable by scrolling it) are not faults.
       */
      function layoutFaults(): string[] {
        const describe = (el: Element) =>
          `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${[...el.classList].map((c) => `.${c}`).join("")}>` +
          ` « ${(el.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 50)} »`;
        const faults: string[] = [];
        const root = document.documentElement;
        if (root.scrollWidth > root.clientWidth) {
          const edge = root.clientWidth + 0.5;
          const outermost = [...document.body.querySelectorAll("*")].filter(
            (el) =>
              el.getBoundingClientRect().right > edge &&
              (el.parentElement?.getBoundingClientRect().right ?? 0) <= edge &&
              el.checkVisibility(),
          );
          faults.push(
            `page ${root.scrollWidth} px wide in ${root.clientWidth} px: ${outermost.slice(0, 5).map(describe).join(", ")}`,
          );
        }
        // How each element treats what overflows it, read once per element for the whole walk.
        const boxes = new Map<Element, { x: string; y: string; rect: DOMRect }>();
        const boxOf = (el: Element) => {
          let box = boxes.get(el);
          if (!box) {
            const style = getComputedStyle(el);
            box = { x: style.overflowX, y: style.overflowY, rect: el.getBoundingClientRect() };
            boxes.set(el, box);
          }
          return box;
        };
        const clipping = (value: string) => value === "hidden" || value === "clip";
        const scrolling = (value: string) => value === "auto" || value === "scroll";
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        const range = document.createRange();
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const parent = node.parentElement;
          if (!parent || !node.textContent?.trim() || parent.closest("select, textarea")) continue;
          // Text not drawn (a closed <details>, display: none, visibility: hidden) cannot be cut.
          if (!parent.checkVisibility({ visibilityProperty: true })) continue;
          range.selectNodeContents(node);
          const text = range.getBoundingClientRect();
          if (text.width === 0 && text.height === 0) continue;
          let checkX = true;
          let checkY = true;
          for (let el: Element | null = parent; el && el !== root && (checkX || checkY); el = el.parentElement) {
            const { x, y, rect } = boxOf(el);
            if (rect.width <= 1 && rect.height <= 1 && clipping(x)) break;
            const left = rect.left + el.clientLeft;
            const top = rect.top + el.clientTop;
            const cutX = checkX && clipping(x) && (text.right > left + el.clientWidth + 1 || text.left < left - 1);
            const cutY = checkY && clipping(y) && (text.bottom > top + el.clientHeight + 1 || text.top < top - 1);
            if (cutX || cutY) {
              faults.push(`text cut by ${describe(el)}: « ${node.textContent.trim().slice(0, 50)} »`);
              break;
            }
            if (scrolling(x)) checkX = false;
            if (scrolling(y)) checkY = false;
          }
        }
        return faults;
      }
    },
    { modal, textSpacing: TEXT_SPACING_CSS },
  );
  expect.soft(authored, `reflow at 320 px on ${state}`).toEqual([]);
  expect.soft(spaced, `text spacing at 320 px on ${state}`).toEqual([]);
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
  expect(scrollWidth, `horizontal scroll on ${state}`).toBeLessThanOrEqual(clientWidth);
}

const isSunday = (day: string) => new Date(`${day}T12:00:00Z`).getUTCDay() === 0;

/**
 * A day to date a payment at the sandbox terminal: the first from today + 2 that is neither a Sunday nor a public
 * holiday (titres-restaurant are refused on those days), or, `sunday`, the next Sunday. A journey that pays
 * without a date would be refused whenever it runs on a Sunday.
 */
export function paymentDay({ sunday = false } = {}): string {
  let day = addCalendarDays(todayInParis(), 2);
  while (sunday ? !isSunday(day) : isSunday(day) || isFrenchPublicHoliday(day)) day = addCalendarDays(day, 1);
  return day;
}
