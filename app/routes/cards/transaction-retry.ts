import type { Route } from "./+types/transaction-retry";
import { accountContext } from "~/routes/+shared/auth.server";
import { requireOwnCard } from "~/routes/+shared/guards.server";
import { getPlatform } from "~/.server/platform";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import { retryOverflowPayment } from "~/.server/services/overflow";
import { internalPath, internalRedirect } from "~/routes/+shared/redirects.server";

/**
 * Spec 000 §4 "Retry of a failed overflow payment": a POST from the transaction; back to the card.
 * Opened as a page, it leads to the card, found among the user's own (never the id as it came).
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const card = await requireOwnCard(request, context, params.cardId);
  return internalRedirect(internalPath("/cards/:cardId", { cardId: card.id }));
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const card = await requireOwnCard(request, context, params.cardId);
  const { db, payments } = await getPlatform();
  const result = await retryOverflowPayment(
    db,
    payments,
    context.get(accountContext).id,
    card.id,
    params.authorizationId,
  );
  const back = internalPath("/cards/:cardId", { cardId: card.id }, { hash: `tx-${params.authorizationId}` });
  const outcomes = {
    succeeded: ["success", "cards.transactions.retrySucceeded"],
    failed: ["error", "cards.transactions.retryOverflowFailed"],
    noDefaultCard: ["error", "cards.transactions.retryNoDefaultCard"],
    nothingToRetry: ["error", "cards.transactions.retryNothing"],
    processorFailed: ["error", "cards.transactions.retryUnavailable"],
    notFound: ["error", "cards.transactions.retryNothing"],
  } as const;
  const [kind, message] = outcomes[result.kind];
  return redirectWithFlash(request, back, { kind, message });
}
