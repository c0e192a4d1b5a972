import {
  getAllowanceDraft,
  saveAllowanceAnswers,
  setAllowanceFile,
  type IbanSource,
} from "~/.server/services/allowances/drafts";
import { allowanceGroups, simulateAllowance, type SubscriptionInput } from "~/.server/services/allowances/requests";
import { getPayoutDetails, rememberFirstIban } from "~/.server/services/payout-details";
import { readingsOf, startReadings, type FileReading } from "~/.server/services/receipt-readings";
import { deleteReceipt, describeReceipt, storeReceipt } from "~/.server/services/receipts";
import { startWindow, transportSharePercent } from "~/domain/allowances";
import { maskIban } from "~/domain/iban";
import { PAYOUT_IBAN_DEFAULTS, resolvePayoutIban } from "~/domain/payout-iban";
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
import { internalPath } from "~/routes/+shared/redirects.server";
import { parseUploadForm } from "~/routes/+shared/uploads.server";
import { formOf, runStep, stepOf, type StepHandlers } from "~/routes/+shared/wizard.server";
import {
  SUBSCRIPTION_FILES,
  SUBSCRIPTION_INTENT,
  SUBSCRIPTION_STEPS,
  type StoredFileView,
  type SubscriptionFile,
  type SubscriptionGroupView,
  type SubscriptionReadField,
  type SubscriptionStep,
  type SubscriptionStepView,
  type SubscriptionView,
} from "~/components/allowances/subscription";
/** The steps both allowance flows share (decision 0051). */
import * as kit from "./flow.server";
import { ALLOWANCE_WORDS } from "./problems.server";

/**
 * The subscription wizard's steps (spec 001 §2.7, §5, issue 15 item 4): Abonnement, tickets, details,
 * summary, inside the allowance wizard's frame (wizard.server.ts finds the account and the draft). One
 * plain form per step posting to the step's own URL (`…?draft=ald_…&step=details`); the draft holds the
 * answers and the two files, so Back keeps them and nothing needs JavaScript. The platform
 * (services/allowances/requests.ts) simulates on the summary and checks everything again on
 * confirmation. The loader and the action are each a map from step to handler (decision 0051).
 */

/** The flow's context: the frame's (the draft found and open), and the groups that may pay a subscription. */
interface SubscriptionContext extends kit.AllowanceFlowContext {
  groups: SubscriptionGroupView[];
  /** The IBAN saved in the person's profile (decision 0054), null when none is. */
  savedIban: string | null;
}

/** Multipart: the tickets step sends files. */
type SubscriptionPost = kit.Posted<SubscriptionContext>;
const refused = kit.refusedIn<SubscriptionStep, "subscription">("subscription");
const stepIndex = (step: SubscriptionStep) => SUBSCRIPTION_STEPS.indexOf(step);

/** The groups that may pay this person a subscription, with the share each pays this year. */
async function subscriptionContext(ctx: kit.AllowanceFlowContext): Promise<SubscriptionContext> {
  const year = Number(ctx.today.slice(0, 4));
  const groups = await allowanceGroups(ctx.platform.db, ctx.account.id, "subscription");
  const { iban: savedIban } = await getPayoutDetails(ctx.platform.db, ctx.account.id);
  return {
    ...ctx,
    savedIban,
    groups: groups.map((g) => ({
      id: g.id,
      name: g.name,
      percentage: transportSharePercent(g.subscriptionShare, year),
    })),
  };
}

async function fileView(ctx: kit.AllowanceFlowContext, fileId: string | null): Promise<StoredFileView | null> {
  if (!fileId) return null;
  const file = await describeReceipt(ctx.platform, ctx.account.id, fileId);
  if (!file) return null;
  return {
    id: file.id,
    fileName: file.fileName,
    size: file.size,
    href: internalPath("/plans/expense-requests/receipts/:fileId", { fileId: file.id }),
  };
}

async function filesOf(ctx: kit.AllowanceFlowContext) {
  return {
    media: await fileView(ctx, ctx.draft.mediaId),
    second_media: await fileView(ctx, ctx.draft.secondMediaId),
  } satisfies Record<SubscriptionFile, StoredFileView | null>;
}

/**
 * The account paid (decision 0054): the profile's IBAN as it is now when the draft chose the saved one (it may
 * have been changed since the details step), else the one typed.
 */
function ibanOf({ draft, savedIban }: SubscriptionContext): string {
  const a = draft.answers;
  return (a.ibanSource === "saved" ? savedIban : null) ?? a.iban ?? "";
}

/** What the confirmation (and the summary's simulation) hands to the platform: the draft's answers. */
function inputOf(ctx: SubscriptionContext): SubscriptionInput {
  const { draft } = ctx;
  const a = draft.answers;
  return {
    type: "subscription",
    groupId: a.groupId ?? "",
    startAt: a.startAt ?? "",
    endsAt: a.endsAt ?? "",
    amount: a.amount ?? 0,
    iban: ibanOf(ctx),
    mediaId: draft.mediaId,
    secondMediaId: draft.secondMediaId,
  };
}

async function summaryView(ctx: SubscriptionContext): Promise<SubscriptionStepView> {
  const a = ctx.draft.answers;
  const simulated = await simulateAllowance(ctx.platform, ctx.account.id, inputOf(ctx), ctx.today);
  const sim = simulated.kind === "simulated" ? simulated.simulation : null;
  const r = sim?.type === "subscription" ? sim.result : null;
  return {
    step: "summary",
    groupName: ctx.groups.find((g) => g.id === a.groupId)?.name ?? "",
    startAt: a.startAt ?? "",
    endsAt: a.endsAt ?? "",
    amount: a.amount ?? 0,
    ibanLastFour: ibanOf(ctx) ? maskIban(ibanOf(ctx)) : "",
    files: await filesOf(ctx),
    simulation: r
      ? {
          allowance: r.allowance,
          percentage: r.percentage,
          shareLowered: r.shareLowered,
          perMonth: r.perMonth,
          numberOfMonths: r.numberOfMonths,
        }
      : null,
    problems: simulated.kind === "invalid" ? kit.wordsOf(simulated.problems) : {},
  };
}

/**
 * What the documents' readings propose (decision 0056): the price and the period of the first document that
 * says them, the ticket before the proof. A day the subscription's rules would refuse (a start outside the
 * window, an end after the 31 December of an annual pass) is not proposed: the person types it.
 */
export function readProposal(readings: (FileReading | undefined)[], window: { min: string; max: string }) {
  const facts = readings.flatMap((r) => (r?.state === "done" ? [r.facts] : []));
  const amount = facts.find((f) => f.amount !== null)?.amount ?? null;
  const period = facts.find((f) => f.period !== null)?.period ?? null;
  const start = period && period.start >= window.min && period.start <= window.max ? period.start : null;
  const end = period && start && period.end <= window.max ? period.end : null;
  return { amount, start, end };
}

async function detailsView(ctx: SubscriptionContext): Promise<SubscriptionStepView> {
  const a = ctx.draft.answers;
  // Spec 001 §2.7: the group is chosen for the person when there is only one.
  const only = ctx.groups.length === 1 ? ctx.groups[0]!.id : "";
  const window = startWindow("subscription", ctx.today);
  const files = [ctx.draft.mediaId, ctx.draft.secondMediaId].filter((id): id is string => id !== null);
  const readings = await readingsOf(ctx.platform.db, ctx.account.id, files);
  const skipped = new URL(ctx.request.url).searchParams.get("reading") === "skip";
  const pending = !skipped && [...readings.values()].some((r) => r.state === "pending");
  const read = readProposal(
    files.map((id) => readings.get(id)),
    window,
  );
  // What the person answered stays theirs; a field still empty starts from what was read.
  const day = (value: string | null | undefined) => (value ? frenchDay(value) : "");
  const euros = (cents: number | null | undefined) => (cents ? centsToField(cents) : "");
  const values = {
    group_id: a.groupId && ctx.groups.some((g) => g.id === a.groupId) ? a.groupId : only,
    start_at: day(a.startAt ?? read.start),
    ends_at: day(a.endsAt ?? read.end),
    amount: euros(a.amount ?? read.amount),
    // The payout account (decision 0054): the saved one unless the draft chose another; none saved, "save it" ticked.
    iban_choice: a.ibanSource === "other" && ctx.savedIban ? "other" : PAYOUT_IBAN_DEFAULTS.iban_choice,
    iban: a.ibanSource === "other" || a.ibanSource === "remember" ? (a.iban ?? "") : "",
    save_iban: a.ibanSource === "other" && !ctx.savedIban ? "" : PAYOUT_IBAN_DEFAULTS.save_iban,
  };
  // A field is marked as read while it shows what was read (the person may have typed something else since).
  const shows = (readValue: string, field: SubscriptionReadField) => readValue !== "" && values[field] === readValue;
  return {
    step: "details",
    reading: pending ? "pending" : "over",
    skipReading: kit.draftPath(ctx.draft.id, "details", { reading: "skip" }),
    read: {
      amount: shows(euros(read.amount), "amount"),
      start_at: shows(day(read.start), "start_at"),
      ends_at: shows(day(read.end), "ends_at"),
    },
    groups: ctx.groups,
    values,
    savedLastFour: ctx.savedIban ? maskIban(ctx.savedIban) : null,
    startMin: window.min,
    endMax: window.max,
  };
}

/** The loader's map: what each step shows. */
const STEP_VIEWS: StepHandlers<SubscriptionStep, SubscriptionContext, SubscriptionStepView> = {
  intro: async (ctx) => ({ step: "intro", groups: ctx.groups }),
  tickets: async (ctx) => ({ step: "tickets", files: await filesOf(ctx) }),
  details: detailsView,
  summary: summaryView,
};

/** The loader's part: the step shown (the one asked for when reached) and what it needs. */
export async function subscriptionLoad(flow: kit.AllowanceFlowContext): Promise<SubscriptionView> {
  const ctx = await subscriptionContext(flow);
  const step = kit.reachableStep(SUBSCRIPTION_STEPS, ctx);
  return {
    kind: "subscription",
    draftId: ctx.draft.id,
    step,
    ...kit.stepLinks(SUBSCRIPTION_STEPS, ctx.draft.id, step),
    // The frame's: the list, or its close confirmation once something would be lost.
    closeTo: ctx.closeTo,
    noGroup: ctx.groups.length === 0,
    view: await runStep(STEP_VIEWS, step, ctx),
  };
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
    ...(mediaId ? {} : { media: [ALLOWANCE_WORDS.mediaRequired] }),
    ...(secondMediaId ? {} : { second_media: [ALLOWANCE_WORDS.secondMediaRequired] }),
  };
}

/** The tickets form refused: the step shows again with the refusal (a valid file sent with it is kept). */
function refusedTickets(refusal: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }) {
  return refused("tickets", reply(parseForm(formOf({}), subscriptionTicketsSchema), refusal));
}

/**
 * The files sent, each stored and put in its slot. A file refused does not take the other with it (WCAG
 * 3.3.7, the upload checklist): the valid one is kept in its slot and listed with « Supprimer », the
 * refusal said on the file that was wrong, so only that one is sent again.
 */
async function storeSent(ctx: SubscriptionPost, sent: { slot: SubscriptionFile; file: File }[]) {
  const userId = ctx.account.id;
  const stored: { slot: SubscriptionFile; id: string }[] = [];
  const errors: Record<string, string[]> = {};
  for (const { slot, file } of sent) {
    const result = await storeReceipt(ctx.platform, userId, file);
    if (result.kind === "stored") stored.push({ slot, id: result.file.id });
    else errors[slot] = [FILE_REFUSALS[result.kind]];
  }
  for (const { slot, id } of stored) await setAllowanceFile(ctx.platform.db, userId, ctx.draft.id, slot, id);
  return { stored, errors };
}

/**
 * How long the tickets' post waits for its documents' readings (decision 0056): a PDF is read in a fraction of a
 * second and a photo in about one, the reader's first start a few; past it the details step waits instead.
 */
const READING_WAIT_MS = 4_000;

async function readingsOrTimeout(finished: Promise<void>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, READING_WAIT_MS)));
  await Promise.race([finished, late]);
  clearTimeout(timer);
}

/** Stores the files sent (one or both), each in its slot; both stored: on to the details. */
async function upload(ctx: SubscriptionPost) {
  const { draft } = ctx;
  const sent = SUBSCRIPTION_FILES.flatMap((slot) => {
    const file = ctx.form.get(slot);
    const filled = slot === "media" ? draft.mediaId : draft.secondMediaId;
    // A slot already filled keeps its file ("Nouveaux justificatifs" empties both).
    return file instanceof File && file.size > 0 && !filled ? [{ slot, file }] : [];
  });
  if (sent.length === 0) {
    const missing = missingFiles(draft.mediaId, draft.secondMediaId);
    return refusedTickets({
      fieldErrors: Object.keys(missing).length ? missing : { media: [ALLOWANCE_WORDS.mediaRequired] },
    });
  }
  const outcome = await storeSent(ctx, sent);
  // Issue 31 §5: the documents are read in the background; the details step proposes what they say. The post
  // waits a little for them, so that the details usually open read, without the waiting step.
  const { finished } = await startReadings(
    ctx.platform,
    ctx.account.id,
    outcome.stored.map((s) => s.id),
  );
  if (Object.keys(outcome.errors).length) return refusedTickets({ fieldErrors: outcome.errors });
  await readingsOrTimeout(finished);
  const media = outcome.stored.find((s) => s.slot === "media")?.id ?? draft.mediaId;
  const second = outcome.stored.find((s) => s.slot === "second_media")?.id ?? draft.secondMediaId;
  if (!media || !second) return kit.goToStep(ctx, "tickets");
  // Spec 001 §4: once both files have ids, the wizard moves on to the details.
  await saveAllowanceAnswers(ctx.platform.db, ctx.account.id, draft.id, {}, stepIndex("details"));
  return kit.goToStep(ctx, "details");
}

/** « Supprimer » beside one stored document: its slot emptied, its file dropped; the other stays. */
async function removeFile(ctx: SubscriptionPost) {
  const userId = ctx.account.id;
  const slot = SUBSCRIPTION_FILES.find((s) => s === ctx.form.get("slot"));
  const id = slot === "media" ? ctx.draft.mediaId : slot === "second_media" ? ctx.draft.secondMediaId : null;
  if (slot && id) {
    await setAllowanceFile(ctx.platform.db, userId, ctx.draft.id, slot, null);
    await deleteReceipt(ctx.platform, userId, id);
  }
  return kit.goToStep(ctx, "tickets");
}

/** "Nouveaux justificatifs": both slots emptied, the files stored for this draft dropped. */
async function resetFiles(ctx: SubscriptionPost) {
  const userId = ctx.account.id;
  for (const slot of SUBSCRIPTION_FILES) await setAllowanceFile(ctx.platform.db, userId, ctx.draft.id, slot, null);
  for (const id of [ctx.draft.mediaId, ctx.draft.secondMediaId]) if (id) await deleteReceipt(ctx.platform, userId, id);
  return kit.goToStep(ctx, "tickets");
}

async function confirm(ctx: SubscriptionPost) {
  const submission = parseForm(ctx.form, subscriptionSummarySchema);
  if (submission.status !== "success") return refused("summary", reply(submission));
  const input = inputOf(ctx);
  const answer = await kit.confirmAllowance(ctx, input, submission, (lastResult) => refused("summary", lastResult), {
    alreadySent: "subscriptionWizard.alreadySent",
    failedCreate: "subscriptionWizard.failedCreateRefundRequest",
  });
  // Sent (the draft now names its allowance) with their first account typed and "save this account" ticked:
  // the profile keeps it (decision 0054; rememberFirstIban never replaces one saved meanwhile).
  if (ctx.draft.answers.ibanSource === "remember" && input.iban) {
    const after = await getAllowanceDraft(ctx.platform.db, ctx.account.id, ctx.draft.id);
    if (after.kind === "found" && after.draft.allowanceId)
      await rememberFirstIban(ctx.platform.db, ctx.account.id, input.iban);
  }
  return answer;
}

/** "Continuer" on each step: the answers checked, the next step reached. */
const CONTINUE: StepHandlers<SubscriptionStep, SubscriptionPost, Response | ReturnType<typeof refused>> = {
  intro: async (ctx) => {
    await saveAllowanceAnswers(ctx.platform.db, ctx.account.id, ctx.draft.id, {}, stepIndex("tickets"));
    return kit.goToStep(ctx, "tickets");
  },
  tickets: async (ctx) => {
    const missing = missingFiles(ctx.draft.mediaId, ctx.draft.secondMediaId);
    if (Object.keys(missing).length)
      return refused("tickets", reply(parseForm(ctx.form, subscriptionTicketsSchema), { fieldErrors: missing }));
    await saveAllowanceAnswers(ctx.platform.db, ctx.account.id, ctx.draft.id, {}, stepIndex("details"));
    return kit.goToStep(ctx, "details");
  },
  details: async (ctx) => {
    const submission = parseForm(ctx.form, subscriptionDetailsSchema(ctx.today));
    if (submission.status !== "success") return refused("details", reply(submission));
    const { groupId, startAt, endsAt, amount, ibanChoice, iban: typed, saveIban } = submission.value;
    if (!ctx.groups.some((g) => g.id === groupId)) return refused("details", kit.groupNotAllowed(submission));
    const account = resolvePayoutIban({ choice: ibanChoice, typed, saved: ctx.savedIban });
    if (account.kind === "problem")
      return refused("details", reply(submission, { fieldErrors: { [account.field]: [account.message] } }));
    // None saved and "save this account" kept ticked: the profile keeps it once the allowance is sent.
    const ibanSource: IbanSource = account.fromProfile
      ? "saved"
      : ctx.savedIban === null && saveIban === "on"
        ? "remember"
        : "other";
    const answers = { groupId, startAt, endsAt, amount, iban: account.iban, ibanSource };
    await saveAllowanceAnswers(ctx.platform.db, ctx.account.id, ctx.draft.id, answers, stepIndex("summary"));
    return kit.goToStep(ctx, "summary");
  },
  summary: confirm,
};

/** Each button of the flow (declared once in SUBSCRIPTION_INTENT); "Continuer" is the step's own. */
const INTENT_HANDLERS: Record<
  keyof typeof SUBSCRIPTION_INTENT,
  (ctx: SubscriptionPost, step: SubscriptionStep) => ReturnType<typeof confirm>
> = {
  upload,
  removeFile,
  resetFiles,
  confirm,
  continue: (ctx, step) => runStep(CONTINUE, step, ctx),
};

/**
 * The action's part: the step's form (the URL says which draft and step), dispatched on its button. The
 * tickets step sends its files as multipart: every post is read by `parseUploadForm` (streamed, limits).
 */
export async function subscriptionAct(flow: kit.AllowanceFlowContext) {
  const parsed = await parseUploadForm(flow.request, {
    maxFiles: SUBSCRIPTION_FILES.length,
    maxFileSize: RECEIPT_MAX_BYTES,
  });
  if (parsed.kind !== "parsed")
    return refusedTickets({
      formErrors: [
        parsed.kind === "tooBig" ? "subscriptionWizard.errors.fileTooBig" : "subscriptionWizard.errors.tooManyFiles",
      ],
    });
  const intent = intentOf(parsed.form, SUBSCRIPTION_INTENT);
  const ctx: SubscriptionPost = { ...(await subscriptionContext(flow)), form: parsed.form };
  // No group may pay it: nothing to do but leave (the steps show the notice and only a cancel link).
  if (ctx.groups.length === 0) return kit.goToStep(ctx, "intro");
  // A step not reached yet (a forged or old post) is not answered: the furthest one reached is shown.
  const step = stepOf(SUBSCRIPTION_STEPS, flow.step) ?? "intro";
  const reachable = kit.reachableStep(SUBSCRIPTION_STEPS, ctx);
  if (reachable !== step) return kit.goToStep(ctx, reachable);
  return INTENT_HANDLERS[intent](ctx, step);
}
