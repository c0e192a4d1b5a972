import { useEffect, useState } from "react";
import { useTranslation } from "~/i18n";

/** With JS, the seconds left before a new code can be asked for; without JS the clock time says it. */
export function ResendCountdown({ until }: { until: string }) {
  const { t } = useTranslation();
  const [seconds, setSeconds] = useState<number | null>(null);
  useEffect(() => {
    const update = () => setSeconds(Math.max(0, Math.ceil((new Date(until).getTime() - Date.now()) / 1000)));
    update();
    const timer = window.setInterval(update, 1000);
    return () => window.clearInterval(timer);
  }, [until]);
  if (seconds === null || seconds === 0) return null;
  // Not a live region: a ticking announcement every second would drown the page.
  return <span className="countdown">({t("auth.code.resendCountdown", { seconds })})</span>;
}
