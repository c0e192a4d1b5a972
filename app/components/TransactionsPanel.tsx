import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/i18n";
import { Link } from "react-router";
import { formatDateTime } from "~/domain/dates";
import { formatCents } from "~/domain/money";
import { FROZEN_PAGE_SIZE, TRANSACTIONS_PAGE_SIZE } from "~/domain/transactions";
import type { CardTransaction, CardTransactionsView } from "~/.server/services/transactions";

const KNOWN_REASONS = ["daily_limit_exceeded", "merchant_not_allowed", "insufficient_funds"];

/**
 * After "Voir plus" (a link, so it works without JS), focus moves to the first new item and the
 * number of new items is announced. Without JS the link's #fragment does the scrolling.
 */
function useRevealNewItems(items: CardTransaction[]) {
  const { t } = useTranslation();
  const previous = useRef(items.length);
  const [announcement, setAnnouncement] = useState("");
  useEffect(() => {
    const before = previous.current;
    previous.current = items.length;
    if (items.length <= before || before === 0) return;
    document.getElementById(`tx-${items[before]!.id}`)?.focus();
    const timer = window.setTimeout(() => setAnnouncement(t("cards.transactions.moreShown", { count: items.length - before })), 50);
    return () => window.clearTimeout(timer);
  }, [items, t]);
  return announcement;
}

function TransactionItem({ item, cardId, reportable, anchor }: { item: CardTransaction; cardId: string; reportable: boolean; anchor?: string }) {
  const { t } = useTranslation();
  const status =
    item.status === "approved" || item.status === "declined" ? t(`cards.transactions.status.${item.status}`) : t("cards.transactions.status.other", { status: item.status });
  const reason = item.statusReason
    ? KNOWN_REASONS.includes(item.statusReason)
      ? t(`cards.transactions.reasons.${item.statusReason}`)
      : item.statusReason
    : null;
  return (
    <li className="tx" id={`tx-${item.id}`} tabIndex={-1}>
      {/* Where "Voir plus" lands without JS: the first item of each page. */}
      {anchor ? <span id={anchor} /> : null}
      <div className="tx__main">
        <span className="tx__merchant">{item.merchantName}</span>
        <span className="tx__meta">
          {item.merchantCity} · <time dateTime={item.transactionAt}>{formatDateTime(item.transactionAt)}</time>
        </span>
        <span className={`tx__status tx__status--${item.status}`}>
          {status}
          {reason ? ` : ${reason}` : null}
        </span>
      </div>
      <span className="tx__amount">{formatCents(item.amount)}</span>
      {reportable ? (
        <Link className="tx__report" to={`/cards/${cardId}/transactions/${item.id}/report`}>
          {t("cards.transactions.report")}
          <span className="visually-hidden"> : {item.merchantName}, {formatCents(item.amount)}</span>
        </Link>
      ) : null}
    </li>
  );
}

export function TransactionsPanel({ cardId, view }: { cardId: string; view: CardTransactionsView }) {
  const { t } = useTranslation();
  const { tab, limit, frozenLimit, page, frozen } = view;
  const announcement = useRevealNewItems(page.items);
  const frozenAnnouncement = useRevealNewItems(frozen.items);
  const query = (next: Record<string, string | number>) => {
    const params = new URLSearchParams({ tab, limit: String(limit), frozenLimit: String(frozenLimit) });
    for (const [k, v] of Object.entries(next)) params.set(k, String(v));
    if (params.get("limit") === String(TRANSACTIONS_PAGE_SIZE)) params.delete("limit");
    if (params.get("frozenLimit") === String(FROZEN_PAGE_SIZE)) params.delete("frozenLimit");
    if (params.get("tab") === "approved") params.delete("tab");
    const search = params.toString();
    return search ? `?${search}` : "?";
  };
  return (
    <section className="panel transactions" aria-labelledby="transactions-title">
      <h2 id="transactions-title">{t("cards.transactions.title")}</h2>
      <ul className="tabs">
        {(["approved", "declined"] as const).map((name) => (
          <li key={name}>
            <Link to={query({ tab: name, limit: TRANSACTIONS_PAGE_SIZE })} className="tabs__link" aria-current={tab === name ? "page" : undefined} preventScrollReset>
              {t(`cards.transactions.tabs.${name}`)}
            </Link>
          </li>
        ))}
      </ul>
      {page.items.length === 0 ? (
        <p className="empty">{t(`cards.transactions.empty.${tab}`)}</p>
      ) : (
        <ol className="tx-list" aria-label={t(`cards.transactions.tabs.${tab}`)}>
          {page.items.map((item, index) => (
            <TransactionItem key={item.id} item={item} cardId={cardId} reportable anchor={index > 0 && index % TRANSACTIONS_PAGE_SIZE === 0 ? `tx-from-${index}` : undefined} />
          ))}
        </ol>
      )}
      {page.hasMore ? (
        <p>
          <Link className="link-action" to={`${query({ limit: limit + TRANSACTIONS_PAGE_SIZE })}#tx-from-${limit}`} preventScrollReset>
            {t("cards.transactions.more")}
          </Link>
        </p>
      ) : null}
      <p className="visually-hidden" role="status">
        {announcement}
      </p>

      <h3 id="frozen-title">{t("cards.transactions.frozenTitle")}</h3>
      <p className="hint">{t("cards.transactions.frozenHint")}</p>
      {frozen.items.length === 0 ? (
        <p className="empty">{t("cards.transactions.empty.frozen")}</p>
      ) : (
        <ol className="tx-list" aria-labelledby="frozen-title">
          {frozen.items.map((item) => (
            <TransactionItem key={item.id} item={item} cardId={cardId} reportable={false} />
          ))}
        </ol>
      )}
      {frozen.hasMore ? (
        <p>
          <Link className="link-action" to={query({ frozenLimit: frozenLimit + FROZEN_PAGE_SIZE })} preventScrollReset>
            {t("cards.transactions.moreFrozen")}
          </Link>
        </p>
      ) : null}
      <p className="visually-hidden" role="status">
        {frozenAnnouncement}
      </p>
    </section>
  );
}
