import { rememberFirstIban } from "~/.server/services/payout-details";
import type { RefundDraft } from "~/.server/services/refunds/drafts";
import { SWORN_NAME_TYPES, submitRefund } from "~/.server/services/refunds/requests";
import { recordInBackground } from "~/.server/services/tag-events";
import type { TagEvent } from "~/domain/tag-events";
import { fieldNameOf } from "~/domain/refunds";
import { refundSummarySchema } from "~/domain/refund-schemas";
import { parseForm, reply } from "~/routes/+shared/forms.server";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import { refusalOf } from "~/routes/+shared/problems.server";
import { refusedStep } from "~/routes/+shared/wizard.server";
import { REFUND_WORDS } from "../problems.server";
import { LIST, failedLoad } from "./context.server";
import type { StepContext, StepResult } from "./steps.server";

/** The request the draft's answers make, sworn (and signed with the name, for the types that ask it). */
function requestOf(d: RefundDraft, swornName: string | null) {
  return {
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
    swornName,
  };
}

/**
 * Sending the request from the summary (spec 001 §2.6, §8): the sworn statement, and the sworn name for
 * the types that ask it; the platform checks every answer again and says which are wrong.
 */
export async function send(ctx: StepContext): Promise<StepResult> {
  const { request, db, platform, userId, form, typeOf, draft: d } = ctx;
  const submission = parseForm(form, refundSummarySchema);
  const swornName = SWORN_NAME_TYPES.includes(typeOf?.technicalName ?? "");
  if (submission.status !== "success") return refusedStep("summary", reply(submission));
  if (swornName && !submission.value.sworn_name)
    return refusedStep("summary", reply(submission, { fieldErrors: { sworn_name: [REFUND_WORDS.swornNameRequired] } }));
  const sworn = swornName ? (submission.value.sworn_name ?? null) : null;
  const result = await submitRefund(db, platform.messenger, userId, requestOf(d, sworn), {
    push: platform.push,
  });
  switch (result.kind) {
    case "created": {
      // Their first account, typed with "save this account" ticked: the profile keeps it (decision 0054).
      if (d.ibanSource === "remember" && d.iban) await rememberFirstIban(db, userId, d.iban);
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
      return redirectWithFlash(request, LIST, { kind: "success", message: "refundWizard.successUpdateRefundRequest" });
    case "invalid": {
      // Spec 001 §8: each error on its row, and the alert failedCreateRefundRequest.
      const refused = refusalOf(result.problems, REFUND_WORDS);
      const fieldErrors = Object.fromEntries(
        Object.entries(refused.fieldErrors).map(([key, messages]) => [fieldNameOf(key), messages]),
      );
      const formErrors = ["refundWizard.failedCreateRefundRequest", ...refused.formErrors];
      return refusedStep("summary", reply(submission, { formErrors, fieldErrors }));
    }
    case "alreadySubmitted":
      return redirectWithFlash(request, LIST, { kind: "info", message: "refundWizard.alreadySent" });
    case "notFound":
    case "notRectifiable":
      return failedLoad(request);
  }
}
