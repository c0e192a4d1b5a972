import { useEffect, useState } from "react";
import { formatTime } from "~/domain/dates";
import { useTranslation } from "~/i18n";

/**
 * When a new code can be asked for, in one sentence (issue 31 §6): without JS (and until hydration) the
 * clock time, which stays true on a page that does not move; with JS the seconds left instead, counted
 * down, then that it can be asked for now. Never both: the page said its timing twice before.
 */
export function ResendWait({ id, until }: { id: string; until: string }) {
  const { t } = useTranslation();
  const [seconds, setSeconds] = useState<number | null>(null);
  useEffect(() => {
    const update = () => setSeconds(Math.max(0, Math.ceil((new Date(until).getTime() - Date.now()) / 1000)));
    update();
    const timer = window.setInterval(update, 1000);
    return () => window.clearInterval(timer);
  }, [until]);
  // Not a live region: a ticking announcement every second would drown the page.
  return (
    <p className="hint" id={id}>
      {seconds === null
        ? t("auth.code.resendWait", { time: formatTime(until) })
        : seconds > 0
          ? t("auth.code.resendCountdown", { seconds })
          : t("auth.code.resendReady")}
    </p>
  );
}
