import type { RouterContextProvider } from "react-router";
import type { Route } from "./+types/reveal-passkey";
import { accountContext } from "~/routes/+shared/auth.server";
import { requireActiveCard } from "~/routes/+shared/guards.server";
import { passkeyCeremony } from "~/routes/+shared/passkey-ceremony.server";
import { internalPath, internalRedirect } from "~/routes/+shared/redirects.server";
import { getPlatform } from "~/.server/platform";
import { revealKindFor } from "~/.server/services/card-actions";
import { authenticationOptions, finishAuthentication, type PasskeyCeremony } from "~/.server/services/passkeys";
import { grantReveal } from "./reveal-grant.server";

/**
 * The reveal with a passkey instead of a code (issue 32 item 3; spec 000 §4 "Reveal"): the reveal panel's
 * passkey button runs the ceremony of Contract P2 here. The challenge is bound to this card and this kind of
 * reveal (`<cardId>:<details|pin>`) and to the person's session; user verification is required (the phone's
 * unlock). Once right, exactly what a right code gives: one reveal of that card for 5 minutes (grantReveal),
 * then the show step. Only the signed-in person's own active card: another's or a blocked one leads where
 * the code path leads (requireActiveCard), as a `{ to }` the button follows.
 */
async function revealCeremony(request: Request, context: Readonly<RouterContextProvider>, cardId: string | undefined) {
  const card = await requireActiveCard(request, context, cardId);
  const ceremony: PasskeyCeremony = {
    purpose: "reveal",
    userId: context.get(accountContext).id,
    target: `${card.id}:${revealKindFor(card.type)}`,
  };
  return { card, ceremony };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { db, relyingParty } = await getPlatform();
  return passkeyCeremony(request, {
    options: async (binding) => {
      const { ceremony } = await revealCeremony(request, context, params.cardId);
      return authenticationOptions(db, relyingParty, ceremony, binding);
    },
    verify: async (binding, answer) => {
      const { card, ceremony } = await revealCeremony(request, context, params.cardId);
      const outcome = await finishAuthentication(db, relyingParty, ceremony, binding, answer);
      return outcome.kind === "ok" ? grantReveal(request, card) : outcome;
    },
  });
}

/** Opened as a page: the reveal panel. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const card = await requireActiveCard(request, context, params.cardId);
  return internalRedirect(internalPath("/cards/:cardId/reveal", { cardId: card.id }));
}
