import { href, Link, Outlet, useOutlet } from "react-router";
import { requirePlanFeature } from "~/routes/+shared/features.server";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/list";
import { DocumentTitle } from "~/components/DocumentTitle";
import { LoadFailure } from "~/components/LoadFailure";
import { formatDate, formatMonth } from "~/domain/dates";
import { formatCents } from "~/domain/money";
import { accountContext } from "~/routes/+shared/auth.server";
import { failedTo } from "~/routes/+shared/load-failure.server";
import { getPlatform } from "~/.server/platform";
import { ALLOWANCES_MAX_PAGE, listAllowances, type AllowanceListItem } from "~/.server/services/allowances/requests";

/** "Voir plus" asks for one page more; a hand-typed page number is capped (ALLOWANCES_MAX_PAGE says why). */
const MAX_PAGE = ALLOWANCES_MAX_PAGE;

/** The list's state from the URL: `?page=2` (10 more each time), `?refresh=1` after a confirmation. */
function listQuery(searchParams: URLSearchParams): { page: number; refreshed: boolean } {
  const page = Number(searchParams.get("page"));
  return {
    page: Number.isInteger(page) && page >= 1 ? Math.min(page, MAX_PAGE) : 1,
    refreshed: searchParams.get("refresh") === "1",
  };
}

/**
 * /plans/allowances (spec 001 §2.5, issue 15 item 1): the employee's mobility allowances, newest first,
 * 10 more with each "Voir plus", each with its period, amounts, masked IBAN, status in words, documents,
 * monthly payouts and "Annuler" while it may be cancelled. The panels (the cancel confirmation, the
 * wizards) are child routes shown over it. Only with `features.allowances.any`.
 */
/** The feature's gate, for this page and its panels (the wizard, the cancel confirmation). */
export const middleware = [requirePlanFeature("allowances")];

export async function loader({ request, context }: Route.LoaderArgs) {
  const account = context.get(accountContext);
  const { page, refreshed } = listQuery(new URL(request.url).searchParams);
  const { db } = await getPlatform();
  const list = await listAllowances(db, account.id, { page }).catch(failedTo("allowanceList.fetchFailed"));
  return { page, refreshed, ...list };
}

export function ErrorBoundary() {
  const { t } = useTranslation();
  return <LoadFailure title={t("allowanceList.title")} />;
}

export default function AllowancesPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const panel = useOutlet();
  const { page, refreshed, items, hasMore } = loaderData;
  const nextItem = hasMore ? items[items.length - 1] : undefined;
  return (
    <>
      {/* The plans layout holds the page's one <h1> ("Avantages"); the list's own heading is its section's <h2>. */}
      {panel ? null : <DocumentTitle page={t("allowanceList.title")} />}
      <Outlet />
      {refreshed && !panel ? (
        <div className="alert alert--success" role="status">
          <p>{t("allowanceList.created")}</p>
        </div>
      ) : null}
      <section className="panel refund-tile" aria-labelledby="allowance-tile-title">
        <h2 id="allowance-tile-title">{t("allowanceList.newRequest")}</h2>
        <p className="hint">{t("allowanceList.newRequestHint")}</p>
        <p>
          <Link to={href("/plans/allowances/:requestId", { requestId: "new" })} className="button" preventScrollReset>
            {t("allowanceList.newRequest")}
          </Link>
        </p>
      </section>
      <section className="panel" id="allowances" aria-labelledby="allowances-title">
        <h2 id="allowances-title">{t("allowanceList.title")}</h2>
        {items.length === 0 ? (
          <p className="empty">{t("allowanceList.empty")}</p>
        ) : (
          <ol className="expense-requests" aria-label={t("allowanceList.listLabel")}>
            {items.map((item) => (
              <AllowanceItem key={item.id} item={item} />
            ))}
          </ol>
        )}
        {hasMore && nextItem ? (
          <p>
            <Link
              className="link-action"
              to={{
                pathname: href("/plans/allowances"),
                search: `?page=${page + 1}`,
                hash: `#alw-${nextItem.id}`,
              }}
              preventScrollReset
            >
              {t("allowanceList.more")}
            </Link>
          </p>
        ) : null}
      </section>
    </>
  );
}

function AllowanceItem({ item }: { item: AllowanceListItem }) {
  const { t } = useTranslation();
  const type = t(`allowances.types.${item.type}`);
  const period = t("allowanceList.periodValue", { start: formatDate(item.startAt), end: formatDate(item.endsAt) });
  const titleId = `alw-${item.id}-title`;
  const label = { type, start: formatDate(item.startAt) };
  return (
    <li className="expense-request" id={`alw-${item.id}`} tabIndex={-1} aria-labelledby={titleId}>
      <h3 id={titleId} className="expense-request__title">
        {t("allowanceList.itemTitle", { type, group: item.groupName })}
      </h3>
      <p className={`expense-request__status expense-request__status--${item.status}`}>
        <span className="badge">{t(`allowances.status.${item.status}`)}</span>
      </p>
      {item.status === "refused" && item.refusalReason ? (
        <p className="expense-request__reason">{t("allowanceList.refusalReason", { reason: item.refusalReason })}</p>
      ) : null}
      <dl className="expense-request__facts">
        <div>
          <dt>{t("allowanceList.period")}</dt>
          <dd>{period}</dd>
        </div>
        <div>
          <dt>{t("allowanceList.amount")}</dt>
          <dd>{formatCents(item.amount)}</dd>
        </div>
        {item.monthlyAmount !== null && item.numberOfMonths !== null ? (
          <div>
            <dt>{t("allowanceList.monthly")}</dt>
            <dd>
              {t("allowanceList.monthlyValue", {
                amount: formatCents(item.monthlyAmount),
                months: item.numberOfMonths,
              })}
            </dd>
          </div>
        ) : null}
      </dl>
      <p className="hint">
        {t("allowanceList.sentOn", { date: formatDate(item.signedAt ?? item.createdAt) })} ·{" "}
        {t("allowanceList.iban", { lastFour: item.ibanLastFour })}
      </p>
      {item.media.length > 0 ? (
        <ul className="expense-request__receipts" aria-label={t("allowanceList.documentsLabel")}>
          {item.media.map((m) => (
            <li key={m.id}>
              {/* A download served by the portal (owner only); reloadDocument: not a page of the app. */}
              <Link to={href("/plans/expense-requests/receipts/:fileId", { fileId: m.id })} reloadDocument>
                {m.label}
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
      {item.payouts.length > 0 ? (
        <div className="allowance__payouts">
          <h4 id={`alw-${item.id}-payouts`}>{t("allowanceList.payouts")}</h4>
          <ul aria-labelledby={`alw-${item.id}-payouts`}>
            {item.payouts.map((p) => (
              <li key={p.month}>
                {t(`allowanceList.payout.${p.status}`, {
                  month: formatMonth(p.month),
                  amount: formatCents(p.amount),
                  date: formatDate(p.paidOn ?? p.scheduledFor),
                })}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <p className="actions">
        <Link
          to={href("/plans/allowances/:requestId", { requestId: item.id })}
          className="link-action"
          aria-label={t("allowanceList.detailsLabel", label)}
          preventScrollReset
        >
          {t("allowanceList.details")}
        </Link>
        {item.isCancellable ? (
          <Link
            to={href("/plans/allowances/:allowanceId/cancel", { allowanceId: item.id })}
            className="link-action"
            aria-label={t("allowanceList.cancelLabel", label)}
            preventScrollReset
          >
            {t("allowanceList.cancel")}
          </Link>
        ) : null}
      </p>
    </li>
  );
}
