import { useTranslation, type Translate } from "~/i18n";
import { useEffect, useRef, type SyntheticEvent } from "react";
import { href, Link, Outlet, useLocation, useOutlet, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/card";
import { PageHeader } from "~/components/PageHeader";
import { CardVisual } from "~/components/CardVisual";
import { formatDate, todayInParis } from "~/domain/dates";
import { formatCents } from "~/domain/money";
import { accountContext, cardsOf } from "~/routes/+shared/auth.server";
import { getPlatform } from "~/.server/platform";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import { failedTo } from "~/routes/+shared/load-failure.server";
import { LoadFailure } from "~/components/LoadFailure";
import { availableCardLicences, getCardDetail } from "~/.server/services/cards";
import { loadTransactionsForCard } from "~/.server/services/transactions";
import { TransactionsPanel } from "~/components/TransactionsPanel";
import { canUnlockPin, cardStates, isUndelivered, type CardState } from "~/domain/delivery";
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
  const [card, transactions, licences] = await Promise.all([
    // The card's detail is its linked wallets and the balances they make.
    getCardDetail(db, account.id, params.cardId).catch(failedTo("cards.actions.fetchLinkedWalletsFailed")),
    loadTransactionsForCard(
      db,
      account.id,
      params.cardId,
      transactionsQuery(new URL(request.url).searchParams),
      cards,
    ).catch(failedTo("cards.actions.fetchCardTransactionsFailed")),
    availableCardLicences(db, account.id),
  ]);
  // Unknown or someone else's card: back to the list, never a hint that the id exists (spec 000 §8).
  if (!card || !transactions)
    throw await redirectWithFlash(request, "/cards", { kind: "error", message: "cards.notFound" });
  const index = cards.findIndex((c) => c.id === card.id);
  const next = cards.length > 1 ? cards[(index + 1) % cards.length] : undefined;
  // The card's state in words that match its delivery (issue 30 §1): in preparation or in transit is not active.
  const states = cardStates(card, todayInParis());
  return { card, next: next ?? null, states, faqUrl: env.FAQ_URL, transactions, licences };
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
      <Link to={to} preventScrollReset {...rest}>
        <Icon name={icon} />
        {children}
      </Link>
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
        {isUndelivered(card) ? (
          <MenuLink to={href("/cards/:cardId/delivery", params)} icon="truck">
            {t("cards.menu.delivery")}
          </MenuLink>
        ) : null}
        <MenuLink to={href("/cards/:cardId/reveal", params)} icon="eye">
          {t(card.type === "virtual" ? "cards.menu.revealDetails" : "cards.menu.revealPin")}
        </MenuLink>
        {/* Spec 000 §4: only once the PIN can be chosen again, on a card that has reached its holder. */}
        {canUnlockPin(card) ? (
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

const STATE_LOOKS: Record<CardState["kind"], { icon: IconName; tone: "ok" | "info" | "danger" }> = {
  active: { icon: "check", tone: "ok" },
  frozen: { icon: "snowflake", tone: "info" },
  blocked: { icon: "ban", tone: "danger" },
  preparing: { icon: "package", tone: "info" },
  shipped: { icon: "truck", tone: "info" },
  deliveryProblem: { icon: "warning", tone: "danger" },
};

/** Spec 000 §4's words for a state: the estimated date only while shipped with a date still ahead. */
function stateWords(t: ReturnType<typeof useTranslation>["t"], state: CardState): string {
  switch (state.kind) {
    case "active":
    case "frozen":
    case "blocked":
      return t(`cards.${state.kind}`);
    case "preparing":
      return t("cards.status.preparing");
    case "shipped":
      return state.eta ? t("cards.status.shippedEta", { date: formatDate(state.eta) }) : t("cards.status.shipped");
    case "deliveryProblem":
      return t(`cards.status.${state.status}`);
  }
}

/** One state of the card in words (the icon and colour only repeat them: ACCESSIBILITY.md, "colour is never the only carrier"). */
function CardStateLine({ state, cardId }: { state: CardState; cardId: string }) {
  const { t } = useTranslation();
  const look = STATE_LOOKS[state.kind];
  // Spec 000 §4: a returned card is off the steps but not in the danger colour; canceled and failure are.
  const tone = state.kind === "deliveryProblem" && state.status === "returned" ? "info" : look.tone;
  return (
    <p className={`card-status card-status--${tone}`}>
      <Icon name={look.icon} />
      <span>
        {stateWords(t, state)}
        {state.kind === "deliveryProblem" ? (
          <>
            {" "}
            <Link to={href("/cards/:cardId/delivery", { cardId })} preventScrollReset>
              {t("cards.menu.delivery")}
            </Link>
          </>
        ) : null}
      </span>
    </p>
  );
}

/** What the card can spend (issue 30 §1: the first thing on a phone): the available balance big, then the rest. */
/** What the card's reserved figure holds, its non-zero parts only: a phone's first screen has little room. */
function reservedParts(t: Translate, { reservedParts: parts }: CardData["balances"]): string {
  const values = { frozen: formatCents(parts.frozen), refundHolds: formatCents(parts.refundHolds) };
  if (parts.frozen > 0 && parts.refundHolds > 0) return t("cards.reservedParts.both", values);
  return t(parts.frozen > 0 ? "cards.reservedParts.frozen" : "cards.reservedParts.refundHolds", values);
}

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
          <dd>{formatCents(balances.available)}</dd>
        </div>
        <div>
          <dt>{t("cards.reserved")}</dt>
          <dd>{formatCents(balances.reserved)}</dd>
        </div>
        <div>
          <dt>{t("cards.total")}</dt>
          <dd>{formatCents(balances.total)}</dd>
        </div>
      </dl>
      {/* One reserved figure, the wallet pages' (issue 30 §5): what it holds, when it holds anything. */}
      {balances.reserved > 0 ? <p className="hint card-balances__note">{reservedParts(t, balances)}</p> : null}
      {balances.hasUnlimited ? <p className="hint card-balances__note">{t("cards.unlimitedNote")}</p> : null}
    </section>
  );
}

/** Each linked wallet and what it can pay, in debit order (spec 000 §2: each links to its wallet page). */
function LinkedWallets({ wallets }: { wallets: CardData["linkedWallets"] }) {
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
                <Link to={href("/wallets/:walletId", { walletId: wallet.id })}>{wallet.name}</Link>
                <span className="card-wallets__amount">
                  {wallet.available === null ? t("cards.unlimited") : formatCents(wallet.available)}
                </span>
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
  const { card, next, states, faqUrl, transactions, licences } = loaderData;
  const cardName = t(card.type === "virtual" ? "nav.virtualCard" : "nav.physicalCard", { lastFour: card.lastFour });
  return (
    <>
      <div className="card-page__head">
        <PageHeader title={cardName} namesDocument={!panel} />
        <div className="card-page__state">
          {states.map((state) => (
            <CardStateLine key={state.kind} state={state} cardId={card.id} />
          ))}
          <p className="card-page__funder">{t("cards.funder", { group: card.groupName })}</p>
        </div>
      </div>
      <Outlet />
      <div className="card-page">
        <CardBalances balances={card.balances} />
        <LinkedWallets wallets={card.linkedWallets} />
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
