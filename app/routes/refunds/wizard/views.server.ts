import type { Platform } from "~/.server/platform";
import type { RefundDraft } from "~/.server/services/refunds/drafts";
import { SWORN_NAME_TYPES, eligibleWallets } from "~/.server/services/refunds/requests";
import { describeReceipt, receiptUsedElsewhere } from "~/.server/services/receipts";
import { getPartner, searchPartners } from "~/.server/services/partners";
import { PARTNER_SEARCH_MAX_LENGTH, partnerPageSize } from "~/domain/partners";
import { maskIban } from "~/domain/iban";
import { PAYOUT_IBAN_DEFAULTS } from "~/domain/payout-iban";
import { getPayoutDetails } from "~/.server/services/payout-details";
import { centsToField } from "~/domain/money";
import { mobilityChoices, type RefundStep } from "~/domain/refunds";
import { frenchDay } from "~/domain/dates";
import { failedTo } from "~/routes/+shared/load-failure.server";
import { internalPath } from "~/routes/+shared/redirects.server";
import type { StepHandlers } from "~/routes/+shared/wizard.server";
import type { ReceiptView, StepView } from "~/components/refunds/wizard";
import { stepPath, type ExpenseTypes, type WizardContext, type mobilityLicences } from "./context.server";

/**
 * What the refund wizard's loader shows at each step (spec 001 §2.6): one function a step, each given
 * the draft found and owned. Only the type step is also shown before there is a draft.
 */

export type ViewContext = WizardContext & {
  draft: RefundDraft;
  types: ExpenseTypes;
  typeOf: ExpenseTypes[number] | null;
  licences: Awaited<ReturnType<typeof mobilityLicences>>;
  /** The last four characters of the IBAN of the request being corrected. */
  ibanOnFile: string | null;
};

export const STEP_VIEWS: StepHandlers<RefundStep, ViewContext, StepView> = {
  type: async (ctx) => typeView(ctx, ctx.types, ctx.draft),
  preamble: async ({ licences }) => ({
    step: "preamble",
    licences: licences.map((l) => ({ id: l.id, groupName: l.groupName })),
  }),
  mobility: async (ctx) => mobilityView(ctx),
  ticket: async ({ platform, userId, draft }) => ({
    step: "ticket",
    receipts: await receiptViews(platform, userId, draft),
  }),
  details: detailsView,
  methods: methodsView,
  summary: summaryView,
};

/** The type step: the types the person may choose, the chosen one when there is a draft. */
export function typeView({ platform }: WizardContext, types: ExpenseTypes, draft: RefundDraft | null): StepView {
  return {
    step: "type",
    types: types.map((t) => ({ id: t.id, name: t.name, disabled: t.disabled })),
    typeId: draft?.typeId ?? null,
    faqUrl: platform.env.FAQ_URL,
  };
}

function mobilityView({ account, draft }: ViewContext): StepView {
  return {
    step: "mobility",
    groups: mobilityChoices(
      account.features,
      account.groups.map((g) => g.id),
    ).map((g) => ({
      id: g.id,
      subtypes: g.subtypes.map((s) => ({ id: s.id, allowance: s.allowance !== null })),
    })),
    subtype: draft.mobilitySubtype ?? null,
  };
}

async function receiptViews(platform: Platform, userId: string, draft: RefundDraft): Promise<ReceiptView[]> {
  const views: ReceiptView[] = [];
  for (const id of [draft.mediaId, draft.secondMediaId]) {
    if (!id) continue;
    const file = await describeReceipt(platform, userId, id);
    if (!file) continue;
    const used = await receiptUsedElsewhere(platform, userId, id, draft.requestId);
    views.push({
      id: file.id,
      fileName: file.fileName,
      size: file.size,
      href: internalPath("/plans/expense-requests/receipts/:fileId", { fileId: file.id }),
      usedElsewhereOn: used ? used.createdAt : null,
    });
  }
  return views;
}

/** The reading of the first receipt as the details step shows it, and what it suggested when done. */
function readingOf(draft: RefundDraft, skip: boolean) {
  const state = draft.reading?.state;
  const reading = state === "pending" ? (skip ? "none" : "pending") : state === "done" ? "done" : "none";
  const suggestion = draft.reading?.state === "done" && reading === "done" ? draft.reading.suggestion : null;
  return { reading, suggestion } as const;
}

async function detailsView({ db, locale, url, requestId, draft: d }: ViewContext): Promise<StepView> {
  const { reading, suggestion } = readingOf(d, url.searchParams.get("reading") === "skip");
  const partnerId = d.partnerId ?? suggestion?.partnerId ?? null;
  const partner = partnerId ? await getPartner(db, partnerId, locale) : null;
  const typedQuery = url.searchParams.get("q");
  // Spec 001 §2.6, §9: the reading's company name starts the search, with 15 results instead of 10.
  const prefilledQuery = !partner && typedQuery === null && suggestion?.companyName ? suggestion.companyName : null;
  const query = (typedQuery ?? prefilledQuery ?? "").slice(0, PARTNER_SEARCH_MAX_LENGTH);
  const limit = partnerPageSize(prefilledQuery ? 15 : 10);
  const results = query.trim() ? await searchPartners(db, query, { limit, locale }) : [];
  const ticketDate = d.ticketDate ?? suggestion?.ticketDate ?? null;
  const amount = d.amount ?? suggestion?.amount ?? null;
  return {
    step: "details",
    reading,
    suggested: {
      ticketDate: d.ticketDate === null && suggestion?.ticketDate != null,
      amount: d.amount === null && suggestion?.amount != null,
      partner: d.partnerId === null && suggestion?.partnerId != null,
    },
    values: {
      partner_id: partner?.id ?? "",
      ticket_date: ticketDate ? frenchDay(ticketDate) : "",
      amount: amount !== null ? centsToField(amount) : "",
    },
    partner,
    query,
    results,
    limit,
    skipReading: stepPath(requestId, d.id, "details", { reading: "skip" }),
    suggestEstablishment: internalPath(
      "/plans/suggest-establishment",
      {},
      { search: { back: stepPath(requestId, d.id, "details") } },
    ),
  };
}

async function methodsView({ db, userId, typeOf, ibanOnFile, draft: d }: ViewContext): Promise<StepView> {
  const technical = typeOf?.technicalName ?? "";
  const wallets = await eligibleWallets(db, userId, technical, { exceptRequestId: d.requestId ?? undefined }).catch(
    failedTo("wallets.errors.fetchWalletsFailed"),
  );
  const amounts = wallets.map((w) => {
    const saved = d.paymentMethods.find((m) => m.walletId === w.id);
    if (saved) return centsToField(saved.amount);
    // One wallet: the whole amount is its, as far as it can give.
    if (wallets.length === 1 && d.amount !== null && d.paymentMethods.length === 0)
      return centsToField(Math.min(d.amount, w.available ?? d.amount));
    return "";
  });
  const account = await accountView(db, userId, ibanOnFile, d);
  return {
    step: "methods",
    amount: d.amount ?? 0,
    wallets: wallets.map((w) => ({ id: w.id, name: w.name, walletType: w.walletType, available: w.available })),
    values: { amounts, ...account.values },
    savedLastFour: account.savedLastFour,
  };
}

/**
 * The methods step's account (decision 0054): the saved one chosen unless the draft chose another; correcting,
 * the request's own account on file stands for the saved one. With none saved, "save this account" starts ticked.
 */
async function accountView(db: ViewContext["db"], userId: string, ibanOnFile: string | null, d: RefundDraft) {
  const saved = ibanOnFile ?? (await getPayoutDetails(db, userId).then(({ iban }) => (iban ? maskIban(iban) : null)));
  const typed = d.ibanSource === "other" || d.ibanSource === "remember" ? (d.iban ?? "") : "";
  return {
    values: {
      iban_choice: d.ibanSource === "other" ? "other" : PAYOUT_IBAN_DEFAULTS.iban_choice,
      iban: typed,
      save_iban: d.ibanSource === "other" && saved === null ? "" : PAYOUT_IBAN_DEFAULTS.save_iban,
    },
    savedLastFour: saved,
  };
}

/** The names and types of the wallets the draft's split uses (the person's own only). */
async function walletsOfSplit({ db, userId, draft }: ViewContext) {
  if (!draft.paymentMethods.length) return [];
  return db
    .selectFrom("wallets")
    .select(["id", "name", "wallet_type"])
    .where("user_id", "=", userId)
    .where(
      "id",
      "in",
      draft.paymentMethods.map((m) => m.walletId),
    )
    .execute();
}

async function summaryView(ctx: ViewContext): Promise<StepView> {
  const { db, locale, platform, userId, typeOf, ibanOnFile, draft: d } = ctx;
  const partner = d.partnerId ? await getPartner(db, d.partnerId, locale) : null;
  const walletRows = await walletsOfSplit(ctx);
  return {
    step: "summary",
    typeName: typeOf?.name ?? "",
    partnerName: partner?.name ?? "",
    ticketDate: d.ticketDate ?? "",
    amount: d.amount ?? 0,
    ibanLastFour: d.iban ? maskIban(d.iban) : (ibanOnFile ?? ""),
    ibanSource: d.ibanSource,
    receipts: await receiptViews(platform, userId, d),
    methods: d.paymentMethods.map((m) => {
      const wallet = walletRows.find((w) => w.id === m.walletId);
      return {
        walletId: m.walletId,
        name: wallet?.name ?? "",
        walletType: wallet?.wallet_type ?? "",
        amount: m.amount,
      };
    }),
    swornName: SWORN_NAME_TYPES.includes(typeOf?.technicalName ?? ""),
  };
}
