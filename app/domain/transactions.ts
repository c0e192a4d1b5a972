import type { DeclineDetail } from "./authorisation";

export type TransactionStatus = "approved" | "declined" | (string & {});

/**
 * Spec 000 §4: an authorization with card transactions is approved; with none and status closed it is
 * declined; otherwise its raw status name shows. When the card-transactions field is absent (null),
 * closed means declined and anything else approved.
 */
export function transactionStatus(input: {
  hasCardTransactions: boolean | null;
  statusName: string;
}): TransactionStatus {
  if (input.hasCardTransactions === null) return input.statusName === "closed" ? "declined" : "approved";
  if (input.hasCardTransactions) return "approved";
  return input.statusName === "closed" ? "declined" : input.statusName;
}

/** Spec 000 §9: 7 per page for approved and declined, 5 for the frozen section. */
export const TRANSACTIONS_PAGE_SIZE = 7;
export const FROZEN_PAGE_SIZE = 5;
/**
 * The most pages a `?limit=` can ask for, whatever the URL says: 20 (19 « Voir plus »). A list shows all the pages
 * before it (without JavaScript too) and reads them through an index, so its cost is its number of rows: capped,
 * `limit=10000000` reads no more than page 20 does (140 card payments or wallet movements, 100 reserved amounts).
 */
export const MAX_PAGES = 20;
/** The most items a card's list function returns, whatever its caller asks (20 pages of 7). */
export const MAX_LISTED = MAX_PAGES * TRANSACTIONS_PAGE_SIZE;

/**
 * A `?limit=` from the URL, made safe: a whole number of pages (rounded up), at least one page and
 * at most MAX_PAGES pages. Anything that is not a plain whole number of at most 9 digits gives one page.
 */
export function clampLimit(raw: string | null, pageSize: number): number {
  const n = raw !== null && /^\d{1,9}$/.test(raw.trim()) ? Number(raw.trim()) : pageSize;
  const pages = Math.max(1, Math.ceil(n / pageSize));
  return Math.min(pages, MAX_PAGES) * pageSize;
}

/** What a card page's URL asks of its transactions panel: `?tab=approved|declined` (approved otherwise), `?limit=` and `?frozenLimit=` (clamped, whole pages). */
export function transactionsQuery(params: URLSearchParams): {
  tab: TransactionTab;
  limit: number;
  frozenLimit: number;
} {
  return {
    tab: params.get("tab") === "declined" ? "declined" : "approved",
    limit: clampLimit(params.get("limit"), TRANSACTIONS_PAGE_SIZE),
    frozenLimit: clampLimit(params.get("frozenLimit"), FROZEN_PAGE_SIZE),
  };
}

/** Spec 000 §5 "Report a problem": at least 10 characters once trimmed (and at most 1000). */
export const REPORT_MIN_LENGTH = 10;
export const REPORT_MAX_LENGTH = 1000;

export type TransactionTab = "approved" | "declined";

export interface CardTransaction {
  id: string;
  merchantName: string;
  merchantCity: string;
  merchantCountry: string;
  /** Cents. */
  amount: number;
  /** ISO 8601. */
  transactionAt: string;
  /** Spec 000 §4: "approved", "declined" or the issuer's raw status name. */
  status: TransactionStatus;
  statusReason: string | null;
  /** A decline's figures as the engine recorded them (issue 30 §3); null for every other row. */
  declineDetail: DeclineDetail | null;
  /** Cents paid by a saved credit card beyond the wallets (balance overflow). */
  overflowAmount: number;
  canSwitchPaymentMethods: boolean;
  /** latest_status of the newest payment intent, if any (succeeded, payment_failed, processing). */
  latestPaymentStatus: string | null;
  /** What each wallet holds or paid of it, in the card's priority order (the split; the overflow apart). */
  walletParts: { walletName: string; amount: number }[];
}

export interface TransactionPage {
  items: CardTransaction[];
  /** More items exist beyond this page. */
  hasMore: boolean;
  /** The id of the first item of the next page (where "Voir plus" lands), or null. */
  nextId: string | null;
}

/** Everything the transactions panel shows (serialisable: it travels in the card page's loader data). */
export interface TransactionsPanelData {
  cardId: string;
  tab: TransactionTab;
  /** How many items of the tab are listed (a whole number of pages of 7). */
  limit: number;
  items: CardTransaction[];
  hasMore: boolean;
  nextId: string | null;
  /** How many reserved amounts are listed (a whole number of pages of 5). */
  frozenLimit: number;
  frozen: TransactionPage;
}

export interface ReportableTransaction extends CardTransaction {
  cardId: string;
}

/** A decline said in words (issue 30 §3): the cause after « Refusée », the figures, each wallet's and the saved card's line. */
export interface DeclineExplanationView {
  cause: string;
  /** The figures beside a rule's reason; null without detail, or when they are the cause. */
  figures: string | null;
  /** Each wallet's line then the saved card's, when the engine recorded them; null otherwise. */
  list: string[] | null;
}

/**
 * One transaction of the card page's panel as it is shown, worded on the server (issue 35: the browser's code
 * carries no date, money or decline wording): the words, the figures and what may be done with it.
 */
export interface TransactionRow {
  id: string;
  merchant: string;
  city: string;
  /** ISO 8601 (the `<time>` element's machine-readable date). */
  at: string;
  /** The date and time in Paris, as shown. */
  date: string;
  /** The amount in the direction the money went (issue 30 §5): signed when it left the wallets. */
  amount: string;
  debit: boolean;
  /** Its status in words and the look of its status (a known status's name, else "other"); null when explained. */
  status: { tone: string; words: string } | null;
  /** Why it was declined, when the row is a decline with its reason. */
  explanation: DeclineExplanationView | null;
  /** Which wallets paid (or hold) how much: a heading and one line per wallet; null when none. */
  split: { label: string; parts: string[] } | null;
  /** What the saved card paid beyond the wallets, and whether that payment failed (then it can be retried). */
  overflow: { words: string; failed: boolean } | null;
  canSwitch: boolean;
  canReport: boolean;
}

/** The transactions panel as the card page shows it (TransactionsPanelData worded by the server). */
export interface TransactionsPanelView extends Omit<TransactionsPanelData, "items" | "frozen"> {
  items: TransactionRow[];
  frozen: Omit<TransactionPage, "items"> & { items: TransactionRow[] };
}
