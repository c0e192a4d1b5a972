import { useEffect, useRef } from "react";
import { useLocation, useNavigation } from "react-router";

/** Where a person was: a link by its address, a button by its name and value, else an id. */
function describe(element: Element | null): string | null {
  if (!(element instanceof HTMLElement) || element === document.body) return null;
  if (element.id) return `#${CSS.escape(element.id)}`;
  if (element instanceof HTMLAnchorElement && element.getAttribute("href"))
    return `a[href="${CSS.escape(element.getAttribute("href")!)}"]`;
  if (element instanceof HTMLButtonElement && element.name)
    return `button[name="${CSS.escape(element.name)}"][value="${CSS.escape(element.value)}"]`;
  return null;
}

const focusable = (element: Element | null): element is HTMLElement =>
  element instanceof HTMLElement &&
  element.isConnected &&
  !element.closest("[inert]") &&
  element.getClientRects().length > 0;

function focusHere(element: HTMLElement, options?: FocusOptions) {
  if (element.tabIndex < 0 && !element.hasAttribute("tabindex")) element.setAttribute("tabindex", "-1");
  element.focus(options);
}

/** Focus fell to <body> (its element left the page): put it where the person now is. */
function rescueFocus(container: HTMLElement, openers: Map<string, string>, here: string) {
  // Back where a step was opened (a cancel): return to the control that opened it.
  const opener = openers.get(here);
  const back = opener ? container.querySelector(opener) : null;
  if (focusable(back)) return back.focus();
  const dialog = container.matches("dialog") ? container : null;
  // The result of what was just done: a message shown in the panel, or on the page.
  const message = Array.from(
    container.querySelectorAll<HTMLElement>('[role="status"] .alert, .alert[role="status"], [role="alert"]'),
  ).find((element) => focusable(element) && element.textContent?.trim());
  if (message) return focusHere(message);
  if (dialog) {
    // A new step of a panel: its first field, else its title.
    const field = Array.from(
      dialog.querySelectorAll<HTMLElement>(
        "input:not([type=hidden]):not([disabled]), select:not([disabled]), textarea:not([disabled])",
      ),
    ).find(focusable);
    if (field) return field.focus();
    const title = dialog.querySelector<HTMLElement>("h2");
    if (title) return focusHere(title);
    return dialog.focus();
  }
  const heading = container.querySelector<HTMLElement>("h1");
  if (heading) focusHere(heading);
}

/** The heading of a wizard's step ("Étape 3 sur 3 : Vérification"): every wizard of the kit gives its steps one. */
const STEP_HEADING = ".card-wizard__step";

/** The open panel, else the page: where the person now is. */
const currentContainer = () =>
  document.querySelector<HTMLElement>("dialog:modal") ?? document.querySelector<HTMLElement>("main");

const stepHeadingIn = (container: HTMLElement | null) => container?.querySelector<HTMLElement>(STEP_HEADING) ?? null;

/**
 * A wizard's new step opens at its top with focus on its heading (GOV.UK's pattern, issue 31 §4). The
 * panel keeps the scroll of the step before (forms post with `preventScrollReset`, so that the page under
 * the panel stays put), so the panel is scrolled to its top; a wizard that is the page is scrolled to its
 * top when the heading is in its first half, else to the heading.
 */
function openStep(container: HTMLElement, heading: HTMLElement) {
  focusHere(heading, { preventScroll: true });
  if (container.matches("dialog")) {
    container.scrollTop = 0;
    return;
  }
  const top = heading.getBoundingClientRect().top + window.scrollY;
  window.scrollTo({ top: top < window.innerHeight / 2 ? 0 : top - 16, behavior: "instant" });
}

/**
 * After a client-side navigation, focus moves to the new page's <h1> so screen readers start
 * there (a full page load already starts at the top). Not on the first render, nor when only the
 * query changes. And focus never stays on <body>: when the control that had it left the page (a
 * step of a panel, a form replaced by its result), it goes back to the control that opened this
 * step, else to the message just shown, else to the step's first field or its heading. A wizard's new
 * step (its heading's words changed) is opened at its top with focus on its heading, unless it came back
 * with errors: their summary has taken focus, and keeps it.
 */
export function useFocusHeadingOnNavigation() {
  const location = useLocation();
  const navigation = useNavigation();
  const first = useRef(true);
  const lastPath = useRef(location.pathname);
  // Per address: the control that was used to leave it (to come back to it on a cancel).
  const openers = useRef(new Map<string, string>());
  // The words of the wizard step's heading when the navigation started (null: no wizard was shown).
  const stepBefore = useRef<string | null>(null);
  const here = location.pathname + location.search;

  useEffect(() => {
    if (navigation.state === "idle") return;
    stepBefore.current = stepHeadingIn(currentContainer())?.textContent ?? null;
    const described = describe(document.activeElement);
    if (described) openers.current.set(here, described);
  }, [navigation.state]); // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (navigation.state !== "idle") return;
    const container = currentContainer();
    const step = stepHeadingIn(container);
    // A new step of a wizard: in a panel (its first step too), or on a page that already showed one.
    const newStep =
      container &&
      step &&
      step.textContent !== stepBefore.current &&
      (stepBefore.current !== null || container.matches("dialog"));
    if (newStep) {
      lastPath.current = location.pathname;
      if (!container.querySelector(".error-summary")) openStep(container, step);
      return;
    }
    // Same page with other parameters (a tab, "Voir plus"): the page manages focus itself.
    if (location.pathname !== lastPath.current) {
      lastPath.current = location.pathname;
      // An error summary takes focus itself; leave it there.
      if (!document.activeElement?.closest(".error-summary")) {
        const heading = document.querySelector<HTMLElement>("main h1");
        if (heading) focusHere(heading);
      }
    }
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    if (container) rescueFocus(container, openers.current, here);
  }, [location.key, navigation.state]); // eslint-disable-line react-hooks/exhaustive-deps
}
