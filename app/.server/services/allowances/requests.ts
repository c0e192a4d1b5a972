import type { DB } from "../../db";
import type { AllowancePayoutTable, AllowanceStatus, AllowanceTable } from "../../db/schema";
import { newId } from "../../ids";
import type { GeoAddress, Geodata } from "../../providers/geodata/port";
import type { Messenger } from "../../providers/messaging/port";
import type { PushSender } from "../../providers/push/port";
import { claimAllowanceDraft, linkAllowance } from "./drafts";
import { fill } from "../refunds/requests";
import { getNotificationPreferences } from "../notification-preferences";
import { deliverNotification, recordNotification, type NotifyDeps } from "../notifications";
import {
  addressLine,
  ALLOWANCE_TYPES,
  daysWithoutSundays,
  isDistanceType,
  monthList,
  monthlySplit,
  monthsOfPeriod,
  payoutDay,
  periodProblems,
  remainingCap,
  roundTripKm,
  simulateDistance,
  simulateSubscription,
  TRAVEL_ROLES,
  type AllowanceType,
  type DistanceSimulation,
  type SubscriptionSimulation,
  type TravelRole,
} from "~/domain/allowances";
import { DECLARED_DISTANCE_MAX_METERS, subscriptionMaxAmount } from "~/domain/amount-bounds";
import { isCalendarDay } from "~/domain/calendar";
import { ibanProblem, maskIban, normaliseIban } from "~/domain/iban";
import { formatCents } from "~/domain/money";
import { deliveryAddressSchema } from "~/domain/schemas";
import { frenchDay, todayInParis } from "~/domain/dates";
import resources from "~/i18n/catalogues";

/**
 * Mobility allowances, the platform side (issue 15, spec 001 §2.7, §3, §5, §9; decision 0027): which types
 * and groups an employee may use, the yearly caps, the simulation (every rule of domain/allowances.ts
 * applied again, the distance from the geodata provider), the confirmation (the server's own simulation
 * wins over anything the browser posts), the list, cancelling, and the funder's review, which turns an
 * approved allowance into one payout per month of its period.
 */

export interface AllowanceDeps {
  db: DB;
  geodata: Geodata;
  /** The confirmation's e-mail goes through it (per the expenseRequests preference), as refund requests'. */
  messenger: Messenger;
  /** The confirmation's push (per the same preference). */
  push?: PushSender;
}

export interface AllowanceGroup {
  id: string;
  name: string;
  address: GeoAddress;
  /** Cents per kilometre (bicycle and carpooling). */
  ratePerKm: number;
  /** The group's yearly forfait mobilités durables cap, in cents. */
  yearlyCap: number;
  /** The share of a public-transport subscription the group pays, in percent. */
  subscriptionShare: number;
}

export const ALLOWANCES_PAGE_SIZE = 10;
/** Reasons are shown to the employee as written. */
export const ALLOWANCE_REASON_MAX = 500;
/** The statuses that count towards the yearly caps (spec: every approved or pending allowance). */
export const COUNTED_STATUSES: readonly AllowanceStatus[] = ["sent", "approved", "paid"];

const E = (key: string) => `allowances.errors.${key}`;

// ---------------------------------------------------------------------------------------------
// Types and groups
// ---------------------------------------------------------------------------------------------

/** `features.allowances.<type>`: true (every group of the employee), a list of group ids, or off. */
async function allowanceFeature(db: DB, userId: string): Promise<Record<string, unknown> | null> {
  const row = await db.selectFrom("users").select("features").where("id", "=", userId).executeTakeFirst();
  if (!row) return null;
  try {
    const parsed = JSON.parse(row.features) as { allowances?: unknown };
    return typeof parsed.allowances === "object" && parsed.allowances !== null
      ? (parsed.allowances as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

function allowedIds(value: unknown): true | string[] | null {
  if (value === true) return true;
  if (Array.isArray(value)) {
    const ids = value.filter((v): v is string => typeof v === "string");
    return ids.length > 0 ? ids : null;
  }
  return null;
}

type GroupRow = {
  id: string;
  name: string;
  address_line1: string;
  address_zipcode: string;
  address_city: string;
  address_country: string;
  mobility_rate_per_km: number;
  mobility_yearly_cap: number;
  subscription_share_percent: number;
};

function toGroup(g: GroupRow): AllowanceGroup {
  return {
    id: g.id,
    name: g.name,
    address: { line1: g.address_line1, zipcode: g.address_zipcode, city: g.address_city, country: g.address_country },
    ratePerKm: g.mobility_rate_per_km,
    yearlyCap: g.mobility_yearly_cap,
    subscriptionShare: g.subscription_share_percent,
  };
}

/** The employee's groups (memberships) that may pay this type of allowance, ordered by name. */
export async function allowanceGroups(db: DB, userId: string, type: AllowanceType): Promise<AllowanceGroup[]> {
  const feature = await allowanceFeature(db, userId);
  const allowed = feature ? allowedIds(feature[type]) : null;
  if (allowed === null) return [];
  let query = db
    .selectFrom("memberships as m")
    .innerJoin("groups as g", "g.id", "m.group_id")
    .select([
      "g.id",
      "g.name",
      "g.address_line1",
      "g.address_zipcode",
      "g.address_city",
      "g.address_country",
      "g.mobility_rate_per_km",
      "g.mobility_yearly_cap",
      "g.subscription_share_percent",
    ])
    .where("m.user_id", "=", userId);
  if (allowed !== true) query = query.where("g.id", "in", allowed);
  const rows = await query.orderBy("g.name").orderBy("g.id").execute();
  return rows.map(toGroup);
}

/** The types the employee may ask for: the feature on and at least one group allowed. */
export async function allowanceTypesFor(db: DB, userId: string): Promise<AllowanceType[]> {
  const types: AllowanceType[] = [];
  for (const type of ALLOWANCE_TYPES) {
    if ((await allowanceGroups(db, userId, type)).length > 0) types.push(type);
  }
  return types;
}

// ---------------------------------------------------------------------------------------------
// Caps
// ---------------------------------------------------------------------------------------------

export interface CapStatus {
  /** What is left of the yearly forfait for a new carpooling or bicycle allowance with this group. */
  remaining: number;
  groupCap: number;
  usedWithGroup: number;
  usedAllGroups: number;
  transportShares: number;
}

/**
 * The yearly caps for one group and one calendar year: allowances sent, approved or paid whose period
 * starts in `year` count (decision 0027: the year of the start). A group the employee is not a member of
 * has a cap of 0.
 */
export async function capStatus(
  db: DB,
  userId: string,
  groupId: string,
  year: number,
  opts: { exceptAllowanceId?: string } = {},
): Promise<CapStatus> {
  const group = await db
    .selectFrom("memberships as m")
    .innerJoin("groups as g", "g.id", "m.group_id")
    .select("g.mobility_yearly_cap")
    .where("m.user_id", "=", userId)
    .where("g.id", "=", groupId)
    .executeTakeFirst();
  let query = db
    .selectFrom("allowances")
    .select(["group_id", "type", "amount"])
    .where("user_id", "=", userId)
    .where("status", "in", [...COUNTED_STATUSES])
    .where("start_at", ">=", `${year}-01-01`)
    .where("start_at", "<=", `${year}-12-31`);
  if (opts.exceptAllowanceId) query = query.where("id", "!=", opts.exceptAllowanceId);
  const rows = await query.execute();
  let usedWithGroup = 0;
  let usedAllGroups = 0;
  let transportShares = 0;
  for (const r of rows) {
    if (isDistanceType(r.type)) {
      usedAllGroups += r.amount;
      if (r.group_id === groupId) usedWithGroup += r.amount;
    } else transportShares += r.amount;
  }
  const groupCap = group?.mobility_yearly_cap ?? 0;
  return {
    remaining: remainingCap({ groupCap, usedWithGroup, usedAllGroups, transportShares }),
    groupCap,
    usedWithGroup,
    usedAllGroups,
    transportShares,
  };
}

// ---------------------------------------------------------------------------------------------
// Simulation
// ---------------------------------------------------------------------------------------------

export interface DistanceInput {
  type: "carpooling" | "bicycle";
  groupId: string;
  home: GeoAddress;
  work: GeoAddress;
  daysAtOffice: number;
  iban: string;
  startAt: string;
  endsAt: string;
  travelRole: TravelRole | null;
  declaredOneWayMeters: number | null;
}

export interface SubscriptionInput {
  type: "subscription";
  groupId: string;
  startAt: string;
  endsAt: string;
  /** The subscription's price, in cents. */
  amount: number;
  iban: string;
  mediaId: string | null;
  secondMediaId: string | null;
}

export type AllowanceInput = DistanceInput | SubscriptionInput;

export type AllowanceSimulation =
  | {
      type: "carpooling" | "bicycle";
      group: AllowanceGroup;
      /** The geodata provider's one-way distance, and the employee's own (null: the estimate is used). */
      estimateMeters: number;
      declaredMeters: number | null;
      source: "estimate" | "routing";
      result: DistanceSimulation;
    }
  | { type: "subscription"; group: AllowanceGroup; result: SubscriptionSimulation; capNote?: never };

export type FieldErrors = Record<string, string[]>;
export type SimulateResult =
  { kind: "simulated"; simulation: AllowanceSimulation } | { kind: "invalid"; errors: FieldErrors };

const isWhole = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n);

function addressErrors(address: unknown, field: string, errors: FieldErrors): address is GeoAddress {
  const parsed = deliveryAddressSchema.safeParse(address ?? {});
  if (parsed.success) return true;
  errors[field] = [...new Set(parsed.error.issues.map((i) => i.message))];
  return false;
}

/** The address as the rules normalise it (trimmed, country upper case). */
function cleanAddress(address: GeoAddress): GeoAddress {
  const parsed = deliveryAddressSchema.parse(address);
  return { line1: parsed.line1, zipcode: parsed.zipcode, city: parsed.city, country: parsed.country };
}

interface Checked {
  simulation: AllowanceSimulation;
  iban: string;
  home: GeoAddress | null;
  work: GeoAddress | null;
}

/**
 * Every rule checked again on the server, whatever the wizard checked, then the simulation: the distance
 * from the geodata provider (or the one the employee declared), the group's rate and what is left of the
 * yearly cap, or the group's share of a subscription.
 */
async function check(
  deps: Pick<AllowanceDeps, "db" | "geodata">,
  userId: string,
  input: AllowanceInput,
  today: string,
): Promise<{ kind: "ok"; checked: Checked } | { kind: "invalid"; errors: FieldErrors }> {
  const { db } = deps;
  const errors: FieldErrors = {};
  const fail = (field: string, key: string) => {
    (errors[field] ??= []).push(E(key));
  };
  const type = input?.type;
  if (!(ALLOWANCE_TYPES as readonly string[]).includes(type))
    return { kind: "invalid", errors: { type: [E("typeNotAllowed")] } };
  const groups = await allowanceGroups(db, userId, type);
  if (groups.length === 0) return { kind: "invalid", errors: { type: [E("typeNotAllowed")] } };
  const group = groups.find((g) => g.id === input.groupId);
  if (!group) fail("group_id", "groupNotAllowed");

  // Dates: a string that is not a day of the calendar is refused as such.
  const start = isCalendarDay(input.startAt) ? input.startAt : null;
  const end = isCalendarDay(input.endsAt) ? input.endsAt : null;
  const period = periodProblems(type, start, end, today);
  if (period.start_at) errors.start_at = [...period.start_at];
  if (period.ends_at) errors.ends_at = [...period.ends_at];
  if (!start && typeof input.startAt === "string" && input.startAt !== "") errors.start_at = [E("startDateInvalid")];
  const periodValid = start !== null && end !== null && !period.start_at && !period.ends_at;

  const iban = typeof input.iban === "string" ? normaliseIban(input.iban) : "";
  const problem = ibanProblem(iban);
  if (problem) errors.iban = [problem];

  if (input.type === "subscription") {
    // The price's bound (decision 0049): per month of the period, or of the longest period while it is not valid.
    if (!isWhole(input.amount) || input.amount <= 0) fail("amount", "amountInvalid");
    else if (input.amount > subscriptionMaxAmount(periodValid ? monthsOfPeriod(start, end) : null))
      fail("amount", "subscriptionAmountTooBig");
    const ids = [input.mediaId, input.secondMediaId].filter((id): id is string => typeof id === "string" && id !== "");
    const own = ids.length
      ? await db.selectFrom("files").select("id").where("user_id", "=", userId).where("id", "in", ids).execute()
      : [];
    const mine = (id: string | null) => typeof id === "string" && own.some((f) => f.id === id);
    if (!mine(input.mediaId)) fail("media", "mediaRequired");
    if (!mine(input.secondMediaId) || input.secondMediaId === input.mediaId)
      fail("second_media", "secondMediaRequired");
    if (Object.keys(errors).length > 0 || !group || !periodValid) return { kind: "invalid", errors };
    const result = simulateSubscription({ amount: input.amount, groupShare: group.subscriptionShare, start, end });
    return {
      kind: "ok",
      checked: { simulation: { type: "subscription", group, result }, iban, home: null, work: null },
    };
  }

  // Carpooling and bicycle.
  if (periodValid && daysWithoutSundays(start, end) === 0) fail("days_at_office", "noWorkingDay");
  else if (periodValid) {
    const max = daysWithoutSundays(start, end);
    if (!isWhole(input.daysAtOffice) || input.daysAtOffice < 1 || input.daysAtOffice > max)
      fail("days_at_office", "daysAtOfficeRange");
  } else if (!isWhole(input.daysAtOffice) || input.daysAtOffice < 1) fail("days_at_office", "daysAtOfficeRange");
  if (input.type === "carpooling" && !(TRAVEL_ROLES as readonly unknown[]).includes(input.travelRole))
    fail("travel_role", "travelRoleRequired");
  const declared = input.declaredOneWayMeters ?? null;
  if (declared !== null && (!isWhole(declared) || declared < 1)) fail("distance", "distanceInvalid");
  else if (declared !== null && declared > DECLARED_DISTANCE_MAX_METERS[input.type])
    fail("distance", `distanceTooLong.${input.type}`);
  const homeValid = addressErrors(input.home, "home_address", errors);
  const workValid = addressErrors(input.work, "work_address", errors);
  let measured: { oneWayMeters: number; source: "estimate" | "routing" } | null = null;
  let home: GeoAddress | null = null;
  let work: GeoAddress | null = null;
  if (homeValid && workValid) {
    home = cleanAddress(input.home);
    work = cleanAddress(input.work);
    const distance = await deps.geodata.distance(home, work);
    if (distance.kind === "measured") measured = distance;
    else fail(distance.field, distance.reason === "unsupportedCountry" ? "unsupportedCountry" : "unknownPostcode");
  }
  if (Object.keys(errors).length > 0 || !group || !periodValid || !measured) return { kind: "invalid", errors };
  const cap = await capStatus(db, userId, group.id, Number(start.slice(0, 4)));
  const result = simulateDistance({
    oneWayMeters: declared ?? measured.oneWayMeters,
    daysAtOffice: input.daysAtOffice,
    ratePerKm: group.ratePerKm,
    capRemaining: cap.remaining,
    start,
    end,
  });
  return {
    kind: "ok",
    checked: {
      simulation: {
        type: input.type,
        group,
        estimateMeters: measured.oneWayMeters,
        declaredMeters: declared,
        source: measured.source,
        result,
      },
      iban,
      home,
      work,
    },
  };
}

/** The simulation the summary shows (every rule checked; field errors by the spec's keys otherwise). */
export async function simulateAllowance(
  deps: Pick<AllowanceDeps, "db" | "geodata">,
  userId: string,
  input: AllowanceInput,
  today: string,
): Promise<SimulateResult> {
  const outcome = await check(deps, userId, input, today);
  return outcome.kind === "ok" ? { kind: "simulated", simulation: outcome.checked.simulation } : outcome;
}

// ---------------------------------------------------------------------------------------------
// Confirmation
// ---------------------------------------------------------------------------------------------

export type CreateAllowanceResult =
  | { kind: "created"; allowanceId: string }
  | { kind: "alreadySubmitted"; allowanceId: string | null }
  | { kind: "invalid"; errors: FieldErrors };

class CapReached extends Error {}
class AlreadySubmitted extends Error {}

const capReached = (): CreateAllowanceResult => ({ kind: "invalid", errors: { amount: [E("capReached")] } });

/** already_submitted (with the allowance it made) when the draft was claimed, else null. */
async function claimedAllowance(db: DB, userId: string, draftId: string): Promise<CreateAllowanceResult | null> {
  const draft = await db
    .selectFrom("allowance_drafts")
    .select(["submitted_at", "allowance_id"])
    .where("id", "=", draftId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return draft?.submitted_at ? { kind: "alreadySubmitted", allowanceId: draft.allowance_id } : null;
}

/**
 * Creates the allowance from the server's own simulation (an amount the browser posts is never read).
 * One transaction: the employee's row is locked (two confirmations of one person are checked one after
 * the other, so they cannot both pass the cap), the draft is claimed (a replayed or concurrent
 * confirmation of it answers already_submitted), the cap is read again, the allowance and its
 * notification are written. The e-mail follows the expenseRequests preference.
 */
export async function createAllowance(
  deps: AllowanceDeps,
  userId: string,
  input: AllowanceInput & { draftId: string; swornStatement: boolean },
  today: string,
  now = new Date(),
): Promise<CreateAllowanceResult> {
  const { db } = deps;
  const draft =
    typeof input.draftId === "string" && input.draftId.length <= 100
      ? await db
          .selectFrom("allowance_drafts")
          .select(["id", "type", "submitted_at", "allowance_id"])
          .where("id", "=", input.draftId)
          .where("user_id", "=", userId)
          .executeTakeFirst()
      : undefined;
  if (!draft || draft.type !== input.type) return { kind: "invalid", errors: { draft: [E("draftNotFound")] } };
  if (draft.submitted_at !== null) return { kind: "alreadySubmitted", allowanceId: draft.allowance_id };

  // A concurrent confirmation of this draft may have won while this one was checked (its allowance then
  // takes the cap): the answer is that one, not a field error.
  const refuse = async (result: CreateAllowanceResult): Promise<CreateAllowanceResult> =>
    (await claimedAllowance(db, userId, input.draftId)) ?? result;
  const outcome = await check(deps, userId, input, today);
  const errors: FieldErrors = outcome.kind === "invalid" ? { ...outcome.errors } : {};
  if (input.swornStatement !== true) errors.sworn_statement = [E("swornStatementRequired")];
  if (outcome.kind === "invalid" || Object.keys(errors).length > 0) return refuse({ kind: "invalid", errors });
  const checked = outcome.checked;
  if (checked.simulation.result.allowance <= 0) return refuse(capReached());

  const nowIso = now.toISOString();
  try {
    const allowanceId = await db.transaction().execute(async (trx) => {
      // Locks the employee's row until commit (a no-op update: PostgreSQL takes a row lock, SQLite runs one
      // write transaction at a time): a second confirmation waits, then sees this allowance in its cap.
      await trx
        .updateTable("users")
        .set((eb) => ({ email: eb.ref("email") }))
        .where("id", "=", userId)
        .execute();
      if (!(await claimAllowanceDraft(trx, userId, input.draftId, now))) throw new AlreadySubmitted();
      const sim = checked.simulation;
      let row: AllowanceTable;
      const id = newId("alw");
      const common = {
        id,
        user_id: userId,
        group_id: sim.group.id,
        type: sim.type,
        status: "sent" as const,
        iban: checked.iban,
        iban_last_four: maskIban(checked.iban),
        start_at: input.startAt,
        ends_at: input.endsAt,
        is_cancellable: 1,
        created_at: nowIso,
        signed_at: today,
        refusal_reason: null,
        decided_at: null,
        updated_at: nowIso,
        draft_id: input.draftId,
      };
      if (sim.type === "subscription") {
        const subscription = input as SubscriptionInput;
        row = {
          ...common,
          amount: sim.result.allowance,
          monthly_amount: sim.result.perMonth,
          number_of_months: sim.result.numberOfMonths,
          days_at_office: null,
          travel_role: null,
          home_address: null,
          work_address: null,
          rate_per_km: null,
          distance_estimate_m: null,
          distance_declared_m: null,
          distance_source: null,
          amount_before_cap: null,
          cap_remaining_before: null,
          subscription_amount: subscription.amount,
          percentage: sim.result.percentage,
          media_id: subscription.mediaId,
          second_media_id: subscription.secondMediaId,
        };
      } else {
        const distance = input as DistanceInput;
        // The cap read again now that this person's other confirmations are done.
        const cap = await capStatus(trx, userId, sim.group.id, Number(input.startAt.slice(0, 4)));
        const result = simulateDistance({
          oneWayMeters: sim.declaredMeters ?? sim.estimateMeters,
          daysAtOffice: distance.daysAtOffice,
          ratePerKm: sim.group.ratePerKm,
          capRemaining: cap.remaining,
          start: input.startAt,
          end: input.endsAt,
        });
        if (result.allowance <= 0) throw new CapReached();
        row = {
          ...common,
          amount: result.allowance,
          monthly_amount: result.perMonth,
          number_of_months: result.numberOfMonths,
          days_at_office: distance.daysAtOffice,
          travel_role: sim.type === "carpooling" ? distance.travelRole : null,
          home_address: checked.home ? addressLine(checked.home) : null,
          work_address: checked.work ? addressLine(checked.work) : null,
          rate_per_km: sim.group.ratePerKm,
          distance_estimate_m: sim.estimateMeters,
          distance_declared_m: sim.declaredMeters,
          distance_source: sim.source,
          amount_before_cap: result.allowanceBeforeCap,
          cap_remaining_before: result.capRemainingBefore,
          subscription_amount: null,
          percentage: null,
          media_id: null,
          second_media_id: null,
        };
      }
      await trx.insertInto("allowances").values(row).execute();
      await linkAllowance(trx, userId, input.draftId, id);
      await addNotification(trx, userId, "created", id, now);
      return id;
    });
    await notifyByMail(deps, userId, "created", allowanceId);
    return { kind: "created", allowanceId };
  } catch (err) {
    if (err instanceof CapReached) return refuse(capReached());
    if (err instanceof AlreadySubmitted)
      return (await claimedAllowance(db, userId, input.draftId)) ?? { kind: "alreadySubmitted", allowanceId: null };
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// List
// ---------------------------------------------------------------------------------------------

export interface AllowancePayoutItem {
  /** YYYY-MM */
  month: string;
  amount: number;
  scheduledFor: string;
  status: AllowancePayoutTable["status"];
}

export interface AllowanceListItem {
  id: string;
  type: AllowanceType;
  groupName: string;
  status: AllowanceStatus;
  startAt: string;
  endsAt: string;
  /** The allowance for the whole period (after the cap), in cents. */
  amount: number;
  monthlyAmount: number | null;
  numberOfMonths: number | null;
  ibanLastFour: string;
  createdAt: string;
  signedAt: string | null;
  refusalReason: string | null;
  isCancellable: boolean;
  /** Subscription: "Justificatif" (the ticket) then "Attestation" (the proof of subscription). */
  media: { id: string; label: string }[];
  payouts: AllowancePayoutItem[];
  travelRole: TravelRole | null;
  daysAtOffice: number | null;
  /** "7.24" (km, point, 2 decimals), from the distance used (declared, else the estimate). */
  distanceRoundtrip: string | null;
  ratePerKm: number | null;
  percentage: number | null;
  subscriptionAmount: number | null;
  amountBeforeCap: number | null;
  capRemainingBefore: number | null;
}

function listQuery(db: DB, userId: string) {
  return db
    .selectFrom("allowances as a")
    .innerJoin("groups as g", "g.id", "a.group_id")
    .selectAll("a")
    .select("g.name as group_name")
    .where("a.user_id", "=", userId);
}

type ListRow = AllowanceTable & { group_name: string };

async function toItems(db: DB, rows: ListRow[]): Promise<AllowanceListItem[]> {
  const ids = rows.map((r) => r.id);
  const payouts = ids.length
    ? await db
        .selectFrom("allowance_payouts")
        .select(["allowance_id", "month", "amount", "scheduled_for", "status"])
        .where("allowance_id", "in", ids)
        .orderBy("month")
        .execute()
    : [];
  const labels = resources.fr.translation.allowances.media;
  return rows.map((r) => {
    const meters = r.distance_declared_m ?? r.distance_estimate_m;
    return {
      id: r.id,
      type: (ALLOWANCE_TYPES as readonly string[]).includes(r.type) ? (r.type as AllowanceType) : "carpooling",
      groupName: r.group_name,
      status: r.status,
      startAt: r.start_at,
      endsAt: r.ends_at,
      amount: r.amount,
      monthlyAmount: r.monthly_amount,
      numberOfMonths: r.number_of_months,
      ibanLastFour: r.iban_last_four,
      createdAt: r.created_at,
      signedAt: r.signed_at,
      refusalReason: r.refusal_reason,
      isCancellable: r.status === "sent",
      media: [
        ...(r.media_id ? [{ id: r.media_id, label: labels.ticket }] : []),
        ...(r.second_media_id ? [{ id: r.second_media_id, label: labels.proof }] : []),
      ],
      payouts: payouts
        .filter((p) => p.allowance_id === r.id)
        .map((p) => ({ month: p.month, amount: p.amount, scheduledFor: p.scheduled_for, status: p.status })),
      travelRole: (TRAVEL_ROLES as readonly (string | null)[]).includes(r.travel_role)
        ? (r.travel_role as TravelRole)
        : null,
      daysAtOffice: r.days_at_office,
      distanceRoundtrip: meters === null ? null : roundTripKm(meters).distanceRoundtrip,
      ratePerKm: r.rate_per_km,
      percentage: r.percentage,
      subscriptionAmount: r.subscription_amount,
      amountBeforeCap: r.amount_before_cap,
      capRemainingBefore: r.cap_remaining_before,
    };
  });
}

/** The employee's allowances, newest first, 10 a page (page 2 shows the first 20). */
export async function listAllowances(
  db: DB,
  userId: string,
  options: { page: number },
): Promise<{ items: AllowanceListItem[]; hasMore: boolean }> {
  const page = Number.isInteger(options.page) && options.page >= 1 ? Math.min(options.page, 1000) : 1;
  const shown = page * ALLOWANCES_PAGE_SIZE;
  const rows = await listQuery(db, userId)
    .orderBy("a.created_at", "desc")
    .orderBy("a.id", "desc")
    .limit(shown + 1)
    .execute();
  return { hasMore: rows.length > shown, items: await toItems(db, rows.slice(0, shown)) };
}

/** One of the employee's allowances, or null for an unknown id or someone else's. */
export async function getAllowance(db: DB, userId: string, allowanceId: string): Promise<AllowanceListItem | null> {
  if (typeof allowanceId !== "string" || allowanceId.length > 100) return null;
  const row = await listQuery(db, userId).where("a.id", "=", allowanceId).executeTakeFirst();
  return row ? ((await toItems(db, [row]))[0] ?? null) : null;
}

/** Cancels an allowance still waiting for the funder (status sent). */
export async function cancelAllowance(
  db: DB,
  userId: string,
  allowanceId: string,
  options: { now?: Date; messenger?: Messenger; push?: PushSender } = {},
): Promise<{ kind: "cancelled" } | { kind: "notFound" } | { kind: "notCancellable" }> {
  const now = options.now ?? new Date();
  if (typeof allowanceId !== "string" || allowanceId.length > 100) return { kind: "notFound" };
  const row = await db
    .selectFrom("allowances")
    .select("id")
    .where("id", "=", allowanceId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!row) return { kind: "notFound" };
  const done = await db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable("allowances")
      .set({ status: "cancelled", is_cancellable: 0, updated_at: now.toISOString() })
      .where("id", "=", row.id)
      .where("user_id", "=", userId)
      .where("status", "=", "sent")
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return false;
    await addNotification(trx, userId, "cancelled", row.id, now);
    return true;
  });
  if (!done) return { kind: "notCancellable" };
  await notifyByMail({ db, messenger: options.messenger, push: options.push }, userId, "cancelled", row.id);
  return { kind: "cancelled" };
}

// ---------------------------------------------------------------------------------------------
// The funder's review (not scoped to a user: the sandbox reviewer stands for the funder)
// ---------------------------------------------------------------------------------------------

export type AllowanceDecision = { kind: "approve" } | { kind: "refuse"; reason: string };
export type AllowanceReviewResult =
  | { kind: "approved"; payouts: { month: string; amount: number; scheduledFor: string }[] }
  | { kind: "refused" }
  | { kind: "notFound" }
  | { kind: "notReviewable" }
  | { kind: "reasonRequired" };

export async function reviewAllowance(
  db: DB,
  allowanceId: string,
  decision: AllowanceDecision,
  options: { now?: Date; messenger?: Messenger; push?: PushSender } = {},
): Promise<AllowanceReviewResult> {
  const now = options.now ?? new Date();
  const nowIso = now.toISOString();
  const row = await db
    .selectFrom("allowances")
    .select(["id", "user_id", "status", "amount", "iban", "start_at", "ends_at"])
    .where("id", "=", allowanceId)
    .executeTakeFirst();
  if (!row) return { kind: "notFound" };
  if (row.status !== "sent") return { kind: "notReviewable" };
  const reason = decision.kind === "refuse" ? decision.reason.trim().slice(0, ALLOWANCE_REASON_MAX) : "";
  if (decision.kind === "refuse" && reason === "") return { kind: "reasonRequired" };

  const outcome = await db.transaction().execute(async (trx): Promise<AllowanceReviewResult> => {
    const moved = await trx
      .updateTable("allowances")
      .set(
        decision.kind === "approve"
          ? { status: "approved", is_cancellable: 0, decided_at: nowIso, updated_at: nowIso }
          : { status: "refused", is_cancellable: 0, refusal_reason: reason, decided_at: nowIso, updated_at: nowIso },
      )
      .where("id", "=", row.id)
      .where("status", "=", "sent")
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return { kind: "notReviewable" };
    if (decision.kind === "refuse") {
      await addNotification(trx, row.user_id, "refused", row.id, now);
      return { kind: "refused" };
    }
    const approvedOn = todayInParis(now);
    const months = monthList(row.start_at, row.ends_at);
    const amounts = monthlySplit(row.amount, months.length);
    const payouts = months.map((month, i) => ({
      month,
      amount: amounts[i] ?? 0,
      scheduledFor: payoutDay(month, approvedOn),
    }));
    if (payouts.length > 0) {
      await trx
        .insertInto("allowance_payouts")
        .values(
          payouts.map((p) => ({
            id: newId("apo"),
            allowance_id: row.id,
            user_id: row.user_id,
            month: p.month,
            amount: p.amount,
            iban: row.iban ?? "",
            scheduled_for: p.scheduledFor,
            status: "scheduled" as const,
            created_at: nowIso,
            paid_at: null,
          })),
        )
        .execute();
    }
    await addNotification(trx, row.user_id, "approved", row.id, now);
    return { kind: "approved", payouts };
  });
  if (outcome.kind === "approved" || outcome.kind === "refused") {
    await notifyByMail({ db, messenger: options.messenger, push: options.push }, row.user_id, outcome.kind, row.id, {
      reason,
      payoutDate: outcome.kind === "approved" ? outcome.payouts[0]?.scheduledFor : undefined,
    });
  }
  return outcome;
}

/**
 * Pays the monthly payouts due on or before `today`; an allowance whose payouts are all paid becomes paid
 * (its notification and e-mail then). Answers the payouts paid.
 */
export async function payDueAllowancePayouts(
  db: DB,
  today: string,
  options: { now?: Date; messenger?: Messenger; push?: PushSender } = {},
): Promise<{ paid: string[]; finished: string[] }> {
  const now = options.now ?? new Date();
  const due = await db
    .selectFrom("allowance_payouts")
    .select(["id", "allowance_id", "user_id"])
    .where("status", "=", "scheduled")
    .where("scheduled_for", "<=", today)
    .orderBy("scheduled_for")
    .orderBy("month")
    .orderBy("id")
    .execute();
  const paid: string[] = [];
  const finished: string[] = [];
  for (const payout of due) {
    const done = await db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable("allowance_payouts")
        .set({ status: "paid", paid_at: now.toISOString() })
        .where("id", "=", payout.id)
        .where("status", "=", "scheduled")
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) return null;
      const left = await trx
        .selectFrom("allowance_payouts")
        .select("id")
        .where("allowance_id", "=", payout.allowance_id)
        .where("status", "=", "scheduled")
        .executeTakeFirst();
      if (left) return "paid" as const;
      const moved = await trx
        .updateTable("allowances")
        .set({ status: "paid", updated_at: now.toISOString() })
        .where("id", "=", payout.allowance_id)
        .where("status", "=", "approved")
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) return "paid" as const;
      await addNotification(trx, payout.user_id, "finished", payout.allowance_id, now);
      return "finished" as const;
    });
    if (!done) continue;
    paid.push(payout.id);
    if (done === "finished") {
      finished.push(payout.allowance_id);
      await notifyByMail(
        { db, messenger: options.messenger, push: options.push },
        payout.user_id,
        "finished",
        payout.allowance_id,
      );
    }
  }
  return { paid, finished };
}

export interface AllowanceAwaitingReview {
  id: string;
  userEmail: string;
  type: AllowanceType;
  groupName: string;
  startAt: string;
  endsAt: string;
  amount: number;
  createdAt: string;
}

/** The sandbox reviewer's list: allowances sent and waiting for the funder, oldest first. */
export async function listAllowancesAwaitingReview(db: DB, limit = 50): Promise<AllowanceAwaitingReview[]> {
  const rows = await db
    .selectFrom("allowances as a")
    .innerJoin("users as u", "u.id", "a.user_id")
    .innerJoin("groups as g", "g.id", "a.group_id")
    .select(["a.id", "u.email", "a.type", "g.name", "a.start_at", "a.ends_at", "a.amount", "a.created_at"])
    .where("a.status", "=", "sent")
    .orderBy("a.created_at")
    .orderBy("a.id")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    userEmail: r.email,
    type: (ALLOWANCE_TYPES as readonly string[]).includes(r.type) ? (r.type as AllowanceType) : "carpooling",
    groupName: r.name,
    startAt: r.start_at,
    endsAt: r.ends_at,
    amount: r.amount,
    createdAt: r.created_at,
  }));
}

/** Monthly payouts scheduled and not paid yet, for the sandbox reviewer. */
export async function listScheduledAllowancePayouts(
  db: DB,
  limit = 100,
): Promise<{ id: string; allowanceId: string; month: string; amount: number; scheduledFor: string }[]> {
  const rows = await db
    .selectFrom("allowance_payouts")
    .select(["id", "allowance_id", "month", "amount", "scheduled_for"])
    .where("status", "=", "scheduled")
    .orderBy("scheduled_for")
    .orderBy("month")
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    allowanceId: r.allowance_id,
    month: r.month,
    amount: r.amount,
    scheduledFor: r.scheduled_for,
  }));
}

// ---------------------------------------------------------------------------------------------
// Notifications and e-mails
// ---------------------------------------------------------------------------------------------

type AllowanceEvent = "created" | "cancelled" | "approved" | "refused" | "finished";

async function addNotification(trx: DB, userId: string, event: AllowanceEvent, allowanceId: string, now: Date) {
  await recordNotification(trx, userId, `allowance_${event}_notification`, allowanceId, now);
}

/**
 * The e-mail (in French, with the allowance's facts) and the push of a change, after the event's transaction:
 * each only when the employee keeps the expenseRequests e-mails or pushes on (allowances share that preference).
 */
async function notifyByMail(
  deps: NotifyDeps,
  userId: string,
  event: AllowanceEvent,
  allowanceId: string,
  extra: { reason?: string; payoutDate?: string } = {},
) {
  const { db, messenger } = deps;
  const type = `allowance_${event}_notification`;
  // deliverNotification checks the preference too; checked first here so that the row is not read for nothing.
  const preferences = await getNotificationPreferences(db, userId);
  if (!messenger || !preferences.expenseRequests.mail) {
    await deliverNotification({ db, push: deps.push }, userId, type, allowanceId);
    return;
  }
  const row = await db
    .selectFrom("allowances as a")
    .innerJoin("users as u", "u.id", "a.user_id")
    .select(["u.email", "a.type", "a.amount", "a.start_at", "a.ends_at"])
    .where("a.id", "=", allowanceId)
    .where("a.user_id", "=", userId)
    .executeTakeFirst();
  if (!row) return;
  const catalogue = resources.fr.translation.allowances;
  const mail = catalogue.mail[event];
  const values = {
    type: (catalogue.types as Record<string, string>)[row.type] ?? row.type,
    amount: formatCents(row.amount),
    start: frenchDay(row.start_at),
    end: frenchDay(row.ends_at),
    reason: extra.reason ?? "",
    payoutDate: extra.payoutDate ? frenchDay(extra.payoutDate) : "",
  };
  await deliverNotification(deps, userId, type, allowanceId, {
    mail: { subject: fill(mail.subject, values), text: `${fill(mail.text, values)}\n\n${catalogue.mail.footer}` },
  });
}
