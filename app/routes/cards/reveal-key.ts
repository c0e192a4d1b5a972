import type { Route } from "./+types/reveal-key";
import { accountContext } from "~/routes/+shared/auth.server";
import { requireActiveCard } from "~/routes/+shared/guards.server";
import { getPlatform } from "~/.server/platform";
import { commitSession, getSession } from "~/routes/+shared/request.server";
import { openRevealSession, revealKindFor } from "~/.server/services/card-actions";
import { grantsReveal } from "~/.server/session";
import { internalPath, internalRedirect } from "~/routes/+shared/redirects.server";

/**
 * Stripe Issuing Elements' ephemeral key (decision 0018): the reveal panel's script posts the nonce
 * Stripe.js made for the card; with the grant a valid one-time code gave (spent here, once), the
 * issuer makes a key for that nonce and the signed-in person's own card — found among theirs, never
 * from what the browser sent — and only its secret goes back, as JSON.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const card = await requireActiveCard(request, context, params.cardId);
  const account = context.get(accountContext);
  const kind = revealKindFor(card.type);
  const { db, issuer } = await getPlatform();
  const nonce = (await request.formData()).get("nonce");
  const session = await getSession(request);
  const grant = session.get("revealGrant");
  session.unset("revealGrant");
  const headers = { "Cache-Control": "no-store", "Set-Cookie": await commitSession(session) };
  if (!grantsReveal(grant, card.id, kind))
    return Response.json({ error: "cards.reveal.elements.keyFailed" }, { status: 403, headers });
  if (typeof nonce !== "string" || !/^[\w-]{1,200}$/.test(nonce))
    return Response.json({ error: "cards.reveal.elements.nonceFailed" }, { status: 400, headers });
  const revealSession = await openRevealSession(db, issuer, account.id, card.id, kind, nonce);
  if (revealSession.kind !== "elements")
    return Response.json({ error: "cards.reveal.elements.keyFailed" }, { status: 502, headers });
  return Response.json({ ephemeralKeySecret: revealSession.ephemeralKeySecret }, { headers });
}

/** Opened as a page: the reveal panel. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const card = await requireActiveCard(request, context, params.cardId);
  return internalRedirect(internalPath("/cards/:cardId/reveal", { cardId: card.id }));
}
