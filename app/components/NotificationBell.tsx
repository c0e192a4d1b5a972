import { useEffect, useState } from "react";
import { href, useLocation, useRouteLoaderData } from "react-router";
import { AppLink } from "./AppLink";
import { useTranslation } from "~/i18n";
import { useHydrated } from "./useHydrated";
import { UNREAD_COUNT_MAX } from "~/domain/notification-count";

/** Spec 000 §4: with JS the count is read again at most every 30 s (not while the page is hidden). */
export const NOTIFICATION_RECHECK_MS = 30_000;

/** What the bell shows: a count, or null when it could not be read (the layout's, or the last recheck's). */
type Count = number | null;

/**
 * The header's bell (spec 000 §2): the unread count, opening the notification centre over the current
 * page (decision 0030: `back` is that page; `observe=1` once JS runs, so reading is marked when seen).
 * A count that cannot be read (spec 000 §8 "fetchNotificationsFailed") is said in the bell's name and
 * tooltip, and never takes the page down: the recheck is a plain request whose failure only the bell
 * shows (a fetcher's failure would replace the whole page with the error page).
 */
export function NotificationBell({ unread: layoutUnread }: { unread: Count }) {
  const { t } = useTranslation();
  // On the centre itself, its own count (read after it marked what it shows) rather than the layout's.
  const centre = useRouteLoaderData<{ unread: number }>("routes/notifications/panel");
  const unread = centre?.unread ?? layoutUnread;
  const location = useLocation();
  const hydrated = useHydrated();
  // Whichever is newer wins: the layout's count (after a navigation or an action) or the recheck's.
  const [shown, setShown] = useState<{ count: Count; unread: Count }>({ count: unread, unread });
  if (shown.unread !== unread) setShown({ count: unread, unread });
  const count = shown.count;
  useEffect(() => {
    let request: AbortController | null = null;
    const recheck = async () => {
      const controller = new AbortController();
      request = controller;
      try {
        const response = await fetch("/notifications/count", {
          headers: { Accept: "application/json" },
          signal: controller.signal,
        });
        const body = response.ok ? ((await response.json()) as { count?: unknown }) : null;
        const next = typeof body?.count === "number" ? body.count : null;
        setShown((before) => ({ ...before, count: next }));
      } catch {
        // Offline, or the answer unreadable: the bell says the count is unknown (left as it is once the page goes).
        if (!controller.signal.aborted) setShown((before) => ({ ...before, count: null }));
      }
    };
    const timer = setInterval(() => {
      if (!document.hidden) void recheck();
    }, NOTIFICATION_RECHECK_MS);
    return () => {
      clearInterval(timer);
      request?.abort();
    };
  }, []);

  const onCentre = location.pathname === "/notifications";
  const back = onCentre
    ? (new URLSearchParams(location.search).get("back") ?? "/cards")
    : location.pathname + location.search;
  const search = new URLSearchParams({ back });
  if (hydrated) search.set("observe", "1");
  const label =
    count === null
      ? t("notificationCentre.bellCountFailed")
      : count === 0
        ? t("notificationCentre.bell")
        : count > UNREAD_COUNT_MAX
          ? t("notificationCentre.bellUnreadMany", { count: UNREAD_COUNT_MAX })
          : t(count === 1 ? "notificationCentre.bellUnreadOne" : "notificationCentre.bellUnread", { count });
  return (
    <AppLink
      to={`${href("/notifications")}?${search.toString()}`}
      className="notification-bell"
      aria-label={label}
      title={count === null ? label : undefined}
    >
      <svg className="notification-bell__icon" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
        <path
          fill="currentColor"
          d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3a1.5 1.5 0 0 0-3 0v1.16A7 7 0 0 0 5 11v5l-2 2v1h18v-1Z"
        />
      </svg>
      {count === null ? (
        <span className="notification-bell__count notification-bell__count--unknown" aria-hidden="true">
          ?
        </span>
      ) : count > 0 ? (
        <span className="notification-bell__count" aria-hidden="true">
          {count > UNREAD_COUNT_MAX ? `${UNREAD_COUNT_MAX}+` : count}
        </span>
      ) : null}
    </AppLink>
  );
}
