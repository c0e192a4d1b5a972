import { data } from "react-router";
import { saveAllowanceAnswers, type AddressAnswer, type AllowanceAnswers } from "~/.server/services/allowances/drafts";
import {
  allowanceGroups,
  capStatus,
  createAllowance,
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
import { parseDay } from "~/domain/refunds";
import { frenchDay } from "~/domain/dates";
import { parseForm, reply } from "~/routes/+shared/forms.server";
import { intentOf } from "~/routes/+shared/intents.server";
import { internalPath, internalRedirect, type InternalTarget } from "~/routes/+shared/redirects.server";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import {
  DISTANCE_INTENT,
  DISTANCE_STEPS,
  isDistanceStep,
  type AllowanceActionData,
  type DistanceStep,
  type DistanceStepView,
  type DistanceView,
  type GroupView,
} from "~/components/allowances/wizard";
import { draftPath, type AllowanceFlowContext } from "./flow";

/**
 * The carpooling and bicycle wizard (spec 001 §2.7, §5, issue 15 item 3): "Indemnité" (what it is, the
 * group's rate and cap), details (addresses, group, dates, days at the office, IBAN, travel role for
 * carpooling), summary (the server's simulation in words, the one-way distance the employee may correct,
 * the sworn statement). One plain form per step (decision 0021), answers in the draft (decision 0026);
 * the platform (`simulateAllowance`, `createAllowance`) re-checks everything and its figures win.
 */

const LIST_REFRESHED = internalPath("/plans/allowances", {}, { search: { refresh: "1" } });
const LIST = "/plans/allowances" satisfies InternalTarget;

const stepIndex = (step: DistanceStep) => DISTANCE_STEPS.indexOf(step);

function typeOf(ctx: AllowanceFlowContext): DistanceType {
  // The frame hands only carpooling and bicycle drafts here.
  return isDistanceType(ctx.draft.type) ? ctx.draft.type : "carpooling";
}

async function groupViews(ctx: AllowanceFlowContext, groups: AllowanceGroup[]): Promise<GroupView[]> {
  const year = Number(ctx.today.slice(0, 4));
  return Promise.all(
    groups.map(async (g) => {
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

export async function distanceLoad(ctx: AllowanceFlowContext): Promise<DistanceView> {
  const type = typeOf(ctx);
  const { draft } = ctx;
  const { db, geodata } = ctx.platform;
  const groups = await allowanceGroups(db, ctx.account.id, type);
  const noGroup = groups.length === 0;
  let step: DistanceStep = isDistanceStep(ctx.step) ? ctx.step : "intro";
  if (noGroup) step = "intro";
  else if (stepIndex(step) > draft.stepReached)
    step = [...DISTANCE_STEPS].reverse().find((s) => stepIndex(s) <= draft.stepReached) ?? "intro";
  // The summary needs every answer; a draft without them (an old tab) shows the details again.
  const input = inputOf(type, draft.answers);
  if (step === "summary" && !input) step = "details";

  const paths: Record<DistanceStep, string> = {
    intro: draftPath(draft.id, "intro"),
    details: draftPath(draft.id, "details"),
    summary: draftPath(draft.id, "summary"),
  };
  const position = stepIndex(step);
  return {
    kind: "distance",
    type,
    draftId: draft.id,
    step,
    paths,
    here: paths[step],
    back: position > 0 ? paths[DISTANCE_STEPS[position - 1]!] : null,
    closeTo: ctx.closeTo,
    noGroup,
    view: await stepView(),
  };

  async function stepView(): Promise<DistanceStepView> {
    switch (step) {
      case "intro":
        return { step, groups: await groupViews(ctx, groups) };
      case "details":
        return detailsView();
      case "summary":
        return summaryView(input!);
    }
  }

  async function detailsView(): Promise<DistanceStepView> {
    const a = draft.answers;
    const groupId = chosenGroup(a, groups);
    const group = groups.find((g) => g.id === groupId);
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
      travel_role: type === "carpooling" ? (a.travelRole ?? "") : "",
    };
    return {
      step: "details",
      groups: await groupViews(ctx, groups),
      values,
      startMin: startWindow(type, ctx.today).min,
      today: ctx.today,
    };
  }

  async function summaryView(given: DistanceInput): Promise<DistanceStepView> {
    const group = groups.find((g) => g.id === given.groupId);
    const simulated = await simulateAllowance({ db, geodata }, ctx.account.id, given, ctx.today);
    const base = {
      step: "summary" as const,
      groupName: group?.name ?? "",
      home: addressLine(given.home),
      work: addressLine(given.work),
      startAt: given.startAt,
      endsAt: given.endsAt,
      daysAtOffice: given.daysAtOffice,
      travelRole: given.travelRole,
      ibanLastFour: maskIban(given.iban),
      declaredKm: given.declaredOneWayMeters != null ? String(given.declaredOneWayMeters / 1000).replace(".", ",") : "",
    };
    if (simulated.kind === "invalid") return { ...base, simulation: null, problems: simulated.errors };
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
}

/** A refused step: conform's reply, HTTP 400, for that step's form. */
function refused(step: DistanceStep, lastResult: Extract<AllowanceActionData, { kind: "distance" }>["lastResult"]) {
  return data<AllowanceActionData>({ kind: "distance", step, lastResult }, { status: 400 });
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

export async function distanceAct(ctx: AllowanceFlowContext, form: FormData) {
  const type = typeOf(ctx);
  const { draft, request } = ctx;
  const { db, geodata } = ctx.platform;
  const userId = ctx.account.id;
  const intent = intentOf(form, DISTANCE_INTENT);
  const asked = isDistanceStep(ctx.step) ? ctx.step : "intro";
  const groups = await allowanceGroups(db, userId, type);
  const go = (to: DistanceStep) => internalRedirect(draftPath(draft.id, to));

  switch (intent) {
    case DISTANCE_INTENT.chooseGroup: {
      const submission = parseForm(form, allowanceGroupSchema);
      if (submission.status !== "success") return refused("details", reply(submission));
      const group = groups.find((g) => g.id === submission.value.group_id);
      if (!group)
        return refused(
          "details",
          reply(submission, { fieldErrors: { group_id: ["allowances.errors.groupNotAllowed"] } }),
        );
      await saveAllowanceAnswers(db, userId, draft.id, {
        ...acceptableAnswers(type, form),
        groupId: group.id,
        work: { ...group.address },
      });
      return go("details");
    }
    case DISTANCE_INTENT.correctDistance: {
      const submission = parseForm(form, allowanceDistanceSchema(type));
      if (submission.status !== "success") return refused("summary", reply(submission));
      await saveAllowanceAnswers(db, userId, draft.id, { declaredOneWayMeters: submission.value.declared_km });
      return go("summary");
    }
    case DISTANCE_INTENT.useEstimate:
      await saveAllowanceAnswers(db, userId, draft.id, { declaredOneWayMeters: null });
      return go("summary");
    case DISTANCE_INTENT.confirm:
      return confirm();
    case DISTANCE_INTENT.continue:
      break;
  }

  switch (asked) {
    case "intro": {
      if (groups.length === 0) return go("intro");
      await saveAllowanceAnswers(db, userId, draft.id, {}, stepIndex("details"));
      return go("details");
    }
    case "details": {
      const submission = parseForm(form, allowanceDetailsSchema(type, ctx.today));
      if (submission.status !== "success") return refused("details", reply(submission));
      const v = submission.value;
      if (!groups.some((g) => g.id === v.groupId))
        return refused(
          "details",
          reply(submission, { fieldErrors: { group_id: ["allowances.errors.groupNotAllowed"] } }),
        );
      // A new address makes the distance the employee typed for the old ones meaningless.
      const a = draft.answers;
      const moved =
        JSON.stringify(a.home) !== JSON.stringify(v.home) || JSON.stringify(a.work) !== JSON.stringify(v.work);
      await saveAllowanceAnswers(
        db,
        userId,
        draft.id,
        {
          groupId: v.groupId,
          home: v.home,
          work: v.work,
          startAt: v.startAt,
          endsAt: v.endsAt,
          daysAtOffice: v.daysAtOffice,
          iban: v.iban,
          ...(v.travelRole ? { travelRole: v.travelRole } : {}),
          ...(moved ? { declaredOneWayMeters: null } : {}),
        },
        stepIndex("summary"),
      );
      return go("summary");
    }
    case "summary":
      return confirm();
  }

  async function confirm() {
    const submission = parseForm(form, allowanceSummarySchema);
    if (submission.status !== "success") return refused("summary", reply(submission));
    const input = inputOf(type, draft.answers);
    if (!input || draft.stepReached < stepIndex("summary")) return go("details");
    const result = await createAllowance(
      { db, geodata, messenger: ctx.platform.messenger, push: ctx.platform.push },
      userId,
      { ...input, draftId: draft.id, swornStatement: true },
      ctx.today,
    );
    switch (result.kind) {
      case "created":
        return internalRedirect(LIST_REFRESHED);
      case "alreadySubmitted":
        return redirectWithFlash(request, LIST, { kind: "info", message: "allowanceWizard.alreadySent" });
      case "invalid":
        // Spec 001 §2.7: errors tagged iban, start_at, ends_at mark their summary rows; the others are warnings.
        return refused(
          "summary",
          reply(submission, {
            formErrors: ["allowanceWizard.failedCreate"],
            fieldErrors: result.errors,
          }),
        );
    }
  }
}
