import { saveAllowanceAnswers, type AddressAnswer, type AllowanceAnswers } from "~/.server/services/allowances/drafts";
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
  type DistanceType,
} from "~/domain/allowances";
import {
  allowanceDetailsSchema,
  allowanceDistanceSchema,
  allowanceGroupSchema,
  allowanceSummarySchema,
  type AllowanceDetailsForm,
} from "~/domain/allowance-schemas";
import { ibanProblem, maskIban, normaliseIban } from "~/domain/iban";
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

/** The flow's context: the frame's (the draft found and open), the draft's type and the groups that may pay it. */
interface DistanceContext extends kit.AllowanceFlowContext {
  type: DistanceType;
  groups: AllowanceGroup[];
}

type DistancePost = kit.Posted<DistanceContext>;
const refused = kit.refusedIn<DistanceStep, "distance">("distance");
const stepIndex = (step: DistanceStep) => DISTANCE_STEPS.indexOf(step);

async function distanceContext(ctx: kit.AllowanceFlowContext): Promise<DistanceContext> {
  // The frame hands only carpooling and bicycle drafts here.
  const type = isDistanceType(ctx.draft.type) ? ctx.draft.type : "carpooling";
  return { ...ctx, type, groups: await allowanceGroups(ctx.platform.db, ctx.account.id, type) };
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

/** The complete answers of the details step, or null while one is missing. */
function inputOf(type: DistanceType, a: AllowanceAnswers): DistanceInput | null {
  if (!a.groupId || !a.home || !a.work || !a.startAt || !a.endsAt || !a.iban || a.daysAtOffice === undefined)
    return null;
  if (type === "carpooling" && !a.travelRole) return null;
  return {
    type,
    groupId: a.groupId,
    home: a.home,
    work: a.work,
    daysAtOffice: a.daysAtOffice,
    iban: a.iban,
    startAt: a.startAt,
    endsAt: a.endsAt,
    travelRole: type === "carpooling" ? (a.travelRole ?? null) : null,
    declaredOneWayMeters: a.declaredOneWayMeters ?? null,
  };
}

/** The details as the form shows them again: the draft's answers, the group's address for the work. */
async function detailsView(ctx: DistanceContext): Promise<DistanceStepView> {
  const a = ctx.draft.answers;
  const groupId = chosenGroup(a, ctx.groups);
  const group = ctx.groups.find((g) => g.id === groupId);
  const work = a.work ?? (group ? { ...group.address } : emptyAddress());
  // Clamped when the period's maximum dropped (spec 001 §5).
  const max = a.startAt && a.endsAt ? daysWithoutSundays(a.startAt, a.endsAt) : null;
  const days = a.daysAtOffice === undefined ? null : max === null ? a.daysAtOffice : clampDays(a.daysAtOffice, max);
  const values: AllowanceDetailsForm = {
    group_id: groupId,
    home: a.home ?? emptyAddress(),
    work,
    start_at: a.startAt ? frenchDay(a.startAt) : "",
    ends_at: a.endsAt ? frenchDay(a.endsAt) : "",
    days_at_office: days ? String(days) : "",
    iban: a.iban ?? "",
    travel_role: ctx.type === "carpooling" ? (a.travelRole ?? "") : "",
  };
  return {
    step: "details",
    groups: await groupViews(ctx),
    values,
    startMin: startWindow(ctx.type, ctx.today).min,
    today: ctx.today,
  };
}

/** The summary: the answers in words and the platform's simulation of them (or its refusals). */
async function summaryView(ctx: DistanceContext): Promise<DistanceStepView> {
  const given = inputOf(ctx.type, ctx.draft.answers);
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
  if (step === "summary" && !inputOf(ctx.type, ctx.draft.answers)) step = "details";
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
function acceptableAnswers(type: DistanceType, form: FormData): AllowanceAnswers {
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
  return {
    home: address("home"),
    iban: iban && !ibanProblem(iban) ? iban : undefined,
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
    ...acceptableAnswers(ctx.type, ctx.form),
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

async function confirm(ctx: DistancePost) {
  const submission = parseForm(ctx.form, allowanceSummarySchema);
  if (submission.status !== "success") return refused("summary", reply(submission));
  const input = inputOf(ctx.type, ctx.draft.answers);
  if (!input || ctx.draft.stepReached < stepIndex("summary")) return kit.goToStep(ctx, "details");
  // Spec 001 §2.7: errors tagged iban, start_at, ends_at mark their summary rows; the others are warnings.
  return kit.confirmAllowance(ctx, input, submission, (lastResult) => refused("summary", lastResult), {
    alreadySent: "allowanceWizard.alreadySent",
    failedCreate: "allowanceWizard.failedCreate",
  });
}

/** The details, checked whole: the answers kept, the summary reached. */
async function details(ctx: DistancePost) {
  const submission = parseForm(ctx.form, allowanceDetailsSchema(ctx.type, ctx.today));
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
    iban: v.iban,
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
