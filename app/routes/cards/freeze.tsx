import { useTranslation } from "~/i18n";
import { Form, href, Link } from "react-router";
import type { Route } from "./+types/freeze";
import { Panel } from "~/components/Panel";
import { accountContext } from "~/routes/+shared/auth.server";
import { requireActiveCard } from "~/routes/+shared/guards.server";
import { getPlatform } from "~/.server/platform";
import { internalPath } from "~/routes/+shared/redirects.server";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import { setCardFrozen } from "~/.server/services/card-actions";
import { intents } from "~/routes/+shared/intents";
import { intentOf } from "~/routes/+shared/intents.server";

const INTENT = intents("freeze", "unfreeze");

/** Freeze or unfreeze, after a confirmation step (spec 000 §2 flyout, §4 "Frozen"). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const card = await requireActiveCard(request, context, params.cardId);
  return { cardId: card.id, frozen: card.frozen };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const card = await requireActiveCard(request, context, params.cardId);
  // An unknown intent is a 400 in French, as on every route.
  const intent = intentOf(await request.formData(), INTENT);
  let freeze: boolean;
  switch (intent) {
    case INTENT.freeze:
      freeze = true;
      break;
    case INTENT.unfreeze:
      freeze = false;
      break;
  }
  const { db, issuer } = await getPlatform();
  const result = await setCardFrozen(db, issuer, context.get(accountContext).id, card.id, freeze);
  // "already": someone (another tab) did it first; the card is in the state the user asked for.
  const ok = result.kind === "ok" || result.kind === "already";
  const message = freeze
    ? ok
      ? "cards.actions.freezeSuccess"
      : "cards.actions.freezeFail"
    : ok
      ? "cards.actions.unfreezeSuccess"
      : "cards.actions.unfreezeFail";
  return redirectWithFlash(request, internalPath("/cards/:cardId", { cardId: card.id }), {
    kind: ok ? "success" : "error",
    message,
  });
}

export default function FreezePanel({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { cardId, frozen } = loaderData;
  const title = t(frozen ? "cards.freeze.unfreezeTitle" : "cards.freeze.freezeTitle");
  return (
    <Panel id="freeze" title={title} closeTo={href("/cards/:cardId", { cardId })}>
      <p>{t(frozen ? "cards.freeze.unfreezeText" : "cards.freeze.freezeText")}</p>
      <Form method="post" className="actions" preventScrollReset>
        <button type="submit" name="intent" value={frozen ? INTENT.unfreeze : INTENT.freeze} className="button">
          {t(frozen ? "cards.freeze.unfreezeConfirm" : "cards.freeze.freezeConfirm")}
        </button>
        <Link to={href("/cards/:cardId", { cardId })} className="link-action">
          {t("cards.freeze.cancel")}
        </Link>
      </Form>
    </Panel>
  );
}
