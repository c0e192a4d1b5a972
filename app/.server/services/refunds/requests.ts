import type { DB } from "../../db";
import type { ExpenseRequestStatus } from "../../db/schema";
import type { Locale } from "../../env";
import { newId } from "../../ids";
import type { Messenger } from "../../providers/messaging/port";
import type { PushSender } from "../../providers/push/port";
import { claimDraft, readDraft } from "../drafts";
import { walletSummaries } from "../wallets";
import { ibanProblem, maskIban, normaliseIban } from "~/domain/iban";
import { problem, type Invalid } from "~/domain/problems";
import { foldForSearch } from "~/domain/search-text";
import { todayInParis, parisDayOf } from "~/domain/dates";
import {
  amountProblem,
  EXPENSE_REQUESTS_MAX_PAGE,
  EXPENSE_REQUESTS_PAGE_SIZE,
  splitProblems,
  ticketDateProblem,
  walletTypesFor,
  type RefundField,
  type RefundProblem,
  type RefundRefusal,
} from "~/domain/refunds";
import { announceRequestEvent, mailFacts, recordRequestEvent } from "./events";
import { holdReservations, lockWallets, OverAvailable, releaseReservations } from "./reservations";
import { receiptLabel } from "./wording";
import { prepared, type Argument } from "../../db/prepared";

/**
 * Refund requests, the employee's side (issue 14, spec 001 §2.6, §3, §4, §5): their list, the expense
 * types and wallets a request may use, sending (and correcting) a request — which holds the chosen amounts
 * on the wallets — and cancelling it. The funder's review is review.ts, the payouts payouts.ts, the words
 * of the e-mails wording.ts. Decision 0024.
 */

export type RefundTab = "in-progress" | "finished";
export const IN_PROGRESS_STATUSES: readonly ExpenseRequestStatus[] = ["sent", "to_correct", "approved"];
export const FINISHED_STATUSES: readonly ExpenseRequestStatus[] = ["paid", "refused", "cancelled"];
/** A receipt on a request in one of these states may be used again (spec: duplicates are flagged otherwise). */
const DEAD_STATUSES: ExpenseRequestStatus[] = ["cancelled", "refused"];
/** The types whose summary asks the employee to confirm their name (spec 001 §2.6 "Summary step"). */
export const SWORN_NAME_TYPES: readonly string[] = ["mobility", "holidays"];

export interface RefundListItem {
  id: string;
  partnerName: string | null;
  typeName: string;
  ticketDate: string;
  createdAt: string;
  amount: number;
  amountToRefund: number;
  fees: number;
  status: ExpenseRequestStatus;
  refusalReason: string | null;
  correctionReason: string | null;
  /**
   * The transfer to the employee's account (decision 0024), once approved: its Paris day — when it left for a paid
   * one, when it is due otherwise — and its amount. From the payouts row; a request recorded without one (the
   * demo's, imported ones) has only its `payout_date`, and no transfer amount is known. Null before approval.
   */
  payout: RefundPayout | null;
  ibanLastFour: string;
  /** The receipts in order: "Justificatif 1", "Justificatif 2". */
  media: { id: string; number: number; label: string }[];
  isRectifiable: boolean;
  isCancellable: boolean;
}

export interface RefundPayout {
  day: string;
  paid: boolean;
  /** Cents transferred (or to transfer); null when the request has no payouts row. */
  amount: number | null;
}

function nameColumn(locale: Locale): "name_fr" | "name_en" | "name_nl" {
  return locale === "en" ? "name_en" : locale === "nl" ? "name_nl" : "name_fr";
}

/**
 * A tab of the user's requests, newest first: the first `page` pages of EXPENSE_REQUESTS_PAGE_SIZE (the page number
 * capped at EXPENSE_REQUESTS_MAX_PAGE). Each status of the tab is read apart through the (user_id, status,
 * created_at, id) index (migration 032), its shown rows and one more, in one statement (the three reads joined by
 * `union all`), and the three are merged: whatever the person's history (years of finished requests), a tab reads at
 * most three times what it shows.
 */
export async function listRefunds(
  db: DB,
  userId: string,
  options: { tab: RefundTab; page: number; locale: Locale },
): Promise<{ items: RefundListItem[]; hasMore: boolean }> {
  const page =
    Number.isInteger(options.page) && options.page >= 1 ? Math.min(options.page, EXPENSE_REQUESTS_MAX_PAGE) : 1;
  const shown = page * EXPENSE_REQUESTS_PAGE_SIZE;
  const found = await refundListQuery(options.tab, options.locale).all(db, { userId, count: shown + 1 });
  // Newest first as each read ordered them (code units, as SQLite compares text; ids break a tie).
  const newer = (a: { created_at: string; id: string }, b: { created_at: string; id: string }) =>
    a.created_at !== b.created_at ? (a.created_at > b.created_at ? -1 : 1) : a.id > b.id ? -1 : a.id < b.id ? 1 : 0;
  const rows = found.sort(newer).slice(0, shown + 1);
  return { hasMore: rows.length > shown, items: rows.slice(0, shown).map(listItem) };
}

/**
 * The list's read for a tab in a language: the newest `count` requests of each of the tab's statuses, each read
 * through the (user_id, status, created_at) index, compiled once (prepared.ts) for each tab and language.
 */
function refundListQuery(tab: RefundTab, locale: Locale) {
  const key = `${tab} ${locale}`;
  let query = refundListQueries.get(key);
  if (!query) refundListQueries.set(key, (query = prepareRefundList(tab, locale)));
  return query;
}

function prepareRefundList(tab: RefundTab, locale: Locale) {
  const [first, ...others] = tab === "finished" ? FINISHED_STATUSES : IN_PROGRESS_STATUSES;
  return prepared((db, arg: Argument<{ userId: string; count: number }>) => {
    // Each read is a subquery of its own: SQLite takes no ORDER BY or LIMIT on a compound's arms.
    const newest = (status: ExpenseRequestStatus) =>
      db
        .selectFrom(
          listQuery(db, arg("userId"), locale)
            .where("er.status", "=", status)
            .orderBy("er.created_at", "desc")
            .orderBy("er.id", "desc")
            .limit(arg("count"))
            .as("s"),
        )
        .selectAll();
    return others.reduce((query, status) => query.unionAll(newest(status)), newest(first!));
  });
}

const refundListQueries = new Map<string, ReturnType<typeof prepareRefundList>>();

/** One of the user's requests as the list shows it, or null for an unknown id or someone else's. */
export async function getRefund(
  db: DB,
  userId: string,
  requestId: string,
  locale: Locale,
): Promise<RefundListItem | null> {
  const row = await listQuery(db, userId, locale).where("er.id", "=", requestId).executeTakeFirst();
  return row ? listItem(row) : null;
}

function listQuery(db: DB, userId: string, locale: Locale) {
  const column = nameColumn(locale);
  return (
    db
      .selectFrom("expense_requests as er")
      .innerJoin("expense_types as t", "t.id", "er.type_id")
      .leftJoin("partners as p", "p.id", "er.partner_id")
      // One payout at most per request (a unique key): its day and amount, for the list's "Versé le …".
      .leftJoin("payouts as po", "po.expense_request_id", "er.id")
      .select([
        "po.amount as payout_amount",
        "po.scheduled_for as payout_scheduled_for",
        "po.paid_at as payout_paid_at",
        "er.id",
        "er.ticket_date",
        "er.created_at",
        "er.amount",
        "er.amount_to_refund",
        "er.fees",
        "er.status",
        "er.refusal_reason",
        "er.correction_reason",
        "er.payout_date",
        "er.iban_last_four",
        "er.media_id",
        "er.second_media_id",
        "er.is_rectifiable",
        "er.is_cancellable",
        `t.${column} as type_name`,
        `p.${column} as partner_name`,
      ])
      .where("er.user_id", "=", userId)
  );
}

type ListRow = Awaited<ReturnType<ReturnType<typeof listQuery>["executeTakeFirstOrThrow"]>>;

function listItem(r: ListRow): RefundListItem {
  return {
    id: r.id,
    partnerName: r.partner_name,
    typeName: r.type_name,
    ticketDate: r.ticket_date,
    createdAt: r.created_at,
    amount: r.amount,
    amountToRefund: r.amount_to_refund,
    fees: r.fees,
    status: r.status,
    refusalReason: r.refusal_reason,
    correctionReason: r.correction_reason,
    payout: payoutOf(r),
    ibanLastFour: r.iban_last_four,
    media: [r.media_id, r.second_media_id]
      .filter((id): id is string => id !== null)
      .map((id, index) => ({ id, number: index + 1, label: receiptLabel(index + 1) })),
    isRectifiable: r.is_rectifiable === 1,
    isCancellable: r.is_cancellable === 1,
  };
}

/**
 * A request's transfer: its payouts row when there is one (paid: the Paris day it left), else the request's own
 * `payout_date` once approved or paid; nothing for a request never approved (sent, to correct, refused, cancelled).
 */
function payoutOf(r: ListRow): RefundPayout | null {
  const paid = r.status === "paid";
  if (r.payout_scheduled_for !== null) {
    const day = paid && r.payout_paid_at ? parisDayOf(new Date(r.payout_paid_at)) : r.payout_scheduled_for;
    return { day, paid, amount: r.payout_amount };
  }
  if ((paid || r.status === "approved") && r.payout_date) return { day: r.payout_date, paid, amount: null };
  return null;
}

// ---------------------------------------------------------------------------------------------
// Types and wallets
// ---------------------------------------------------------------------------------------------

export interface ExpenseTypeOption {
  id: string;
  technicalName: string;
  name: string;
  disabled: boolean;
  /** False only for the built-in mobility type before anyone chose it: not in the catalogue yet (decision 0065). */
  stored: boolean;
}

/**
 * The built-in mobility type (spec 001 §2.6: names Mobility, Mobilité, Mobiliteit), offered when allowances are
 * on and the catalogue has no mobility type. The first time someone chooses it, it is stored in the catalogue
 * under this id (`chooseExpenseType`), so that drafts and requests can name it — their type is a foreign key —
 * and the option keeps the id it was offered with (decision 0065).
 */
export const BUILT_IN_MOBILITY = {
  id: "ext_mobility",
  technical_name: "mobility",
  name_fr: "Mobilité",
  name_en: "Mobility",
  name_nl: "Mobiliteit",
} as const;

interface UserFeatures {
  allowances: { any?: boolean };
  expenseRequests: { any?: boolean; [k: string]: unknown };
}

async function featuresOf(db: DB, userId: string): Promise<UserFeatures | null> {
  const row = await db.selectFrom("users").select("features").where("id", "=", userId).executeTakeFirst();
  if (!row) return null;
  try {
    const parsed = JSON.parse(row.features) as Partial<UserFeatures>;
    return { allowances: parsed.allowances ?? {}, expenseRequests: parsed.expenseRequests ?? {} };
  } catch {
    return { allowances: {}, expenseRequests: {} };
  }
}

const featureOn = (value: unknown) => value === true || (Array.isArray(value) && value.length > 0);

/**
 * The type selector's options (spec 001 §2.6 step 0): the catalogue's types, the meal type disabled and
 * last, fuel_expenses only with its feature, and the built-in mobility type added when allowances are on and
 * the catalogue has no mobility type. Once stored, the built-in type is still offered only with allowances.
 */
export async function listExpenseTypes(db: DB, userId: string, locale: Locale): Promise<ExpenseTypeOption[]> {
  const features = await featuresOf(db, userId);
  if (!features || !featureOn(features.expenseRequests.any)) return [];
  const allowances = featureOn(features.allowances.any);
  const column = nameColumn(locale);
  const rows = await db.selectFrom("expense_types").selectAll().orderBy("position").orderBy("id").execute();
  const options: ExpenseTypeOption[] = rows
    .filter((t) => t.technical_name !== "fuel_expenses" || featureOn(features.expenseRequests["fuel-expenses"]))
    .filter((t) => t.id !== BUILT_IN_MOBILITY.id || allowances)
    .map((t) => ({
      id: t.id,
      technicalName: t.technical_name,
      name: t[column],
      disabled: t.front_disabled === 1 || t.technical_name === "meal",
      stored: true,
    }));
  if (allowances && !options.some((o) => o.technicalName === "mobility")) {
    const { id, technical_name } = BUILT_IN_MOBILITY;
    options.push({
      id,
      technicalName: technical_name,
      name: BUILT_IN_MOBILITY[column],
      disabled: false,
      stored: false,
    });
  }
  return [...options.filter((o) => !o.disabled), ...options.filter((o) => o.disabled)];
}

/**
 * The type a draft takes at the wizard's type step (spec 001 §2.6): one offered to this person and not
 * disabled, else null. The built-in mobility type is stored in the catalogue the first time it is chosen, so
 * that the draft can name it: idempotent, and safe when two people choose it at once or the catalogue gains its
 * own mobility type meanwhile (decision 0065). A write, for the step's POST only.
 */
export async function chooseExpenseType(
  db: DB,
  userId: string,
  typeId: string,
  locale: Locale,
): Promise<ExpenseTypeOption | null> {
  const offered = (await listExpenseTypes(db, userId, locale)).find((t) => t.id === typeId && !t.disabled);
  if (!offered || offered.stored) return offered ?? null;
  const last = await db
    .selectFrom("expense_types")
    .select((eb) => eb.fn.max("position").as("position"))
    .executeTakeFirst();
  await db
    .insertInto("expense_types")
    .values({ ...BUILT_IN_MOBILITY, front_disabled: 0, position: Number(last?.position ?? 0) + 1 })
    // Already there (stored by another choice, or the catalogue's own mobility type added): nothing to do.
    .onConflict((oc) => oc.doNothing())
    .execute();
  const listed = await listExpenseTypes(db, userId, locale);
  return listed.find((t) => t.technicalName === "mobility" && t.stored && !t.disabled) ?? null;
}

export interface EligibleWallet {
  id: string;
  name: string;
  walletType: string;
  /** Cents this request may take: the balance less frozen payments and other requests' reservations; null: unlimited. */
  available: number | null;
}

/**
 * The wallets that may pay this expense type (spec 001 §2.6 "Methods step", §5): meal wallets never, only
 * wallets whose type matches, none with nothing available. When editing, the request's own reservations
 * count as available (they are replaced when it is sent again).
 */
export async function eligibleWallets(
  db: DB,
  userId: string,
  typeTechnicalName: string,
  options: { exceptRequestId?: string | null; now?: Date } = {},
): Promise<EligibleWallet[]> {
  const types = walletTypesFor(typeTechnicalName).filter((t) => t !== "meal");
  if (types.length === 0) return [];
  const wallets = await db
    .selectFrom("wallets")
    .select("id")
    .where("user_id", "=", userId)
    .where("wallet_type", "in", types)
    .orderBy("created_at")
    .orderBy("name")
    .execute();
  const summaries = await walletSummaries(
    db,
    userId,
    wallets.map((w) => w.id),
    options.now,
  );
  const own = options.exceptRequestId
    ? await db
        .selectFrom("wallet_reservations")
        .innerJoin("expense_requests", "expense_requests.id", "wallet_reservations.expense_request_id")
        .select(["wallet_reservations.wallet_id", "wallet_reservations.amount"])
        .where("expense_requests.user_id", "=", userId)
        .where("wallet_reservations.expense_request_id", "=", options.exceptRequestId)
        .where("wallet_reservations.status", "=", "held")
        .execute()
    : [];
  return wallets
    .map((w) => summaries.find((s) => s.id === w.id))
    .filter((s) => s !== undefined)
    .map((s) => ({
      id: s.id,
      name: s.name,
      walletType: s.walletType,
      available:
        s.available === null
          ? null
          : s.available + own.filter((r) => r.wallet_id === s.id).reduce((sum, r) => sum + r.amount, 0),
    }))
    .filter((w) => w.available === null || w.available > 0);
}

// ---------------------------------------------------------------------------------------------
// Loading for correction
// ---------------------------------------------------------------------------------------------

export interface EditableRefund {
  id: string;
  typeId: string;
  typeTechnicalName: string;
  partnerId: string | null;
  ticketDate: string;
  amount: number;
  mediaId: string | null;
  secondMediaId: string | null;
  ibanLastFour: string;
  paymentMethods: { walletId: string; amount: number }[];
}

export async function loadRefundForEdit(
  db: DB,
  userId: string,
  requestId: string,
): Promise<{ kind: "found"; request: EditableRefund } | { kind: "notFound" } | { kind: "notRectifiable" }> {
  const row = await db
    .selectFrom("expense_requests as er")
    .innerJoin("expense_types as t", "t.id", "er.type_id")
    .selectAll("er")
    .select("t.technical_name")
    .where("er.id", "=", requestId)
    .where("er.user_id", "=", userId)
    .executeTakeFirst();
  if (!row) return { kind: "notFound" };
  if (row.is_rectifiable !== 1 || row.status !== "to_correct") return { kind: "notRectifiable" };
  const methods = await db
    .selectFrom("expense_request_payment_methods")
    .select(["wallet_id", "amount"])
    .where("request_id", "=", row.id)
    .orderBy("position")
    .execute();
  return {
    kind: "found",
    request: {
      id: row.id,
      typeId: row.type_id,
      typeTechnicalName: row.technical_name,
      partnerId: row.partner_id,
      ticketDate: row.ticket_date,
      amount: row.amount,
      mediaId: row.media_id,
      secondMediaId: row.second_media_id,
      ibanLastFour: row.iban_last_four,
      paymentMethods: methods.map((m) => ({ walletId: m.wallet_id, amount: m.amount })),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Sending
// ---------------------------------------------------------------------------------------------

export interface RefundInput {
  draftId: string;
  /** The request being corrected, or null for a new one. */
  requestId: string | null;
  typeId: string;
  partnerId: string;
  ticketDate: string;
  /** Cents. */
  amount: number;
  /** The IBAN as typed; null keeps the one on file (only when correcting). */
  iban: string | null;
  paymentMethods: { walletId: string; amount: number }[];
  mediaId: string;
  secondMediaId: string | null;
  swornStatement: boolean;
  swornName: string | null;
}

export type SubmitRefundResult =
  | { kind: "created" | "updated"; requestId: string }
  | Invalid<RefundField, RefundProblem>
  | { kind: "notFound" }
  | { kind: "notRectifiable" }
  | { kind: "alreadySubmitted" };

/**
 * Sends a new request, or a corrected one. Every rule is checked here whatever the wizard checked: partner,
 * date, amount, the split over eligible wallets, the IBAN, the sworn statement (and name), the receipts and
 * their duplicates. The draft is claimed atomically, so two concurrent sends store and reserve once.
 */
export async function submitRefund(
  db: DB,
  messenger: Messenger,
  userId: string,
  input: RefundInput,
  options: { now?: Date; push?: PushSender } = {},
): Promise<SubmitRefundResult> {
  const now = options.now ?? new Date();
  const opened = await openSending(db, userId, input);
  if (opened.kind !== "open") return opened;
  const checked = await checkRequest(db, userId, input, opened, now);
  if (checked.kind === "invalid") {
    // A concurrent send of this draft may have won meanwhile (its receipt then counts as a duplicate here).
    const again = await readDraft(db, "expense_request_drafts", userId, input.draftId);
    return again?.submitted_at ? { kind: "alreadySubmitted" } : checked;
  }
  const result = await storeRequest(db, userId, input, checked.request, now);
  if (result.kind === "created" || result.kind === "updated") {
    await announceRequestEvent({ db, messenger, push: options.push }, userId, result.kind, result.requestId, {
      amount: input.amount,
      partner: checked.request.partnerName,
    });
  }
  return result;
}

/** The sender, and the request being corrected (null for a new one). */
interface Sending {
  kind: "open";
  user: { first_name: string | null; last_name: string | null };
  existing: { id: string; iban: string | null } | null;
}

/** Who sends, from which open draft, and which request they correct: or why the send stops before any check. */
async function openSending(
  db: DB,
  userId: string,
  input: RefundInput,
): Promise<Sending | { kind: "notFound" } | { kind: "notRectifiable" } | { kind: "alreadySubmitted" }> {
  const user = await db
    .selectFrom("users")
    .select(["first_name", "last_name"])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!user) return { kind: "notFound" };
  const draft = await readDraft(db, "expense_request_drafts", userId, input.draftId);
  if (!draft || (draft.request_id ?? null) !== (input.requestId ?? null)) return { kind: "notFound" };
  if (draft.submitted_at !== null) return { kind: "alreadySubmitted" };
  if (!input.requestId) return { kind: "open", user, existing: null };
  const row = await db
    .selectFrom("expense_requests")
    .select(["id", "iban", "status", "is_rectifiable"])
    .where("id", "=", input.requestId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!row) return { kind: "notFound" };
  if (row.status !== "to_correct" || row.is_rectifiable !== 1) return { kind: "notRectifiable" };
  return { kind: "open", user, existing: row };
}

/** What a request that passed every check stores. */
interface CheckedRequest {
  typeId: string;
  partnerId: string;
  partnerName: string | null;
  iban: string;
  swornName: string | null;
}

/** The problems found so far, in the form's order (each a code at the platform's field; the route words them). */
type Problems = RefundRefusal[];
const fail = (problems: Problems, field: RefundField, code: RefundProblem) => {
  problems.push(problem(field, code));
};

/**
 * Every rule of a request, in the form's order: the type, the partner, the ticket date, the amount, the
 * split, the IBAN, the sworn statement and name, the receipts.
 */
async function checkRequest(
  db: DB,
  userId: string,
  input: RefundInput,
  sending: Sending,
  now: Date,
): Promise<{ kind: "valid"; request: CheckedRequest } | Invalid<RefundField, RefundProblem>> {
  const problems: Problems = [];
  const types = await listExpenseTypes(db, userId, "fr");
  // The built-in mobility type is a request's once stored (chosen at the wizard's type step, decision 0065).
  const type = types.find((t) => t.id === input.typeId && !t.disabled && t.stored);
  if (!type) fail(problems, "type", "typeRequired");
  const partner = await checkPartner(db, input.partnerId, problems);
  const ticketDate = ticketDateProblem(input.ticketDate, todayInParis(now));
  if (ticketDate) fail(problems, "ticket_date", ticketDate);
  const amount = amountProblem(input.amount);
  if (amount) fail(problems, "amount", amount);
  // The split: at least one wallet, each once, eligible for this type, a positive amount within what it can give.
  const wallets = type
    ? await eligibleWallets(db, userId, type.technicalName, { exceptRequestId: input.requestId, now })
    : [];
  problems.push(...splitProblems(input.paymentMethods ?? [], wallets, input.amount));
  const iban = checkIban(input.iban, sending.existing, problems);
  if (input.swornStatement !== true) fail(problems, "sworn_statement", "swornStatementRequired");
  const swornName =
    type && SWORN_NAME_TYPES.includes(type.technicalName) ? checkSwornName(input, sending, problems) : null;
  await checkReceipts(db, userId, input, problems);
  if (problems.length > 0 || !type || !partner || iban === null) return { kind: "invalid", problems };
  return {
    kind: "valid",
    request: { typeId: type.id, partnerId: partner.id, partnerName: partner.name_fr, iban, swornName },
  };
}

/** The partner chosen, when it exists and is enabled. */
async function checkPartner(db: DB, partnerId: string, problems: Problems) {
  const partner = partnerId
    ? await db
        .selectFrom("partners")
        .select(["id", "enabled", "name_fr"])
        .where("id", "=", partnerId)
        .executeTakeFirst()
    : undefined;
  if (!partner) fail(problems, "partner_id", "partnerRequired");
  else if (partner.enabled !== 1) fail(problems, "partner_id", "partnerDisabled");
  return partner;
}

/** The IBAN to store, normalised; a masked (last 4) or empty one while correcting keeps the IBAN on file. */
function checkIban(typed: string | null, existing: Sending["existing"], problems: Problems): string | null {
  if (typed === null || typed.trim() === "" || (existing && typed.trim().length === 4)) {
    if (existing?.iban) return existing.iban;
    fail(problems, "iban", "ibanRequired");
    return null;
  }
  const iban = normaliseIban(typed);
  const wrong = ibanProblem(iban);
  if (!wrong) return iban;
  fail(problems, "iban", wrong);
  return null;
}

/** The name the employee typed under the sworn statement, which must be theirs (accents and case aside). */
function checkSwornName(input: RefundInput, sending: Sending, problems: Problems): string {
  const expected = foldForSearch(`${sending.user.first_name ?? ""} ${sending.user.last_name ?? ""}`);
  const swornName = (input.swornName ?? "").trim();
  if (swornName === "") fail(problems, "sworn_name", "swornNameRequired");
  else if (foldForSearch(swornName) !== expected || expected === "") fail(problems, "sworn_name", "swornNameMismatch");
  return swornName;
}

/** One or two receipts, different, the employee's own, and not already on another of their live requests. */
async function checkReceipts(db: DB, userId: string, input: RefundInput, problems: Problems): Promise<void> {
  const mediaIds = [input.mediaId, input.secondMediaId].filter((id): id is string => Boolean(id));
  if (!input.mediaId) return fail(problems, "media", "mediaRequired");
  if (new Set(mediaIds).size !== mediaIds.length) return fail(problems, "media", "mediaTwice");
  const files = await db
    .selectFrom("files")
    .select(["id", "sha256"])
    .where("user_id", "=", userId)
    .where("id", "in", mediaIds)
    .execute();
  if (files.length !== mediaIds.length) return fail(problems, "media", "mediaNotFound");
  if (
    await duplicateReceipt(
      db,
      userId,
      files.map((f) => f.sha256),
      input.requestId,
    )
  )
    fail(problems, "media", "mediaDuplicate");
}

/** Whether one of these receipts (by content) is already on another of the user's live requests. */
async function duplicateReceipt(
  db: DB,
  userId: string,
  sha256s: string[],
  exceptRequestId: string | null,
): Promise<boolean> {
  if (sha256s.length === 0) return false;
  let query = db
    .selectFrom("files")
    .innerJoin("expense_requests as er", (join) =>
      join.on((eb) =>
        eb.or([eb("er.media_id", "=", eb.ref("files.id")), eb("er.second_media_id", "=", eb.ref("files.id"))]),
      ),
    )
    .select("er.id")
    .where("files.user_id", "=", userId)
    .where("er.user_id", "=", userId)
    .where("files.sha256", "in", sha256s)
    .where("er.status", "not in", DEAD_STATUSES);
  if (exceptRequestId) query = query.where("er.id", "!=", exceptRequestId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** Thrown when the request under correction was reviewed (or cancelled) meanwhile: the draft's claim rolls back too. */
class NotRectifiable extends Error {}

/**
 * One transaction: the chosen wallets locked, the draft claimed once (a second send finds it claimed), the
 * request written with its split, the amounts held and checked again, the notification row. A request
 * reviewed meanwhile, or a wallet another request emptied meanwhile, rolls it all back.
 */
async function storeRequest(
  db: DB,
  userId: string,
  input: RefundInput,
  request: CheckedRequest,
  now: Date,
): Promise<SubmitRefundResult> {
  const methods = input.paymentMethods;
  return db
    .transaction()
    .execute(async (trx): Promise<SubmitRefundResult> => {
      await lockWallets(
        trx,
        userId,
        methods.map((m) => m.walletId),
      );
      if (!(await claimDraft(trx, "expense_request_drafts", userId, input.draftId, now)))
        return { kind: "alreadySubmitted" };
      const requestId = await writeRequest(trx, userId, input, request, now);
      await trx
        .insertInto("expense_request_payment_methods")
        .values(
          methods.map((m, position) => ({
            id: newId("erpm"),
            request_id: requestId,
            wallet_id: m.walletId,
            amount: m.amount,
            position,
          })),
        )
        .execute();
      await holdReservations(trx, userId, requestId, methods, now);
      const event = input.requestId ? "updated" : "created";
      await recordRequestEvent(trx, userId, event, requestId, now);
      return { kind: event, requestId };
    })
    .catch((err: unknown): SubmitRefundResult => {
      if (err instanceof NotRectifiable) return { kind: "notRectifiable" };
      if (err instanceof OverAvailable)
        return {
          kind: "invalid",
          problems: [problem(`payment_methods.${err.index}.amount` as const, "paymentMethodOverAvailable")],
        };
      throw err;
    });
}

/**
 * Writes the request, sent: a new row, or the corrected one in place (still to correct, else
 * `NotRectifiable`) with its previous split and holds dropped. Answers its id.
 */
async function writeRequest(
  trx: DB,
  userId: string,
  input: RefundInput,
  request: CheckedRequest,
  now: Date,
): Promise<string> {
  const nowIso = now.toISOString();
  const fields = {
    type_id: request.typeId,
    partner_id: request.partnerId,
    amount: input.amount,
    amount_to_refund: input.amount,
    fees: 0,
    iban: request.iban,
    iban_last_four: maskIban(request.iban),
    ticket_date: input.ticketDate,
    media_id: input.mediaId,
    second_media_id: input.secondMediaId || null,
    sworn_name: request.swornName,
    status: "sent" as const,
    is_rectifiable: 0,
    is_cancellable: 1,
    correction_reason: null,
    updated_at: nowIso,
  };
  if (input.requestId) {
    const updated = await trx
      .updateTable("expense_requests")
      .set(fields)
      .where("id", "=", input.requestId)
      .where("user_id", "=", userId)
      .where("status", "=", "to_correct")
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new NotRectifiable();
    await trx.deleteFrom("expense_request_payment_methods").where("request_id", "=", input.requestId).execute();
    await releaseReservations(trx, input.requestId, now);
    return input.requestId;
  }
  const requestId = newId("exr");
  await trx
    .insertInto("expense_requests")
    .values({ id: requestId, user_id: userId, refusal_reason: null, payout_date: null, created_at: nowIso, ...fields })
    .execute();
  return requestId;
}

// ---------------------------------------------------------------------------------------------
// Cancelling
// ---------------------------------------------------------------------------------------------

export async function cancelRefund(
  db: DB,
  messenger: Messenger,
  userId: string,
  requestId: string,
  options: { now?: Date; push?: PushSender } = {},
): Promise<{ kind: "cancelled" } | { kind: "notFound" } | { kind: "notCancellable" }> {
  const now = options.now ?? new Date();
  const row = await db
    .selectFrom("expense_requests")
    .select(["id", "amount"])
    .where("id", "=", requestId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!row) return { kind: "notFound" };
  const done = await db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable("expense_requests")
      .set({ status: "cancelled", is_cancellable: 0, is_rectifiable: 0, updated_at: now.toISOString() })
      .where("id", "=", row.id)
      .where("user_id", "=", userId)
      .where("is_cancellable", "=", 1)
      .where("status", "in", ["sent", "to_correct"])
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return false;
    await releaseReservations(trx, row.id, now);
    await recordRequestEvent(trx, userId, "cancelled", row.id, now);
    return true;
  });
  if (!done) return { kind: "notCancellable" };
  await announceRequestEvent(
    { db, messenger, push: options.push },
    userId,
    "cancelled",
    row.id,
    await mailFacts(db, row.id),
  );
  return { kind: "cancelled" };
}
