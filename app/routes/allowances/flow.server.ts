import type { Platform } from "~/.server/platform";
import type { Account } from "~/.server/services/accounts";
import type { AllowanceDraft } from "~/.server/services/allowances/drafts";
import { createAllowance, type AllowanceInput, type AllowanceProblems } from "~/.server/services/allowances/requests";
import { reply } from "~/routes/+shared/forms.server";
import { refusalOf } from "~/routes/+shared/problems.server";
import {
  internalPath,
  internalRedirect,
  type InternalPath,
  type InternalTarget,
} from "~/routes/+shared/redirects.server";
import { redirectWithFlash, refusal } from "~/routes/+shared/request.server";
import { parseUploadForm } from "~/routes/+shared/uploads.server";
import { refusedStep, stepOf, type WizardReply } from "~/routes/+shared/wizard.server";
import type { AllowanceFlow } from "~/components/allowances/wizard";
import { ALLOWANCE_WORDS } from "./problems.server";

/**
 * What the allowance wizard's frame (wizard.server.ts) hands to a type's flow, and what the two flows
 * share: the frame finds the signed-in account and its draft (the draft exists and is still open, or
 * the frame answered already), the flow runs the steps. Carpooling and bicycle share one flow
 * (distance.server.ts); the subscription has its own (subscription.server.ts).
 */
export interface AllowanceFlowContext {
  request: Request;
  platform: Platform;
  account: Account;
  draft: AllowanceDraft;
  /** The step named in the URL (`?step=`), not yet checked against the flow's steps. */
  step: string | null;
  /** Europe/Paris calendar day (todayInParis). */
  today: string;
  /** Where closing goes (the list, or the close confirmation once something would be lost). */
  closeTo: InternalPath;
}

/** A flow's context in its action: the form posted too (read by the flow: plain, or multipart for files). */
export type Posted<Ctx extends AllowanceFlowContext> = Ctx & { form: FormData };

export const LIST = "/plans/allowances" satisfies InternalTarget;
const LIST_REFRESHED = internalPath(LIST, {}, { search: { refresh: "1" } });

/** The wizard's path for a draft, at a step (or its flow's first), with more of the query if asked. */
export function draftPath(draftId: string, step?: string | null, extra: Record<string, string> = {}): InternalPath {
  return internalPath(
    "/plans/allowances/:requestId",
    { requestId: "new" },
    { search: { draft: draftId, ...(step ? { step } : {}), ...extra } },
  );
}

/** On to a step of the draft (post, redirect, get). */
export const goToStep = (ctx: AllowanceFlowContext, step: string) => internalRedirect(draftPath(ctx.draft.id, step));

/** The step a draft may show: the one asked for when reached, else the furthest reached (a forged or old URL). */
export function reachableStep<Step extends string>(steps: readonly Step[], ctx: AllowanceFlowContext): Step {
  const reached = Math.min(ctx.draft.stepReached, steps.length - 1);
  const asked = stepOf(steps, ctx.step) ?? steps[0]!;
  return steps.indexOf(asked) <= reached ? asked : steps[reached]!;
}

/** The path of each step of the draft (each form posts to its own step's), and Back from the step shown. */
export function stepLinks<Step extends string>(steps: readonly Step[], draftId: string, step: Step) {
  const paths = Object.fromEntries(steps.map((s) => [s, draftPath(draftId, s)])) as Record<Step, InternalPath>;
  const position = steps.indexOf(step);
  return { paths, back: position > 0 ? paths[steps[position - 1]!] : null };
}

/** A form without files (every form of the frame and of the distance flow): a file sent anyway is refused (400). */
export async function plainForm(request: Request): Promise<FormData> {
  const parsed = await parseUploadForm(request, { maxFiles: 0, maxFileSize: 1 });
  if (parsed.kind !== "parsed") throw refusal(400, "allowanceWizard.errors.noFileHere");
  return parsed.form;
}

/** A refused step of a flow: the kit's envelope (HTTP 400) naming the flow, for the frame's components. */
export function refusedIn<Step extends string, Flow extends AllowanceFlow>(flow: Flow) {
  return (step: Step, lastResult: WizardReply<Step>["lastResult"]) => refusedStep(step, lastResult, { flow });
}

/** The details' group refused: not one this person may ask this allowance of. */
export const groupNotAllowed = (submission: Parameters<typeof reply>[0]) =>
  reply(submission, { fieldErrors: { group_id: [ALLOWANCE_WORDS.groupNotAllowed] } });

/** The platform's refusals of a summary, worded at their rows (spec 001 §2.7: by the spec's fields). */
export const wordsOf = (problems: AllowanceProblems) => refusalOf(problems, ALLOWANCE_WORDS).fieldErrors;

/** What a flow's confirmation says when the draft was already sent, or the platform refused it. */
interface ConfirmationWords {
  alreadySent: Parameters<typeof redirectWithFlash>[2]["message"];
  failedCreate: string;
}

/**
 * The summary's confirmation, the same for both flows: the platform checks the answers again (its
 * figures win) and claims the draft once; the list after it, or the summary with the platform's
 * refusals (spec 001 §2.7, §8: each error on its summary row, by the spec's keys, and the alert).
 */
export async function confirmAllowance<Refused>(
  ctx: AllowanceFlowContext,
  input: AllowanceInput,
  submission: Parameters<typeof reply>[0],
  refuseSummary: (lastResult: WizardReply<"summary">["lastResult"]) => Refused,
  words: ConfirmationWords,
): Promise<Response | Refused> {
  const result = await createAllowance(
    ctx.platform,
    ctx.account.id,
    { ...input, draftId: ctx.draft.id, swornStatement: true },
    ctx.today,
  );
  switch (result.kind) {
    case "created":
      return internalRedirect(LIST_REFRESHED);
    case "alreadySubmitted":
      return redirectWithFlash(ctx.request, LIST, { kind: "info", message: words.alreadySent });
    case "invalid": {
      const { fieldErrors, formErrors } = refusalOf(result.problems, ALLOWANCE_WORDS);
      return refuseSummary(reply(submission, { formErrors: [words.failedCreate, ...formErrors], fieldErrors }));
    }
  }
}
