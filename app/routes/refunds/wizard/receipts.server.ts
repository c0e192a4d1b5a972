import type { Platform } from "~/.server/platform";
import { attachReceipt, removeReceipt, saveDraftAnswers, setDraftReading } from "~/.server/services/refunds/drafts";
import { deleteReceipt, readReceipt, storeReceipt } from "~/.server/services/receipts";
import { RECEIPT_MAX_FILES } from "~/domain/receipt-file";
import { stepIndex } from "~/domain/refunds";
import { refundTicketSchema } from "~/domain/refund-schemas";
import { parseForm, reply } from "~/routes/+shared/forms.server";
import { formOf, refusedStep } from "~/routes/+shared/wizard.server";
import { REFUND_WORDS } from "../problems.server";
import type { StepContext, StepResult } from "./steps.server";

/**
 * The ticket step's receipts (spec 001 §2.6, §8): at most two files on a draft, stored by the receipts
 * service; the first is read in the background and the details step shows what the reading suggests.
 */

/** The ticket step refused for its file, with this message. */
export function refusedReceipt(key: string) {
  return refusedStep("ticket", reply(parseForm(formOf({}), refundTicketSchema), { fieldErrors: { receipt: [key] } }));
}

/** What each refusal of the receipts service says. */
const STORE_REFUSALS: Record<Exclude<Awaited<ReturnType<typeof storeReceipt>>["kind"], "stored">, string> = {
  tooBig: "refundWizard.errors.fileTooBig",
  invalidType: "refundWizard.errors.fileInvalidType",
  empty: "refundWizard.errors.fileEmpty",
  tooManyUploads: "refundWizard.errors.uploadRateExceeded",
  quotaExceeded: "refundWizard.errors.uploadQuotaExceeded",
};

/** Adds the posted file to the draft; the first receipt's reading starts. */
export async function uploadReceipt({ db, platform, userId, form, draft, go }: StepContext): Promise<StepResult> {
  if ([draft.mediaId, draft.secondMediaId].filter(Boolean).length >= RECEIPT_MAX_FILES)
    return refusedReceipt("refundWizard.errors.tooManyFiles");
  const file = form.get("receipt");
  if (!(file instanceof File) || file.size === 0) return refusedReceipt(REFUND_WORDS.mediaRequired);
  const stored = await storeReceipt(platform, userId, file);
  if (stored.kind !== "stored") return refusedReceipt(STORE_REFUSALS[stored.kind]);
  const attached = await attachReceipt(db, userId, draft.id, stored.file.id);
  if (attached.kind !== "attached") {
    await deleteReceipt(platform, userId, stored.file.id);
    return refusedReceipt("refundWizard.errors.tooManyFiles");
  }
  if (attached.slot === "first") {
    await setDraftReading(db, userId, draft.id, {
      state: "pending",
      fileId: stored.file.id,
      startedAt: new Date().toISOString(),
    });
    startReading(platform, userId, draft.id, stored.file.id);
  }
  await saveDraftAnswers(db, userId, draft.id, {}, stepIndex("ticket"));
  return go("ticket");
}

/** Takes a receipt off the draft, and deletes its file when it was the draft's. */
export async function removeFile({ db, platform, userId, form, draft, go }: StepContext): Promise<StepResult> {
  const fileId = String(form.get("file") ?? "").slice(0, 100);
  const removed = await removeReceipt(db, userId, draft.id, fileId);
  if (removed.kind === "removed") await deleteReceipt(platform, userId, fileId);
  return go("ticket");
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
