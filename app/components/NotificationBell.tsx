import { useEffect, useState } from "react";
import { href, Link, useFetcher, useLocation, useRouteLoaderData } from "react-router";
import { useTranslation } from "~/i18n";
import { useHydrated } from "./useHydrated";

/** Spec 000 §4: with JS the count is read again at most every 30 s (not while the page is hidden). */
export const NOTIFICATION_RECHECK_MS = 30_000;

/**
 * The header's bell (spec 000 §2): the unread count, opening the notification centre over the current
 * page (decision 0030: `back` is that page; `observe=1` once JS runs, so reading is marked when seen).
 */
export function NotificationBell({ unread: layoutUnread }: { unread: number }) {
  const { t } = useTranslation();
  // On the centre itself, its own count (read after it marked what it shows) rather than the layout's.
  const centre = useRouteLoaderData<{ unread: number }>("routes/notifications/panel");
  const unread = centre?.unread ?? layoutUnread;
  const location = useLocation();
  const hydrated = useHydrated();
  const fetcher = useFetcher<{ count: number }>();
  // Whichever is newer wins: the layout's count (after a navigation or an action) or the recheck's.
  const [shown, setShown] = useState({ count: unread, unread, data: fetcher.data });
  if (shown.unread !== unread) setShown({ count: unread, unread, data: fetcher.data });
  else if (shown.data !== fetcher.data && typeof fetcher.data?.count === "number")
    setShown({ count: fetcher.data.count, unread, data: fetcher.data });
  const count = shown.count;
  const load = fetcher.load;
  useEffect(() => {
    const timer = setInterval(() => {
      if (!document.hidden) void load("/notifications/count");
    }, NOTIFICATION_RECHECK_MS);
    return () => clearInterval(timer);
  }, [load]);

  const onCentre = location.pathname === "/notifications";
  const back = onCentre
    ? (new URLSearchParams(location.search).get("back") ?? "/cards")
    : location.pathname + location.search;
  const search = new URLSearchParams({ back });
  if (hydrated) search.set("observe", "1");
  const label =
    count === 0
      ? t("notificationCentre.bell")
      : t(count === 1 ? "notificationCentre.bellUnreadOne" : "notificationCentre.bellUnread", { count });
  return (
    <Link to={`${href("/notifications")}?${search.toString()}`} className="notification-bell" aria-label={label}>
      <svg className="notification-bell__icon" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
        <path
          fill="currentColor"
          d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3a1.5 1.5 0 0 0-3 0v1.16A7 7 0 0 0 5 11v5l-2 2v1h18v-1Z"
        />
      </svg>
      {count > 0 ? (
        <span className="notification-bell__count" aria-hidden="true">
          {count > 99 ? "99+" : count}
        </span>
      ) : null}
    </Link>
  );
}
