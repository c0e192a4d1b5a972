import { useEffect, useRef } from "react";

/** What a click outside the menu may have been meant for: the click then only closes the menu. */
const CONTROLS = "a, button, input, select, textarea, summary, label, [role=button], [tabindex]:not([tabindex='-1'])";

/**
 * A `<details>` used as a menu (WCAG 2.4.11, issue 13 finding 4): with JavaScript it closes on Escape
 * (focus back to its `summary`) and as soon as focus moves to something outside it, so the open panel
 * never covers the next focused control; a click outside closes it too. Without JavaScript the stylesheet
 * hides the user menu's floating panel while the keyboard focus is outside it (app.css, "Header").
 * A pointer press outside closes a menu only after its click: the small-screen navigation is in flow,
 * and closing it on the press would move the page under the pointer and make the click miss.
 * `onDismiss` runs once the person has closed the menu themselves, by its button, Escape or a tap on the
 * page outside any control (focus is then on the button); not when it closes because focus went elsewhere
 * or a control outside was used, where the person now is.
 */
export function useDisclosureMenu<T extends HTMLDetailsElement>({ onDismiss }: { onDismiss?: () => void } = {}) {
  const ref = useRef<T>(null);
  // The latest callback, read when the menu closes (the listeners are added once).
  const dismissed = useRef(onDismiss);
  useEffect(() => {
    dismissed.current = onDismiss;
  });
  useEffect(() => {
    const details = ref.current;
    if (!details) return;
    const summary = () => details.querySelector<HTMLElement>(":scope > summary");
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || !details.open) return;
      event.preventDefault();
      details.open = false;
      summary()?.focus();
      dismissed.current?.();
    };
    // The button's own click closes the details after this handler: the `toggle` that follows says it is closed.
    let closingByButton = false;
    const onSummaryClick = (event: MouseEvent) => {
      if (details.open && event.target instanceof Node && summary()?.contains(event.target)) closingByButton = true;
    };
    const onToggle = () => {
      if (!details.open && closingByButton) dismissed.current?.();
      closingByButton = false;
    };
    let pressing = false;
    const onPointerDown = () => {
      pressing = true;
    };
    const onPointerUp = () => {
      pressing = false;
    };
    const onFocusOut = (event: FocusEvent) => {
      const next = event.relatedTarget;
      // No related target: the window lost focus or a click landed on nothing focusable; stay open.
      if (!pressing && details.open && next instanceof Node && !details.contains(next)) details.open = false;
    };
    const onClick = (event: MouseEvent) => {
      const target = event.target;
      if (!details.open || !(target instanceof Node) || details.contains(target)) return;
      details.open = false;
      // A tap on the page itself (not on a control, which does its own thing) dismisses the menu as its
      // button would, when the menu asks for it: focus back on the button, then `onDismiss`.
      const control = target instanceof Element && target.closest(CONTROLS);
      if (!control && dismissed.current) {
        summary()?.focus({ preventScroll: true });
        dismissed.current();
      }
    };
    details.addEventListener("keydown", onKeyDown);
    details.addEventListener("click", onSummaryClick);
    details.addEventListener("toggle", onToggle);
    details.addEventListener("focusout", onFocusOut);
    document.addEventListener("pointerdown", onPointerDown, true);
    document.addEventListener("pointerup", onPointerUp, true);
    document.addEventListener("click", onClick);
    return () => {
      details.removeEventListener("keydown", onKeyDown);
      details.removeEventListener("click", onSummaryClick);
      details.removeEventListener("toggle", onToggle);
      details.removeEventListener("focusout", onFocusOut);
      document.removeEventListener("pointerdown", onPointerDown, true);
      document.removeEventListener("pointerup", onPointerUp, true);
      document.removeEventListener("click", onClick);
    };
  }, []);
  return ref;
}
