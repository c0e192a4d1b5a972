import type { RouterContextProvider } from "react-router";
import { translatorFor, type Translate } from "~/i18n";
import resources from "~/i18n/catalogues";
import { getLocale } from "~/i18n/i18next.server";
import { formatDate, formatDateTime } from "~/domain/dates";
import { formatCents } from "~/domain/money";
import { declineWords } from "~/domain/decline-explanation";
import { canUnlockPin, cardStates, isUndelivered, type CardState } from "~/domain/delivery";
import type {
  CardTransaction,
  DeclineExplanationView,
  TransactionRow,
  TransactionsPanelData,
  TransactionsPanelView,
} from "~/domain/transactions";
import type { CardDetail } from "~/.server/services/cards";

/*
 * The card page said in words on the server (issue 35, decision 0078; a page flow beside its route: it reads the
 * request's language, so it is no service): its dates, amounts, states and declines arrive in the
 * loader data as the sentences the page shows, so the browser's code for the card and its panels carries no date,
 * money or decline wording of its own. The words are the catalogue's, in the request's language, through the
 * same look-up the pages render with (`translatorFor`, decision 0008).
 */

const translators = new Map<string, Translate>();

/** The request's translator (its language chosen by the root middleware, decision 0018), made once per language. */
export function requestTranslator(context: Readonly<RouterContextProvider>): Translate {
  const locale = getLocale(context);
  let t = translators.get(locale);
  if (!t) {
    t = translatorFor(resources[locale].translation as Parameters<typeof translatorFor>[0]);
    translators.set(locale, t);
  }
  return t;
}

/** Status names the catalogue says in words; others show as the issuer sent them. */
const KNOWN_STATUSES = ["approved", "declined", "pending", "reversed"];

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
 * Why a card payment was declined, in plain words with its figures (issue 30 §3): the binding cause after « Refusée »,
 * the figures beside a rule's reason, then (when the engine recorded them) each wallet's line and the saved card's.
 * The list follows the sentence that introduces it ("… pouvaient payer 260,80 € :").
 */
export function declineExplanation(t: Translate, code: string, item: CardTransaction): DeclineExplanationView {
  const words = declineWords(t, code, item.declineDetail);
  const listed = words.savedCard !== null;
  const introduce = (text: string) => (listed ? t("cards.transactions.explain.introduce", { text }) : text);
  const cause = words.shortfall ? introduce(words.cause) : words.cause;
  return {
    cause: t("cards.transactions.statusWithReason", { status: t("cards.transactions.status.declined"), reason: cause }),
    figures: words.figures ? introduce(words.figures) : null,
    list: listed ? [...words.wallets, t("cards.transactions.explain.savedCard", { what: words.savedCard })] : null,
  };
}

/** One row of the transactions panel, in the words and figures it shows. */
function transactionRow(t: Translate, item: CardTransaction, reportable: boolean): TransactionRow {
  // A payment, captured or waiting for its capture, leaves the wallets (a minus sign, in ink); a declined or
  // released one moved nothing (issue 30 §5).
  const debit = item.status === "approved" || item.status === "pending";
  // A decline with its reason says the binding cause and, when recorded, its figures (issue 30 §3), full width.
  const explained = item.status === "declined" && item.statusReason !== null;
  const failed = item.latestPaymentStatus === "payment_failed";
  return {
    id: item.id,
    merchant: item.merchantName,
    city: item.merchantCity,
    at: item.transactionAt,
    date: formatDateTime(item.transactionAt),
    amount: formatCents(debit ? -item.amount : item.amount),
    debit,
    status: explained
      ? null
      : { tone: KNOWN_STATUSES.includes(item.status) ? item.status : "other", words: statusInWords(t, item) },
    explanation: explained ? declineExplanation(t, item.statusReason ?? "", item) : null,
    split:
      item.walletParts.length === 0
        ? null
        : {
            label: t(item.status === "approved" ? "cards.transactions.paidWith" : "cards.transactions.heldOn"),
            parts: item.walletParts.map((part) =>
              t("cards.transactions.part", { wallet: part.walletName, amount: formatCents(part.amount) }),
            ),
          },
    overflow:
      item.overflowAmount > 0
        ? {
            words: t(failed ? "cards.transactions.overflowFailed" : "cards.transactions.overflowPaid", {
              amount: formatCents(item.overflowAmount),
            }),
            failed,
          }
        : null,
    canSwitch: item.canSwitchPaymentMethods && item.status === "approved",
    canReport: reportable && (item.status === "approved" || item.status === "declined"),
  };
}

/** The transactions panel as it is shown: each row in words; the reserved amounts are never reported from here. */
export function transactionsView(t: Translate, panel: TransactionsPanelData): TransactionsPanelView {
  const { items, frozen, ...rest } = panel;
  return {
    ...rest,
    items: items.map((item) => transactionRow(t, item, true)),
    frozen: { ...frozen, items: frozen.items.map((item) => transactionRow(t, item, false)) },
  };
}

/** Spec 000 §4's words for a state: the estimated date only while shipped with a date still ahead. */
function stateWords(t: Translate, state: CardState): string {
  switch (state.kind) {
    case "active":
    case "frozen":
    case "blocked":
      return t(`cards.${state.kind}`);
    case "preparing":
      return t("cards.status.preparing");
    case "shipped":
      return state.eta ? t("cards.status.shippedEta", { date: formatDate(state.eta) }) : t("cards.status.shipped");
    case "deliveryProblem":
      return t(`cards.status.${state.status}`);
  }
}

/** A card's name as the navigation says it: « Carte physique •••• 4242 ». */
export function cardName(t: Translate, card: { type: "physical" | "virtual"; lastFour: string }): string {
  return t(card.type === "virtual" ? "nav.virtualCard" : "nav.physicalCard", { lastFour: card.lastFour });
}

/** What the card's reserved figure holds, its non-zero parts only: a phone's first screen has little room. */
function reservedParts(t: Translate, { reservedParts: parts }: CardDetail["balances"]): string {
  const values = { frozen: formatCents(parts.frozen), refundHolds: formatCents(parts.refundHolds) };
  if (parts.frozen > 0 && parts.refundHolds > 0) return t("cards.reservedParts.both", values);
  return t(parts.frozen > 0 ? "cards.reservedParts.frozen" : "cards.reservedParts.refundHolds", values);
}

/** One state of the card: its kind (the icon and colour, which only repeat the words) and its words. */
export interface CardStateView {
  kind: CardState["kind"];
  /** Spec 000 §4: a returned card is off the steps but not in the danger colour; canceled and failure are. */
  returned: boolean;
  words: string;
}

/**
 * The card as its page shows it (issue 30 §1): its name, its states in words (`today` is the Paris day), its
 * figures and linked wallets as amounts, what its menu offers, and the card's image facts.
 */
export function cardView(t: Translate, card: CardDetail, today: string) {
  const { balances } = card;
  return {
    id: card.id,
    name: cardName(t, card),
    type: card.type,
    brand: card.brand,
    lastFour: card.lastFour,
    frozen: card.frozen,
    blocked: card.blocked,
    funder: t("cards.funder", { group: card.groupName }),
    states: cardStates(card, today).map((state): CardStateView => ({
      kind: state.kind,
      returned: state.kind === "deliveryProblem" && state.status === "returned",
      words: stateWords(t, state),
    })),
    /** Spec 000 §4: the delivery entry while the card is on its way; the PIN unlock once it has reached its holder. */
    undelivered: isUndelivered(card),
    canUnlockPin: canUnlockPin(card),
    balances: {
      available: formatCents(balances.available),
      reserved: formatCents(balances.reserved),
      total: formatCents(balances.total),
      /** What the reserved figure holds, when it holds anything (issue 30 §5). */
      reservedNote: balances.reserved > 0 ? reservedParts(t, balances) : null,
      hasUnlimited: balances.hasUnlimited,
    },
    wallets: card.linkedWallets.map((wallet) => ({
      id: wallet.id,
      name: wallet.name,
      amount: wallet.available === null ? t("cards.unlimited") : formatCents(wallet.available),
    })),
  };
}

export type CardView = ReturnType<typeof cardView>;
