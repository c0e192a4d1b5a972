import { panelBack } from "~/routes/+shared/back.server";
import { refusal } from "~/routes/+shared/request.server";
import type { NotificationView } from "./view";
import { NOTIFICATIONS_MAX_PAGE } from "~/.server/services/notifications";

/**
 * The view of a request's address. `back` follows the panels' one rule (`panelBack`: a signed-in page of
 * this site, never the centre itself, else /cards); a page that is not a whole number from 1 to
 * NOTIFICATIONS_MAX_PAGE is a 404 (a page past the last).
 */
export function viewOf(request: Request): NotificationView {
  const params = new URL(request.url).searchParams;
  const pageText = params.get("page") ?? "1";
  if (!/^[1-9]\d?$/.test(pageText) || Number(pageText) > NOTIFICATIONS_MAX_PAGE)
    throw refusal(404, "notificationCentre.pageNotFound");
  return {
    back: panelBack(params.get("back"), { self: "/notifications" }),
    unreadOnly: params.get("unread") === "1",
    page: Number(pageText),
    observe: params.get("observe") === "1",
  };
}
