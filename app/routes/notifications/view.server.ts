import { safeRedirectPath } from "~/.server/session";
import { refusal } from "~/routes/+shared/request.server";
import type { NotificationView } from "./view";

/**
 * The view of a request's address. `back` is kept only when it is a signed-in page of this site (the
 * sign-in's own check), else /cards; a page that is not a small positive number is a 404.
 */
export function viewOf(request: Request): NotificationView {
  const params = new URL(request.url).searchParams;
  const pageText = params.get("page") ?? "1";
  if (!/^[1-9]\d{0,3}$/.test(pageText)) throw refusal(404, "notificationCentre.pageNotFound");
  const back = safeRedirectPath(params.get("back"), "/cards");
  return {
    // The centre over itself would close onto itself.
    back: back.startsWith("/notifications") ? "/cards" : back,
    unreadOnly: params.get("unread") === "1",
    page: Number(pageText),
    observe: params.get("observe") === "1",
  };
}
