import { useTranslation } from "~/i18n";
import { Form, Link } from "react-router";
import type { Route } from "./+types/freeze";
import { Panel } from "~/components/Panel";
import { accountContext } from "~/routes/+shared/auth.server";
import { requireActiveCard } from "~/routes/+shared/guards.server";
import { getPlatform } from "~/.server/platform";
import { internalPath } from "~/routes/+shared/redirects.server";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import { setCardFrozen } from "~/.server/services/card-actions";

/** Freeze or unfreeze, after a confirmation step (spec 000 §2 flyout, §4 "Frozen"). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const card = await requireActiveCard(request, context, params.cardId);
  return { cardId: card.id, frozen: card.frozen };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const card = await requireActiveCard(request, context, params.cardId);
  const intent = (await request.formData()).get("intent");
  if (intent !== "freeze" && intent !== "unfreeze") {
    return redirectWithFlash(request, internalPath("/cards/:cardId/freeze", { cardId: card.id }), { kind: "error", message: "errors.unknownIntent" });
  }
  const freeze = intent === "freeze";
  const { db, issuer } = await getPlatform();
  const result = await setCardFrozen(db, issuer, context.get(accountContext).id, card.id, freeze);
  // "already": someone (another tab) did it first; the card is in the state the user asked for.
  const ok = result === "ok" || result === "already";
  const message = freeze ? (ok ? "cards.actions.freezeSuccess" : "cards.actions.freezeFail") : ok ? "cards.actions.unfreezeSuccess" : "cards.actions.unfreezeFail";
  return redirectWithFlash(request, internalPath("/cards/:cardId", { cardId: card.id }), { kind: ok ? "success" : "error", message });
}

export default function FreezePanel({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { cardId, frozen } = loaderData;
  const title = t(frozen ? "cards.freeze.unfreezeTitle" : "cards.freeze.freezeTitle");
  return (
    <Panel id="freeze" title={title} closeTo={`/cards/${cardId}`}>
      <p>{t(frozen ? "cards.freeze.unfreezeText" : "cards.freeze.freezeText")}</p>
      <Form method="post" className="actions" preventScrollReset>
        <button type="submit" name="intent" value={frozen ? "unfreeze" : "freeze"} className="button">
          {t(frozen ? "cards.freeze.unfreezeConfirm" : "cards.freeze.freezeConfirm")}
        </button>
        <Link to={`/cards/${cardId}`} className="link-action">
          {t("cards.freeze.cancel")}
        </Link>
      </Form>
    </Panel>
  );
}
