import { useEffect, useRef } from "react";

/**
 * A `<details>` used as a menu (WCAG 2.4.11, issue 13 finding 4): with JavaScript it closes on Escape
 * (focus back to its `summary`) and as soon as focus moves to something outside it, so the open panel
 * never covers the next focused control; a click outside closes it too. Without JavaScript the stylesheet
 * hides the user menu's floating panel while the keyboard focus is outside it (app.css, "Header").
 * A pointer press outside closes a menu only after its click: the small-screen navigation is in flow,
 * and closing it on the press would move the page under the pointer and make the click miss.
 */
export function useDisclosureMenu<T extends HTMLDetailsElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    const details = ref.current;
    if (!details) return;
    const summary = () => details.querySelector<HTMLElement>(":scope > summary");
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || !details.open) return;
      event.preventDefault();
      details.open = false;
      summary()?.focus();
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
      if (details.open && event.target instanceof Node && !details.contains(event.target)) details.open = false;
    };
    details.addEventListener("keydown", onKeyDown);
    details.addEventListener("focusout", onFocusOut);
    document.addEventListener("pointerdown", onPointerDown, true);
    document.addEventListener("pointerup", onPointerUp, true);
    document.addEventListener("click", onClick);
    return () => {
      details.removeEventListener("keydown", onKeyDown);
      details.removeEventListener("focusout", onFocusOut);
      document.removeEventListener("pointerdown", onPointerDown, true);
      document.removeEventListener("pointerup", onPointerUp, true);
      document.removeEventListener("click", onClick);
    };
  }, []);
  return ref;
}
