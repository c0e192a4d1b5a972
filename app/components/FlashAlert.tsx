import { useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { useTranslation } from "~/i18n";
import { useRouteLoaderData } from "react-router";
import type { loader as rootLoader } from "~/root";
import { useHydrated } from "./useHydrated";
import { usePanelMessageSlot } from "./panelMessages";

/** At least 20 s (WCAG 2.2.1), and never while hovered or while focus is in it. */
export const FLASH_VISIBLE_MS = 20_000;

/**
 * The message left by the last action (post-redirect-get). Announced by a live region; it hides
 * itself only when JavaScript runs, after 20 s, and waits while hovered or focused; with
 * JavaScript it has a "Fermer le message" button (focusable, so keyboard users can keep it
 * by focusing it, and dismiss it). While a panel is open as a modal dialog, the message is
 * rendered inside the panel: the page behind is inert and would hide it (RGAA 7.5).
 */
export function FlashAlert() {
  const { t } = useTranslation();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const hydrated = useHydrated();
  const slot = usePanelMessageSlot();
  const flash = root?.flash;
  const [hiddenKey, setHiddenKey] = useState<string | null>(null);
  const paused = useRef(false);
  const box = useRef<HTMLDivElement>(null);
  const key = flash ? `${flash.kind}:${flash.message}:${root?.flashId}` : "";

  useEffect(() => {
    if (!key) return;
    paused.current = false;
    let remaining = FLASH_VISIBLE_MS;
    const tick = 250;
    const timer = window.setInterval(() => {
      if (paused.current) return;
      remaining -= tick;
      if (remaining <= 0) {
        setHiddenKey(key);
        window.clearInterval(timer);
      }
    }, tick);
    return () => window.clearInterval(timer);
  }, [key]);

  const close = () => {
    // Focus must not fall to <body> with the button: to the panel's title, else the page's heading.
    const dialog = box.current?.closest("dialog");
    const heading = dialog ? dialog.querySelector<HTMLElement>("h2") : document.querySelector<HTMLElement>("main h1");
    setHiddenKey(key);
    if (heading) {
      heading.setAttribute("tabindex", "-1");
      heading.focus();
    }
  };

  const shown = flash && hiddenKey !== key;
  const region = !shown ? (
    <div className="flash-region" role="status" aria-live="polite" />
  ) : (
    <div
      className="flash-region"
      role={flash.kind === "error" ? "alert" : "status"}
      aria-live={flash.kind === "error" ? "assertive" : "polite"}
    >
      <div
        ref={box}
        className={`alert alert--${flash.kind}${hydrated ? " alert--closable" : ""}`}
        onMouseEnter={() => (paused.current = true)}
        onMouseLeave={() => (paused.current = false)}
        onFocus={() => (paused.current = true)}
        onBlur={() => (paused.current = false)}
      >
        <p>{t(flash.message)}</p>
        {hydrated ? (
          <button type="button" className="alert__close" onClick={close}>
            {t("app.closeMessage")}
          </button>
        ) : null}
      </div>
    </div>
  );
  // The layout's region stays (empty) while the message is in the panel, so that it is already
  // in place, and announces, when the panel closes.
  return (
    <>
      {slot ? <div className="flash-region" role="status" aria-live="polite" /> : region}
      {slot ? createPortal(region, slot) : null}
    </>
  );
}
