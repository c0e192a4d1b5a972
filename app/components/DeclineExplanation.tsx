import { useId } from "react";
import type { DeclineDetail } from "~/domain/authorisation";
import { declineWords } from "~/domain/decline-explanation";
import { useTranslation } from "~/i18n";

/**
 * Why a card payment was declined, in plain words with its figures (issue 30 §3): the binding cause — a rule's short
 * reason ("les titres-restaurant ne s'utilisent pas le dimanche"), or for a shortfall the amount asked and what the
 * wallets could pay here ("420,00 € demandés ; ici vos portefeuilles pouvaient payer 260,80 €") — then, when the
 * engine recorded them, what each wallet of the card could pay and why, and whether the saved card could pay the
 * rest. A decline without figures (decided before the wallets, the issuer's own, an older row) says its reason alone.
 * `lead` starts the cause ("Refusée" gives "Refusée : …", the transactions list's pattern).
 */
/** A reason said on its own starts its sentence: "Les titres-restaurant ne s'utilisent pas le dimanche". */
const sentenceCase = (text: string) => text.charAt(0).toLocaleUpperCase() + text.slice(1);

export function DeclineExplanation({
  code,
  detail,
  lead,
}: {
  code: string;
  detail: DeclineDetail | null;
  lead?: string;
}) {
  const { t } = useTranslation();
  const listId = useId();
  const words = declineWords(t, code, detail);
  const listed = words.savedCard !== null;
  // The list follows the sentence that introduces it ("… pouvaient payer 260,80 € :").
  const introduce = (text: string) => (listed ? t("cards.transactions.explain.introduce", { text }) : text);
  const cause = words.shortfall ? introduce(words.cause) : words.cause;
  return (
    <div className="decline-explanation">
      <p className="decline-explanation__cause" id={words.figures ? undefined : listId}>
        {lead ? t("cards.transactions.statusWithReason", { status: lead, reason: cause }) : sentenceCase(cause)}
      </p>
      {words.figures ? (
        <p className="decline-explanation__figures" id={listId}>
          {introduce(words.figures)}
        </p>
      ) : null}
      {listed ? (
        <ul className="decline-explanation__list" aria-labelledby={listId}>
          {words.wallets.map((line, index) => (
            <li key={`${index}-${line}`}>{line}</li>
          ))}
          <li>{t("cards.transactions.explain.savedCard", { what: words.savedCard })}</li>
        </ul>
      ) : null}
    </div>
  );
}
