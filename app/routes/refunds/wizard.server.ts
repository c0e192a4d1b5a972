import { createDraft, discardDraft, findCorrectionDraft, saveDraftAnswers } from "~/.server/services/refunds/drafts";
import { listExpenseTypes, loadRefundForEdit, type EditableRefund } from "~/.server/services/refunds/requests";
import { deleteReceipt } from "~/.server/services/receipts";
import { readPartnerSearch } from "~/components/refunds/PartnerPicker";
import { createWalletFromLicence } from "~/.server/services/wallets";
import { REFUND_MAX_AMOUNT } from "~/domain/amount-bounds";
import { parseEuros } from "~/domain/money";
import { isRefundStep, stepIndex, type RefundStep } from "~/domain/refunds";
import { parseDay, todayInParis } from "~/domain/dates";
import { RECEIPT_MAX_BYTES } from "~/domain/receipt-file";
import { intentOf } from "~/routes/+shared/intents.server";
import { internalPath, internalRedirect } from "~/routes/+shared/redirects.server";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import { shownFromThisSite } from "~/routes/+shared/same-site.server";
import { failedTo } from "~/routes/+shared/load-failure.server";
import { parseUploadForm } from "~/routes/+shared/uploads.server";
import { runStep } from "~/routes/+shared/wizard.server";
import { WIZARD_INTENT, type WizardView } from "~/components/refunds/wizard";
import {
  LIST,
  draftGone,
  draftOfUrl,
  failedLoad,
  mobilityLicences,
  roadOf,
  stepPath,
  wizardBase,
  wizardContext,
  type WizardArgs,
  type WizardContext,
} from "./wizard/context.server";
import { STEP_VIEWS, typeView } from "./wizard/views.server";
import { CONTINUE, chooseType, type StepContext, type StepResult } from "./wizard/steps.server";
import { refusedReceipt, removeFile, uploadReceipt } from "./wizard/receipts.server";
import { send } from "./wizard/send.server";

/**
 * The refund wizard (spec 001 §2.6, §5, §8): a side panel over the list, one plain form per step. The URL
 * carries the draft and the step (`?draft=erd_…&step=details`), the draft on the server holds the answers
 * (services/refunds/drafts.ts), so Back keeps them and nothing needs JavaScript. The draft is found and
 * owned once (wizard/context.server.ts); each step's view (wizard/views.server.ts) and each step's answer
 * (wizard/steps.server.ts) is a function of its own, dispatched on the wizard kit's step maps. The platform
 * re-checks everything when the request is sent (`submitRefund`); the checks here say early what is wrong.
 */

/**
 * Opening a correction without a draft makes (or finds again) its draft: an idempotent sync (a second
 * visit finds the same unsent draft) so that the steps have answers to show (decision 0023 "Writes on
 * GET"). Not for a link from another site (decision 0048): the request's entry in the list, whose
 * "Corriger" link is this site's.
 */
async function openCorrection(ctx: WizardContext, editable: EditableRefund): Promise<Response> {
  const { request, db, userId, requestId } = ctx;
  const draft =
    (await findCorrectionDraft(db, userId, requestId)) ??
    (shownFromThisSite(request)
      ? await createDraft(db, userId, { from: editable, stepReached: stepIndex("summary") })
      : null);
  if (!draft) return internalRedirect(internalPath(LIST, {}, { hash: `exr-${requestId}` }));
  return internalRedirect(stepPath(requestId, draft.id, "ticket"));
}

/** The request being corrected: its IBAN on file, shown masked (methods, summary); null for a new one. */
async function ibanOnFileOf(ctx: WizardContext): Promise<string | null> {
  if (!ctx.editing) return null;
  const editable = await loadRefundForEdit(ctx.db, ctx.userId, ctx.requestId);
  if (editable.kind !== "found") throw await failedLoad(ctx.request);
  if (!ctx.url.searchParams.get("draft")) throw await openCorrection(ctx, editable.request);
  return editable.request.ibanLastFour;
}

/** The step shown: the one asked for when on the road and reached, else the furthest reached. */
function shownStep(road: RefundStep[], draft: { stepReached: number } | null, asked: string | null): RefundStep {
  if (!draft) return "type";
  const step = isRefundStep(asked) && road.includes(asked) ? asked : road[0]!;
  if (stepIndex(step) <= draft.stepReached) return step;
  return [...road].reverse().find((s) => stepIndex(s) <= draft.stepReached) ?? road[0]!;
}

/** The loader: the step asked for, or the furthest one this draft may show. */
export async function wizardLoader(args: WizardArgs): Promise<WizardView> {
  const ctx = await wizardContext(args);
  const { db, userId, locale, url, requestId, editing } = ctx;
  const ibanOnFile = await ibanOnFileOf(ctx);
  const found = await draftOfUrl(ctx);
  if (found.kind === "gone") throw await draftGone(ctx);
  const draft = found.kind === "found" ? found.draft : null;

  const types = await listExpenseTypes(db, userId, locale).catch(failedTo("refundWizard.loadingTypesFailed"));
  const typeOf = types.find((t) => t.id === draft?.typeId) ?? null;
  const licences = typeOf?.technicalName === "mobility" ? await mobilityLicences(db, userId) : [];
  const road = roadOf(draft, typeOf?.technicalName ?? null, licences.length > 0);
  const step = shownStep(road, draft, url.searchParams.get("step"));

  const position = road.indexOf(step);
  const previous = position > 0 ? road[position - 1]! : null;
  const confirmable = draft !== null && (editing || draft.stepReached > 0 || draft.mediaId !== null) ? draft : null;
  const confirmClose = confirmable !== null && url.searchParams.get("close") === "1";
  return {
    base: wizardBase(requestId),
    draftId: draft?.id ?? null,
    editing,
    step,
    numbered: road.filter((s) => s !== "type" && s !== "mobility" && s !== "preamble"),
    back: previous && draft ? stepPath(requestId, draft.id, previous) : null,
    // Closing the close confirmation itself (Escape, « Fermer ») keeps the request, as « Reprendre » does.
    closeTo: confirmable ? stepPath(requestId, confirmable.id, step, confirmClose ? {} : { close: "1" }) : LIST,
    confirmClose,
    here: stepPath(requestId, draft?.id ?? null, step),
    view: draft
      ? await runStep(STEP_VIEWS, step, { ...ctx, draft, types, typeOf, licences, ibanOnFile })
      : typeView(ctx, types, null),
  };
}

/** Forgets the draft, and the files added for it (those on a request stay: the receipts service says inUse). */
async function discard({ db, platform, userId, draft }: StepContext): Promise<StepResult> {
  await discardDraft(db, userId, draft.id);
  for (const id of [draft.mediaId, draft.secondMediaId]) if (id) await deleteReceipt(platform, userId, id);
  return internalRedirect(LIST);
}

/** Past the preamble without a new wallet. */
async function skipPreamble({ db, userId, draft, go }: StepContext): Promise<StepResult> {
  await saveDraftAnswers(db, userId, draft.id, {}, stepIndex("mobility"));
  return go("mobility");
}

/** The preamble's wallet made from a licence, then the subtypes, with what became of it. */
async function createWallet({ request, db, userId, form, requestId, draft }: StepContext): Promise<StepResult> {
  const licence = String(form.get("licence") ?? "").slice(0, 100);
  const created = await createWalletFromLicence(db, userId, licence);
  await saveDraftAnswers(db, userId, draft.id, {}, stepIndex("mobility"));
  return redirectWithFlash(request, stepPath(requestId, draft.id, "mobility"), {
    kind: created.kind === "created" ? "success" : "error",
    message: created.kind === "created" ? "refundWizard.preamble.created" : "refundWizard.preamble.refused",
  });
}

/** A partner search: the typed date and amount, when acceptable, are kept meanwhile (a search is a round trip). */
async function searchPartner({ db, userId, form, draft, go }: StepContext): Promise<StepResult> {
  const ticketDate = parseDay(String(form.get("ticket_date") ?? "").slice(0, 30));
  const amount = parseEuros(String(form.get("amount") ?? "").slice(0, 30));
  await saveDraftAnswers(db, userId, draft.id, {
    ...(ticketDate && ticketDate <= todayInParis() ? { ticketDate } : {}),
    ...(amount !== null && amount > 0 && amount <= REFUND_MAX_AMOUNT ? { amount } : {}),
  });
  return go("details", { q: readPartnerSearch(form) });
}

/** The action: the step's form (the URL says which draft and step), dispatched on its button. */
export async function wizardAction(args: WizardArgs): Promise<StepResult> {
  const ctx = await wizardContext(args);
  const { request, db, userId, locale, url, requestId, editing } = ctx;
  const asked = url.searchParams.get("step");
  const step: RefundStep = isRefundStep(asked) ? asked : "type";

  // The ticket step sends its file as multipart (parsed as it streams, with limits); the others are plain posts.
  const parsed = await parseUploadForm(request, { maxFiles: 1, maxFileSize: RECEIPT_MAX_BYTES });
  if (parsed.kind !== "parsed")
    return refusedReceipt(
      parsed.kind === "tooBig" ? "refundWizard.errors.fileTooBig" : "refundWizard.errors.tooManyFiles",
    );
  const form = parsed.form;
  // Read before anything else, so that a body that cannot be read is refused as such (400) wherever it is sent.
  if (editing && (await loadRefundForEdit(db, userId, requestId)).kind !== "found") return failedLoad(request);
  const intent = intentOf(form, WIZARD_INTENT);

  const found = await draftOfUrl(ctx);
  if (found.kind === "gone") return draftGone(ctx);
  // Every step but the first needs its draft.
  if (found.kind === "none")
    return intent === WIZARD_INTENT.continue && step === "type"
      ? chooseType({ ...ctx, form }, null)
      : draftGone(ctx, wizardBase(requestId));

  const { draft } = found;
  const types = await listExpenseTypes(db, userId, locale);
  const stepCtx: StepContext = {
    ...ctx,
    form,
    draft,
    typeOf: types.find((t) => t.id === draft.typeId) ?? null,
    go: (to, extra = {}) => internalRedirect(stepPath(requestId, draft.id, to, extra)),
  };
  switch (intent) {
    case WIZARD_INTENT.discard:
      return discard(stepCtx);
    case WIZARD_INTENT.skipPreamble:
      return skipPreamble(stepCtx);
    case WIZARD_INTENT.createWallet:
      return createWallet(stepCtx);
    case WIZARD_INTENT.upload:
      return uploadReceipt(stepCtx);
    case WIZARD_INTENT.removeFile:
      return removeFile(stepCtx);
    case WIZARD_INTENT.searchPartner:
      return searchPartner(stepCtx);
    case WIZARD_INTENT.send:
      return send(stepCtx);
    case WIZARD_INTENT.continue:
      return runStep(CONTINUE, step, stepCtx);
  }
}
