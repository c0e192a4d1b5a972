import { Form, href, Link } from "react-router";
import { formatDateTime } from "~/domain/dates";
import { formatCents } from "~/domain/money";
import { FROZEN_PAGE_SIZE, TRANSACTIONS_PAGE_SIZE } from "~/domain/transactions";
import { useTranslation, type Translate } from "~/i18n";
import type { CardTransaction, TransactionsPanelData, TransactionTab } from "~/domain/transactions";
import { DeclineExplanation } from "~/components/DeclineExplanation";
import { TransactionSplit } from "~/components/TransactionSplit";
import { useRevealNewItems } from "~/components/useRevealNewItems";

/**
 * The prefix of an item's id (its #fragment): a payment waiting for its capture is listed in the tab and among the
 * reserved amounts, each under an id of its own.
 */
type Anchor = "tx" | "reserved";

/** Status names the catalogue says in words; others show as the issuer sent them. */
const KNOWN_STATUSES = ["approved", "declined", "pending", "reversed"];
const TABS: TransactionTab[] = ["approved", "declined"];

function statusInWords(t: Translate, item: CardTransaction): string {
  const status = KNOWN_STATUSES.includes(item.status)
    ? t(`cards.transactions.status.${item.status}`)
    : t("cards.transactions.status.other", { status: item.status });
  if (!item.statusReason) return status;
  // Every decline code of the engine (`DECLINE_CODES`), and `expired`/`reversed`, is in the catalogue, one wording (a
  // code without words fails the typecheck in services/card-payment-words.ts);
  // a reason the catalogue does not know shows as the issuer sent it.
  const reason = /^[a-z_]+$/.test(item.statusReason)
    ? t(`cards.transactions.reasons.${item.statusReason}`, { defaultValue: item.statusReason })
    : item.statusReason;
  return t("cards.transactions.statusWithReason", { status, reason });
}

/**
 * The amount in the direction the money went (issue 30 §5): a payment, captured or waiting for its capture, leaves
 * the wallets (a minus sign, in ink); a declined or released one moved nothing (no sign, muted).
 */
function TransactionAmount({ item }: { item: CardTransaction }) {
  const debit = item.status === "approved" || item.status === "pending";
  return (
    <span className={`tx__amount tx__amount--${debit ? "debit" : "none"}`}>
      {formatCents(debit ? -item.amount : item.amount)}
    </span>
  );
}

function TransactionItem({
  item,
  cardId,
  reportable,
  anchor,
}: {
  item: CardTransaction;
  cardId: string;
  reportable: boolean;
  anchor: Anchor;
}) {
  const { t } = useTranslation();
  const date = formatDateTime(item.transactionAt);
  const canReport = reportable && (item.status === "approved" || item.status === "declined");
  // A decline with its reason says the binding cause and, when recorded, its figures (issue 30 §3), full width.
  const explained = item.status === "declined" && item.statusReason !== null;
  return (
    // tabIndex -1: "Voir plus" moves focus here (with JS) or scrolls here (#tx-… without JS).
    <li className="tx" id={`${anchor}-${item.id}`} tabIndex={-1}>
      <div className="tx__main">
        <span className="tx__merchant">{item.merchantName}</span>
        <span className="tx__meta">
          {item.merchantCity} · <time dateTime={item.transactionAt}>{date}</time>
        </span>
        {explained ? null : (
          <span className={`tx__status tx__status--${KNOWN_STATUSES.includes(item.status) ? item.status : "other"}`}>
            {statusInWords(t, item)}
          </span>
        )}
      </div>
      <TransactionAmount item={item} />
      {explained ? (
        <DeclineExplanation
          code={item.statusReason ?? ""}
          detail={item.declineDetail}
          lead={t("cards.transactions.status.declined")}
        />
      ) : null}
      <TransactionSplit item={item} />
      {item.overflowAmount > 0 ? (
        <div className={`tx__overflow${item.latestPaymentStatus === "payment_failed" ? " tx__overflow--failed" : ""}`}>
          <span>
            {t(
              item.latestPaymentStatus === "payment_failed"
                ? "cards.transactions.overflowFailed"
                : "cards.transactions.overflowPaid",
              {
                amount: formatCents(item.overflowAmount),
              },
            )}
          </span>
          {item.latestPaymentStatus === "payment_failed" ? (
            <Form
              method="post"
              action={href("/cards/:cardId/transactions/:authorizationId/retry", { cardId, authorizationId: item.id })}
              preventScrollReset
            >
              <button type="submit" className="button button--secondary button--small">
                {t("cards.transactions.retry")}
                <span className="visually-hidden">
                  {" "}
                  {t("cards.transactions.reportContext", { merchant: item.merchantName, date })}
                </span>
              </button>
            </Form>
          ) : null}
        </div>
      ) : null}
      {item.canSwitchPaymentMethods && item.status === "approved" ? (
        <Link
          className="tx__report"
          to={href("/cards/:cardId/transactions/:authorizationId/payment-methods", {
            cardId,
            authorizationId: item.id,
          })}
        >
          {t("cards.switch.link")}{" "}
          <span className="visually-hidden">
            {t("cards.transactions.reportContext", { merchant: item.merchantName, date })}
          </span>
        </Link>
      ) : null}
      {canReport ? (
        <Link
          className="tx__report"
          to={href("/cards/:cardId/transactions/:authorizationId/report", { cardId, authorizationId: item.id })}
        >
          {t("cards.transactions.report")}{" "}
          <span className="visually-hidden">
            {t("cards.transactions.reportContext", { merchant: item.merchantName, date })}
          </span>
        </Link>
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
}: TransactionsPanelData) {
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
              <Link
                to={pageWith({ tab: name, limit: TRANSACTIONS_PAGE_SIZE }, "transactions")}
                className="tabs__link"
                aria-current={tab === name ? "page" : undefined}
                preventScrollReset
              >
                {t(`cards.transactions.tabs.${name}`)}
              </Link>
            </li>
          ))}
        </ul>
        {items.length === 0 ? (
          <p className="empty">{t(`cards.transactions.empty.${tab}`)}</p>
        ) : (
          <ol className="tx-list" aria-label={t(`cards.transactions.listLabel.${tab}`)}>
            {items.map((item) => (
              <TransactionItem key={item.id} item={item} cardId={cardId} reportable anchor="tx" />
            ))}
          </ol>
        )}
        {hasMore && nextId ? (
          <p>
            <Link
              className="link-action"
              to={pageWith({ limit: limit + TRANSACTIONS_PAGE_SIZE }, `tx-${nextId}`)}
              preventScrollReset
            >
              {t("cards.transactions.more")}
            </Link>
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
              <TransactionItem key={item.id} item={item} cardId={cardId} reportable={false} anchor="reserved" />
            ))}
          </ol>
        )}
        {frozen.hasMore && frozen.nextId ? (
          <p>
            <Link
              className="link-action"
              to={pageWith({ frozenLimit: frozenLimit + FROZEN_PAGE_SIZE }, `reserved-${frozen.nextId}`)}
              preventScrollReset
            >
              {t("cards.transactions.moreFrozen")}
            </Link>
          </p>
        ) : null}
        <p className="visually-hidden" role="status">
          {frozenAnnouncement}
        </p>
      </section>
    </>
  );
}
