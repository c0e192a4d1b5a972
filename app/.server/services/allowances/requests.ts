import type { DB } from "../../db";
import type { AllowancePayoutTable, AllowanceStatus, AllowanceTable } from "../../db/schema";
import { newId } from "../../ids";
import type { GeoAddress, Geodata } from "../../providers/geodata/port";
import type { Messenger } from "../../providers/messaging/port";
import type { PushSender } from "../../providers/push/port";
import { readDraft } from "../drafts";
import { claimAllowanceDraft, linkAllowance } from "./drafts";
import { addAllowanceNotification, deliverAllowanceNotification } from "./notifications";
import { mediaLabel } from "./wording";
import { parisDayOf } from "~/domain/dates";
import { addressProblems, type AddressProblem } from "~/domain/allowance-schemas";
import {
  addressLine,
  ALLOWANCE_TYPES,
  capStatusOf,
  monthsOfPeriod,
  officeDaysProblem,
  periodCodes,
  plausibilityProblems,
  roundTripKm,
  simulateDistance,
  simulateSubscription,
  TRAVEL_ROLES,
  unusualDistance,
  isDistanceType,
  USUAL_ONE_WAY_METERS,
  type AllowanceType,
  type CapStatus,
  type DistanceConfirmation,
  type DistanceSimulation,
  type OfficeDaysProblem,
  type PeriodProblem,
  type PlausibilityProblem,
  type SubscriptionSimulation,
  type TravelRole,
} from "~/domain/allowances";
import { DECLARED_DISTANCE_MAX_METERS, subscriptionMaxAmount } from "~/domain/amount-bounds";
import { isCalendarDay } from "~/domain/calendar";
import { ibanProblem, maskIban, normaliseIban, type IbanProblem } from "~/domain/iban";
import { problem, type Invalid, type Problem } from "~/domain/problems";
import { deliveryAddressSchema } from "~/domain/schemas";

/**
 * Mobility allowances, the platform side (issue 15, spec 001 §2.7, §3, §5, §9; decision 0027): which types
 * and groups an employee may use, the yearly caps, the simulation (every rule of domain/allowances.ts
 * applied again, the distance from the geodata provider), the confirmation (the server's own simulation
 * wins over anything the browser posts), the list and cancelling: the employee's side. The funder's review
 * is review.ts's, the monthly payouts payouts.ts's, the events' notifications notifications.ts's (their
 * words wording.ts's).
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
/**
 * A hand-typed page number of the list is capped here: each page shows all the pages before it, so its cost is its
 * number of rows (and their payouts); at 20 (200 allowances) `page=1000000` reads no more than page 20 does.
 */
export const ALLOWANCES_MAX_PAGE = 20;
/** The statuses that count towards the yearly caps (spec: every approved or pending allowance). */
export const COUNTED_STATUSES: readonly AllowanceStatus[] = ["sent", "approved", "paid"];

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
    .select(["group_id as groupId", "type", "amount"])
    .where("user_id", "=", userId)
    .where("status", "in", [...COUNTED_STATUSES])
    .where("start_at", ">=", `${year}-01-01`)
    .where("start_at", "<=", `${year}-12-31`);
  if (opts.exceptAllowanceId) query = query.where("id", "!=", opts.exceptAllowanceId);
  return capStatusOf(groupId, group?.mobility_yearly_cap ?? 0, await query.execute());
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
  /**
   * The employee's confirmation of an unusual one-way distance, with its reason (decision 0055): read only
   * when the allowance is confirmed (the simulation says whether the distance is unusual).
   */
  distanceConfirmation?: DistanceConfirmation | null;
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

/** The fields of the allowance forms a refusal names (the spec's keys), and the draft the confirmation came from. */
export type AllowanceField =
  | "type"
  | "group_id"
  | "start_at"
  | "ends_at"
  | "iban"
  | "amount"
  | "media"
  | "second_media"
  | "days_at_office"
  | "travel_role"
  | "distance"
  | "home_address"
  | "work_address"
  | "sworn_statement"
  | "distance_confirmed"
  | "distance_reason"
  | "draft";

/** Why the platform refuses an allowance (decision 0051: codes, the routes word them). */
export type AllowanceProblem =
  | PeriodProblem
  | OfficeDaysProblem
  | PlausibilityProblem
  | AddressProblem
  | IbanProblem
  | "typeNotAllowed"
  | "groupNotAllowed"
  | "amountInvalid"
  | "subscriptionAmountTooBig"
  | "mediaRequired"
  | "secondMediaRequired"
  | "travelRoleRequired"
  | "distanceInvalid"
  | "distanceTooLongBicycle"
  | "distanceTooLongCarpooling"
  | "unknownPostcode"
  | "unsupportedCountry"
  | "swornStatementRequired"
  | "capReached"
  | "draftNotFound";

export type AllowanceProblems = Problem<AllowanceField, AllowanceProblem>[];
export type AllowanceInvalid = Invalid<AllowanceField, AllowanceProblem>;
export type SimulateResult = { kind: "simulated"; simulation: AllowanceSimulation } | AllowanceInvalid;

const isWhole = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n);
const refused = (problems: AllowanceProblems): AllowanceInvalid => ({ kind: "invalid", problems });

/** The longest one-way distance each type may declare, refused with its own code. */
const DISTANCE_TOO_LONG = {
  bicycle: "distanceTooLongBicycle",
  carpooling: "distanceTooLongCarpooling",
} as const satisfies Record<DistanceInput["type"], AllowanceProblem>;

/** The address's problems at its field; true when there are none. */
function checkAddress(address: unknown, field: AllowanceField, problems: AllowanceProblems): address is GeoAddress {
  const found = addressProblems(address);
  problems.push(...found.map((code) => problem(field, code)));
  return found.length === 0;
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

type Checking = { kind: "ok"; checked: Checked } | AllowanceInvalid;

/** What the rules every type shares left to the type's own: the group, the period (when valid) and the IBAN. */
interface Shared {
  problems: AllowanceProblems;
  group: AllowanceGroup | undefined;
  period: { start: string; end: string } | null;
  iban: string;
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
): Promise<Checking> {
  const type = input?.type;
  if (!(ALLOWANCE_TYPES as readonly string[]).includes(type)) return refused([problem("type", "typeNotAllowed")]);
  const groups = await allowanceGroups(deps.db, userId, type);
  if (groups.length === 0) return refused([problem("type", "typeNotAllowed")]);
  const problems: AllowanceProblems = [];
  const group = groups.find((g) => g.id === input.groupId);
  if (!group) problems.push(problem("group_id", "groupNotAllowed"));

  // Dates: a string that is not a day of the calendar is refused as such.
  const start = isCalendarDay(input.startAt) ? input.startAt : null;
  const end = isCalendarDay(input.endsAt) ? input.endsAt : null;
  const dates = periodCodes(type, start, end, today);
  const notADay = !start && typeof input.startAt === "string" && input.startAt !== "";
  const startCodes: PeriodProblem[] = notADay ? ["startDateInvalid"] : (dates.start_at ?? []);
  problems.push(...startCodes.map((code) => problem("start_at", code)));
  problems.push(...(dates.ends_at ?? []).map((code) => problem("ends_at", code)));
  const period = start !== null && end !== null && !dates.start_at && !dates.ends_at ? { start, end } : null;

  const iban = typeof input.iban === "string" ? normaliseIban(input.iban) : "";
  const ibanCode = ibanProblem(iban);
  if (ibanCode) problems.push(problem("iban", ibanCode));

  const shared = { problems, group, period, iban };
  return input.type === "subscription"
    ? checkSubscription(deps.db, userId, input, shared)
    : checkDistance(deps, userId, input, shared);
}

/** A subscription: its price within the bound, both documents the employee's own, then the group's share. */
async function checkSubscription(db: DB, userId: string, input: SubscriptionInput, shared: Shared): Promise<Checking> {
  const { problems, group, period, iban } = shared;
  // The price's bound (decision 0049): per month of the period, or of the longest period while it is not valid.
  if (!isWhole(input.amount) || input.amount <= 0) problems.push(problem("amount", "amountInvalid"));
  else if (input.amount > subscriptionMaxAmount(period ? monthsOfPeriod(period.start, period.end) : null))
    problems.push(problem("amount", "subscriptionAmountTooBig"));
  const ids = [input.mediaId, input.secondMediaId].filter((id): id is string => typeof id === "string" && id !== "");
  const own = ids.length
    ? await db.selectFrom("files").select("id").where("user_id", "=", userId).where("id", "in", ids).execute()
    : [];
  const mine = (id: string | null) => typeof id === "string" && own.some((f) => f.id === id);
  if (!mine(input.mediaId)) problems.push(problem("media", "mediaRequired"));
  if (!mine(input.secondMediaId) || input.secondMediaId === input.mediaId)
    problems.push(problem("second_media", "secondMediaRequired"));
  if (problems.length > 0 || !group || !period) return refused(problems);
  const result = simulateSubscription({ amount: input.amount, groupShare: group.subscriptionShare, ...period });
  return { kind: "ok", checked: { simulation: { type: "subscription", group, result }, iban, home: null, work: null } };
}

/**
 * Carpooling and bicycle: the days at the office, the travel role, the declared distance within its bound,
 * both addresses located by the geodata provider, then the simulation within what is left of the cap.
 */
async function checkDistance(
  deps: Pick<AllowanceDeps, "db" | "geodata">,
  userId: string,
  input: DistanceInput,
  shared: Shared,
): Promise<Checking> {
  const { problems, group, period, iban } = shared;
  const days = officeDaysProblem(input.daysAtOffice, period);
  if (days) problems.push(problem("days_at_office", days));
  if (input.type === "carpooling" && !(TRAVEL_ROLES as readonly unknown[]).includes(input.travelRole))
    problems.push(problem("travel_role", "travelRoleRequired"));
  const declared = input.declaredOneWayMeters ?? null;
  if (declared !== null && (!isWhole(declared) || declared < 1)) problems.push(problem("distance", "distanceInvalid"));
  else if (declared !== null && declared > DECLARED_DISTANCE_MAX_METERS[input.type])
    problems.push(problem("distance", DISTANCE_TOO_LONG[input.type]));
  const located = await locate(deps.geodata, input, problems);
  if (problems.length > 0 || !group || !period || !located) return refused(problems);
  const { measured, home, work } = located;
  const cap = await capStatus(deps.db, userId, group.id, Number(period.start.slice(0, 4)));
  const result = simulateDistance({
    oneWayMeters: declared ?? measured.oneWayMeters,
    daysAtOffice: input.daysAtOffice,
    ratePerKm: group.ratePerKm,
    capRemaining: cap.remaining,
    ...period,
  });
  const simulation = {
    type: input.type,
    group,
    estimateMeters: measured.oneWayMeters,
    declaredMeters: declared,
    source: measured.source,
    result,
  };
  return { kind: "ok", checked: { simulation, iban, home, work } };
}

/** Both addresses checked, then the one-way distance between them (null, with the field's problem, when not measured). */
async function locate(
  geodata: Geodata,
  input: DistanceInput,
  problems: AllowanceProblems,
): Promise<{
  measured: { oneWayMeters: number; source: "estimate" | "routing" };
  home: GeoAddress;
  work: GeoAddress;
} | null> {
  const homeValid = checkAddress(input.home, "home_address", problems);
  const workValid = checkAddress(input.work, "work_address", problems);
  if (!homeValid || !workValid) return null;
  const home = cleanAddress(input.home);
  const work = cleanAddress(input.work);
  const distance = await geodata.distance(home, work);
  if (distance.kind === "measured") return { measured: distance, home, work };
  problems.push(problem(distance.field, distance.reason));
  return null;
}

/** The simulation the summary shows (every rule checked; the problems by the spec's fields otherwise). */
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
  | AllowanceInvalid;

/** What the confirmation posts: the answers, the draft they come from and the sworn statement. */
type Confirmation = AllowanceInput & { draftId: string; swornStatement: boolean };

class CapReached extends Error {}
class AlreadySubmitted extends Error {}

const capReached = () => refused([problem("amount", "capReached")]);

/** alreadySubmitted (with the allowance it made) when the draft was claimed, else null. */
async function claimedAllowance(db: DB, userId: string, draftId: string): Promise<CreateAllowanceResult | null> {
  const draft = await readDraft(db, "allowance_drafts", userId, draftId);
  return draft?.submitted_at ? { kind: "alreadySubmitted", allowanceId: draft.allowance_id } : null;
}

/**
 * Creates the allowance from the server's own simulation (an amount the browser posts is never read).
 * One transaction: the employee's row is locked (two confirmations of one person are checked one after
 * the other, so they cannot both pass the cap), the draft is claimed (a replayed or concurrent
 * confirmation of it answers alreadySubmitted), the cap is read again, the allowance and its
 * notification are written. The e-mail follows the expenseRequests preference.
 */
export async function createAllowance(
  deps: AllowanceDeps,
  userId: string,
  input: Confirmation,
  today: string,
  now = new Date(),
): Promise<CreateAllowanceResult> {
  const { db } = deps;
  const draft =
    typeof input.draftId === "string" ? await readDraft(db, "allowance_drafts", userId, input.draftId) : undefined;
  if (!draft || draft.type !== input.type) return refused([problem("draft", "draftNotFound")]);
  if (draft.submitted_at !== null) return { kind: "alreadySubmitted", allowanceId: draft.allowance_id };

  // A concurrent confirmation of this draft may have won while this one was checked (its allowance then
  // takes the cap): the answer is that one, not a field error.
  const refuse = async (result: CreateAllowanceResult): Promise<CreateAllowanceResult> =>
    (await claimedAllowance(db, userId, input.draftId)) ?? result;
  const confirmed = await checkConfirmation(deps, userId, input, today);
  if (confirmed.kind === "invalid") return refuse(confirmed);
  try {
    const allowanceId = await db
      .transaction()
      .execute((trx) => insertAllowance(trx, userId, input, confirmed.checked, { today, now }));
    await deliverAllowanceNotification(deps, userId, "created", allowanceId);
    return { kind: "created", allowanceId };
  } catch (err) {
    if (err instanceof CapReached) return refuse(capReached());
    if (err instanceof AlreadySubmitted)
      return (await claimedAllowance(db, userId, input.draftId)) ?? { kind: "alreadySubmitted", allowanceId: null };
    throw err;
  }
}

/** The distance the employee must confirm, with a reason, before a carpooling or bicycle allowance is signed. */
function unusualOf(simulation: AllowanceSimulation): number | null {
  if (simulation.type === "subscription") return null;
  return unusualDistance(simulation.type, simulation.estimateMeters, simulation.declaredMeters);
}

/**
 * Every rule again, the sworn statement, an unusual distance confirmed with its reason (issue 31 §2,
 * decision 0055: a post without them is refused whatever the form showed), and something left to pay
 * once the cap is applied.
 */
async function checkConfirmation(
  deps: AllowanceDeps,
  userId: string,
  input: Confirmation,
  today: string,
): Promise<Checking> {
  const outcome = await check(deps, userId, input, today);
  const problems: AllowanceProblems = outcome.kind === "invalid" ? [...outcome.problems] : [];
  if (input.swornStatement !== true) problems.push(problem("sworn_statement", "swornStatementRequired"));
  if (outcome.kind === "ok") {
    const confirmation = input.type === "subscription" ? null : (input.distanceConfirmation ?? null);
    const missing = plausibilityProblems(unusualOf(outcome.checked.simulation), confirmation);
    if (missing.distance_confirmed) problems.push(problem("distance_confirmed", missing.distance_confirmed));
    if (missing.distance_reason) problems.push(problem("distance_reason", missing.distance_reason));
  }
  if (outcome.kind === "invalid" || problems.length > 0) return refused(problems);
  return outcome.checked.simulation.result.allowance <= 0 ? capReached() : outcome;
}

/**
 * Inside the confirmation's transaction: the person locked, the draft claimed once, the allowance written
 * from the checked figures and linked to its draft, its notification. Answers the allowance's id.
 */
async function insertAllowance(
  trx: DB,
  userId: string,
  input: Confirmation,
  checked: Checked,
  clock: { today: string; now: Date },
): Promise<string> {
  // Locks the employee's row until commit (a no-op update: PostgreSQL takes a row lock, SQLite runs one
  // write transaction at a time): a second confirmation waits, then sees this allowance in its cap.
  await trx
    .updateTable("users")
    .set((eb) => ({ email: eb.ref("email") }))
    .where("id", "=", userId)
    .execute();
  if (!(await claimAllowanceDraft(trx, userId, input.draftId, clock.now))) throw new AlreadySubmitted();
  const id = newId("alw");
  const sim = checked.simulation;
  const common = commonColumns(id, userId, input, checked, clock);
  const row =
    sim.type === "subscription"
      ? subscriptionRow(common, input as SubscriptionInput, sim.result)
      : await distanceRow(trx, common, input as DistanceInput, sim, checked);
  await trx.insertInto("allowances").values(row).execute();
  await linkAllowance(trx, userId, input.draftId, id);
  await addAllowanceNotification(trx, userId, "created", id, clock.now);
  return id;
}

/** The columns every type of allowance writes: sent, signed today, cancellable until the funder decides. */
function commonColumns(
  id: string,
  userId: string,
  input: Confirmation,
  checked: Checked,
  { today, now }: { today: string; now: Date },
) {
  const nowIso = now.toISOString();
  return {
    id,
    user_id: userId,
    group_id: checked.simulation.group.id,
    type: checked.simulation.type,
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
}

type CommonColumns = ReturnType<typeof commonColumns>;

/** A subscription keeps its price, the share paid and both documents. */
function subscriptionRow(
  common: CommonColumns,
  input: SubscriptionInput,
  result: SubscriptionSimulation,
): AllowanceTable {
  return {
    ...common,
    amount: result.allowance,
    monthly_amount: result.perMonth,
    number_of_months: result.numberOfMonths,
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
    subscription_amount: input.amount,
    percentage: result.percentage,
    media_id: input.mediaId,
    second_media_id: input.secondMediaId,
  };
}

/**
 * Carpooling and bicycle: the simulation made again with the cap read now that this person's other
 * confirmations are done (none left: CapReached), then the distances, the rate and the cap as they were
 * applied, and an unusual distance flagged with the employee's reason (checked by checkConfirmation).
 */
async function distanceRow(
  trx: DB,
  common: CommonColumns,
  input: DistanceInput,
  sim: Extract<AllowanceSimulation, { type: "carpooling" | "bicycle" }>,
  { home, work }: Checked,
): Promise<AllowanceTable> {
  const cap = await capStatus(trx, common.user_id, sim.group.id, Number(input.startAt.slice(0, 4)));
  const result = simulateDistance({
    oneWayMeters: sim.declaredMeters ?? sim.estimateMeters,
    daysAtOffice: input.daysAtOffice,
    ratePerKm: sim.group.ratePerKm,
    capRemaining: cap.remaining,
    start: input.startAt,
    end: input.endsAt,
  });
  if (result.allowance <= 0) throw new CapReached();
  const flagged = unusualOf(sim) !== null;
  return {
    ...common,
    amount: result.allowance,
    monthly_amount: result.perMonth,
    number_of_months: result.numberOfMonths,
    days_at_office: input.daysAtOffice,
    travel_role: sim.type === "carpooling" ? input.travelRole : null,
    home_address: home ? addressLine(home) : null,
    work_address: work ? addressLine(work) : null,
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
    plausibility_flag: flagged ? 1 : 0,
    plausibility_reason: flagged ? (input.distanceConfirmation?.reason.trim() ?? null) : null,
  };
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
  /** The Paris day a paid payout left (issue 30 §5: a payout says when it was made); null until it is paid. */
  paidOn: string | null;
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
  /**
   * Carpooling and bicycle: the one-way distance above the mode's usual one that the employee confirmed,
   * flagged to the funder (decision 0055), in metres, with the usual one; null when not flagged.
   */
  unusual: { meters: number; usualMeters: number } | null;
}

/** A flagged row's unusual distance (the larger of the estimate and the declared one, as when it was signed). */
function unusualOfRow(r: ListRow): AllowanceListItem["unusual"] {
  if (r.plausibility_flag !== 1 || !isDistanceType(r.type)) return null;
  const meters = Math.max(r.distance_estimate_m ?? 0, r.distance_declared_m ?? 0);
  return { meters, usualMeters: USUAL_ONE_WAY_METERS[r.type] };
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
        .select(["allowance_id", "month", "amount", "scheduled_for", "status", "paid_at"])
        .where("allowance_id", "in", ids)
        .orderBy("month")
        .execute()
    : [];
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
        ...(r.media_id ? [{ id: r.media_id, label: mediaLabel("ticket") }] : []),
        ...(r.second_media_id ? [{ id: r.second_media_id, label: mediaLabel("proof") }] : []),
      ],
      payouts: payouts
        .filter((p) => p.allowance_id === r.id)
        .map((p) => ({
          month: p.month,
          amount: p.amount,
          scheduledFor: p.scheduled_for,
          status: p.status,
          paidOn: p.status === "paid" && p.paid_at ? parisDayOf(new Date(p.paid_at)) : null,
        })),
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
      unusual: unusualOfRow(r),
    };
  });
}

/** The employee's allowances, newest first, 10 a page (page 2 shows the first 20). */
export async function listAllowances(
  db: DB,
  userId: string,
  options: { page: number },
): Promise<{ items: AllowanceListItem[]; hasMore: boolean }> {
  const page = Number.isInteger(options.page) && options.page >= 1 ? Math.min(options.page, ALLOWANCES_MAX_PAGE) : 1;
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
    await addAllowanceNotification(trx, userId, "cancelled", row.id, now);
    return true;
  });
  if (!done) return { kind: "notCancellable" };
  await deliverAllowanceNotification(
    { db, messenger: options.messenger, push: options.push },
    userId,
    "cancelled",
    row.id,
  );
  return { kind: "cancelled" };
}
