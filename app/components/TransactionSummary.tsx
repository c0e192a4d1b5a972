import { formatDateTime } from "~/domain/dates";
import { formatCents } from "~/domain/money";
import { useTranslation } from "~/i18n";

/** Which transaction a page is about: merchant, date and amount, as a description list. */
export function TransactionSummary({
  merchant,
  transactionAt,
  amount,
}: {
  merchant: string;
  transactionAt: string;
  amount: number;
}) {
  const { t } = useTranslation();
  return (
    <dl className="summary-list">
      <div>
        <dt>{t("cards.report.merchant")}</dt>
        <dd>{merchant}</dd>
      </div>
      <div>
        <dt>{t("cards.report.date")}</dt>
        <dd>
          <time dateTime={transactionAt}>{formatDateTime(transactionAt)}</time>
        </dd>
      </div>
      <div>
        <dt>{t("cards.report.amount")}</dt>
        <dd>{formatCents(amount)}</dd>
      </div>
    </dl>
  );
}
