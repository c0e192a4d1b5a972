import { useEffect } from "react";
import { useLocation, useNavigate, useRevalidator } from "react-router";

/** Whether `to` is the page shown, its query compared once decoded (`?back=/x` is `?back=%2Fx`). */
function samePage(to: string, pathname: string, search: string) {
  const target = new URL(to, "http://portal.invalid");
  return target.pathname === pathname && target.searchParams.toString() === new URLSearchParams(search).toString();
}

/**
 * With JavaScript, a page waiting on the server (a receipt being read, a card being made, a chat reply) looks
 * again every `ms` milliseconds without reloading: its data is read again when `to` is the page itself, else
 * the router opens `to` in its place (onboarding's wait counts its looks in its address), as the no-JS meta
 * refresh of `Waiting` would. Never while a request is already under way, nor while the tab is hidden; at once
 * when it shows again; not at all while `enabled` is false. Focus is left where it is (RGAA 13.1, WCAG 2.2.1).
 */
export function useRevalidateEvery(ms: number, to: string, enabled = true) {
  const revalidator = useRevalidator();
  const navigate = useNavigate();
  const location = useLocation();
  const here = samePage(to, location.pathname, location.search);
  useEffect(() => {
    if (!enabled) return;
    const recheck = () => {
      if (document.hidden || revalidator.state !== "idle") return;
      if (here) void revalidator.revalidate();
      else void navigate(to, { replace: true, preventScrollReset: true });
    };
    const timer = setInterval(recheck, ms);
    document.addEventListener("visibilitychange", recheck);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", recheck);
    };
  }, [revalidator, navigate, ms, to, here, enabled]);
}
