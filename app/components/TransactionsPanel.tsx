import { Form, href } from "react-router";
import { useId } from "react";
import { FROZEN_PAGE_SIZE, TRANSACTIONS_PAGE_SIZE } from "~/domain/transactions";
import { useTranslation } from "~/i18n";
import type {
  DeclineExplanationView,
  TransactionRow,
  TransactionsPanelView,
  TransactionTab,
} from "~/domain/transactions";
import { AppLink } from "~/components/AppLink";
import { useRevealNewItems } from "~/components/useRevealNewItems";

/**
 * The prefix of an item's id (its #fragment): a payment waiting for its capture is listed in the tab and among the
 * reserved amounts, each under an id of its own.
 */
type Anchor = "tx" | "reserved";

const TABS: TransactionTab[] = ["approved", "declined"];

/**
 * Why a card payment was declined, in plain words with its figures (issue 30 §3), as the server worded it: the
 * binding cause, the figures beside a rule's reason, then each wallet's and the saved card's line.
 */
function DeclineLines({ explanation }: { explanation: DeclineExplanationView }) {
  const listId = useId();
  const { cause, figures, list } = explanation;
  return (
    <div className="decline-explanation">
      <p className="decline-explanation__cause" id={figures ? undefined : listId}>
        {cause}
      </p>
      {figures ? (
        <p className="decline-explanation__figures" id={listId}>
          {figures}
        </p>
      ) : null}
      {list ? (
        <ul className="decline-explanation__list" aria-labelledby={listId}>
          {list.map((line, index) => (
            <li key={`${index}-${line}`}>{line}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** Which wallets paid how much — or hold it, for a reserved amount — as a list (spec 000 §2/§3, issue 17). */
function SplitLines({ split }: { split: NonNullable<TransactionRow["split"]> }) {
  const labelId = useId();
  return (
    <div className="tx__split">
      <span id={labelId}>{split.label}</span>
      <ul aria-labelledby={labelId}>
        {split.parts.map((part) => (
          <li key={part}>{part}</li>
        ))}
      </ul>
    </div>
  );
}

function TransactionItem({ item, cardId, anchor }: { item: TransactionRow; cardId: string; anchor: Anchor }) {
  const { t } = useTranslation();
  // Which transaction a link or button is about, for assistive technologies.
  const context =
    item.canSwitch || item.canReport || item.overflow?.failed
      ? t("cards.transactions.reportContext", { merchant: item.merchant, date: item.date })
      : "";
  const ids = { cardId, authorizationId: item.id };
  return (
    // tabIndex -1: "Voir plus" moves focus here (with JS) or scrolls here (#tx-… without JS).
    <li className="tx" id={`${anchor}-${item.id}`} tabIndex={-1}>
      <div className="tx__main">
        <span className="tx__merchant">{item.merchant}</span>
        <span className="tx__meta">
          {item.city} · <time dateTime={item.at}>{item.date}</time>
        </span>
        {item.status ? <span className={`tx__status tx__status--${item.status.tone}`}>{item.status.words}</span> : null}
      </div>
      <span className={`tx__amount tx__amount--${item.debit ? "debit" : "none"}`}>{item.amount}</span>
      {item.explanation ? <DeclineLines explanation={item.explanation} /> : null}
      {item.split ? <SplitLines split={item.split} /> : null}
      {item.overflow ? (
        <div className={`tx__overflow${item.overflow.failed ? " tx__overflow--failed" : ""}`}>
          <span>{item.overflow.words}</span>
          {item.overflow.failed ? (
            <Form
              method="post"
              action={href("/cards/:cardId/transactions/:authorizationId/retry", ids)}
              preventScrollReset
            >
              <button type="submit" className="button button--secondary button--small">
                {t("cards.transactions.retry")}
                <span className="visually-hidden"> {context}</span>
              </button>
            </Form>
          ) : null}
        </div>
      ) : null}
      {item.canSwitch ? (
        <AppLink className="tx__report" to={href("/cards/:cardId/transactions/:authorizationId/payment-methods", ids)}>
          {t("cards.switch.link")} <span className="visually-hidden">{context}</span>
        </AppLink>
      ) : null}
      {item.canReport ? (
        <AppLink className="tx__report" to={href("/cards/:cardId/transactions/:authorizationId/report", ids)}>
          {t("cards.transactions.report")} <span className="visually-hidden">{context}</span>
        </AppLink>
      ) : null}
    </li>
  );
}

/**
 * The card's transactions (spec 000 §2 "Transactions tabs"): approved and declined tabs as links
 * (`?tab=`, aria-current on the current one; not the ARIA tab pattern), 7 per page with "Voir plus"
 * (`?limit=`), and the reserved amounts (frozen authorizations), 5 per page (`?frozenLimit=`).
 */
export function TransactionsPanel({
  cardId,
  tab,
  limit,
  items,
  hasMore,
  nextId,
  frozenLimit,
  frozen,
}: TransactionsPanelView) {
  const { t } = useTranslation();
  const announcement = useRevealNewItems(
    items.map((item) => item.id),
    (id) => `tx-${id}`,
    (count) => (count === 1 ? t("cards.transactions.moreShownOne") : t("cards.transactions.moreShown", { count })),
  );
  const frozenAnnouncement = useRevealNewItems(
    frozen.items.map((item) => item.id),
    (id) => `reserved-${id}`,
    (count) =>
      count === 1 ? t("cards.transactions.moreFrozenShownOne") : t("cards.transactions.moreFrozenShown", { count }),
  );
  /** This card's page with the panel's state changed; the defaults stay out of the URL. */
  const pageWith = (next: { tab?: TransactionTab; limit?: number; frozenLimit?: number }, hash: string) => {
    const state = { tab, limit, frozenLimit, ...next };
    const params = new URLSearchParams();
    if (state.tab !== "approved") params.set("tab", state.tab);
    if (state.limit !== TRANSACTIONS_PAGE_SIZE) params.set("limit", String(state.limit));
    if (state.frozenLimit !== FROZEN_PAGE_SIZE) params.set("frozenLimit", String(state.frozenLimit));
    const search = params.toString();
    return `${href("/cards/:cardId", { cardId })}${search ? `?${search}` : ""}#${hash}`;
  };
  return (
    <>
      <section className="panel transactions" id="transactions" aria-labelledby="transactions-title">
        <h2 id="transactions-title">{t("cards.transactions.title")}</h2>
        <ul className="tabs" aria-label={t("cards.transactions.tabsLabel")}>
          {TABS.map((name) => (
            <li key={name}>
              <AppLink
                to={pageWith({ tab: name, limit: TRANSACTIONS_PAGE_SIZE }, "transactions")}
                className="tabs__link"
                aria-current={tab === name ? "page" : undefined}
                preventScrollReset
              >
                {t(`cards.transactions.tabs.${name}`)}
              </AppLink>
            </li>
          ))}
        </ul>
        {items.length === 0 ? (
          <p className="empty">{t(`cards.transactions.empty.${tab}`)}</p>
        ) : (
          <ol className="tx-list" aria-label={t(`cards.transactions.listLabel.${tab}`)}>
            {items.map((item) => (
              <TransactionItem key={item.id} item={item} cardId={cardId} anchor="tx" />
            ))}
          </ol>
        )}
        {hasMore && nextId ? (
          <p>
            <AppLink
              className="link-action"
              to={pageWith({ limit: limit + TRANSACTIONS_PAGE_SIZE }, `tx-${nextId}`)}
              preventScrollReset
            >
              {t("cards.transactions.more")}
            </AppLink>
          </p>
        ) : null}
        <p className="visually-hidden" role="status">
          {announcement}
        </p>
      </section>

      <section className="panel transactions" id="reserved" aria-labelledby="reserved-title">
        <h2 id="reserved-title">{t("cards.transactions.frozenTitle")}</h2>
        <p className="hint">{t("cards.transactions.frozenHint")}</p>
        {frozen.items.length === 0 ? (
          <p className="empty">{t("cards.transactions.empty.frozen")}</p>
        ) : (
          <ol className="tx-list" aria-labelledby="reserved-title">
            {frozen.items.map((item) => (
              <TransactionItem key={item.id} item={item} cardId={cardId} anchor="reserved" />
            ))}
          </ol>
        )}
        {frozen.hasMore && frozen.nextId ? (
          <p>
            <AppLink
              className="link-action"
              to={pageWith({ frozenLimit: frozenLimit + FROZEN_PAGE_SIZE }, `reserved-${frozen.nextId}`)}
              preventScrollReset
            >
              {t("cards.transactions.moreFrozen")}
            </AppLink>
          </p>
        ) : null}
        <p className="visually-hidden" role="status">
          {frozenAnnouncement}
        </p>
      </section>
    </>
  );
}
