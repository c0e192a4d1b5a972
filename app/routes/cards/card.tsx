import { useTranslation } from "~/i18n";
import { useEffect, useRef, type SyntheticEvent } from "react";
import { href, Outlet, useLocation, useOutlet, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/card";
import { PageHeader } from "~/components/PageHeader";
import { CardVisual } from "~/components/CardVisual";
import { todayInParis } from "~/domain/dates";
import { accountContext, cardsOf } from "~/routes/+shared/auth.server";
import { getPlatform } from "~/.server/platform";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import { failedTo } from "~/routes/+shared/load-failure.server";
import { LoadFailure } from "~/components/LoadFailure";
import { getCardPage } from "~/.server/services/cards";
import { loadTransactionsForCard } from "~/.server/services/transactions";
import { TransactionsPanel } from "~/components/TransactionsPanel";
import { cardName, cardView, requestTranslator, transactionsView, type CardStateView } from "./card-view.server";
import { AppLink } from "~/components/AppLink";
import { Icon, type IconName } from "~/components/Icon";
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
  // The person's cards are the request's one listing (the layout's navigation reads the same): it says whether the
  // card is theirs, so the reads below need no ownership query of their own, and which card comes next.
  const cards = await cardsOf(context, db, account.id).catch(failedTo("nav.fetchCardsFailed"));
  const [page, transactions] = await Promise.all([
    // The card's detail is its linked wallets and the balances they make; the unused licences are counted beside it.
    getCardPage(db, account.id, params.cardId).catch(failedTo("cards.actions.fetchLinkedWalletsFailed")),
    loadTransactionsForCard(
      db,
      account.id,
      params.cardId,
      transactionsQuery(new URL(request.url).searchParams),
      cards,
    ).catch(failedTo("cards.actions.fetchCardTransactionsFailed")),
  ]);
  // Unknown or someone else's card: back to the list, never a hint that the id exists (spec 000 §8).
  if (!page || !transactions)
    throw await redirectWithFlash(request, "/cards", { kind: "error", message: "cards.notFound" });
  const { card, licences } = page;
  const index = cards.findIndex((c) => c.id === card.id);
  const next = cards.length > 1 ? cards[(index + 1) % cards.length] : undefined;
  // The page arrives in words (card-view.server.ts): its states match its delivery (issue 30 §1: in preparation or in
  // transit is not active), its figures and dates are written, its declines explained.
  const t = requestTranslator(context);
  return {
    card: cardView(t, card, todayInParis()),
    next: next ? { id: next.id, name: t("cards.nextCard", { card: cardName(t, next) }) } : null,
    faqUrl: env.FAQ_URL,
    transactions: transactionsView(t, transactions),
    addCard:
      licences.physical + licences.virtual > 0
        ? t("cards.addCard.available", { physical: licences.physical, virtual: licences.virtual })
        : null,
  };
}

/** A part of the card page that failed to load: said in the page's place, under the shell's navigation. */
export function ErrorBoundary() {
  const { t } = useTranslation();
  return <LoadFailure title={t("nav.cards")} />;
}

type CardData = Route.ComponentProps["loaderData"]["card"];

/** One entry of the card's menu: an icon (decoration) and its words; `rest` is a tag-manager click's attributes. */
function MenuLink({
  to,
  icon,
  children,
  ...rest
}: { to: string; icon: IconName; children: string } & Partial<ReturnType<typeof clickAttributes>>) {
  return (
    <li>
      <AppLink to={to} preventScrollReset {...rest}>
        <Icon name={icon} />
        {children}
      </AppLink>
    </li>
  );
}

/**
 * The card's actions (the spec's flyout menu, issue 30 §1: every action lives here, the PIN unlock included):
 * a disclosure that opens without JavaScript and floats over the page (app.css `.card-actions[open]`).
 */
function CardActions({ card, faqUrl }: { card: CardData; faqUrl: string }) {
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
  // With JavaScript, an opened menu is scrolled into view: on a phone its button sits low on the first screen.
  const reveal = (event: SyntheticEvent<HTMLDetailsElement>) => {
    if (event.currentTarget.open) event.currentTarget.querySelector(".card-menu")?.scrollIntoView({ block: "nearest" });
  };
  return (
    <details className="card-actions" ref={menu} onToggle={reveal}>
      <summary className="button button--secondary">
        {t("cards.menu.title")}
        <Icon name="chevron-down" className="card-actions__chevron" />
      </summary>
      <ul className="card-menu">
        {card.undelivered ? (
          <MenuLink to={href("/cards/:cardId/delivery", params)} icon="truck">
            {t("cards.menu.delivery")}
          </MenuLink>
        ) : null}
        <MenuLink to={href("/cards/:cardId/reveal", params)} icon="eye">
          {t(card.type === "virtual" ? "cards.menu.revealDetails" : "cards.menu.revealPin")}
        </MenuLink>
        {/* Spec 000 §4: only once the PIN can be chosen again, on a card that has reached its holder. */}
        {card.canUnlockPin ? (
          <MenuLink to={href("/cards/:cardId/unlock-pin", params)} icon="unlock">
            {t("cards.menu.unlockPin")}
          </MenuLink>
        ) : null}
        <MenuLink to={href("/cards/:cardId/freeze", params)} icon="snowflake">
          {t(card.frozen ? "cards.menu.unfreeze" : "cards.menu.freeze")}
        </MenuLink>
        <MenuLink
          to={href("/cards/:cardId/priority", params)}
          icon="arrows-up-down"
          {...click({ name: "clickShowWalletsPriority", properties: {} })}
        >
          {t("cards.menu.priority")}
        </MenuLink>
        <MenuLink to={href("/cards/:cardId/overflow", params)} icon="card">
          {t("cards.menu.overflow")}
        </MenuLink>
        <MenuLink
          to={href("/cards/:cardId/new-card", params)}
          icon="plus"
          {...click({ name: "clickCreateCard", properties: {} })}
        >
          {t("cards.menu.newCard")}
        </MenuLink>
        <MenuLink to={href("/cards/:cardId/stop", params)} icon="ban">
          {t("cards.menu.block")}
        </MenuLink>
        <li>
          <NewTabLink href={faqUrl}>
            <Icon name="help" />
            {t("cards.menu.faq")}
          </NewTabLink>
        </li>
      </ul>
    </details>
  );
}

const STATE_LOOKS: Record<CardStateView["kind"], { icon: IconName; tone: "ok" | "info" | "danger" }> = {
  active: { icon: "check", tone: "ok" },
  frozen: { icon: "snowflake", tone: "info" },
  blocked: { icon: "ban", tone: "danger" },
  preparing: { icon: "package", tone: "info" },
  shipped: { icon: "truck", tone: "info" },
  deliveryProblem: { icon: "warning", tone: "danger" },
};

/** One state of the card in words (the icon and colour only repeat them: ACCESSIBILITY.md, "colour is never the only carrier"). */
function CardStateLine({ state, cardId }: { state: CardStateView; cardId: string }) {
  const { t } = useTranslation();
  const look = STATE_LOOKS[state.kind];
  // Spec 000 §4: a returned card is off the steps but not in the danger colour; canceled and failure are.
  const tone = state.returned ? "info" : look.tone;
  return (
    <p className={`card-status card-status--${tone}`}>
      <Icon name={look.icon} />
      <span>
        {state.words}
        {state.kind === "deliveryProblem" ? (
          <>
            {" "}
            <AppLink to={href("/cards/:cardId/delivery", { cardId })} preventScrollReset>
              {t("cards.menu.delivery")}
            </AppLink>
          </>
        ) : null}
      </span>
    </p>
  );
}

/** What the card can spend (issue 30 §1: the first thing on a phone): the available balance big, then the rest. */
function CardBalances({ balances }: { balances: CardData["balances"] }) {
  const { t } = useTranslation();
  return (
    <section className="panel card-balances" aria-labelledby="balances-title">
      {/* Named for assistive technologies; on the screen the figures' own labels say it. */}
      <h2 id="balances-title" className="visually-hidden">
        {t("cards.balancesTitle")}
      </h2>
      <dl className="card-balances__list">
        <div className="card-balances__available">
          <dt>{t("cards.available")}</dt>
          <dd>{balances.available}</dd>
        </div>
        <div>
          <dt>{t("cards.reserved")}</dt>
          <dd>{balances.reserved}</dd>
        </div>
        <div>
          <dt>{t("cards.total")}</dt>
          <dd>{balances.total}</dd>
        </div>
      </dl>
      {/* One reserved figure, the wallet pages' (issue 30 §5): what it holds, when it holds anything. */}
      {balances.reservedNote ? <p className="hint card-balances__note">{balances.reservedNote}</p> : null}
      {balances.hasUnlimited ? <p className="hint card-balances__note">{t("cards.unlimitedNote")}</p> : null}
    </section>
  );
}

/** Each linked wallet and what it can pay, in debit order (spec 000 §2: each links to its wallet page). */
function LinkedWallets({ wallets }: { wallets: CardData["wallets"] }) {
  const { t } = useTranslation();
  return (
    <section className="panel card-wallets" aria-labelledby="wallets-title">
      <h2 id="wallets-title" className="card-page__subtitle">
        {t("cards.walletsTitle")}
      </h2>
      {wallets.length === 0 ? (
        <p>{t("cards.noLinkedWallet")}</p>
      ) : (
        <>
          <p className="hint card-wallets__hint">{t("cards.walletsHint")}</p>
          <ol className="card-wallets__list">
            {wallets.map((wallet) => (
              <li key={wallet.id}>
                <AppLink to={href("/wallets/:walletId", { walletId: wallet.id })}>{wallet.name}</AppLink>
                <span className="card-wallets__amount">{wallet.amount}</span>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}

export default function CardPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const click = useClickAttributes();
  const panel = useOutlet();
  const { card, next, faqUrl, transactions, addCard } = loaderData;
  const cardName = card.name;
  return (
    <>
      <div className="card-page__head">
        <PageHeader title={cardName} namesDocument={!panel} />
        <div className="card-page__state">
          {card.states.map((state) => (
            <CardStateLine key={state.kind} state={state} cardId={card.id} />
          ))}
          <p className="card-page__funder">{card.funder}</p>
        </div>
      </div>
      <Outlet />
      <div className="card-page">
        <CardBalances balances={card.balances} />
        <LinkedWallets wallets={card.wallets} />
        {/* After the wallets on a phone (the menu still on its first screen, the image after it); on a desktop the
            image comes first in the left column, the menu under it (card-page.css). */}
        <div className="card-page__side">
          {card.blocked ? null : <CardActions card={card} faqUrl={faqUrl} />}
          <section className="card-page__visual" aria-labelledby="card-visual-title">
            <h2 id="card-visual-title" className="visually-hidden">
              {cardName}
            </h2>
            <CardVisual type={card.type} brand={card.brand} lastFour={card.lastFour} frozen={card.frozen} />
          </section>
        </div>

        <TransactionsPanel {...transactions} />

        {addCard ? (
          <section className="panel add-card" aria-labelledby="add-card-title">
            <h2 id="add-card-title">{t("cards.addCard.title")}</h2>
            <p>{addCard}</p>
            <p>
              <AppLink
                to={href("/cards/:cardId/new-card", { cardId: card.id })}
                className="button button--secondary"
                preventScrollReset
                {...click({ name: "clickCreateCard", properties: {} })}
              >
                {t("cards.addCard.link")}
              </AppLink>
            </p>
          </section>
        ) : null}

        {next ? (
          <p className="next-card">
            <AppLink to={href("/cards/:cardId", { cardId: next.id })}>{next.name}</AppLink>
          </p>
        ) : null}
      </div>
    </>
  );
}
