import { useTranslation } from "~/i18n";
import { useEffect, useRef } from "react";
import { href, Link, Outlet, useLocation, useOutlet, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/card";
import { PageHeader } from "~/components/PageHeader";
import { CardVisual } from "~/components/CardVisual";
import { formatDate, todayInParis } from "~/domain/dates";
import { formatCents } from "~/domain/money";
import { accountContext } from "~/routes/+shared/auth.server";
import { getPlatform } from "~/.server/platform";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import { failedTo } from "~/routes/+shared/load-failure.server";
import { LoadFailure } from "~/components/LoadFailure";
import { availableCardLicences, getCardDetail, listCards } from "~/.server/services/cards";
import { loadTransactionsForCard } from "~/.server/services/transactions";
import { TransactionsPanel } from "~/components/TransactionsPanel";
import { deliveryHint } from "~/domain/delivery";
import { transactionsQuery } from "~/domain/transactions";
import { NewTabLink } from "~/components/NewTabLink";
import { clickAttributes, type ClickEvent } from "~/domain/tag-events";
import type { AppLayoutData } from "~/routes/shell/layout";

/** A link's tag-manager click (decision 0031): pinged to the server only when it records this person's events. */
function useClickAttributes() {
  const pingClicks = useRouteLoaderData<AppLayoutData>("routes/shell/layout")?.pingClicks ?? false;
  return (event: ClickEvent) => clickAttributes(event, pingClicks);
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const account = context.get(accountContext);
  const { db, env } = await getPlatform();
  // A part that fails names itself to the error boundary below (spec 000 §8); the shell's navigation stays.
  const [card, cards, transactions, licences] = await Promise.all([
    // The card's detail is its linked wallets and the balances they make.
    getCardDetail(db, account.id, params.cardId).catch(failedTo("cards.actions.fetchLinkedWalletsFailed")),
    listCards(db, account.id).catch(failedTo("nav.fetchCardsFailed")),
    loadTransactionsForCard(db, account.id, params.cardId, transactionsQuery(new URL(request.url).searchParams)).catch(
      failedTo("cards.actions.fetchCardTransactionsFailed"),
    ),
    availableCardLicences(db, account.id),
  ]);
  // Unknown or someone else's card: back to the list, never a hint that the id exists (spec 000 §8).
  if (!card || !transactions)
    throw await redirectWithFlash(request, "/cards", { kind: "error", message: "cards.notFound" });
  const index = cards.findIndex((c) => c.id === card.id);
  const next = cards.length > 1 ? cards[(index + 1) % cards.length] : undefined;
  const hint =
    card.type === "physical" && card.shipping
      ? deliveryHint(card.shipping.status, card.shipping.eta, todayInParis())
      : null;
  return { card, next: next ?? null, hint, faqUrl: env.FAQ_URL, transactions, licences };
}

/** A part of the card page that failed to load: said in the page's place, under the shell's navigation. */
export function ErrorBoundary() {
  const { t } = useTranslation();
  return <LoadFailure title={t("nav.cards")} />;
}

/** The card's actions (the spec's flyout menu): a disclosure that opens without JavaScript. */
function CardActions({ card, faqUrl }: { card: Route.ComponentProps["loaderData"]["card"]; faqUrl: string }) {
  const { t } = useTranslation();
  const click = useClickAttributes();
  const params = { cardId: card.id };
  // A new page (or panel) closes the menu, as a full page load would — the same element, not a new
  // one: a panel opened from the menu returns focus to its summary when it closes.
  const { key } = useLocation();
  const menu = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [key]);
  const undelivered = card.type === "physical" && card.shipping && card.shipping.status !== "delivered";
  return (
    <details className="card-actions" ref={menu}>
      <summary className="button button--secondary">{t("cards.menu.title")}</summary>
      <ul className="card-menu">
        {undelivered ? (
          <li>
            <Link to={href("/cards/:cardId/delivery", params)} preventScrollReset>
              {t("cards.menu.delivery")}
            </Link>
          </li>
        ) : null}
        <li>
          <Link to={href("/cards/:cardId/reveal", params)} preventScrollReset>
            {t(card.type === "virtual" ? "cards.menu.revealDetails" : "cards.menu.revealPin")}
          </Link>
        </li>
        <li>
          <Link
            to={href("/cards/:cardId/priority", params)}
            preventScrollReset
            {...click({ name: "clickShowWalletsPriority", properties: {} })}
          >
            {t("cards.menu.priority")}
          </Link>
        </li>
        <li>
          <Link to={href("/cards/:cardId/overflow", params)} preventScrollReset>
            {t("cards.menu.overflow")}
          </Link>
        </li>
        <li>
          <Link
            to={href("/cards/:cardId/new-card", params)}
            preventScrollReset
            {...click({ name: "clickCreateCard", properties: {} })}
          >
            {t("cards.menu.newCard")}
          </Link>
        </li>
        <li>
          <Link to={href("/cards/:cardId/freeze", params)} preventScrollReset>
            {t(card.frozen ? "cards.menu.unfreeze" : "cards.menu.freeze")}
          </Link>
        </li>
        <li>
          <Link to={href("/cards/:cardId/stop", params)} preventScrollReset>
            {t("cards.menu.block")}
          </Link>
        </li>
        <li>
          <NewTabLink href={faqUrl}>{t("cards.menu.faq")}</NewTabLink>
        </li>
      </ul>
    </details>
  );
}

export default function CardPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const click = useClickAttributes();
  const panel = useOutlet();
  const { card, next, hint, faqUrl, transactions, licences } = loaderData;
  const cardName = t(card.type === "virtual" ? "nav.virtualCard" : "nav.physicalCard", { lastFour: card.lastFour });
  const active = card.status !== "blocked";
  return (
    <>
      <PageHeader title={cardName} namesDocument={!panel}>
        {active ? (
          <div className="toolbar__actions">
            {card.pinCanUpdate ? (
              <Link
                to={href("/cards/:cardId/unlock-pin", { cardId: card.id })}
                className="button button--secondary"
                preventScrollReset
              >
                <span aria-hidden="true">🔒 </span>
                {t("cards.menu.unlockPin")}
              </Link>
            ) : null}
            <CardActions card={card} faqUrl={faqUrl} />
          </div>
        ) : null}
      </PageHeader>
      <Outlet />
      <div className="card-page">
        <section className="card-page__visual" aria-labelledby="card-visual-title">
          <h2 id="card-visual-title" className="visually-hidden">
            {cardName}
          </h2>
          <CardVisual type={card.type} brand={card.brand} lastFour={card.lastFour} frozen={card.frozen} />
          <p className="card-page__funder">{t("cards.funder", { group: card.groupName })}</p>
          <p className={`card-state${card.frozen || !active ? " card-state--warning" : ""}`}>
            {!active ? t("cards.blocked") : card.frozen ? t("cards.frozen") : t("cards.active")}
          </p>
          {hint && card.shipping ? (
            <p className={`delivery-status delivery-status--${card.shipping.status}`}>
              <strong>{t("cards.delivery.title")} : </strong>
              {hint.kind === "eta"
                ? `${t("cards.delivery.shipped")} – ${t("cards.delivery.eta", { date: formatDate(hint.date) })}`
                : t(`cards.delivery.${hint.status}`, { defaultValue: hint.status })}
            </p>
          ) : null}
        </section>

        <section className="panel" aria-labelledby="balances-title">
          <h2 id="balances-title">{t("cards.balancesTitle")}</h2>
          <dl className="balances">
            <div>
              <dt>{t("cards.available")}</dt>
              <dd>{formatCents(card.balances.available)}</dd>
            </div>
            <div>
              <dt>{t("cards.reserved")}</dt>
              <dd>{formatCents(card.balances.reserved)}</dd>
            </div>
            <div>
              <dt>{t("cards.total")}</dt>
              <dd>{formatCents(card.balances.total)}</dd>
            </div>
          </dl>
          {card.balances.hasUnlimited ? <p className="hint">{t("cards.unlimitedNote")}</p> : null}
        </section>

        <section className="panel" aria-labelledby="wallets-title">
          <h2 id="wallets-title">{t("cards.walletsTitle")}</h2>
          {card.linkedWallets.length === 0 ? (
            <p>{t("cards.noLinkedWallet")}</p>
          ) : (
            <>
              <p className="hint">{t("cards.walletsHint")}</p>
              <ol className="linked-wallets">
                {card.linkedWallets.map((wallet) => (
                  <li key={wallet.id}>
                    <Link to={href("/wallets/:walletId", { walletId: wallet.id })}>{wallet.name}</Link>
                    <span className="linked-wallets__amount">
                      {wallet.available === null ? t("cards.unlimited") : formatCents(wallet.available)}
                    </span>
                  </li>
                ))}
              </ol>
            </>
          )}
        </section>

        <TransactionsPanel {...transactions} />

        {licences.physical + licences.virtual > 0 ? (
          <section className="panel add-card" aria-labelledby="add-card-title">
            <h2 id="add-card-title">{t("cards.addCard.title")}</h2>
            <p>{t("cards.addCard.available", { physical: licences.physical, virtual: licences.virtual })}</p>
            <p>
              <Link
                to={href("/cards/:cardId/new-card", { cardId: card.id })}
                className="button button--secondary"
                preventScrollReset
                {...click({ name: "clickCreateCard", properties: {} })}
              >
                {t("cards.addCard.link")}
              </Link>
            </p>
          </section>
        ) : null}

        {next ? (
          <p className="next-card">
            <Link to={href("/cards/:cardId", { cardId: next.id })}>
              {t("cards.nextCard", {
                card: t(next.type === "virtual" ? "nav.virtualCard" : "nav.physicalCard", { lastFour: next.lastFour }),
              })}
            </Link>
          </p>
        ) : null}
      </div>
    </>
  );
}
