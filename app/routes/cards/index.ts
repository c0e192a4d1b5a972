import type { Route } from "./+types/index";
import { accountContext } from "~/routes/+shared/auth.server";
import { getPlatform } from "~/.server/platform";
import { listCards } from "~/.server/services/cards";
import { internalPath, internalRedirect } from "~/routes/+shared/redirects.server";

/** The first card, or onboarding when there is none (spec 000 §2). */
export async function loader({ context }: Route.LoaderArgs) {
  const account = context.get(accountContext);
  const { db } = await getPlatform();
  const [first] = await listCards(db, account.id);
  return internalRedirect(first ? internalPath("/cards/:cardId", { cardId: first.id }) : "/onboarding");
}
