import type { Route } from "./+types/events";
import { parseClickEvent } from "~/domain/tag-events";
import { getPlatform } from "~/.server/platform";
import { recordClick } from "~/.server/services/tag-events";
import { accountContext } from "~/routes/+shared/auth.server";
import { errorPage } from "~/routes/+shared/error-page.server";

/**
 * The tag manager's link clicks (decision 0031): a link's `ping="/events?name=…"` is posted here by the
 * browser while it follows the link (Chromium and Safari, without JavaScript; `Content-Type: text/ping`,
 * let through for this path only by server/security.ts), or sent as a beacon by the portal's script when
 * JavaScript navigates instead. A query the portal's links never send, or a menu target that is not this
 * person's, is a 400 and nothing is recorded. Nobody waits for the answer: 204, nothing in it.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const account = context.get(accountContext);
  const event = parseClickEvent(new URL(request.url).searchParams);
  if (!event) return refused();
  const result = await recordClick(await getPlatform(), account.id, event);
  if (result.kind === "refused") return refused();
  return new Response(null, { status: 204 });
}

/** Nothing to see here: a ping is a post. */
export function loader() {
  return new Response(errorPage(404), { status: 404, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

function refused() {
  return new Response(errorPage(400), { status: 400, headers: { "Content-Type": "text/html; charset=utf-8" } });
}
