import { useId } from "react";
import { formatCents } from "~/domain/money";
import type { CardTransaction } from "~/domain/transactions";
import { useTranslation } from "~/i18n";

/**
 * A card payment's split (spec 000 §2/§3 `card_transactions`, issue 17): which wallets paid how much — or hold it,
 * for a reserved amount — in words, as a list. The overflow to the saved card is said on its own line beside it.
 */
export function TransactionSplit({ item }: { item: CardTransaction }) {
  const { t } = useTranslation();
  const labelId = useId();
  if (item.walletParts.length === 0) return null;
  return (
    <div className="tx__split">
      <span id={labelId}>
        {t(item.status === "approved" ? "cards.transactions.paidWith" : "cards.transactions.heldOn")}
      </span>
      <ul aria-labelledby={labelId}>
        {item.walletParts.map((part) => (
          <li key={part.walletName}>
            {t("cards.transactions.part", { wallet: part.walletName, amount: formatCents(part.amount) })}
          </li>
        ))}
      </ul>
    </div>
  );
}
