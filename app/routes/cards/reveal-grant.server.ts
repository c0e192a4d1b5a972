import { commitSession, getSession } from "~/routes/+shared/request.server";
import { internalPath, internalRedirect } from "~/routes/+shared/redirects.server";
import { revealKindFor } from "~/.server/services/card-actions";
import type { CardDetail } from "~/.server/services/cards";

/**
 * What a fresh check of the person opens in the reveal panel (spec 000 §4 "Reveal", decision 0022): one showing
 * of that card's details or PIN, kept in the session for 5 minutes and spent by the show step (or by the issuer's
 * key, reveal-key.ts). A right code (reveal.tsx) and a right passkey (reveal-passkey.ts, issue 32 item 3) both
 * come here, so the two grant exactly the same thing.
 */
const GRANT_TTL_MS = 5 * 60 * 1000;

/** The reveal panel's step in the URL: the code to type, or the card's secret shown. */
export const revealStepPath = (cardId: string, step: "code" | "show") =>
  internalPath("/cards/:cardId/reveal", { cardId }, { search: { step } });

/** Grants one reveal of this card (its kind follows from the card) and goes to the show step. */
export async function grantReveal(request: Request, card: Pick<CardDetail, "id" | "type">): Promise<Response> {
  const session = await getSession(request);
  session.set("revealGrant", {
    cardId: card.id,
    kind: revealKindFor(card.type),
    expiresAt: new Date(Date.now() + GRANT_TTL_MS).toISOString(),
  });
  return internalRedirect(revealStepPath(card.id, "show"), { headers: { "Set-Cookie": await commitSession(session) } });
}
