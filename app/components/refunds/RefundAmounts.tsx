import { useTranslation } from "~/i18n";
import { frenchDay } from "~/domain/dates";
import { formatCents } from "~/domain/money";
import type { RefundListItem } from "~/.server/services/refunds/requests";

/**
 * A refund request's amounts in the list (spec 001 §2.6 "List", §3 "Expense request"; issue 30 §5), said so that
 * they agree: the receipt's amount, what the request refunds (refunded once paid, asked otherwise), the fees the
 * funder recorded, as terms of the item's `dl`; `RefundNotes` says in sentences what follows from them. Only what
 * the request and its payout hold is said: no reason is given for a partial refund or for fees, the data has none.
 */
export function RefundAmounts({ item }: { item: RefundListItem }) {
  const { t } = useTranslation();
  const refundLabel =
    item.status === "paid"
      ? "refunds.list.refunded"
      : item.status === "refused" || item.status === "cancelled"
        ? "refunds.list.asked"
        : "refunds.list.amountToRefund";
  return (
    <>
      <div>
        <dt>{t("refunds.list.amount")}</dt>
        <dd>{formatCents(item.amount)}</dd>
      </div>
      <div>
        <dt>{t(refundLabel)}</dt>
        <dd>{formatCents(item.amountToRefund)}</dd>
      </div>
      {item.fees > 0 ? (
        <div>
          <dt>{t("refunds.list.fees")}</dt>
          <dd>{formatCents(item.fees)}</dd>
        </div>
      ) : null}
    </>
  );
}

/**
 * What the figures mean, in sentences: the part of the receipt not refunded (a difference, never a reason: the
 * request holds none), the fees and whether the transfer bore them, then where the money goes — the transfer's day (made, or
 * due) and amount when its payout holds them, to the account ending in the IBAN's last four; before approval the
 * account only; a refused or cancelled request transfers nothing, its held amounts went back to the wallets
 * (decision 0024).
 */
export function RefundNotes({ item }: { item: RefundListItem }) {
  const { t } = useTranslation();
  const notRefunded = item.amount - item.amountToRefund;
  return (
    <>
      {notRefunded > 0 ? (
        <p className="expense-request__note">
          {t(item.status === "paid" ? "refunds.list.partialPaid" : "refunds.list.partialAsked", {
            refund: formatCents(item.amountToRefund),
            receipt: formatCents(item.amount),
            rest: formatCents(notRefunded),
          })}
        </p>
      ) : null}
      {item.fees > 0 ? <p className="expense-request__note">{t(feesNote(item), feesFacts(item))}</p> : null}
      <RefundTransfer item={item} />
    </>
  );
}

/**
 * The fees' sentence: whether they came off the transfer is read from the payout's amount (the refund less the fees,
 * or the whole refund); without a payout amount, or with another one, only the figure is said.
 */
function feesNote(item: RefundListItem): string {
  const transferred = item.payout?.amount ?? null;
  if (transferred === item.amountToRefund - item.fees) return "refunds.list.feesDeducted";
  if (transferred === item.amountToRefund) return "refunds.list.feesNotDeducted";
  return "refunds.list.feesRecorded";
}

const feesFacts = (item: RefundListItem) => ({
  fees: formatCents(item.fees),
  transferred: formatCents(item.payout?.amount ?? 0),
});

function RefundTransfer({ item }: { item: RefundListItem }) {
  const { t } = useTranslation();
  const lastFour = item.ibanLastFour;
  if (item.payout) {
    const key = item.payout.paid ? "refunds.list.transferPaid" : "refunds.list.transferScheduled";
    return (
      <p className="expense-request__payout">
        {t(item.payout.amount === null ? key : `${key}Amount`, {
          date: frenchDay(item.payout.day),
          amount: item.payout.amount === null ? "" : formatCents(item.payout.amount),
          lastFour,
        })}
      </p>
    );
  }
  if (item.status === "refused" || item.status === "cancelled")
    return <p className="hint">{t("refunds.list.nothingTransferred")}</p>;
  return <p className="hint">{t("refunds.list.iban", { lastFour })}</p>;
}
