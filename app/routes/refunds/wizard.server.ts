import { data, type RouterContextProvider } from "react-router";
import { getPlatform, type Platform } from "~/.server/platform";
import type { DB } from "~/.server/db";
import {
  attachReceipt,
  createDraft,
  discardDraft,
  findCorrectionDraft,
  getDraft,
  removeReceipt,
  saveDraftAnswers,
  setDraftReading,
  type ExpenseDraft,
} from "~/.server/services/refunds/drafts";
import {
  SWORN_NAME_TYPES,
  eligibleWallets,
  listExpenseTypes,
  loadExpenseRequestForEdit,
  submitExpenseRequest,
} from "~/.server/services/refunds/requests";
import {
  deleteReceipt,
  describeReceipt,
  readReceipt,
  receiptUsedElsewhere,
  storeReceipt,
} from "~/.server/services/receipts";
import { getPartner, searchPartners } from "~/.server/services/partners";
import { PARTNER_SEARCH_MAX_LENGTH, partnerPageSize } from "~/domain/partners";
import { readPartnerSearch } from "~/components/refunds/PartnerPicker";
import { availableWalletLicences, createWalletFromLicence } from "~/.server/services/wallets";
import { ibanProblem, maskIban, normaliseIban } from "~/domain/iban";
import { REFUND_MAX_AMOUNT } from "~/domain/amount-bounds";
import { validateSplit, type SplitError } from "~/domain/payment-methods";
import { centsToField, parseEuros } from "~/domain/money";
import {
  fieldNameOf,
  findMobilitySubtype,
  isRefundStep,
  mobilityChoices,
  parseDay,
  stepIndex,
  type RefundStep,
} from "~/domain/refunds";
import {
  refundDetailsSchema,
  refundMethodsSchema,
  refundMobilitySchema,
  refundSummarySchema,
  refundTicketSchema,
  refundTypeSchema,
} from "~/domain/refund-schemas";
import { frenchDay, todayInParis } from "~/domain/dates";
import { RECEIPT_MAX_BYTES, RECEIPT_MAX_FILES } from "~/domain/receipt-file";
import { getLocale } from "~/i18n/i18next.server";
import { accountContext } from "~/routes/+shared/auth.server";
import { parseForm, reply } from "~/routes/+shared/forms.server";
import { intentOf } from "~/routes/+shared/intents.server";
import {
  internalPath,
  internalRedirect,
  type InternalPath,
  type InternalTarget,
} from "~/routes/+shared/redirects.server";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import { shownFromThisSite } from "~/routes/+shared/same-site.server";
import { recordInBackground } from "~/.server/services/tag-events";
import type { TagEvent } from "~/domain/tag-events";
import { failedTo } from "~/routes/+shared/load-failure.server";
import { parseUploadForm } from "~/routes/+shared/uploads.server";
import {
  WIZARD_INTENT,
  type ReceiptView,
  type StepView,
  type WizardActionData,
  type WizardView,
} from "~/components/refunds/wizard";

/**
 * The refund wizard (spec 001 §2.6, §5, §8): a side panel over the list, one plain form per step. The URL
 * carries the draft and the step (`?draft=erd_…&step=details`), the draft on the server holds the answers
 * (services/expense-drafts.ts), so Back keeps them and nothing needs JavaScript. The platform re-checks
 * everything when the request is sent (`submitExpenseRequest`); the checks here say early what is wrong.
 */

const LIST = "/plans/expense-requests" satisfies InternalTarget;

interface Args {
  request: Request;
  params: { requestId: string };
  context: Readonly<RouterContextProvider>;
}

const wizardBase = (requestId: string) => internalPath("/plans/expense-requests/:requestId", { requestId });

function stepPath(requestId: string, draftId: string | null, step: RefundStep, extra: Record<string, string> = {}) {
  return internalPath(
    "/plans/expense-requests/:requestId",
    { requestId },
    { search: { ...(draftId ? { draft: draftId } : {}), step, ...extra } },
  );
}

const failedLoad = (request: Request) =>
  redirectWithFlash(request, LIST, { kind: "error", message: "refundWizard.failedLoadRefundRequest" });

/** The wallet licences that would create a mobility wallet (the create-wallet preamble, spec 001 §2.6). */
async function mobilityLicences(db: DB, userId: string) {
  return (await availableWalletLicences(db, userId)).filter((l) => l.walletType === "mobility");
}

/**
 * The steps of this draft's road, in order: correcting starts at the ticket; mobility adds the preamble
 * (while a mobility wallet can be created and the person has not gone past it) and the subtype choice.
 */
function roadOf(draft: ExpenseDraft | null, technicalName: string | null, preamble: boolean): RefundStep[] {
  const classic: RefundStep[] = ["ticket", "details", "methods", "summary"];
  if (draft?.requestId) return classic;
  if (technicalName !== "mobility") return ["type", ...classic];
  const showPreamble = preamble && (draft?.stepReached ?? 0) < stepIndex("mobility");
  return ["type", ...(showPreamble ? (["preamble"] as const) : []), "mobility", ...classic];
}

async function receiptViews(platform: Platform, userId: string, draft: ExpenseDraft): Promise<ReceiptView[]> {
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

/** What the loader and the action both start from: the account (with the feature), its platform, the request. */
async function wizardContext({ request, params, context }: Args) {
  const account = context.get(accountContext);
  const platform = await getPlatform();
  const requestId = params.requestId;
  return {
    request,
    account,
    userId: account.id,
    locale: getLocale(context),
    platform,
    db: platform.db,
    url: new URL(request.url),
    requestId,
    editing: requestId !== "new",
  };
}

/** The loader: the step asked for, or the furthest one this draft may show. */
export async function wizardLoader(args: Args) {
  const { request, account, userId, locale, platform, db, url, requestId, editing } = await wizardContext(args);
  const base = wizardBase(requestId);

  // The request being corrected: its IBAN on file is shown masked (methods, summary).
  const editable = editing ? await loadExpenseRequestForEdit(db, userId, requestId) : null;
  if (editable && editable.kind !== "found") throw await failedLoad(request);
  const ibanOnFile = editable?.kind === "found" ? editable.request.ibanLastFour : null;
  if (editable?.kind === "found") {
    const draftParam = url.searchParams.get("draft");
    if (!draftParam) {
      // Opening a correction makes (or finds again) its draft: an idempotent sync — a second visit finds
      // the same unsent draft — so that the steps have answers to show (decision 0023 "Writes on GET").
      // Not for a link from another site (decision 0048): the request's entry in the list, whose
      // "Corriger" link is this site's.
      const draft =
        (await findCorrectionDraft(db, userId, requestId)) ??
        (shownFromThisSite(request)
          ? await createDraft(db, userId, { from: editable.request, stepReached: stepIndex("summary") })
          : null);
      if (!draft) throw internalRedirect(internalPath(LIST, {}, { hash: `exr-${requestId}` }));
      throw internalRedirect(stepPath(requestId, draft.id, "ticket"));
    }
  }

  const draftParam = url.searchParams.get("draft");
  let draft: ExpenseDraft | null = null;
  if (draftParam !== null) {
    const found = await getDraft(db, userId, draftParam);
    const belongs = found.kind === "found" && found.draft.requestId === (editing ? requestId : null);
    if (found.kind !== "found" || !belongs || found.draft.submitted)
      throw await redirectWithFlash(request, editing ? LIST : base, {
        kind: "error",
        message: "refundWizard.draftGone",
      });
    draft = found.draft;
  }

  const types = await listExpenseTypes(db, userId, locale).catch(failedTo("refundWizard.loadingTypesFailed"));
  const typeOf = types.find((t) => t.id === draft?.typeId) ?? null;
  const licences = typeOf?.technicalName === "mobility" ? await mobilityLicences(db, userId) : [];
  const road = roadOf(draft, typeOf?.technicalName ?? null, licences.length > 0);

  const asked = url.searchParams.get("step");
  let step: RefundStep = isRefundStep(asked) && road.includes(asked) ? asked : road[0]!;
  if (!draft) step = "type";
  else if (stepIndex(step) > draft.stepReached)
    step = [...road].reverse().find((s) => stepIndex(s) <= draft.stepReached) ?? road[0]!;

  const position = road.indexOf(step);
  const previous = position > 0 ? road[position - 1]! : null;
  const needsConfirm = draft !== null && (editing || draft.stepReached > 0 || draft.mediaId !== null);
  const here = stepPath(requestId, draft?.id ?? null, step);

  const view: WizardView = {
    base,
    draftId: draft?.id ?? null,
    editing,
    step,
    numbered: road.filter((s) => s !== "type" && s !== "mobility" && s !== "preamble"),
    back: previous && draft ? stepPath(requestId, draft.id, previous) : null,
    closeTo: needsConfirm ? stepPath(requestId, draft!.id, step, { close: "1" }) : LIST,
    confirmClose: needsConfirm && url.searchParams.get("close") === "1",
    here,
    view: await stepView(),
  };
  return view;

  async function stepView(): Promise<StepView> {
    switch (step) {
      case "type":
        return {
          step,
          types: types.map((t) => ({ id: t.id, name: t.name, disabled: t.disabled })),
          typeId: draft?.typeId ?? null,
          faqUrl: platform.env.FAQ_URL,
        };
      case "preamble":
        return { step, licences: licences.map((l) => ({ id: l.id, groupName: l.groupName })) };
      case "mobility":
        return {
          step,
          groups: mobilityChoices(
            account.features,
            account.groups.map((g) => g.id),
          ).map((g) => ({
            id: g.id,
            subtypes: g.subtypes.map((s) => ({ id: s.id, allowance: s.allowance !== null })),
          })),
          subtype: draft?.mobilitySubtype ?? null,
        };
      case "ticket":
        return { step, receipts: await receiptViews(platform, userId, draft!) };
      case "details":
        return detailsView(draft!);
      case "methods":
        return methodsView(draft!);
      case "summary":
        return summaryView(draft!);
    }
  }

  async function detailsView(d: ExpenseDraft): Promise<StepView> {
    const skip = url.searchParams.get("reading") === "skip";
    const reading =
      d.reading?.state === "pending" ? (skip ? "none" : "pending") : d.reading?.state === "done" ? "done" : "none";
    const suggestion = reading === "done" && d.reading?.state === "done" ? d.reading.suggestion : null;
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

  async function methodsView(d: ExpenseDraft): Promise<StepView> {
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
    return {
      step: "methods",
      amount: d.amount ?? 0,
      wallets: wallets.map((w) => ({ id: w.id, name: w.name, walletType: w.walletType, available: w.available })),
      values: { amounts, iban: d.iban ?? ibanOnFile ?? "" },
      ibanOnFile,
    };
  }

  async function summaryView(d: ExpenseDraft): Promise<StepView> {
    const partner = d.partnerId ? await getPartner(db, d.partnerId, locale) : null;
    const walletRows = d.paymentMethods.length
      ? await db
          .selectFrom("wallets")
          .select(["id", "name", "wallet_type"])
          .where("user_id", "=", userId)
          .where(
            "id",
            "in",
            d.paymentMethods.map((m) => m.walletId),
          )
          .execute()
      : [];
    const ibanLastFour = d.iban ? maskIban(d.iban) : (ibanOnFile ?? "");
    return {
      step: "summary",
      typeName: typeOf?.name ?? "",
      partnerName: partner?.name ?? "",
      ticketDate: d.ticketDate ?? "",
      amount: d.amount ?? 0,
      ibanLastFour,
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
}

/** What each refusal of the split says (the platform's words, checked again when the request is sent). */
const SPLIT_MESSAGES: Record<SplitError, string> = {
  amountFormat: "refunds.errors.amountInvalid",
  negative: "refunds.errors.paymentMethodAmountPositive",
  tooMuch: "refunds.errors.paymentMethodOverAvailable",
  empty: "refunds.errors.paymentMethodsRequired",
  total: "refunds.errors.paymentMethodsTotal",
};

/** A refused step: conform's reply, HTTP 400, for that step's form. */
function refused(step: RefundStep, lastResult: WizardActionData["lastResult"]) {
  return data<WizardActionData>({ step, lastResult }, { status: 400 });
}

/** A FormData of these values, for a refusal found outside the step's own form. */
function formOf(values: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(values)) form.append(name, value);
  return form;
}

/** Reads the first receipt in the background; the details step shows what it found, or nothing. */
function startReading(platform: Platform, userId: string, draftId: string, fileId: string) {
  const { db, logger } = platform;
  void (async () => {
    try {
      const result = await readReceipt(platform, userId, fileId);
      await setDraftReading(
        db,
        userId,
        draftId,
        result.kind === "read"
          ? { state: "done", fileId, suggestion: result.suggestion }
          : { state: "unreadable", fileId },
      );
    } catch (error) {
      // Spec 001 §8: a reading that fails is logged, nothing is prefilled.
      logger.warn("ocr_cannot_predict_image_annotations", { error: String(error) });
      await setDraftReading(db, userId, draftId, { state: "unreadable", fileId }).catch(() => undefined);
    }
  })();
}

/** Where a mobility subtype with its own allowance wizard goes (built by the allowances issue). */
function allowancePath(type: "carpooling" | "bicycle" | "subscription"): InternalPath {
  // The allowance wizard's route is not in routes.ts yet: a fixed path with a fixed, known value.
  return `/plans/allowances/new?type=${encodeURIComponent(type)}` as InternalPath;
}

/** The action: the step's form (the URL says which draft and step), dispatched on its button. */
export async function wizardAction(args: Args) {
  const { request, account, userId, locale, platform, db, url, requestId, editing } = await wizardContext(args);
  const askedStep = url.searchParams.get("step");
  const step: RefundStep = isRefundStep(askedStep) ? askedStep : "type";

  // The ticket step sends its file as multipart (parsed as it streams, with limits); the others are plain posts.
  const parsed = await parseUploadForm(request, { maxFiles: 1, maxFileSize: RECEIPT_MAX_BYTES });
  if (parsed.kind !== "parsed")
    return refused(
      "ticket",
      reply(parseForm(formOf({}), refundTicketSchema), {
        fieldErrors: {
          receipt: [parsed.kind === "tooBig" ? "refundWizard.errors.fileTooBig" : "refundWizard.errors.tooManyFiles"],
        },
      }),
    );
  const form = parsed.form;
  // Read before anything else, so that a body that cannot be read is refused as such (400) wherever it is sent.
  if (editing) {
    const loaded = await loadExpenseRequestForEdit(db, userId, requestId);
    if (loaded.kind !== "found") return failedLoad(request);
  }
  const intent = intentOf(form, WIZARD_INTENT);

  const draftParam = url.searchParams.get("draft");
  let draft: ExpenseDraft | null = null;
  if (draftParam !== null) {
    const found = await getDraft(db, userId, draftParam);
    if (found.kind !== "found" || found.draft.requestId !== (editing ? requestId : null) || found.draft.submitted)
      return redirectWithFlash(request, editing ? LIST : wizardBase(requestId), {
        kind: "error",
        message: "refundWizard.draftGone",
      });
    draft = found.draft;
  }
  const types = await listExpenseTypes(db, userId, locale);
  const typeOf = types.find((t) => t.id === draft?.typeId) ?? null;
  const go = (to: RefundStep, extra: Record<string, string> = {}) =>
    internalRedirect(stepPath(requestId, draft!.id, to, extra));

  // Every step but the first needs its draft.
  if (!draft && !(intent === WIZARD_INTENT.continue && step === "type"))
    return redirectWithFlash(request, wizardBase(requestId), { kind: "error", message: "refundWizard.draftGone" });

  switch (intent) {
    case WIZARD_INTENT.discard: {
      const d = draft!;
      await discardDraft(db, userId, d.id);
      // Files added for this draft go too; those on a request stay (the receipts service says inUse).
      for (const id of [d.mediaId, d.secondMediaId]) if (id) await deleteReceipt(platform, userId, id);
      return internalRedirect(LIST);
    }
    case WIZARD_INTENT.skipPreamble: {
      await saveDraftAnswers(db, userId, draft!.id, {}, stepIndex("mobility"));
      return go("mobility");
    }
    case WIZARD_INTENT.createWallet: {
      const licence = String(form.get("licence") ?? "").slice(0, 100);
      const created = await createWalletFromLicence(db, userId, licence);
      await saveDraftAnswers(db, userId, draft!.id, {}, stepIndex("mobility"));
      return redirectWithFlash(request, stepPath(requestId, draft!.id, "mobility"), {
        kind: created.kind === "created" ? "success" : "error",
        message: created.kind === "created" ? "refundWizard.preamble.created" : "refundWizard.preamble.refused",
      });
    }
    case WIZARD_INTENT.upload:
      return upload(draft!);
    case WIZARD_INTENT.removeFile: {
      const fileId = String(form.get("file") ?? "").slice(0, 100);
      const removed = await removeReceipt(db, userId, draft!.id, fileId);
      if (removed.kind === "removed") await deleteReceipt(platform, userId, fileId);
      return go("ticket");
    }
    case WIZARD_INTENT.searchPartner: {
      // The typed date and amount, when acceptable, are kept while the partner is looked for (a search is a round trip).
      const ticketDate = parseDay(String(form.get("ticket_date") ?? "").slice(0, 30));
      const amount = parseEuros(String(form.get("amount") ?? "").slice(0, 30));
      await saveDraftAnswers(db, userId, draft!.id, {
        ...(ticketDate && ticketDate <= todayInParis() ? { ticketDate } : {}),
        ...(amount !== null && amount > 0 && amount <= REFUND_MAX_AMOUNT ? { amount } : {}),
      });
      return go("details", { q: readPartnerSearch(form) });
    }
    case WIZARD_INTENT.send:
      return send(draft!);
    case WIZARD_INTENT.continue:
      return next();
  }

  async function next(): Promise<Response | ReturnType<typeof refused>> {
    switch (step) {
      case "type": {
        const submission = parseForm(form, refundTypeSchema);
        if (submission.status !== "success") return refused("type", reply(submission));
        const chosen = types.find((t) => t.id === submission.value.type_id && !t.disabled);
        if (!chosen)
          return refused("type", reply(submission, { fieldErrors: { type_id: ["refunds.errors.typeRequired"] } }));
        const d = draft ?? (await createDraft(db, userId));
        draft = d;
        const mobility = chosen.technicalName === "mobility";
        const preamble =
          mobility && (await mobilityLicences(db, userId)).length > 0 && d.stepReached < stepIndex("mobility");
        const to: RefundStep = mobility ? (preamble ? "preamble" : "mobility") : "ticket";
        await saveDraftAnswers(
          db,
          userId,
          d.id,
          { typeId: chosen.id, ...(mobility ? {} : { mobilityGroup: null, mobilitySubtype: null }) },
          stepIndex(to),
        );
        return go(to);
      }
      case "mobility": {
        const submission = parseForm(form, refundMobilitySchema);
        if (submission.status !== "success") return refused("mobility", reply(submission));
        const offered = mobilityChoices(
          account.features,
          account.groups.map((g) => g.id),
        ).flatMap((g) => g.subtypes);
        const found = findMobilitySubtype(submission.value.subtype);
        if (!found || !offered.some((s) => s.id === found.subtype.id))
          return refused(
            "mobility",
            reply(submission, { fieldErrors: { subtype: ["refundWizard.errors.subtypeRequired"] } }),
          );
        await saveDraftAnswers(
          db,
          userId,
          draft!.id,
          { mobilityGroup: found.group, mobilitySubtype: found.subtype.id },
          stepIndex("ticket"),
        );
        if (found.subtype.allowance) return internalRedirect(allowancePath(found.subtype.allowance));
        return go("ticket");
      }
      case "preamble":
        return go("mobility");
      case "ticket": {
        if (!draft!.mediaId)
          return refused(
            "ticket",
            reply(parseForm(form, refundTicketSchema), {
              fieldErrors: { receipt: ["refunds.errors.mediaRequired"] },
            }),
          );
        await saveDraftAnswers(db, userId, draft!.id, {}, stepIndex("details"));
        return go("details");
      }
      case "details": {
        const submission = parseForm(form, refundDetailsSchema(todayInParis()));
        if (submission.status !== "success") return refused("details", reply(submission));
        const partner = await getPartner(db, submission.value.partner_id, locale);
        if (!partner || !partner.enabled)
          return refused(
            "details",
            reply(submission, { fieldErrors: { partner_id: ["refunds.errors.partnerDisabled"] } }),
          );
        const { ticket_date, amount } = submission.value;
        // A new amount makes the split chosen for the old one wrong: it is chosen again.
        const methods = draft!.amount !== amount ? { paymentMethods: [] } : {};
        await saveDraftAnswers(
          db,
          userId,
          draft!.id,
          { partnerId: partner.id, ticketDate: ticket_date, amount, ...methods },
          stepIndex("methods"),
        );
        return go("methods");
      }
      case "methods": {
        const submission = parseForm(form, refundMethodsSchema);
        if (submission.status !== "success") return refused("methods", reply(submission));
        const d = draft!;
        const wallets = await eligibleWallets(db, userId, typeOf?.technicalName ?? "", {
          exceptRequestId: d.requestId ?? undefined,
        });
        const typed: Record<string, string> = {};
        const positions: Record<string, number> = {};
        submission.value.payment_methods.forEach((m, index) => {
          typed[m.wallet_id] = m.amount ?? "";
          positions[m.wallet_id] = index;
        });
        const split = validateSplit(
          d.amount ?? 0,
          // An unlimited wallet can give the whole amount.
          wallets.map((w) => ({ id: w.id, selectable: w.available ?? Number.MAX_SAFE_INTEGER })),
          typed,
        );
        const fieldErrors: Record<string, string[]> = {};
        const formErrors: string[] = [];
        if (!split.ok) {
          for (const [key, error] of Object.entries(split.errors)) {
            if (key === "form") formErrors.push(SPLIT_MESSAGES[error]);
            else fieldErrors[`payment_methods[${positions[key] ?? 0}].amount`] = [SPLIT_MESSAGES[error]];
          }
        }
        const rawIban = submission.value.iban.trim();
        let iban: string | null = null;
        const loaded = d.requestId ? await loadExpenseRequestForEdit(db, userId, d.requestId) : null;
        const onFile = loaded?.kind === "found" ? loaded.request.ibanLastFour : null;
        if (onFile && rawIban.length === 4 && rawIban === onFile) iban = null;
        else {
          iban = normaliseIban(rawIban);
          const problem = iban ? ibanProblem(iban) : "refunds.errors.ibanRequired";
          if (problem) fieldErrors.iban = [problem];
        }
        if (formErrors.length || Object.keys(fieldErrors).length)
          return refused("methods", reply(submission, { formErrors, fieldErrors }));
        await saveDraftAnswers(
          db,
          userId,
          d.id,
          { paymentMethods: split.ok ? split.parts : [], iban },
          stepIndex("summary"),
        );
        return go("summary");
      }
      case "summary":
        return send(draft!);
    }
  }

  async function upload(d: ExpenseDraft) {
    const refuseFile = (key: string) =>
      refused("ticket", reply(parseForm(formOf({}), refundTicketSchema), { fieldErrors: { receipt: [key] } }));
    if ([d.mediaId, d.secondMediaId].filter(Boolean).length >= RECEIPT_MAX_FILES)
      return refuseFile("refundWizard.errors.tooManyFiles");
    const file = form.get("receipt");
    if (!(file instanceof File) || file.size === 0) return refuseFile("refunds.errors.mediaRequired");
    const stored = await storeReceipt(platform, userId, file);
    switch (stored.kind) {
      case "tooBig":
        return refuseFile("refundWizard.errors.fileTooBig");
      case "invalidType":
        return refuseFile("refundWizard.errors.fileInvalidType");
      case "empty":
        return refuseFile("refundWizard.errors.fileEmpty");
      case "tooManyUploads":
        return refuseFile("refundWizard.errors.uploadRateExceeded");
      case "quotaExceeded":
        return refuseFile("refundWizard.errors.uploadQuotaExceeded");
      case "stored":
        break;
    }
    const attached = await attachReceipt(db, userId, d.id, stored.file.id);
    if (attached.kind !== "attached") {
      await deleteReceipt(platform, userId, stored.file.id);
      return refuseFile("refundWizard.errors.tooManyFiles");
    }
    if (attached.slot === "first") {
      await setDraftReading(db, userId, d.id, {
        state: "pending",
        fileId: stored.file.id,
        startedAt: new Date().toISOString(),
      });
      startReading(platform, userId, d.id, stored.file.id);
    }
    await saveDraftAnswers(db, userId, d.id, {}, stepIndex("ticket"));
    return go("ticket");
  }

  async function send(d: ExpenseDraft) {
    const submission = parseForm(form, refundSummarySchema);
    const swornName = SWORN_NAME_TYPES.includes(typeOf?.technicalName ?? "");
    if (submission.status !== "success") return refused("summary", reply(submission));
    if (swornName && !submission.value.sworn_name)
      return refused(
        "summary",
        reply(submission, { fieldErrors: { sworn_name: ["refunds.errors.swornNameRequired"] } }),
      );
    const result = await submitExpenseRequest(
      db,
      platform.messenger,
      userId,
      {
        draftId: d.id,
        requestId: d.requestId,
        typeId: d.typeId ?? "",
        partnerId: d.partnerId ?? "",
        ticketDate: d.ticketDate ?? "",
        amount: d.amount ?? 0,
        iban: d.iban,
        paymentMethods: d.paymentMethods,
        mediaId: d.mediaId ?? "",
        secondMediaId: d.secondMediaId,
        swornStatement: true,
        swornName: swornName ? (submission.value.sworn_name ?? null) : null,
      },
      { push: platform.push },
    );
    switch (result.kind) {
      case "created": {
        // The tag manager's event (decision 0031): a new request sent, not a correction; nobody waits for it.
        const tagEvent: TagEvent = {
          name: "submitCreateExpenseRequest",
          properties: { type: typeOf?.technicalName ?? "" },
        };
        void recordInBackground(platform, userId, tagEvent);
        return redirectWithFlash(request, LIST, {
          kind: "success",
          message: "refundWizard.successCreateRefundRequest",
          tagEvent,
        });
      }
      case "updated":
        return redirectWithFlash(request, LIST, {
          kind: "success",
          message: "refundWizard.successUpdateRefundRequest",
        });
      case "invalid": {
        // Spec 001 §8: each error on its row, and the alert failedCreateRefundRequest.
        const fieldErrors = Object.fromEntries(
          Object.entries(result.errors).map(([key, messages]) => [fieldNameOf(key), messages]),
        );
        return refused(
          "summary",
          reply(submission, { formErrors: ["refundWizard.failedCreateRefundRequest"], fieldErrors }),
        );
      }
      case "alreadySubmitted":
        return redirectWithFlash(request, LIST, { kind: "info", message: "refundWizard.alreadySent" });
      case "notFound":
      case "notRectifiable":
        return failedLoad(request);
    }
  }
}
