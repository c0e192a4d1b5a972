import { Form, href } from "react-router";
import { AppLink } from "~/components/AppLink";
import { useTranslation } from "~/i18n";
import { formatDate, formatDateTime } from "~/domain/dates";
import { formatCents } from "~/domain/money";
import type { ReservedAmounts, WalletDetail, WalletLicence, WalletTransactionView } from "~/domain/wallets";
import { NewTabLink } from "~/components/NewTabLink";
import type { MealDay } from "~/domain/authorisation";

/** The pieces of the wallets page (spec 000 §2 "Wallets page"): create forms, details, transactions. */

/**
 * One form per wallet_activation licence the user can still use; each posts to /wallets, with `from`,
 * the wallet page it is on, where a refusal is said.
 */
export function CreateWalletForms({ licences, from }: { licences: WalletLicence[]; from?: string }) {
  const { t } = useTranslation();
  if (licences.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="create-wallet-title">
      <h2 id="create-wallet-title">{t("wallets.create.title")}</h2>
      <p>{t("wallets.create.intro")}</p>
      {licences.map((licence) => (
        <Form method="post" action="/wallets?index" key={licence.id} className="actions">
          <input type="hidden" name="licence" value={licence.id} />
          {from ? <input type="hidden" name="from" value={from} /> : null}
          <button type="submit" className="button button--secondary">
            {t("wallets.create.button", {
              type: t(`wallets.types.${licence.walletType}`, { defaultValue: licence.walletType }),
              group: licence.groupName,
            })}
          </button>
        </Form>
      ))}
    </section>
  );
}

const amountOrUnlimited = (t: (key: string) => string, cents: number | null) =>
  cents === null ? t("wallets.unlimited") : formatCents(cents);

/** Today's titres-restaurant (decision 0035): what the 25 € a day leave, or why they cannot be used today. */
function MealToday({ mealDay }: { mealDay: MealDay }) {
  const { t } = useTranslation();
  return (
    <p className="wallet-meal-today">
      {mealDay.closed
        ? t(`wallets.details.mealClosed.${mealDay.closed}`)
        : t("wallets.details.mealLeftToday", { amount: formatCents(mealDay.left) })}
    </p>
  );
}

/**
 * The one reserved figure (issue 30 §5) and what it is made of, as a term of a `dl.balances`: pending card payments
 * and refund requests awaiting review, both always named so that the parts visibly add up to the figure. It takes
 * the grid's whole row (amounts.css), so that its parts read on one or two lines even on a phone.
 */
export function ReservedFigure({ amounts }: { amounts: ReservedAmounts }) {
  const { t } = useTranslation();
  return (
    <div className="balances__reserved">
      <dt>{t("wallets.details.reserved")}</dt>
      <dd>{formatCents(amounts.reserved)}</dd>
      <dd className="amount-parts">
        {t("wallets.details.reservedParts", {
          frozen: formatCents(amounts.frozen),
          refundHolds: formatCents(amounts.refundHolds),
        })}
      </dd>
    </div>
  );
}

export function WalletDetails({
  wallet,
  guideUrl,
  mealDay = null,
}: {
  wallet: WalletDetail;
  guideUrl: string;
  /** A meal wallet's day; null for other wallets. */
  mealDay?: MealDay | null;
}) {
  const { t } = useTranslation();
  return (
    <section className="panel" aria-labelledby="wallet-details-title">
      <h2 id="wallet-details-title">{t("wallets.details.title")}</h2>
      {wallet.autoExtend ? (
        <p>
          <span className="badge">{t("wallets.details.autoExtend")}</span>{" "}
          <span className="hint">{t("wallets.details.autoExtendHint")}</span>
        </p>
      ) : null}
      <dl className="balances">
        <div>
          <dt>{t("wallets.details.balance")}</dt>
          <dd>{amountOrUnlimited(t, wallet.available)}</dd>
        </div>
        <div>
          <dt>{t("wallets.details.total")}</dt>
          <dd>{amountOrUnlimited(t, wallet.total)}</dd>
        </div>
        <ReservedFigure amounts={wallet} />
        <div>
          <dt>{t("wallets.details.spendingLimit")}</dt>
          <dd>{amountOrUnlimited(t, wallet.spendable)}</dd>
        </div>
        {wallet.dailySpendingLimit !== null ? (
          <div>
            <dt>{t("wallets.details.dailyLimit")}</dt>
            <dd>{t("wallets.details.perDay", { amount: formatCents(wallet.dailySpendingLimit) })}</dd>
          </div>
        ) : null}
      </dl>
      {mealDay ? <MealToday mealDay={mealDay} /> : null}
      {wallet.frozen > 0 ? <p className="hint">{t("wallets.details.frozenHint")}</p> : null}
      {wallet.refundHolds > 0 ? <p className="hint wallet-reserved">{t("wallets.details.refundHoldsHint")}</p> : null}
      {wallet.unlimited ? <p className="hint">{t("wallets.details.unlimitedHint")}</p> : null}
      <p>{t("wallets.details.source", { source: wallet.sourceName })}</p>
      {wallet.singleExpiry ? <p>{t("wallets.details.expiresOn", { date: formatDate(wallet.singleExpiry) })}</p> : null}

      {wallet.balances.length > 1 ? (
        <>
          <h3 id="wallet-balances-title">{t("wallets.details.balancesTitle")}</h3>
          <ul className="wallet-balances" aria-labelledby="wallet-balances-title">
            {wallet.balances.map((b) => (
              <li key={b.id}>
                <p className="wallet-balances__line">
                  <strong>{formatCents(b.balance)}</strong>{" "}
                  {t("wallets.details.expiresIn", { date: formatDate(b.endDate), days: b.daysLeft })}
                </p>
                <progress
                  max={100}
                  value={b.elapsedPercent}
                  aria-label={t("wallets.details.elapsed", { percent: b.elapsedPercent, date: formatDate(b.endDate) })}
                />
                <p className="hint">
                  {t("wallets.details.elapsed", { percent: b.elapsedPercent, date: formatDate(b.endDate) })}
                </p>
              </li>
            ))}
          </ul>
        </>
      ) : null}

      {wallet.creditLimits.length > 0 ? (
        <>
          <h3 id="wallet-limits-title">{t("wallets.details.creditLimitsTitle")}</h3>
          <ul className="wallet-limits" aria-labelledby="wallet-limits-title">
            {wallet.creditLimits.map((c) => (
              <li key={c.id}>
                <p>
                  {t("wallets.details.creditLimit", {
                    initial: formatCents(c.initial),
                    remaining: formatCents(c.remaining),
                  })}
                </p>
                <p className="hint">
                  {t("wallets.details.creditPeriod", {
                    from: formatDate(c.creditFrom),
                    until: formatDate(c.creditUntil),
                  })}
                </p>
              </li>
            ))}
          </ul>
        </>
      ) : null}

      <p>
        <NewTabLink href={guideUrl}>{t(`wallets.guide.${wallet.guide}`)}</NewTabLink>
      </p>
    </section>
  );
}

function TransactionItem({ tx }: { tx: WalletTransactionView }) {
  const { t } = useTranslation();
  const label =
    tx.label.kind === "merchant"
      ? tx.label.name
      : t(`wallets.transactions.kinds.${tx.label.key}`, { defaultValue: tx.label.key });
  return (
    <li className="tx" id={`wtx-${tx.id}`} tabIndex={-1}>
      <div className="tx__main">
        <span className="tx__merchant">{label}</span>
        <span className="tx__meta">
          <time dateTime={tx.createdAt}>{formatDateTime(tx.createdAt)}</time>
        </span>
      </div>
      <span className={`tx__amount${tx.amount > 0 ? " tx__amount--credit" : ""}`}>{formatCents(tx.amount)}</span>
    </li>
  );
}

export interface WalletTransactionsData {
  walletId: string;
  processed: WalletTransactionView[];
  processedNextId: string | null;
  frozen: WalletTransactionView[];
  frozenNextId: string | null;
  limit: number;
  frozenLimit: number;
  pageSize: number;
  frozenPageSize: number;
}

/** Frozen amounts, then processed transactions; "Voir plus" links ask for one page more and land on it. */
export function WalletTransactions({ data }: { data: WalletTransactionsData }) {
  const { t } = useTranslation();
  const wallet = href("/wallets/:walletId", { walletId: data.walletId });
  const query = (limit: number, frozenLimit: number) => `${wallet}?limit=${limit}&frozenLimit=${frozenLimit}`;
  const empty = data.processed.length === 0 && data.frozen.length === 0;
  return (
    <section className="panel transactions" aria-labelledby="wallet-tx-title">
      <h2 id="wallet-tx-title">{t("wallets.transactions.title")}</h2>
      {empty ? <p>{t("wallets.transactions.empty")}</p> : null}
      {data.frozen.length > 0 ? (
        <>
          <h3 id="wallet-frozen-title">{t("wallets.transactions.frozenTitle")}</h3>
          <ol className="tx-list" aria-labelledby="wallet-frozen-title">
            {data.frozen.map((tx) => (
              <TransactionItem key={tx.id} tx={tx} />
            ))}
          </ol>
          {data.frozenNextId ? (
            <p>
              <AppLink
                to={`${query(data.limit, data.frozenLimit + data.frozenPageSize)}#wtx-${data.frozenNextId}`}
                className="link-action"
              >
                {t("wallets.transactions.moreFrozen")}
              </AppLink>
            </p>
          ) : null}
        </>
      ) : null}
      {data.processed.length > 0 ? (
        <>
          <h3 id="wallet-processed-title">{t("wallets.transactions.processedTitle")}</h3>
          <ol className="tx-list" aria-labelledby="wallet-processed-title">
            {data.processed.map((tx) => (
              <TransactionItem key={tx.id} tx={tx} />
            ))}
          </ol>
          {data.processedNextId ? (
            <p>
              <AppLink
                to={`${query(data.limit + data.pageSize, data.frozenLimit)}#wtx-${data.processedNextId}`}
                className="link-action"
              >
                {t("wallets.transactions.more")}
              </AppLink>
            </p>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
