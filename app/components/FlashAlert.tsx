import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/i18n";
import { useRouteLoaderData } from "react-router";
import type { loader as rootLoader } from "~/root";

const VISIBLE_MS = 5000;

/**
 * The message left by the last action (post-redirect-get). Announced by a live region; it hides
 * itself only when JavaScript runs, after 5 s, and waits while hovered or focused (spec 000 §4).
 */
export function FlashAlert() {
  const { t } = useTranslation();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const flash = root?.flash;
  const [hiddenKey, setHiddenKey] = useState<string | null>(null);
  const paused = useRef(false);
  const key = flash ? `${flash.kind}:${flash.message}:${root?.flashId}` : "";

  useEffect(() => {
    if (!key) return;
    let remaining = VISIBLE_MS;
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

  if (!flash || hiddenKey === key) return <div className="flash-region" role="status" aria-live="polite" />;
  const role = flash.kind === "error" ? "alert" : "status";
  return (
    <div className="flash-region" role={role} aria-live={flash.kind === "error" ? "assertive" : "polite"}>
      <div
        className={`alert alert--${flash.kind}`}
        onMouseEnter={() => (paused.current = true)}
        onMouseLeave={() => (paused.current = false)}
        onFocus={() => (paused.current = true)}
        onBlur={() => (paused.current = false)}
      >
        <p>{t(flash.message)}</p>
      </div>
    </div>
  );
}
