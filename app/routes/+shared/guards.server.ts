import type { RouterContextProvider } from "react-router";
import { accountContext } from "~/routes/+shared/auth.server";
import { getPlatform } from "~/.server/platform";
import { internalPath } from "~/routes/+shared/redirects.server";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import { getCardDetail, type CardDetail } from "~/.server/services/cards";

/**
 * The signed-in user's card named in the URL, for the card page and its panels. Unknown or foreign
 * ids go back to /cards with a message (spec 000 §8), and never reveal whether the id exists.
 */
export async function requireOwnCard(
  request: Request,
  context: Readonly<RouterContextProvider>,
  cardId: string | undefined,
): Promise<CardDetail> {
  const account = context.get(accountContext);
  const { db } = await getPlatform();
  const card = cardId ? await getCardDetail(db, account.id, cardId) : null;
  if (!card) throw await redirectWithFlash(request, "/cards", { kind: "error", message: "cards.notFound" });
  return card;
}

/** The same, for actions that need a usable card: a blocked card goes back to its page with a message. */
export async function requireActiveCard(
  request: Request,
  context: Readonly<RouterContextProvider>,
  cardId: string | undefined,
): Promise<CardDetail> {
  const card = await requireOwnCard(request, context, cardId);
  if (card.status === "blocked") {
    throw await redirectWithFlash(request, internalPath("/cards/:cardId", { cardId: card.id }), {
      kind: "error",
      message: "cards.actions.blockedCard",
    });
  }
  return card;
}
