import type { AllowanceFlowContext } from "./flow";
import type { Platform } from "~/.server/platform";
import { saveAllowanceAnswers, setAllowanceFile, type AllowanceDraft } from "~/.server/services/allowances/drafts";
import { allowanceGroups, createAllowance, simulateAllowance } from "~/.server/services/allowances/requests";
import { deleteReceipt, describeReceipt, storeReceipt } from "~/.server/services/receipts";
import { startWindow, transportSharePercent } from "~/domain/allowances";
import { maskIban } from "~/domain/iban";
import { RECEIPT_MAX_BYTES } from "~/domain/receipt-file";
import { centsToField } from "~/domain/money";
import { frenchDay } from "~/domain/dates";
import {
  subscriptionDetailsSchema,
  subscriptionSummarySchema,
  subscriptionTicketsSchema,
} from "~/domain/subscription-schemas";
import { parseForm, reply } from "~/routes/+shared/forms.server";
import { intentOf } from "~/routes/+shared/intents.server";
import { internalPath, internalRedirect, type InternalPath } from "~/routes/+shared/redirects.server";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import { parseUploadForm } from "~/routes/+shared/uploads.server";
import {
  isSubscriptionStep,
  SUBSCRIPTION_FILES,
  SUBSCRIPTION_INTENT,
  SUBSCRIPTION_STEPS,
  subscriptionStepIndex,
  type StoredFileView,
  type SubscriptionActionData,
  type SubscriptionFile,
  type SubscriptionGroupView,
  type SubscriptionStep,
  type SubscriptionView,
} from "~/components/allowances/subscription";

export type { SubscriptionActionData, SubscriptionView } from "~/components/allowances/subscription";

/**
 * The subscription wizard's steps (spec 001 §2.7, §5, issue 15 item 4): Abonnement, tickets, details,
 * summary, inside the allowance wizard's frame (allowance-wizard.server.ts finds the account and the
 * draft). One plain form per step posting to the step's own URL (`…?draft=ald_…&step=details`); the
 * draft holds the answers and the two files, so Back keeps them and nothing needs JavaScript. The
 * platform (services/allowances.ts) simulates on the summary and checks everything again on confirmation.
 */

const LIST_AFTER_CONFIRMATION = internalPath("/plans/allowances", {}, { search: { refresh: "1" } });

/** The path of a step of this draft: the frame's draft path with `step` (and any extra) set. */
function stepPath(ctx: AllowanceFlowContext, step: SubscriptionStep) {
  const url = new URL(ctx.draftPath, "http://portal.invalid");
  url.searchParams.set("step", step);
  // The frame's own path (a page of routes.ts, encoded) with a constant step: still a built path.
  return `${url.pathname}${url.search}` as InternalPath;
}

/** The groups that may pay this person a subscription, with the share each pays this year. */
async function groupsOf(ctx: AllowanceFlowContext): Promise<SubscriptionGroupView[]> {
  const year = Number(ctx.today.slice(0, 4));
  const groups = await allowanceGroups(ctx.platform.db, ctx.account.id, "subscription");
  return groups.map((g) => ({ id: g.id, name: g.name, percentage: transportSharePercent(g.subscriptionShare, year) }));
}

async function fileView(platform: Platform, userId: string, fileId: string | null): Promise<StoredFileView | null> {
  if (!fileId) return null;
  const file = await describeReceipt(platform, userId, fileId);
  if (!file) return null;
  return {
    id: file.id,
    fileName: file.fileName,
    size: file.size,
    href: internalPath("/plans/expense-requests/receipts/:fileId", { fileId: file.id }),
  };
}

async function filesOf(ctx: AllowanceFlowContext, draft: AllowanceDraft) {
  const userId = ctx.account.id;
  return {
    media: await fileView(ctx.platform, userId, draft.mediaId),
    second_media: await fileView(ctx.platform, userId, draft.secondMediaId),
  } satisfies Record<SubscriptionFile, StoredFileView | null>;
}

/** The furthest step this draft may show: the one asked for when reached, else the furthest reached. */
function stepToShow(ctx: AllowanceFlowContext): SubscriptionStep {
  const reached = Math.min(ctx.draft.stepReached, SUBSCRIPTION_STEPS.length - 1);
  const asked = isSubscriptionStep(ctx.step) ? ctx.step : "intro";
  return subscriptionStepIndex(asked) <= reached ? asked : SUBSCRIPTION_STEPS[reached]!;
}

/** What the confirmation (and the summary's simulation) hands to the platform: the draft's answers. */
function inputOf(draft: AllowanceDraft) {
  const a = draft.answers;
  return {
    type: "subscription" as const,
    groupId: a.groupId ?? "",
    startAt: a.startAt ?? "",
    endsAt: a.endsAt ?? "",
    amount: a.amount ?? 0,
    iban: a.iban ?? "",
    mediaId: draft.mediaId,
    secondMediaId: draft.secondMediaId,
  };
}

/** The loader's part: the step shown and what it needs. */
export async function subscriptionLoad(ctx: AllowanceFlowContext): Promise<SubscriptionView> {
  const { draft, platform, account, today } = ctx;
  const step = stepToShow(ctx);
  const groups = await groupsOf(ctx);
  const position = subscriptionStepIndex(step);
  const paths: Record<SubscriptionStep, string> = {
    intro: stepPath(ctx, "intro"),
    tickets: stepPath(ctx, "tickets"),
    details: stepPath(ctx, "details"),
    summary: stepPath(ctx, "summary"),
  };
  const view: SubscriptionView = {
    type: "subscription",
    draftId: draft.id,
    step,
    paths,
    back: position > 0 ? paths[SUBSCRIPTION_STEPS[position - 1]!] : null,
    // The frame's: the list, or its close confirmation once something would be lost.
    closeTo: ctx.closeTo,
    noGroup: groups.length === 0,
    view: await stepView(),
  };
  return view;

  async function stepView(): Promise<SubscriptionView["view"]> {
    switch (step) {
      case "intro":
        return { step, groups };
      case "tickets":
        return { step, files: await filesOf(ctx, draft) };
      case "details": {
        const a = draft.answers;
        // Spec 001 §2.7: the group is chosen for the person when there is only one.
        const only = groups.length === 1 ? groups[0]!.id : "";
        const window = startWindow("subscription", today);
        return {
          step,
          groups,
          values: {
            group_id: a.groupId && groups.some((g) => g.id === a.groupId) ? a.groupId : only,
            start_at: a.startAt ? frenchDay(a.startAt) : "",
            ends_at: a.endsAt ? frenchDay(a.endsAt) : "",
            amount: a.amount ? centsToField(a.amount) : "",
            iban: a.iban ?? "",
          },
          startMin: window.min,
          endMax: window.max,
        };
      }
      case "summary": {
        const a = draft.answers;
        const simulated = await simulateAllowance(platform, account.id, inputOf(draft), today);
        const simulation =
          simulated.kind === "simulated" && simulated.simulation.type === "subscription"
            ? {
                allowance: simulated.simulation.result.allowance,
                percentage: simulated.simulation.result.percentage,
                shareLowered: simulated.simulation.result.shareLowered,
                perMonth: simulated.simulation.result.perMonth,
                numberOfMonths: simulated.simulation.result.numberOfMonths,
              }
            : null;
        return {
          step,
          groupName: groups.find((g) => g.id === a.groupId)?.name ?? "",
          startAt: a.startAt ?? "",
          endsAt: a.endsAt ?? "",
          amount: a.amount ?? 0,
          ibanLastFour: a.iban ? maskIban(a.iban) : "",
          files: await filesOf(ctx, draft),
          simulation,
          problems: simulated.kind === "invalid" ? simulated.errors : {},
        };
      }
    }
  }
}

/** A FormData of no values, for a refusal found outside the step's own fields. */
const emptyForm = () => new FormData();

/** A refused step: conform's reply for that step's form (the frame answers it with HTTP 400). */
function refused(step: SubscriptionStep, lastResult: SubscriptionActionData["lastResult"]): SubscriptionActionData {
  return { type: "subscription", step, lastResult };
}

/**
 * The action's part: the step's form (the URL says which draft and step), dispatched on its button. The
 * tickets step sends its files as multipart: every post is read by `parseUploadForm` (streamed, limits).
 */
export async function subscriptionAct(ctx: AllowanceFlowContext): Promise<Response | SubscriptionActionData> {
  const { request, platform, account, draft, today } = ctx;
  const { db } = platform;
  const userId = account.id;
  const step = isSubscriptionStep(ctx.step) ? ctx.step : "intro";

  const parsed = await parseUploadForm(request, {
    maxFiles: SUBSCRIPTION_FILES.length,
    maxFileSize: RECEIPT_MAX_BYTES,
  });
  if (parsed.kind !== "parsed")
    return refused(
      "tickets",
      reply(parseForm(emptyForm(), subscriptionTicketsSchema), {
        formErrors: [
          parsed.kind === "tooBig" ? "subscriptionWizard.errors.fileTooBig" : "subscriptionWizard.errors.tooManyFiles",
        ],
      }),
    );
  const form = parsed.form;
  const intent = intentOf(form, SUBSCRIPTION_INTENT);
  const go = (to: SubscriptionStep) => internalRedirect(stepPath(ctx, to));
  const groups = await groupsOf(ctx);
  // No group may pay it: nothing to do but leave (the steps show the notice and only a cancel link).
  if (groups.length === 0) return go("intro");
  // A step not reached yet (a forged or old post) is not answered: the furthest one reached is shown.
  const reachable = stepToShow(ctx);
  if (reachable !== step) return go(reachable);

  switch (intent) {
    case SUBSCRIPTION_INTENT.upload:
      return upload();
    case SUBSCRIPTION_INTENT.resetFiles: {
      // "Nouveaux justificatifs": both slots emptied, the files stored for this draft dropped.
      for (const slot of SUBSCRIPTION_FILES) await setAllowanceFile(db, userId, draft.id, slot, null);
      for (const id of [draft.mediaId, draft.secondMediaId]) if (id) await deleteReceipt(platform, userId, id);
      return go("tickets");
    }
    case SUBSCRIPTION_INTENT.confirm:
      return confirm();
    case SUBSCRIPTION_INTENT.continue:
      return next();
  }

  async function next(): Promise<Response | SubscriptionActionData> {
    switch (step) {
      case "intro":
        await saveAllowanceAnswers(db, userId, draft.id, {}, subscriptionStepIndex("tickets"));
        return go("tickets");
      case "tickets": {
        const missing = missingFiles(draft.mediaId, draft.secondMediaId);
        if (Object.keys(missing).length)
          return refused("tickets", reply(parseForm(form, subscriptionTicketsSchema), { fieldErrors: missing }));
        await saveAllowanceAnswers(db, userId, draft.id, {}, subscriptionStepIndex("details"));
        return go("details");
      }
      case "details": {
        const submission = parseForm(form, subscriptionDetailsSchema(today));
        if (submission.status !== "success") return refused("details", reply(submission));
        const { groupId, startAt, endsAt, amount, iban } = submission.value;
        if (!groups.some((g) => g.id === groupId))
          return refused(
            "details",
            reply(submission, { fieldErrors: { group_id: ["allowances.errors.groupNotAllowed"] } }),
          );
        await saveAllowanceAnswers(
          db,
          userId,
          draft.id,
          { groupId, startAt, endsAt, amount, iban },
          subscriptionStepIndex("summary"),
        );
        return go("summary");
      }
      case "summary":
        return confirm();
    }
  }

  /** Stores the files sent (one or both), each in its slot; both stored: on to the details. */
  async function upload(): Promise<Response | SubscriptionActionData> {
    const refuse = (fieldErrors: Record<string, string[]>) =>
      refused("tickets", reply(parseForm(emptyForm(), subscriptionTicketsSchema), { fieldErrors }));
    const sent = SUBSCRIPTION_FILES.flatMap((slot) => {
      const file = form.get(slot);
      const filled = slot === "media" ? draft.mediaId : draft.secondMediaId;
      // A slot already filled keeps its file ("Nouveaux justificatifs" empties both).
      return file instanceof File && file.size > 0 && !filled ? [{ slot, file }] : [];
    });
    if (sent.length === 0) {
      const missing = missingFiles(draft.mediaId, draft.secondMediaId);
      return refuse(Object.keys(missing).length ? missing : { media: ["allowances.errors.mediaRequired"] });
    }
    const stored: { slot: SubscriptionFile; id: string }[] = [];
    const errors: Record<string, string[]> = {};
    for (const { slot, file } of sent) {
      const result = await storeReceipt(platform, userId, file);
      if (result.kind === "stored") stored.push({ slot, id: result.file.id });
      else errors[slot] = [FILE_REFUSALS[result.kind]];
    }
    if (Object.keys(errors).length) {
      // All or nothing: the page shows again as it was, with the refusal on the file that was wrong.
      for (const { id } of stored) await deleteReceipt(platform, userId, id);
      return refuse(errors);
    }
    for (const { slot, id } of stored) await setAllowanceFile(db, userId, draft.id, slot, id);
    const media = stored.find((s) => s.slot === "media")?.id ?? draft.mediaId;
    const second = stored.find((s) => s.slot === "second_media")?.id ?? draft.secondMediaId;
    if (media && second) {
      // Spec 001 §4: once both files have ids, the wizard moves on to the details.
      await saveAllowanceAnswers(db, userId, draft.id, {}, subscriptionStepIndex("details"));
      return go("details");
    }
    return go("tickets");
  }

  async function confirm(): Promise<Response | SubscriptionActionData> {
    const submission = parseForm(form, subscriptionSummarySchema);
    if (submission.status !== "success") return refused("summary", reply(submission));
    const result = await createAllowance(
      platform,
      userId,
      { ...inputOf(draft), draftId: draft.id, swornStatement: true },
      today,
    );
    switch (result.kind) {
      case "created":
        return internalRedirect(LIST_AFTER_CONFIRMATION);
      case "alreadySubmitted":
        return redirectWithFlash(request, "/plans/allowances", {
          kind: "info",
          message: "subscriptionWizard.alreadySent",
        });
      case "invalid": {
        // Spec 001 §2.7, §8: each error on its summary row (the spec's keys name them), and the alert.
        return refused(
          "summary",
          reply(submission, {
            formErrors: ["subscriptionWizard.failedCreateRefundRequest"],
            fieldErrors: result.errors,
          }),
        );
      }
    }
  }
}

/** What each refusal of a stored file says (the receipts service's kinds). */
const FILE_REFUSALS = {
  tooBig: "subscriptionWizard.errors.fileTooBig",
  invalidType: "subscriptionWizard.errors.fileInvalidType",
  empty: "subscriptionWizard.errors.fileEmpty",
  tooManyUploads: "subscriptionWizard.errors.uploadRateExceeded",
  quotaExceeded: "subscriptionWizard.errors.uploadQuotaExceeded",
} as const;

/** The errors of the slots still empty (spec 001 §5: both files required). */
function missingFiles(mediaId: string | null, secondMediaId: string | null): Record<string, string[]> {
  return {
    ...(mediaId ? {} : { media: ["allowances.errors.mediaRequired"] }),
    ...(secondMediaId ? {} : { second_media: ["allowances.errors.secondMediaRequired"] }),
  };
}
