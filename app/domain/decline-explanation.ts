import type { Translate } from "~/i18n";
import {
  MEAL_DAILY_CAP,
  OVERFLOW_MINIMUM,
  type DeclineDetail,
  type DeclineOverflow,
  type DeclineWallet,
} from "./authorisation";
import { formatCents } from "./money";

/**
 * A declined card payment said in words and figures (issue 30 §3), one wording for the card page
 * (`DeclineExplanation`, in the reader's language) and the e-mail and push (`services/card-payment-words.ts`, in
 * French): the catalogue's `cards.transactions.reasons.*` and `cards.transactions.explain.*`, through the translator
 * the caller gives.
 */

/** The codes of a shortfall (the wallets and the saved card together could not pay): the figures are the cause. */
const SHORTFALL_CODES: readonly string[] = ["insufficient_funds", "overflow_limit_exceeded"];

export interface DeclineWords {
  /** True when the figures are the cause (a shortfall with its detail): `cause` then says them. */
  shortfall: boolean;
  /**
   * The binding cause: a rule's short reason ("les titres-restaurant ne s'utilisent pas le dimanche"), or for a
   * shortfall the figures ("420,00 € demandés ; ici vos portefeuilles pouvaient payer 260,80 €").
   */
  cause: string;
  /** The figures beside a rule's reason; null without detail, or when they are the cause. */
  figures: string | null;
  /** Each wallet of the card in its order: "Titres-restaurant 10,80 € (reste du plafond de 25 € du jour)". */
  wallets: string[];
  /** Whether the saved card could pay the rest, and why not: "aucune carte bancaire par défaut"; null without detail. */
  savedCard: string | null;
}

/** A reason's words: a code the catalogue knows, or the issuer's own text as it came. */
function reasonWords(t: Translate, code: string): string {
  return /^[a-z_]+$/.test(code) ? t(`cards.transactions.reasons.${code}`, { defaultValue: code }) : code;
}

function walletWords(t: Translate, wallet: DeclineWallet): string {
  const limit = formatCents(wallet.limit ?? 0);
  const why = t(`cards.transactions.explain.why.${wallet.stop ?? "covered"}`, {
    cap: formatCents(MEAL_DAILY_CAP),
    limit,
  });
  return t("cards.transactions.explain.wallet", { wallet: wallet.name, amount: formatCents(wallet.canPay), why });
}

function savedCardWords(t: Translate, overflow: DeclineOverflow): string {
  const values: Record<string, string> = { minimum: formatCents(OVERFLOW_MINIMUM) };
  if ("max" in overflow) values.max = formatCents(overflow.max);
  if ("needed" in overflow) values.needed = formatCents(overflow.needed);
  return t(`cards.transactions.explain.overflow.${overflow.kind}`, values);
}

/** The words of a decline: its code (the binding cause, decision 0035 and issue 30 §3) and its figures, if any. */
export function declineWords(t: Translate, code: string, detail: DeclineDetail | null): DeclineWords {
  if (!detail) return { shortfall: false, cause: reasonWords(t, code), figures: null, wallets: [], savedCard: null };
  const could = detail.wallets.reduce((sum, w) => sum + w.canPay, 0);
  const figures = t("cards.transactions.explain.figures", {
    asked: formatCents(detail.amount),
    could: formatCents(could),
  });
  const shortfall = SHORTFALL_CODES.includes(code);
  return {
    shortfall,
    cause: shortfall ? figures : reasonWords(t, code),
    figures: shortfall ? null : figures,
    wallets: detail.wallets.map((w) => walletWords(t, w)),
    savedCard: savedCardWords(t, detail.overflow),
  };
}
