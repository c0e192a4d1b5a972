import { sql, type Selectable } from "kysely";
import type { DB } from "../db";
import type { CardAuthorizationTable } from "../db/schema";
import { newId } from "../ids";
import { walletPartsOf, type WalletPart } from "./wallets";
import { readDeclineDetail } from "~/domain/authorisation";
import { MAX_LISTED, REPORT_MAX_LENGTH, REPORT_MIN_LENGTH, transactionStatus } from "~/domain/transactions";
import type {
  TransactionTab,
  CardTransaction,
  TransactionPage,
  TransactionsPanelData,
  ReportableTransaction,
} from "~/domain/transactions";
import { prepared, type Argument } from "../db/prepared";

async function ownsCard(db: DB, userId: string, cardId: string): Promise<boolean> {
  const row = await db
    .selectFrom("cards")
    .select("id")
    .where("id", "=", cardId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row !== undefined;
}

/** A limit handed to the list functions: a whole number between 1 and MAX_LISTED. */
const safeLimit = (limit: number) =>
  Number.isFinite(limit) ? Math.min(Math.max(1, Math.floor(limit)), MAX_LISTED) : 1;

type Section = { frozen: true } | { frozen: false; tab: TransactionTab };

/** Which rows one list reads: held or not, and (when said) settled by card transactions or not. */
interface RowFilter {
  frozen: 0 | 1;
  settled?: 0 | 1;
}

/**
 * Up to `count` of a card's authorizations of one kind, newest first (the payment's time, then the id: a stable
 * order through the pages). The tabs' filters are equalities on the card, `frozen` and `has_card_transactions`, then
 * the order of `card_auth_card_list_idx` (migration 021): a page reads its rows from the index, never the card's whole
 * history. The reserved amounts (`frozen` alone) are the card's held payments, released after 7 days at most.
 */
function rowsOf(db: DB, cardId: string, filter: RowFilter, count: number) {
  if (count <= 0) return Promise.resolve([]);
  const { frozen, settled } = filter;
  return settled === undefined
    ? listedRows.all(db, { cardId, frozen, count })
    : listedSettledRows.all(db, { cardId, frozen, settled, count });
}

/**
 * A card's listed rows of one kind, newest first, up to `count`: the read of one list, written once for the
 * per-list queries below and the panel's statement.
 */
function listedRowsOf(
  db: DB,
  cardId: string,
  frozen: 0 | 1 | undefined,
  settled: 0 | 1 | undefined,
  count: number,
  bySettlement: boolean,
) {
  return (
    db
      .selectFrom("card_authorizations")
      .select(LISTED_COLUMNS)
      // The latest status of its payment intents (a saved card's overflow), newest first through their index.
      .select((eb) =>
        eb
          .selectFrom("payment_intents")
          .select("payment_intents.latest_status")
          .whereRef("payment_intents.authorization_id", "=", "card_authorizations.id")
          .orderBy("payment_intents.created_at", "desc")
          .orderBy("payment_intents.id", "desc")
          .limit(1)
          .as("latest_payment_status"),
      )
      .where("card_id", "=", cardId)
      .where("frozen", "=", frozen!)
      .$if(bySettlement, (query) => query.where("has_card_transactions", "=", settled!))
      .orderBy("transaction_at", "desc")
      .orderBy("id", "desc")
      .limit(count)
  );
}

/** rowsOf's query, without or with the `settled` filter: each compiled once (prepared.ts). */
function listedRowsQuery(bySettlement: boolean) {
  return prepared((db, arg: Argument<{ cardId: string; frozen: 0 | 1; settled?: 0 | 1; count: number }>) =>
    listedRowsOf(db, arg("cardId"), arg("frozen"), arg("settled"), arg("count"), bySettlement),
  );
}

const listedRows = listedRowsQuery(false);
const listedSettledRows = listedRowsQuery(true);

/**
 * The lists of each tab and of the frozen section, in the order they are shown (sectionRows); each is also a part of
 * the panel's statement, whose rows say which list they belong to.
 */
const SECTION_LISTS = {
  approved: [
    { list: "waiting", frozen: 1, settled: 0, count: "page" },
    { list: "settled", frozen: 0, settled: 1, count: "page" },
  ],
  declined: [{ list: "declined", frozen: 0, settled: 0, count: "page" }],
  frozen: [{ list: "frozen", frozen: 1, settled: undefined, count: "frozen" }],
} as const;

/**
 * The transactions panel's rows in one statement: the tab's lists and the frozen section, each a read of its own
 * through `card_auth_card_list_idx` (a subquery: SQLite takes no ORDER BY or LIMIT on a compound's arms), each row
 * with the name of its list. Compiled once per tab (prepared.ts).
 */
function panelRowsQuery(tab: TransactionTab) {
  return prepared((db, arg: Argument<{ cardId: string; page: number; frozen: number }>) => {
    const [first, ...others] = [...SECTION_LISTS[tab], ...SECTION_LISTS.frozen].map(
      ({ list, frozen, settled, count }) =>
        db
          .selectFrom(listedRowsOf(db, arg("cardId"), frozen, settled, arg(count), settled !== undefined).as("t"))
          .selectAll()
          .select(sql.lit(list).as("list")),
    );
    return others.reduce((query, next) => query.unionAll(next), first!);
  });
}

const panelRows = { approved: panelRowsQuery("approved"), declined: panelRowsQuery("declined") };

/** A list's rows in their order (a compound statement does not promise to keep its parts' order). */
const newestFirst = (a: ListedRow, b: ListedRow) =>
  a.transaction_at === b.transaction_at ? (a.id < b.id ? 1 : -1) : a.transaction_at < b.transaction_at ? 1 : -1;

/**
 * The rows of a section's page, and one more (it tells whether there is a next page, and where it starts).
 * The approved tab lists the payments in the order they happened for the person (issue 30 §2): the approvals
 * waiting for the merchant's capture ("En attente": held, not settled) first, then the captured payments, each
 * newest first. The declined tab holds what is neither held nor settled: "closed" shows as declined, other
 * statuses by their name (spec 000 §4: the issuer's declined list also returned reversed authorizations), so
 * nothing goes unlisted. The reserved amounts are every held authorization.
 */
async function sectionRows(db: DB, cardId: string, section: Section, limit: number) {
  const rows: ListedRow[] = [];
  for (const { frozen, settled } of section.frozen ? SECTION_LISTS.frozen : SECTION_LISTS[section.tab])
    rows.push(
      ...(await rowsOf(db, cardId, settled === undefined ? { frozen } : { frozen, settled }, limit + 1 - rows.length)),
    );
  return rows;
}

/** What a transaction shows of its row (the listed rows read these only). */
const LISTED_COLUMNS = [
  "id",
  "merchant_name",
  "merchant_city",
  "merchant_country",
  "amount",
  "transaction_at",
  "has_card_transactions",
  "status_name",
  "status_reason",
  "decline_detail",
  "overflow_amount",
  "can_switch_payment_methods",
] as const;

type AuthorizationRow = Pick<Selectable<CardAuthorizationTable>, (typeof LISTED_COLUMNS)[number]>;
type ListedRow = AuthorizationRow & { latest_payment_status: string | null };

/**
 * What the listed rows show besides themselves: each one's wallet parts, in one query for every row of the request
 * (both sections of the panel at once), not one per item. The latest status of its payment intents came with the row.
 */
async function detailsOf(db: DB, rows: ListedRow[]) {
  return { parts: await walletPartsOf(db, [...new Set(rows.map((r) => r.id))]) };
}

/** A section's page from its rows (one more than the page: it tells whether there is a next page, and where). */
function pageOf(rows: ListedRow[], limit: number, details: Awaited<ReturnType<typeof detailsOf>>): TransactionPage {
  return {
    items: rows
      .slice(0, limit)
      .map((r) => toTransaction(r, r.latest_payment_status ?? null, details.parts.get(r.id) ?? [])),
    hasMore: rows.length > limit,
    nextId: rows[limit]?.id ?? null,
  };
}

/** One page of a section of a card's authorizations (the card must already be known to be the user's). */
async function listSection(db: DB, cardId: string, section: Section, requested: number): Promise<TransactionPage> {
  const limit = safeLimit(requested);
  const rows = await sectionRows(db, cardId, section, limit);
  return pageOf(rows, limit, await detailsOf(db, rows.slice(0, limit)));
}

function toTransaction(
  r: AuthorizationRow,
  latestPaymentStatus: string | null,
  parts: WalletPart[] = [],
): CardTransaction {
  return {
    id: r.id,
    merchantName: r.merchant_name,
    merchantCity: r.merchant_city,
    merchantCountry: r.merchant_country,
    amount: r.amount,
    transactionAt: r.transaction_at,
    status: transactionStatus({ hasCardTransactions: r.has_card_transactions === 1, statusName: r.status_name }),
    statusReason: r.status_reason,
    declineDetail: readDeclineDetail(r.decline_detail ?? null),
    overflowAmount: r.overflow_amount,
    canSwitchPaymentMethods: r.can_switch_payment_methods === 1,
    latestPaymentStatus,
    walletParts: parts.map((p) => ({ walletName: p.walletName, amount: p.amount })),
  };
}

/**
 * Approved (the approvals waiting for capture first) or declined transactions of one of the user's cards, newest
 * first; null for a card that is not theirs.
 */
export async function listCardTransactions(
  db: DB,
  userId: string,
  cardId: string,
  options: { tab: TransactionTab; limit: number },
): Promise<TransactionPage | null> {
  if (!(await ownsCard(db, userId, cardId))) return null;
  return listSection(db, cardId, { frozen: false, tab: options.tab }, options.limit);
}

/** Pending authorizations holding an amount (the "frozen" section), newest first; null for a card that is not theirs. */
export async function listFrozenAuthorizations(
  db: DB,
  userId: string,
  cardId: string,
  options: { limit: number },
): Promise<TransactionPage | null> {
  if (!(await ownsCard(db, userId, cardId))) return null;
  return listSection(db, cardId, { frozen: true }, options.limit);
}

/**
 * The transactions panel: the tab's page and the frozen section, as many as asked (the route reads
 * them from the URL with `transactionsQuery`). Null when the card is not the user's: the page redirects.
 * `cards`, when given, is the user's card listing the request already holds: the ownership is read there,
 * without a query of its own.
 */
export async function loadTransactionsForCard(
  db: DB,
  userId: string,
  cardId: string,
  query: { tab: TransactionTab; limit: number; frozenLimit: number },
  cards?: readonly { id: string }[],
): Promise<TransactionsPanelData | null> {
  const owned = cards ? cards.some((card) => card.id === cardId) : await ownsCard(db, userId, cardId);
  if (!owned) return null;
  const { tab } = query;
  const limit = safeLimit(query.limit);
  const frozenLimit = safeLimit(query.frozenLimit);
  // One more than each page: it tells whether there is a next page, and where it starts.
  const rows = await panelRows[tab].all(db, { cardId, page: limit + 1, frozen: frozenLimit + 1 });
  const listed = (list: string) => rows.filter((row) => row.list === list).sort(newestFirst);
  // As sectionRows: the approvals waiting for capture first, then the captured payments.
  const pageRows = (tab === "approved" ? [...listed("waiting"), ...listed("settled")] : listed("declined")).slice(
    0,
    limit + 1,
  );
  const frozenRows = listed("frozen");
  const details = await detailsOf(db, [...pageRows.slice(0, limit), ...frozenRows.slice(0, frozenLimit)]);
  const page = pageOf(pageRows, limit, details);
  const frozen = pageOf(frozenRows, frozenLimit, details);
  return { cardId, tab, limit, items: page.items, hasMore: page.hasMore, nextId: page.nextId, frozenLimit, frozen };
}

/** A transaction the user may report: on one of their cards, approved or declined (not a pending hold). */
export async function getReportableTransaction(
  db: DB,
  userId: string,
  authorizationId: string,
): Promise<ReportableTransaction | null> {
  const row = await db
    .selectFrom("card_authorizations")
    .innerJoin("cards", "cards.id", "card_authorizations.card_id")
    .selectAll("card_authorizations")
    .where("card_authorizations.id", "=", authorizationId)
    .where("cards.user_id", "=", userId)
    .where("card_authorizations.frozen", "=", 0)
    .executeTakeFirst();
  if (!row) return null;
  const item = toTransaction(row, null);
  return item.status === "approved" || item.status === "declined" ? { ...item, cardId: row.card_id } : null;
}

export type ReportResult = { kind: "ok" } | { kind: "notFound" } | { kind: "tooShort" } | { kind: "tooLong" };

/**
 * Spec 000 §5: a problem report on one of the user's approved or declined transactions, 10 to 1000
 * characters once trimmed. Stored for the support team.
 */
export async function reportProblem(
  db: DB,
  userId: string,
  authorizationId: string,
  message: string,
): Promise<ReportResult> {
  const text = message.trim();
  if (text.length < REPORT_MIN_LENGTH) return { kind: "tooShort" };
  if (text.length > REPORT_MAX_LENGTH) return { kind: "tooLong" };
  const transaction = await getReportableTransaction(db, userId, authorizationId);
  if (!transaction) return { kind: "notFound" };
  await db
    .insertInto("problem_reports")
    .values({
      id: newId("rpt"),
      user_id: userId,
      card_id: transaction.cardId,
      authorization_id: transaction.id,
      message: text,
      created_at: new Date().toISOString(),
    })
    .execute();
  return { kind: "ok" };
}
