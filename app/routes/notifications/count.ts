import type { Route } from "./+types/count";
import { getPlatform } from "~/.server/platform";
import { countUnread } from "~/.server/services/notifications";
import { accountContext } from "~/routes/+shared/auth.server";

/** The bell's unread count, read again by the page with JS at most every 30 s (spec 000 §4). */
export async function loader({ context }: Route.LoaderArgs) {
  const { db } = await getPlatform();
  return { count: await countUnread(db, context.get(accountContext).id) };
}
