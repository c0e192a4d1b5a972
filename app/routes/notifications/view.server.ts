import { panelBack } from "~/routes/+shared/back.server";
import { refusal } from "~/routes/+shared/request.server";
import type { NotificationView } from "./view";

/**
 * The view of a request's address. `back` follows the panels' one rule (`panelBack`: a signed-in page of
 * this site, never the centre itself, else /cards); a page that is not a small positive number is a 404.
 */
export function viewOf(request: Request): NotificationView {
  const params = new URL(request.url).searchParams;
  const pageText = params.get("page") ?? "1";
  if (!/^[1-9]\d{0,3}$/.test(pageText)) throw refusal(404, "notificationCentre.pageNotFound");
  return {
    back: panelBack(params.get("back"), { self: "/notifications" }),
    unreadOnly: params.get("unread") === "1",
    page: Number(pageText),
    observe: params.get("observe") === "1",
  };
}
