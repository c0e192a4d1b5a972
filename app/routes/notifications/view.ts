import { href } from "react-router";

/**
 * What the notification centre's address says (decision 0030): `back`, the signed-in page it sits over;
 * `unread=1`, unread only; `page`, how many pages of 15 are shown; `observe=1`, set by the bell and the
 * panel's links once JavaScript runs, so that the notifications are marked read when seen, not when rendered.
 */
export interface NotificationView {
  back: string;
  unreadOnly: boolean;
  page: number;
  observe: boolean;
}

/** The query string of a view (the links of the panel, the redirects of its action). */
export function viewSearch(view: NotificationView, changes: Partial<NotificationView> = {}): Record<string, string> {
  const next = { ...view, ...changes };
  const search: Record<string, string> = { back: next.back };
  if (next.unreadOnly) search.unread = "1";
  if (next.page > 1) search.page = String(next.page);
  if (next.observe) search.observe = "1";
  return search;
}

export function viewHref(view: NotificationView, changes: Partial<NotificationView> = {}): string {
  return `${href("/notifications")}?${new URLSearchParams(viewSearch(view, changes)).toString()}`;
}
