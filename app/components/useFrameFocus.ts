import { useEffect, type RefObject } from "react";

/**
 * RGAA 10.7 (WCAG 2.4.7): a frame drawn by the card's issuer (its number, its PIN) takes focus into a document
 * of its own, and Chromium then matches neither `:focus` nor `:focus-within` on the <iframe> or around it, so
 * no style alone can show where focus is. While a frame inside `container` holds focus it carries
 * `data-focused`, which dialogs-a11y.css draws as the portal's focus ring. Focus entering a frame blurs this
 * window (the frame is then the active element); leaving it focuses the window or an element again.
 */
export function useFrameFocus(container: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const mark = () => {
      const active = document.activeElement;
      for (const frame of container.current?.querySelectorAll("iframe") ?? [])
        frame.toggleAttribute("data-focused", frame === active);
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const afterBlur = () => {
      clearTimeout(timer);
      timer = setTimeout(mark, 0);
    };
    window.addEventListener("blur", afterBlur);
    window.addEventListener("focus", mark);
    document.addEventListener("focusin", mark);
    return () => {
      clearTimeout(timer);
      window.removeEventListener("blur", afterBlur);
      window.removeEventListener("focus", mark);
      document.removeEventListener("focusin", mark);
    };
  }, [container]);
}
