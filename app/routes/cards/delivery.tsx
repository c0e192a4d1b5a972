import { useTranslation } from "~/i18n";
import { href, Link } from "react-router";
import type { Route } from "./+types/delivery";
import { Panel } from "~/components/Panel";
import { Icon } from "~/components/Icon";
import { formatDate } from "~/domain/dates";
import { DELIVERY_STEPS, deliveryStepOf, isDeliveryDanger, isDeliveryProblem } from "~/domain/delivery";
import { accountContext } from "~/routes/+shared/auth.server";
import { requireOwnCard } from "~/routes/+shared/guards.server";
import { getPlatform } from "~/.server/platform";
import { getShippingAddress } from "~/.server/services/cards";
import { internalPath, internalRedirect } from "~/routes/+shared/redirects.server";

/** Delivery tracking of a physical card not yet delivered (spec 000 §2 "Card delivery panel"). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const card = await requireOwnCard(request, context, params.cardId);
  if (card.type !== "physical" || !card.shipping)
    throw internalRedirect(internalPath("/cards/:cardId", { cardId: card.id }));
  const { db } = await getPlatform();
  const address = await getShippingAddress(db, context.get(accountContext).id, card.id);
  // The "problem" link opens the support chat about this card, closing back to this panel (issue 16 §5).
  const support = internalPath(
    "/support",
    {},
    { search: { card: card.id, back: internalPath("/cards/:cardId/delivery", { cardId: card.id }) } },
  );
  return { cardId: card.id, shipping: card.shipping, address, support };
}

export default function DeliveryPanel({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { cardId, shipping, address, support } = loaderData;
  const current = deliveryStepOf(shipping.status);
  const currentIndex = current ? DELIVERY_STEPS.indexOf(current) : -1;
  const problem = isDeliveryProblem(shipping.status);
  const danger = isDeliveryDanger(shipping.status);
  return (
    <Panel id="delivery" title={t("cards.delivery.panelTitle")} closeTo={href("/cards/:cardId", { cardId })}>
      <p className={danger ? "status-danger" : undefined}>
        <strong>{t("cards.delivery.statusLabel")} : </strong>
        {danger ? <Icon name="warning" /> : null}
        {t(`cards.delivery.${shipping.status}`, { defaultValue: shipping.status })}
        {problem ? ` – ${t("cards.delivery.problemHint")}` : null}
      </p>
      {!problem ? (
        <ol className="steps" aria-label={t("cards.delivery.stepsLabel")}>
          {DELIVERY_STEPS.map((step, index) => (
            <li key={step} aria-current={index === currentIndex ? "step" : undefined}>
              <span>{t(`cards.delivery.${step}`)}</span>
              <span className="steps__state">
                {index < currentIndex
                  ? t("cards.delivery.stepDone")
                  : index === currentIndex
                    ? t("cards.delivery.stepCurrent")
                    : t("cards.delivery.stepTodo")}
              </span>
            </li>
          ))}
        </ol>
      ) : null}
      {shipping.eta ? (
        <p>{t("cards.delivery.eta", { date: formatDate(shipping.eta) })}</p>
      ) : (
        <p>{t("cards.delivery.delay")}</p>
      )}
      {address ? (
        <>
          <h3>{t("cards.delivery.addressTitle")}</h3>
          <address className="address">
            {address.line1}
            <br />
            {address.line2 ? (
              <>
                {address.line2}
                <br />
              </>
            ) : null}
            {address.zipcode} {address.city}
            <br />
            {address.country}
          </address>
        </>
      ) : null}
      <p>
        <Link to={support} className="link-action">
          {t("cards.delivery.problemLink")}
        </Link>
      </p>
    </Panel>
  );
}
