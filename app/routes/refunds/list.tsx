import { href, Outlet, useOutlet } from "react-router";
import { requirePlanFeature } from "~/routes/+shared/features.server";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/list";
import { AppLink } from "~/components/AppLink";
import { DocumentTitle } from "~/components/DocumentTitle";
import { LoadFailure } from "~/components/LoadFailure";
import { RefundItemsSkeleton, RefundTypesSkeleton, useShownSkeleton } from "~/components/Skeletons";
import { formatDate } from "~/domain/dates";
import { RefundAmounts, RefundNotes } from "~/components/refunds/RefundAmounts";
import { getLocale } from "~/i18n/i18next.server";
import { accountContext } from "~/routes/+shared/auth.server";
import { failedTo } from "~/routes/+shared/load-failure.server";
import { getPlatform } from "~/.server/platform";
import { listRefunds, type RefundListItem, type RefundTab } from "~/.server/services/refunds/requests";
import { EXPENSE_REQUESTS_MAX_PAGE } from "~/domain/refunds";

const TABS: readonly RefundTab[] = ["in-progress", "finished"];
/** "Voir plus" asks for one page more; a hand-typed page number is capped (EXPENSE_REQUESTS_MAX_PAGE says why). */
const MAX_PAGE = EXPENSE_REQUESTS_MAX_PAGE;

/** The list's state from the URL: `?tab=finished`, `?page=2` (defaults stay out of the URL). */
function listQuery(searchParams: URLSearchParams): { tab: RefundTab; page: number } {
  const tab = searchParams.get("tab") === "finished" ? "finished" : "in-progress";
  const page = Number(searchParams.get("page"));
  return { tab, page: Number.isInteger(page) && page >= 1 ? Math.min(page, MAX_PAGE) : 1 };
}

/**
 * /plans/expense-requests (spec 001 §2.6 "List"): the employee's refund requests in two tabs (in progress:
 * sent, to correct, approved; finished: paid, refused, cancelled), 10 more with each "Voir plus", and the
 * side panels (the cancel confirmation, the wizard) as child routes over it. Only with the refund feature.
 */
/** The feature's gate, for this page and its panels (the wizard, the cancel confirmation). */
export const middleware = [requirePlanFeature("expenseRequests")];

export async function loader({ request, context }: Route.LoaderArgs) {
  const account = context.get(accountContext);
  const { tab, page } = listQuery(new URL(request.url).searchParams);
  const { db } = await getPlatform();
  const list = await listRefunds(db, account.id, { tab, page, locale: getLocale(context) }).catch(
    failedTo("refunds.errors.fetchFailed"),
  );
  return { tab, page, ...list };
}

export function ErrorBoundary() {
  const { t } = useTranslation();
  return <LoadFailure title={t("refunds.title")} />;
}

export default function RefundsPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const panel = useOutlet();
  const { tab, page, items, hasMore } = loaderData;
  const href = (next: { tab: RefundTab; page: number }, hash?: string) => {
    const params = new URLSearchParams();
    if (next.tab !== "in-progress") params.set("tab", next.tab);
    if (next.page !== 1) params.set("page", String(next.page));
    const search = params.toString();
    return `/plans/expense-requests${search ? `?${search}` : ""}${hash ? `#${hash}` : ""}`;
  };
  const nextItem = hasMore ? items[items.length - 1] : undefined;
  // With JS, while another tab's items or a new request's first step load: their skeletons (decision 0066).
  const skeleton = useShownSkeleton();
  return (
    <>
      {/* The plans layout holds the page's one <h1> ("Avantages"); the list's own heading is its section's <h2>. */}
      {panel ? null : <DocumentTitle page={t("refunds.title")} />}
      {skeleton === "refundTypes" ? <RefundTypesSkeleton /> : <Outlet />}
      <section className="panel refund-tile" aria-labelledby="refund-tile-title">
        <h2 id="refund-tile-title">{t("refunds.list.newRequest")}</h2>
        <p className="hint">{t("refunds.list.newRequestHint")}</p>
        <p>
          <AppLink to="/plans/expense-requests/new" className="button" preventScrollReset>
            {t("refunds.list.newRequest")}
          </AppLink>
        </p>
      </section>
      <section className="panel" id="expense-requests" aria-labelledby="expense-requests-title">
        <h2 id="expense-requests-title" className="visually-hidden">
          {t("refunds.title")}
        </h2>
        <ul className="tabs" aria-label={t("refunds.list.tabsLabel")}>
          {TABS.map((name) => (
            <li key={name}>
              {/* Plain links (AppLink): their hash, an element of the page, is where the scroll goes. */}
              <AppLink
                to={href({ tab: name, page: 1 }, "expense-requests")}
                className="tabs__link"
                aria-current={tab === name ? "page" : undefined}
              >
                {t(name === "finished" ? "refunds.list.finished" : "refunds.list.inProgress")}
              </AppLink>
            </li>
          ))}
        </ul>
        {skeleton === "refundItems" ? (
          <RefundItemsSkeleton />
        ) : items.length === 0 ? (
          <p className="empty">{t(tab === "finished" ? "refunds.list.emptyFinished" : "refunds.list.empty")}</p>
        ) : (
          <ol
            className="expense-requests"
            aria-label={t(tab === "finished" ? "refunds.list.finished" : "refunds.list.inProgress")}
          >
            {items.map((item) => (
              <RefundItem key={item.id} item={item} />
            ))}
          </ol>
        )}
        {hasMore && nextItem ? (
          <p>
            <AppLink className="link-action" to={href({ tab, page: page + 1 }, `exr-${nextItem.id}`)}>
              {t("refunds.list.more")}
            </AppLink>
          </p>
        ) : null}
      </section>
    </>
  );
}

function RefundItem({ item }: { item: RefundListItem }) {
  const { t } = useTranslation();
  const partner = item.partnerName ?? t("refunds.list.partnerUnknown");
  const date = formatDate(item.ticketDate);
  const titleId = `exr-${item.id}-title`;
  return (
    <li className="expense-request" id={`exr-${item.id}`} tabIndex={-1} aria-labelledby={titleId}>
      <h3 id={titleId} className="expense-request__title">
        {partner}
      </h3>
      <p className={`expense-request__status expense-request__status--${item.status}`}>
        <span className="badge">{t(`refunds.statuses.${item.status}`)}</span>
      </p>
      {item.status === "refused" && item.refusalReason ? (
        <p className="expense-request__reason">{t("refunds.list.refusalReason", { reason: item.refusalReason })}</p>
      ) : null}
      {item.status === "to_correct" && item.correctionReason ? (
        <p className="expense-request__reason">
          {t("refunds.list.correctionReason", { reason: item.correctionReason })}
        </p>
      ) : null}
      <dl className="expense-request__facts">
        <div>
          <dt>{t("refunds.list.type")}</dt>
          <dd>{item.typeName}</dd>
        </div>
        <div>
          <dt>{t("refunds.list.ticketDate")}</dt>
          <dd>{date}</dd>
        </div>
        <RefundAmounts item={item} />
      </dl>
      <RefundNotes item={item} />
      <p className="hint">{t("refunds.list.sentOn", { date: formatDate(item.createdAt) })}</p>
      {item.media.length > 0 ? (
        <ul className="expense-request__receipts" aria-label={t("refunds.list.receiptsLabel")}>
          {item.media.map((m) => (
            <li key={m.id}>
              {/* A download served by the portal (owner only); reloadDocument: not a page of the app. */}
              <AppLink to={href("/plans/expense-requests/receipts/:fileId", { fileId: m.id })} reloadDocument>
                {t("refunds.list.receipt", { number: m.number })}
              </AppLink>
            </li>
          ))}
        </ul>
      ) : null}
      {item.isRectifiable || item.isCancellable ? (
        <p className="actions">
          {item.isRectifiable ? (
            <AppLink
              to={href("/plans/expense-requests/:requestId", { requestId: item.id })}
              className="button button--secondary"
              aria-label={t("refunds.list.correctLabel", { partner, date })}
              preventScrollReset
            >
              {t("refunds.list.correct")}
            </AppLink>
          ) : null}
          {item.isCancellable ? (
            <AppLink
              to={href("/plans/expense-requests/:requestId/cancel", { requestId: item.id })}
              className="link-action"
              aria-label={t("refunds.list.cancelLabel", { partner, date })}
              preventScrollReset
            >
              {t("refunds.list.cancel")}
            </AppLink>
          ) : null}
        </p>
      ) : null}
    </li>
  );
}
