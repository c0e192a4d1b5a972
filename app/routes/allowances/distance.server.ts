import {
  getAllowanceDraft,
  saveAllowanceAnswers,
  type AddressAnswer,
  type AllowanceAnswers,
} from "~/.server/services/allowances/drafts";
import { getPayoutDetails, rememberFirstIban, type PayoutDetails } from "~/.server/services/payout-details";
import {
  allowanceGroups,
  capStatus,
  simulateAllowance,
  type AllowanceGroup,
  type DistanceInput,
} from "~/.server/services/allowances/requests";
import {
  clampDays,
  daysWithoutSundays,
  addressLine,
  isDistanceType,
  startWindow,
  unusualDistance,
  USUAL_ONE_WAY_METERS,
  type DistanceType,
} from "~/domain/allowances";
import {
  allowanceDetailsSchema,
  allowanceDistanceSchema,
  allowanceGroupSchema,
  distanceSummarySchema,
  type AllowanceDetailsForm,
} from "~/domain/allowance-schemas";
import { ibanProblem, maskIban, normaliseIban } from "~/domain/iban";
import { PAYOUT_IBAN_DEFAULTS } from "~/domain/payout-iban";
import { frenchDay, parseDay } from "~/domain/dates";
import { parseForm, reply } from "~/routes/+shared/forms.server";
import { intentOf } from "~/routes/+shared/intents.server";
import { runStep, stepOf, type StepHandlers } from "~/routes/+shared/wizard.server";
import {
  DISTANCE_INTENT,
  DISTANCE_STEPS,
  type DistanceStep,
  type DistanceStepView,
  type DistanceView,
  type GroupView,
} from "~/components/allowances/distance";
/** The steps both allowance flows share (decision 0051). */
import * as kit from "./flow.server";

/**
 * The carpooling and bicycle wizard (spec 001 §2.7, §5, issue 15 item 3): "Indemnité" (what it is, the
 * group's rate and cap), details (addresses, group, dates, days at the office, IBAN, travel role for
 * carpooling), summary (the server's simulation in words, the one-way distance the employee may correct,
 * the sworn statement). One plain form per step (decision 0021), answers in the draft (decision 0026);
 * the platform (`simulateAllowance`, `createAllowance`) re-checks everything and its figures win. The
 * loader and the action are each a map from step to handler (the wizard kit, decision 0051).
 */

/**
 * The flow's context: the frame's (the draft found and open), the draft's type, the groups that may pay it,
 * and what the profile already knows (the saved IBAN and the postal address, decision 0054).
 */
interface DistanceContext extends kit.AllowanceFlowContext {
  type: DistanceType;
  groups: AllowanceGroup[];
  payout: PayoutDetails;
}

type DistancePost = kit.Posted<DistanceContext>;
const refused = kit.refusedIn<DistanceStep, "distance">("distance");
const stepIndex = (step: DistanceStep) => DISTANCE_STEPS.indexOf(step);

async function distanceContext(ctx: kit.AllowanceFlowContext): Promise<DistanceContext> {
  // The frame hands only carpooling and bicycle drafts here.
  const type = isDistanceType(ctx.draft.type) ? ctx.draft.type : "carpooling";
  const [groups, payout] = await Promise.all([
    allowanceGroups(ctx.platform.db, ctx.account.id, type),
    getPayoutDetails(ctx.platform.db, ctx.account.id),
  ]);
  return { ...ctx, type, groups, payout };
}

async function groupViews(ctx: DistanceContext): Promise<GroupView[]> {
  const year = Number(ctx.today.slice(0, 4));
  return Promise.all(
    ctx.groups.map(async (g) => {
      const cap = await capStatus(ctx.platform.db, ctx.account.id, g.id, year).catch(() => null);
      return {
        id: g.id,
        name: g.name,
        address: { ...g.address },
        ratePerKm: g.ratePerKm,
        yearlyCap: g.yearlyCap,
        remaining: cap ? cap.remaining : null,
      };
    }),
  );
}

/** The group of the draft, or the only one when there is one. */
function chosenGroup(answers: AllowanceAnswers, groups: { id: string }[]): string {
  if (answers.groupId && groups.some((g) => g.id === answers.groupId)) return answers.groupId;
  return groups.length === 1 ? groups[0]!.id : "";
}

const emptyAddress = (): AddressAnswer => ({ line1: "", zipcode: "", city: "", country: "FR" });

/** The IBAN the answers name: the profile's as it is now when they chose the saved one, else the one typed. */
const ibanOf = (ctx: DistanceContext, a: AllowanceAnswers) => (a.ibanSource === "saved" ? ctx.payout.iban : a.iban);

/** The complete answers of the details step, or null while one is missing. */
function inputOf(ctx: DistanceContext): DistanceInput | null {
  const { type } = ctx;
  const a = ctx.draft.answers;
  const iban = ibanOf(ctx, a);
  if (!a.groupId || !a.home || !a.work || !a.startAt || !a.endsAt || !iban || a.daysAtOffice === undefined) return null;
  if (type === "carpooling" && !a.travelRole) return null;
  return {
    type,
    groupId: a.groupId,
    home: a.home,
    work: a.work,
    daysAtOffice: a.daysAtOffice,
    iban,
    startAt: a.startAt,
    endsAt: a.endsAt,
    travelRole: type === "carpooling" ? (a.travelRole ?? null) : null,
    declaredOneWayMeters: a.declaredOneWayMeters ?? null,
  };
}

/** The profile's postal address as the home of the wizard (its second line has no field here). */
function profileHome({ address }: PayoutDetails): AddressAnswer | null {
  return address
    ? { line1: address.line1, zipcode: address.zipcode, city: address.city, country: address.country }
    : null;
}

/**
 * The account fields as the form shows them again (decision 0054): the saved account chosen unless the
 * draft chose another; the IBAN typed when it was; with none saved, "save this account" ticked unless unticked.
 */
function accountValues(ctx: DistanceContext) {
  const a = ctx.draft.answers;
  const typed = a.ibanSource === "saved" ? "" : (a.iban ?? "");
  return {
    iban_choice: a.ibanSource === "other" ? "other" : PAYOUT_IBAN_DEFAULTS.iban_choice,
    iban: typed,
    save_iban: a.ibanSource === "other" && ctx.payout.iban === null ? "" : PAYOUT_IBAN_DEFAULTS.save_iban,
  };
}

/**
 * The details as the form shows them again: the draft's answers; before any, the home from the profile
 * and the work from the group (issue 31 §2: nothing the portal knows is asked again, both shown to confirm).
 */
async function detailsView(ctx: DistanceContext): Promise<DistanceStepView> {
  const a = ctx.draft.answers;
  const groupId = chosenGroup(a, ctx.groups);
  const group = ctx.groups.find((g) => g.id === groupId);
  const work = a.work ?? (group ? { ...group.address } : emptyAddress());
  const fromProfile = a.home ? null : profileHome(ctx.payout);
  // Clamped when the period's maximum dropped (spec 001 §5).
  const max = a.startAt && a.endsAt ? daysWithoutSundays(a.startAt, a.endsAt) : null;
  const days = a.daysAtOffice === undefined ? null : max === null ? a.daysAtOffice : clampDays(a.daysAtOffice, max);
  const values: AllowanceDetailsForm = {
    group_id: groupId,
    home: a.home ?? fromProfile ?? emptyAddress(),
    work,
    start_at: a.startAt ? frenchDay(a.startAt) : "",
    ends_at: a.endsAt ? frenchDay(a.endsAt) : "",
    days_at_office: days ? String(days) : "",
    ...accountValues(ctx),
    travel_role: ctx.type === "carpooling" ? (a.travelRole ?? "") : "",
  };
  return {
    step: "details",
    groups: await groupViews(ctx),
    values,
    startMin: startWindow(ctx.type, ctx.today).min,
    today: ctx.today,
    savedLastFour: ctx.payout.iban ? maskIban(ctx.payout.iban) : null,
    homeFromProfile: fromProfile !== null,
  };
}

/** An unusual one-way distance (decision 0055) and the mode's usual one, for the summary's words; null when usual. */
function unusualOf(type: DistanceType, estimateMeters: number, declaredMeters: number | null) {
  const meters = unusualDistance(type, estimateMeters, declaredMeters);
  return meters === null ? null : { meters, usualMeters: USUAL_ONE_WAY_METERS[type] };
}

/** The summary: the answers in words and the platform's simulation of them (or its refusals). */
async function summaryView(ctx: DistanceContext): Promise<DistanceStepView> {
  const given = inputOf(ctx);
  // The loader shows the details to a draft without every answer; a summary needs them all.
  if (!given) return detailsView(ctx);
  const simulated = await simulateAllowance(ctx.platform, ctx.account.id, given, ctx.today);
  const base = {
    step: "summary" as const,
    groupName: ctx.groups.find((g) => g.id === given.groupId)?.name ?? "",
    home: addressLine(given.home),
    work: addressLine(given.work),
    startAt: given.startAt,
    endsAt: given.endsAt,
    daysAtOffice: given.daysAtOffice,
    periodDays: daysWithoutSundays(given.startAt, given.endsAt),
    travelRole: given.travelRole,
    ibanLastFour: maskIban(given.iban),
    declaredKm: given.declaredOneWayMeters != null ? String(given.declaredOneWayMeters / 1000).replace(".", ",") : "",
  };
  if (simulated.kind === "invalid") return { ...base, simulation: null, problems: kit.wordsOf(simulated.problems) };
  const s = simulated.simulation;
  if (s.type === "subscription") return { ...base, simulation: null, problems: {} };
  const r = s.result;
  return {
    ...base,
    problems: {},
    simulation: {
      estimateMeters: s.estimateMeters,
      declaredMeters: s.declaredMeters,
      source: s.source,
      unusual: unusualOf(ctx.type, s.estimateMeters, s.declaredMeters),
      distanceRoundtrip: r.distanceRoundtrip,
      perKm: r.perKm,
      allowanceBeforeCap: r.allowanceBeforeCap,
      allowance: r.allowance,
      perMonth: r.perMonth,
      numberOfMonths: r.numberOfMonths,
      capRemainingBefore: r.capRemainingBefore,
      capRemainingAfter: r.capRemainingAfter,
      capped: r.capped,
    },
  };
}

/** The loader's map: what each step shows. */
const STEP_VIEWS: StepHandlers<DistanceStep, DistanceContext, DistanceStepView> = {
  intro: async (ctx) => ({ step: "intro", groups: await groupViews(ctx) }),
  details: detailsView,
  summary: summaryView,
};

/** The loader's part: the step shown (one reached; the summary only with every answer) and what it needs. */
export async function distanceLoad(flow: kit.AllowanceFlowContext): Promise<DistanceView> {
  const ctx = await distanceContext(flow);
  const noGroup = ctx.groups.length === 0;
  let step: DistanceStep = noGroup ? "intro" : kit.reachableStep(DISTANCE_STEPS, ctx);
  // The summary needs every answer; a draft without them (an old tab) shows the details again.
  if (step === "summary" && !inputOf(ctx)) step = "details";
  return {
    kind: "distance",
    type: ctx.type,
    draftId: ctx.draft.id,
    step,
    ...kit.stepLinks(DISTANCE_STEPS, ctx.draft.id, step),
    closeTo: ctx.closeTo,
    noGroup,
    view: await runStep(STEP_VIEWS, step, ctx),
  };
}

/**
 * What the details form holds that can be kept while a group is chosen without JavaScript (a round trip):
 * each answer that is acceptable alone; the rest is typed again.
 */
function acceptableAnswers(type: DistanceType, form: FormData, saved: string | null): AllowanceAnswers {
  const text = (name: string) => String(form.get(name) ?? "").slice(0, 60);
  const address = (prefix: string): AddressAnswer | undefined => {
    const a = {
      line1: text(`${prefix}.line1`).trim(),
      zipcode: text(`${prefix}.zipcode`).trim(),
      city: text(`${prefix}.city`).trim(),
      country: text(`${prefix}.country`).trim().toUpperCase() || "FR",
    };
    return a.line1 || a.zipcode || a.city ? a : undefined;
  };
  const startAt = parseDay(text("start_at")) ?? undefined;
  const endsAt = parseDay(text("ends_at")) ?? undefined;
  const days = /^\d{1,4}$/.test(text("days_at_office").trim()) ? Number(text("days_at_office").trim()) : undefined;
  const role = text("travel_role");
  const iban = normaliseIban(text("iban"));
  // A typed account is kept when it was typed for use (another account, or the first one to save).
  const typedForUse = text("iban_choice") === "other" || saved === null;
  const keep = typedForUse && iban !== "" && !ibanProblem(iban);
  const source = saved === null && text("save_iban") === "on" ? "remember" : "other";
  return {
    home: address("home"),
    ...(keep ? { iban, ibanSource: source } : {}),
    startAt,
    endsAt,
    daysAtOffice: days && days > 0 ? days : undefined,
    travelRole: type === "carpooling" && (role === "driver" || role === "passenger") ? role : undefined,
  };
}

/** Without JavaScript, "Choisir": the group's address becomes the work address, the rest typed is kept. */
async function chooseGroup(ctx: DistancePost) {
  const submission = parseForm(ctx.form, allowanceGroupSchema);
  if (submission.status !== "success") return refused("details", reply(submission));
  const group = ctx.groups.find((g) => g.id === submission.value.group_id);
  if (!group) return refused("details", kit.groupNotAllowed(submission));
  await saveAllowanceAnswers(ctx.platform.db, ctx.account.id, ctx.draft.id, {
    ...acceptableAnswers(ctx.type, ctx.form, ctx.payout.iban),
    groupId: group.id,
    work: { ...group.address },
  });
  return kit.goToStep(ctx, "details");
}

/** The summary's correction: the one-way distance the employee typed instead of the estimate. */
async function correctDistance(ctx: DistancePost) {
  const submission = parseForm(ctx.form, allowanceDistanceSchema(ctx.type));
  if (submission.status !== "success") return refused("summary", reply(submission));
  const declared = { declaredOneWayMeters: submission.value.declared_km };
  await saveAllowanceAnswers(ctx.platform.db, ctx.account.id, ctx.draft.id, declared);
  return kit.goToStep(ctx, "summary");
}

async function backToEstimate(ctx: DistancePost) {
  await saveAllowanceAnswers(ctx.platform.db, ctx.account.id, ctx.draft.id, { declaredOneWayMeters: null });
  return kit.goToStep(ctx, "summary");
}

/**
 * The signature: the sworn statement, and for an unusual distance the employee's confirmation and reason
 * (decision 0055), which the platform requires again whatever was posted (a refusal comes back on its
 * fields, nothing written). Once sent, a first account typed with "save this account" joins the profile.
 */
async function confirm(ctx: DistancePost) {
  const submission = parseForm(ctx.form, distanceSummarySchema);
  if (submission.status !== "success") return refused("summary", reply(submission));
  const given = inputOf(ctx);
  if (!given || ctx.draft.stepReached < stepIndex("summary")) return kit.goToStep(ctx, "details");
  const { distance_confirmed, distance_reason } = submission.value;
  const input = {
    ...given,
    distanceConfirmation: { confirmed: distance_confirmed === "on", reason: distance_reason ?? "" },
  };
  // Spec 001 §2.7: errors tagged iban, start_at, ends_at mark their summary rows; the others are warnings.
  const outcome = await kit.confirmAllowance(ctx, input, submission, (lastResult) => refused("summary", lastResult), {
    alreadySent: "allowanceWizard.alreadySent",
    failedCreate: "allowanceWizard.failedCreate",
  });
  if (outcome instanceof Response && ctx.draft.answers.ibanSource === "remember" && (await sent(ctx)))
    await rememberFirstIban(ctx.platform.db, ctx.account.id, input.iban);
  return outcome;
}

/** Whether this draft is now sent (the confirmation answers a redirect whether it sent it or found it sent). */
async function sent(ctx: DistancePost): Promise<boolean> {
  const lookup = await getAllowanceDraft(ctx.platform.db, ctx.account.id, ctx.draft.id);
  return lookup.kind === "found" && lookup.draft.submitted;
}

/** The details, checked whole: the answers kept, the summary reached. */
async function details(ctx: DistancePost) {
  const submission = parseForm(ctx.form, allowanceDetailsSchema(ctx.type, ctx.today, ctx.payout.iban));
  if (submission.status !== "success") return refused("details", reply(submission));
  const v = submission.value;
  if (!ctx.groups.some((g) => g.id === v.groupId)) return refused("details", kit.groupNotAllowed(submission));
  // A new address makes the distance the employee typed for the old ones meaningless.
  const a = ctx.draft.answers;
  const moved = JSON.stringify(a.home) !== JSON.stringify(v.home) || JSON.stringify(a.work) !== JSON.stringify(v.work);
  const answers: AllowanceAnswers = {
    groupId: v.groupId,
    home: v.home,
    work: v.work,
    startAt: v.startAt,
    endsAt: v.endsAt,
    daysAtOffice: v.daysAtOffice,
    // The saved account is read again from the profile when the allowance is sent (not copied here).
    iban: v.ibanSource === "saved" ? undefined : v.iban,
    ibanSource: v.ibanSource,
    ...(v.travelRole ? { travelRole: v.travelRole } : {}),
    ...(moved ? { declaredOneWayMeters: null } : {}),
  };
  await saveAllowanceAnswers(ctx.platform.db, ctx.account.id, ctx.draft.id, answers, stepIndex("summary"));
  return kit.goToStep(ctx, "summary");
}

/** "Continuer" on each step. */
const CONTINUE: StepHandlers<DistanceStep, DistancePost, Response | ReturnType<typeof refused>> = {
  intro: async (ctx) => {
    if (ctx.groups.length === 0) return kit.goToStep(ctx, "intro");
    await saveAllowanceAnswers(ctx.platform.db, ctx.account.id, ctx.draft.id, {}, stepIndex("details"));
    return kit.goToStep(ctx, "details");
  },
  details,
  summary: confirm,
};

/** Each button of the flow (declared once in DISTANCE_INTENT); "Continuer" is the step's own. */
const INTENT_HANDLERS: Record<keyof typeof DISTANCE_INTENT, (ctx: DistancePost) => ReturnType<typeof confirm>> = {
  chooseGroup,
  correctDistance,
  useEstimate: backToEstimate,
  confirm,
  continue: (ctx) => runStep(CONTINUE, stepOf(DISTANCE_STEPS, ctx.step) ?? "intro", ctx),
};

/** The action's part: the step's plain form (the URL says which draft and step), dispatched on its button. */
export async function distanceAct(flow: kit.AllowanceFlowContext) {
  const form = await kit.plainForm(flow.request);
  const intent = intentOf(form, DISTANCE_INTENT);
  return INTENT_HANDLERS[intent]({ ...(await distanceContext(flow)), form });
}
