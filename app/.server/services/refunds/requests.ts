import type { DB } from "../../db";
import type { Updateable } from "kysely";
import type { ExpenseRequestStatus, ExpenseRequestTable } from "../../db/schema";
import type { Locale } from "../../env";
import { newId } from "../../ids";
import type { Messenger } from "../../providers/messaging/port";
import type { PushSender } from "../../providers/push/port";
import { deliverNotification, recordNotification, type NotifyDeps } from "../notifications";
import { debitWallet, walletSummaries } from "../wallets";
import { REFUND_MAX_AMOUNT } from "~/domain/amount-bounds";
import { addWorkingDays, isCalendarDay } from "~/domain/calendar";
import { ibanProblem, maskIban, normaliseIban } from "~/domain/iban";
import { foldForSearch } from "~/domain/search-text";
import { frenchDay, todayInParis } from "~/domain/dates";
import { formatCents } from "~/domain/money";
import resources from "~/i18n/catalogues";

/**
 * Refund requests, the platform side (issue 14, spec 001 §2.6, §3, §4, §5): the employee's list, the
 * expense types and wallets a request may use, sending (and correcting) a request — which holds the chosen
 * amounts on the wallets — cancelling it, and the funder's review: approve (the wallets are debited and a
 * payout to the IBAN is scheduled 7 working days later), refuse, or ask for a correction. Decision 0024.
 */

export const EXPENSE_REQUESTS_PAGE_SIZE = 10;
/** A refund is paid within 7 working days of its approval (spec 001 §9). */
export const PAYOUT_WORKING_DAYS = 7;

export type ExpenseRequestTab = "in-progress" | "finished";
export const IN_PROGRESS_STATUSES: readonly ExpenseRequestStatus[] = ["sent", "to_correct", "approved"];
export const FINISHED_STATUSES: readonly ExpenseRequestStatus[] = ["paid", "refused", "cancelled"];
/** A receipt on a request in one of these states may be used again (spec: duplicates are flagged otherwise). */
const DEAD_STATUSES: ExpenseRequestStatus[] = ["cancelled", "refused"];
/** The types whose summary asks the employee to confirm their name (spec 001 §2.6 "Summary step"). */
export const SWORN_NAME_TYPES: readonly string[] = ["mobility", "holidays"];

export interface ExpenseRequestListItem {
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
  payoutDate: string | null;
  ibanLastFour: string;
  /** The receipts in order: "Justificatif 1", "Justificatif 2". */
  media: { id: string; number: number; label: string }[];
  isRectifiable: boolean;
  isCancellable: boolean;
}

function nameColumn(locale: Locale): "name_fr" | "name_en" | "name_nl" {
  return locale === "en" ? "name_en" : locale === "nl" ? "name_nl" : "name_fr";
}

export async function listExpenseRequests(
  db: DB,
  userId: string,
  options: { tab: ExpenseRequestTab; page: number; locale: Locale },
): Promise<{ items: ExpenseRequestListItem[]; hasMore: boolean }> {
  const page = Number.isInteger(options.page) && options.page >= 1 ? Math.min(options.page, 1000) : 1;
  const shown = page * EXPENSE_REQUESTS_PAGE_SIZE;
  const statuses = options.tab === "finished" ? FINISHED_STATUSES : IN_PROGRESS_STATUSES;
  const rows = await listQuery(db, userId, options.locale)
    .where("er.status", "in", [...statuses])
    .orderBy("er.created_at", "desc")
    .orderBy("er.id", "desc")
    .limit(shown + 1)
    .execute();
  return { hasMore: rows.length > shown, items: rows.slice(0, shown).map(listItem) };
}

/** One of the user's requests as the list shows it, or null for an unknown id or someone else's. */
export async function getExpenseRequest(
  db: DB,
  userId: string,
  requestId: string,
  locale: Locale,
): Promise<ExpenseRequestListItem | null> {
  const row = await listQuery(db, userId, locale).where("er.id", "=", requestId).executeTakeFirst();
  return row ? listItem(row) : null;
}

function listQuery(db: DB, userId: string, locale: Locale) {
  const column = nameColumn(locale);
  return db
    .selectFrom("expense_requests as er")
    .innerJoin("expense_types as t", "t.id", "er.type_id")
    .leftJoin("partners as p", "p.id", "er.partner_id")
    .select([
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
    .where("er.user_id", "=", userId);
}

type ListRow = Awaited<ReturnType<ReturnType<typeof listQuery>["executeTakeFirstOrThrow"]>>;

function listItem(r: ListRow): ExpenseRequestListItem {
  const label = resources.fr.translation.refunds.list.receipt;
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
    payoutDate: r.payout_date,
    ibanLastFour: r.iban_last_four,
    media: [r.media_id, r.second_media_id]
      .filter((id): id is string => id !== null)
      .map((id, index) => ({ id, number: index + 1, label: label.replace("{{number}}", String(index + 1)) })),
    isRectifiable: r.is_rectifiable === 1,
    isCancellable: r.is_cancellable === 1,
  };
}

// ---------------------------------------------------------------------------------------------
// Types and wallets
// ---------------------------------------------------------------------------------------------

export interface ExpenseTypeOption {
  id: string;
  technicalName: string;
  name: string;
  disabled: boolean;
}

/** The hard-coded mobility type's names (spec 001 §2.6), used when the catalogue has none. */
const MOBILITY_NAMES = { name_fr: "Mobilité", name_en: "Mobility", name_nl: "Mobiliteit" } as const;

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
 * last, fuel_expenses only with its feature, and a "mobility" type added when allowances are on and the
 * catalogue has none (its id is then "mobility").
 */
export async function listExpenseTypes(db: DB, userId: string, locale: Locale): Promise<ExpenseTypeOption[]> {
  const features = await featuresOf(db, userId);
  if (!features || !featureOn(features.expenseRequests.any)) return [];
  const column = nameColumn(locale);
  const rows = await db.selectFrom("expense_types").selectAll().orderBy("position").orderBy("id").execute();
  const options = rows
    .filter((t) => t.technical_name !== "fuel_expenses" || featureOn(features.expenseRequests["fuel-expenses"]))
    .map((t) => ({
      id: t.id,
      technicalName: t.technical_name,
      name: t[column],
      disabled: t.front_disabled === 1 || t.technical_name === "meal",
    }));
  if (featureOn(features.allowances.any) && !options.some((o) => o.technicalName === "mobility")) {
    options.push({ id: "mobility", technicalName: "mobility", name: MOBILITY_NAMES[column], disabled: false });
  }
  return [...options.filter((o) => !o.disabled), ...options.filter((o) => o.disabled)];
}

/** The wallet types that may pay an expense type: the same type, and the mobility wallet for mobility costs. */
export function walletTypesFor(expenseType: string): string[] {
  if (expenseType === "meal") return [];
  if (expenseType === "fuel_expenses" || expenseType === "electric_vehicle_recharge") return ["mobility"];
  return [expenseType];
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

export interface EditableExpenseRequest {
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

export async function loadExpenseRequestForEdit(
  db: DB,
  userId: string,
  requestId: string,
): Promise<{ kind: "found"; request: EditableExpenseRequest } | { kind: "notFound" } | { kind: "notRectifiable" }> {
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

export interface ExpenseRequestInput {
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

export type SubmitExpenseRequestResult =
  | { kind: "created" | "updated"; requestId: string }
  | { kind: "invalid"; errors: Record<string, string[]> }
  | { kind: "notFound" }
  | { kind: "notRectifiable" }
  | { kind: "alreadySubmitted" };

const E = (key: string) => `refunds.errors.${key}`;

const isCents = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n);

/**
 * Sends a new request, or a corrected one. Every rule is checked here whatever the wizard checked: partner,
 * date, amount, the split over eligible wallets, the IBAN, the sworn statement (and name), the receipts and
 * their duplicates. The draft is claimed atomically, so two concurrent sends store and reserve once.
 */
export async function submitExpenseRequest(
  db: DB,
  messenger: Messenger,
  userId: string,
  input: ExpenseRequestInput,
  options: { now?: Date; push?: PushSender } = {},
): Promise<SubmitExpenseRequestResult> {
  const now = options.now ?? new Date();
  const user = await db
    .selectFrom("users")
    .select(["id", "first_name", "last_name", "features"])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!user) return { kind: "notFound" };
  const draft = await db
    .selectFrom("expense_request_drafts")
    .select(["id", "request_id", "submitted_at"])
    .where("id", "=", input.draftId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!draft || (draft.request_id ?? null) !== (input.requestId ?? null)) return { kind: "notFound" };
  if (draft.submitted_at !== null) return { kind: "alreadySubmitted" };

  let existing: { id: string; iban: string | null; iban_last_four: string } | null = null;
  if (input.requestId) {
    const row = await db
      .selectFrom("expense_requests")
      .select(["id", "iban", "iban_last_four", "status", "is_rectifiable"])
      .where("id", "=", input.requestId)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    if (!row) return { kind: "notFound" };
    if (row.status !== "to_correct" || row.is_rectifiable !== 1) return { kind: "notRectifiable" };
    existing = row;
  }

  const errors: Record<string, string[]> = {};
  const fail = (key: string, message: string) => {
    (errors[key] ??= []).push(E(message));
  };

  const types = await listExpenseTypes(db, userId, "fr");
  const type = types.find((t) => t.id === input.typeId && !t.disabled && t.id !== "mobility");
  if (!type) fail("type", "typeRequired");

  const partner = input.partnerId
    ? await db
        .selectFrom("partners")
        .select(["id", "enabled", "name_fr"])
        .where("id", "=", input.partnerId)
        .executeTakeFirst()
    : undefined;
  if (!partner) fail("partner_id", "partnerRequired");
  else if (partner.enabled !== 1) fail("partner_id", "partnerDisabled");

  if (!input.ticketDate) fail("ticket_date", "ticketDateRequired");
  else if (!isCalendarDay(input.ticketDate)) fail("ticket_date", "ticketDateInvalid");
  else if (input.ticketDate > todayInParis(now)) fail("ticket_date", "ticketDateFuture");

  const amountValid = isCents(input.amount) && input.amount > 0 && input.amount <= REFUND_MAX_AMOUNT;
  if (!isCents(input.amount)) fail("amount", "amountInvalid");
  else if (input.amount <= 0) fail("amount", "amountPositive");
  else if (input.amount > REFUND_MAX_AMOUNT) fail("amount", "amountTooBig");

  // The split: at least one wallet, each once, eligible for this type, a positive amount within what it can give.
  const wallets = type
    ? await eligibleWallets(db, userId, type.technicalName, { exceptRequestId: input.requestId, now })
    : [];
  const methods = input.paymentMethods ?? [];
  if (methods.length === 0) fail("payment_methods", "paymentMethodsRequired");
  const seen = new Set<string>();
  let total = 0;
  let splitValid = methods.length > 0;
  methods.forEach((m, index) => {
    const key = `payment_methods.${index}.amount`;
    const wallet = wallets.find((w) => w.id === m.walletId);
    if (!wallet || seen.has(m.walletId)) {
      if (!errors.payment_methods?.includes(E("walletNotEligible"))) fail("payment_methods", "walletNotEligible");
      fail(key, "walletNotEligible");
      splitValid = false;
      return;
    }
    seen.add(m.walletId);
    if (!isCents(m.amount) || m.amount <= 0) {
      fail(key, "paymentMethodAmountPositive");
      splitValid = false;
      return;
    }
    if (wallet.available !== null && m.amount > wallet.available) {
      fail(key, "paymentMethodOverAvailable");
      splitValid = false;
    }
    total += m.amount;
  });
  if (splitValid && amountValid && total !== input.amount) fail("payment_methods", "paymentMethodsTotal");

  let iban: string | null = null;
  if (input.iban === null || input.iban.trim() === "" || (existing && input.iban.trim().length === 4)) {
    // Masked (last 4) or empty while correcting: keep the IBAN on file.
    if (existing?.iban) iban = existing.iban;
    else fail("iban", "ibanRequired");
  } else {
    iban = normaliseIban(input.iban);
    const problem = ibanProblem(iban);
    if (problem) {
      errors.iban = [problem];
      iban = null;
    }
  }

  if (input.swornStatement !== true) fail("sworn_statement", "swornStatementRequired");
  let swornName: string | null = null;
  if (type && SWORN_NAME_TYPES.includes(type.technicalName)) {
    const expected = foldForSearch(`${user.first_name ?? ""} ${user.last_name ?? ""}`);
    swornName = (input.swornName ?? "").trim();
    if (swornName === "") fail("sworn_name", "swornNameRequired");
    else if (foldForSearch(swornName) !== expected || expected === "") fail("sworn_name", "swornNameMismatch");
  }

  const mediaIds = [input.mediaId, input.secondMediaId].filter((id): id is string => Boolean(id));
  if (!input.mediaId) fail("media", "mediaRequired");
  else if (new Set(mediaIds).size !== mediaIds.length) fail("media", "mediaTwice");
  else {
    const files = await db
      .selectFrom("files")
      .select(["id", "sha256"])
      .where("user_id", "=", userId)
      .where("id", "in", mediaIds)
      .execute();
    if (files.length !== mediaIds.length) fail("media", "mediaNotFound");
    else if (
      await duplicateReceipt(
        db,
        userId,
        files.map((f) => f.sha256),
        input.requestId,
      )
    ) {
      fail("media", "mediaDuplicate");
    }
  }

  if (Object.keys(errors).length > 0 || !type || !partner || iban === null) {
    // A concurrent send of this draft may have won meanwhile (its receipt then counts as a duplicate here).
    const again = await db
      .selectFrom("expense_request_drafts")
      .select("submitted_at")
      .where("id", "=", draft.id)
      .executeTakeFirst();
    if (again?.submitted_at) return { kind: "alreadySubmitted" };
    return { kind: "invalid", errors };
  }

  const nowIso = now.toISOString();
  const result = await db
    .transaction()
    .execute(async (trx): Promise<SubmitExpenseRequestResult> => {
      // Locks the chosen wallets' rows until commit (a no-op update: PostgreSQL takes row locks, SQLite
      // runs one write transaction at a time), so two requests on one wallet are checked one after the other.
      await trx
        .updateTable("wallets")
        .set((eb) => ({ name: eb.ref("name") }))
        .where("user_id", "=", userId)
        .where(
          "id",
          "in",
          methods.map((m) => m.walletId),
        )
        .execute();
      const claimed = await trx
        .updateTable("expense_request_drafts")
        .set({ submitted_at: nowIso, updated_at: nowIso })
        .where("id", "=", input.draftId)
        .where("user_id", "=", userId)
        .where("submitted_at", "is", null)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) return { kind: "alreadySubmitted" } as const;

      const fields = {
        type_id: type.id,
        partner_id: partner.id,
        amount: input.amount,
        amount_to_refund: input.amount,
        fees: 0,
        iban,
        iban_last_four: maskIban(iban),
        ticket_date: input.ticketDate,
        media_id: input.mediaId,
        second_media_id: input.secondMediaId || null,
        sworn_name: swornName,
        status: "sent" as const,
        is_rectifiable: 0,
        is_cancellable: 1,
        correction_reason: null,
        updated_at: nowIso,
      };
      let requestId: string;
      if (existing) {
        const updated = await trx
          .updateTable("expense_requests")
          .set(fields)
          .where("id", "=", existing.id)
          .where("user_id", "=", userId)
          .where("status", "=", "to_correct")
          .executeTakeFirst();
        // Reviewed (or cancelled) meanwhile: throw so that the draft's claim is rolled back too.
        if (Number(updated.numUpdatedRows) !== 1) throw new NotRectifiable();
        requestId = existing.id;
        await trx.deleteFrom("expense_request_payment_methods").where("request_id", "=", requestId).execute();
        await trx
          .updateTable("wallet_reservations")
          .set({ status: "released", settled_at: nowIso })
          .where("expense_request_id", "=", requestId)
          .where("status", "=", "held")
          .execute();
      } else {
        requestId = newId("exr");
        await trx
          .insertInto("expense_requests")
          .values({
            id: requestId,
            user_id: userId,
            refusal_reason: null,
            payout_date: null,
            created_at: nowIso,
            ...fields,
          })
          .execute();
      }
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
      await trx
        .insertInto("wallet_reservations")
        .values(
          methods.map((m) => ({
            id: newId("wres"),
            wallet_id: m.walletId,
            expense_request_id: requestId,
            amount: m.amount,
            status: "held" as const,
            created_at: nowIso,
            settled_at: null,
          })),
        )
        .execute();
      // Checked again with this request's holds in place: another request sent meanwhile may have taken
      // what a wallet had; then everything here is rolled back, the draft's claim included.
      const after = await walletSummaries(
        trx,
        userId,
        methods.map((m) => m.walletId),
        now,
      );
      const over = methods.findIndex((m) => {
        const available = after.find((w) => w.id === m.walletId)?.available;
        return available !== null && available !== undefined && available < 0;
      });
      if (over >= 0) throw new OverAvailable(over);
      await addNotification(trx, userId, existing ? "updated" : "created", requestId, now);
      return { kind: existing ? "updated" : "created", requestId } as const;
    })
    .catch((err: unknown): SubmitExpenseRequestResult => {
      if (err instanceof NotRectifiable) return { kind: "notRectifiable" };
      if (err instanceof OverAvailable)
        return {
          kind: "invalid",
          errors: { [`payment_methods.${err.index}.amount`]: [E("paymentMethodOverAvailable")] },
        };
      throw err;
    });
  if (result.kind === "created" || result.kind === "updated") {
    await notifyByMail({ db, messenger, push: options.push }, userId, result.kind, result.requestId, {
      amount: input.amount,
      partner: partner.name_fr,
    });
  }
  return result;
}

class NotRectifiable extends Error {}
class OverAvailable extends Error {
  constructor(readonly index: number) {
    super(`payment method ${index} over what its wallet has`);
  }
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

// ---------------------------------------------------------------------------------------------
// Cancelling
// ---------------------------------------------------------------------------------------------

export async function cancelExpenseRequest(
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
    await addNotification(trx, userId, "cancelled", row.id, now);
    return true;
  });
  if (!done) return { kind: "notCancellable" };
  await notifyByMail({ db, messenger, push: options.push }, userId, "cancelled", row.id, await mailFacts(db, row.id));
  return { kind: "cancelled" };
}

async function releaseReservations(trx: DB, requestId: string, now: Date): Promise<void> {
  await trx
    .updateTable("wallet_reservations")
    .set({ status: "released", settled_at: now.toISOString() })
    .where("expense_request_id", "=", requestId)
    .where("status", "=", "held")
    .execute();
}

// ---------------------------------------------------------------------------------------------
// The funder's review (not scoped to a user: the sandbox reviewer stands for the funder)
// ---------------------------------------------------------------------------------------------

export type ReviewDecision =
  { kind: "approve" } | { kind: "refuse"; reason: string } | { kind: "askCorrection"; reason: string };

export type ReviewResult =
  | { kind: "approved"; payoutDate: string }
  | { kind: "refused" }
  | { kind: "toCorrect" }
  | { kind: "notFound" }
  | { kind: "notReviewable" }
  | { kind: "reasonRequired" };

/** Reasons are shown to the employee as written; a few hundred characters are plenty. */
export const REVIEW_REASON_MAX = 500;

export async function reviewExpenseRequest(
  db: DB,
  messenger: Messenger,
  requestId: string,
  decision: ReviewDecision,
  options: { now?: Date; push?: PushSender } = {},
): Promise<ReviewResult> {
  const now = options.now ?? new Date();
  const nowIso = now.toISOString();
  const request = await db
    .selectFrom("expense_requests as er")
    .leftJoin("partners as p", "p.id", "er.partner_id")
    .select(["er.id", "er.user_id", "er.amount_to_refund", "er.iban", "er.status", "p.name_fr as partner_name"])
    .where("er.id", "=", requestId)
    .executeTakeFirst();
  if (!request) return { kind: "notFound" };
  if (request.status !== "sent") return { kind: "notReviewable" };
  const reason = decision.kind === "approve" ? "" : decision.reason.trim().slice(0, REVIEW_REASON_MAX);
  if (decision.kind !== "approve" && reason === "") return { kind: "reasonRequired" };

  const outcome = await db.transaction().execute(async (trx): Promise<ReviewResult> => {
    const move = (set: Updateable<ExpenseRequestTable>) =>
      trx
        .updateTable("expense_requests")
        .set(set)
        .where("id", "=", request.id)
        .where("status", "=", "sent")
        .executeTakeFirst()
        .then((r) => Number(r.numUpdatedRows) === 1);
    switch (decision.kind) {
      case "approve": {
        const payoutDate = addWorkingDays(todayInParis(now), PAYOUT_WORKING_DAYS);
        const moved = await move({
          status: "approved",
          is_cancellable: 0,
          is_rectifiable: 0,
          payout_date: payoutDate,
          updated_at: nowIso,
        });
        if (!moved) return { kind: "notReviewable" };
        const held = await trx
          .selectFrom("wallet_reservations")
          .select(["id", "wallet_id", "amount"])
          .where("expense_request_id", "=", request.id)
          .where("status", "=", "held")
          .orderBy("created_at")
          .orderBy("id")
          .execute();
        for (const r of held) {
          await debitWallet(trx, r.wallet_id, r.amount, "expense_request", request.partner_name, now);
        }
        await trx
          .updateTable("wallet_reservations")
          .set({ status: "captured", settled_at: nowIso })
          .where("expense_request_id", "=", request.id)
          .where("status", "=", "held")
          .execute();
        await trx
          .insertInto("payouts")
          .values({
            id: newId("pay"),
            user_id: request.user_id,
            expense_request_id: request.id,
            amount: request.amount_to_refund,
            iban: request.iban ?? "",
            scheduled_for: payoutDate,
            status: "scheduled",
            created_at: nowIso,
            paid_at: null,
          })
          .execute();
        await addNotification(trx, request.user_id, "approved", request.id, now);
        return { kind: "approved", payoutDate };
      }
      case "refuse": {
        const moved = await move({
          status: "refused",
          is_cancellable: 0,
          is_rectifiable: 0,
          refusal_reason: reason,
          updated_at: nowIso,
        });
        if (!moved) return { kind: "notReviewable" };
        await releaseReservations(trx, request.id, now);
        await addNotification(trx, request.user_id, "refused", request.id, now);
        return { kind: "refused" };
      }
      case "askCorrection": {
        // The reservations stay held: the corrected request replaces them when it is sent again.
        const moved = await move({
          status: "to_correct",
          is_cancellable: 0,
          is_rectifiable: 1,
          correction_reason: reason,
          updated_at: nowIso,
        });
        if (!moved) return { kind: "notReviewable" };
        await addNotification(trx, request.user_id, "rectification_needed", request.id, now);
        return { kind: "toCorrect" };
      }
    }
  });
  if (outcome.kind === "approved" || outcome.kind === "refused" || outcome.kind === "toCorrect") {
    const event = outcome.kind === "toCorrect" ? "rectification_needed" : outcome.kind;
    await notifyByMail({ db, messenger, push: options.push }, request.user_id, event, request.id, {
      ...(await mailFacts(db, request.id)),
      reason,
      payoutDate: outcome.kind === "approved" ? outcome.payoutDate : undefined,
    });
  }
  return outcome;
}

/** Pays the scheduled payouts due on or before `today` (YYYY-MM-DD): each payout and its request become paid. */
export async function payDuePayouts(
  db: DB,
  messenger: Messenger,
  today: string,
  options: { now?: Date; push?: PushSender } = {},
): Promise<{ paid: string[] }> {
  const now = options.now ?? new Date();
  const due = await db
    .selectFrom("payouts")
    .select(["id", "user_id", "expense_request_id"])
    .where("status", "=", "scheduled")
    .where("scheduled_for", "<=", today)
    .orderBy("scheduled_for")
    .orderBy("id")
    .execute();
  const paid: string[] = [];
  for (const payout of due) {
    const done = await db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable("payouts")
        .set({ status: "paid", paid_at: now.toISOString() })
        .where("id", "=", payout.id)
        .where("status", "=", "scheduled")
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) return false;
      await trx
        .updateTable("expense_requests")
        .set({ status: "paid", updated_at: now.toISOString() })
        .where("id", "=", payout.expense_request_id)
        .where("status", "=", "approved")
        .execute();
      await addNotification(trx, payout.user_id, "finished", payout.expense_request_id, now);
      return true;
    });
    if (!done) continue;
    paid.push(payout.expense_request_id);
    await notifyByMail(
      { db, messenger, push: options.push },
      payout.user_id,
      "finished",
      payout.expense_request_id,
      await mailFacts(db, payout.expense_request_id),
    );
  }
  return { paid };
}

export interface AwaitingReview {
  id: string;
  userEmail: string;
  partnerName: string | null;
  typeName: string;
  ticketDate: string;
  amount: number;
  createdAt: string;
}

/** The sandbox reviewer's list: requests sent and waiting for the funder, oldest first. */
export async function listRequestsAwaitingReview(db: DB, limit = 50): Promise<AwaitingReview[]> {
  const rows = await db
    .selectFrom("expense_requests as er")
    .innerJoin("users as u", "u.id", "er.user_id")
    .innerJoin("expense_types as t", "t.id", "er.type_id")
    .leftJoin("partners as p", "p.id", "er.partner_id")
    .select([
      "er.id",
      "u.email",
      "p.name_fr as partner_name",
      "t.name_fr as type_name",
      "er.ticket_date",
      "er.amount",
      "er.created_at",
    ])
    .where("er.status", "=", "sent")
    .orderBy("er.created_at")
    .orderBy("er.id")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    userEmail: r.email,
    partnerName: r.partner_name,
    typeName: r.type_name,
    ticketDate: r.ticket_date,
    amount: r.amount,
    createdAt: r.created_at,
  }));
}

/** Payouts scheduled and not paid yet, for the sandbox reviewer's "pay due payouts". */
export async function listScheduledPayouts(
  db: DB,
): Promise<{ requestId: string; amount: number; scheduledFor: string }[]> {
  const rows = await db
    .selectFrom("payouts")
    .select(["expense_request_id", "amount", "scheduled_for"])
    .where("status", "=", "scheduled")
    .orderBy("scheduled_for")
    .orderBy("id")
    .execute();
  return rows.map((r) => ({ requestId: r.expense_request_id, amount: r.amount, scheduledFor: r.scheduled_for }));
}

// ---------------------------------------------------------------------------------------------
// Notifications and e-mails
// ---------------------------------------------------------------------------------------------

type RequestEvent = "created" | "updated" | "cancelled" | "approved" | "refused" | "rectification_needed" | "finished";

async function addNotification(trx: DB, userId: string, event: RequestEvent, requestId: string, now: Date) {
  await recordNotification(trx, userId, `expense_request_${event}_notification`, requestId, now);
}

interface MailFacts {
  amount: number;
  partner: string | null;
  reason?: string;
  payoutDate?: string;
}

async function mailFacts(db: DB, requestId: string): Promise<MailFacts> {
  const row = await db
    .selectFrom("expense_requests as er")
    .leftJoin("partners as p", "p.id", "er.partner_id")
    .select(["er.amount", "p.name_fr as partner"])
    .where("er.id", "=", requestId)
    .executeTakeFirstOrThrow();
  return { amount: row.amount, partner: row.partner };
}

/** A catalogue text with its {{placeholders}} filled (e-mails are written outside i18next). */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? "");
}

/**
 * The e-mail (in French, with the request's facts) and the push of a change, sent through deliverNotification
 * after the event's transaction: each only when the employee keeps the expenseRequests e-mails or pushes on.
 */
async function notifyByMail(
  deps: NotifyDeps,
  userId: string,
  event: RequestEvent,
  requestId: string,
  facts: MailFacts,
) {
  const mails = resources.fr.translation.refunds.mail;
  const mail = mails[event];
  const values = {
    amount: formatCents(facts.amount),
    partner: facts.partner ?? mails.unknownPartner,
    reason: facts.reason ?? "",
    payoutDate: facts.payoutDate ? frenchDay(facts.payoutDate) : "",
  };
  await deliverNotification(deps, userId, `expense_request_${event}_notification`, requestId, {
    mail: { subject: fill(mail.subject, values), text: `${fill(mail.text, values)}\n\n${mails.footer}` },
  });
}
