import {
  addMonths,
  differenceInCalendarMonths,
  eachDayOfInterval,
  formatISO,
  isSunday,
  lastDayOfYear,
  startOfYear,
} from "date-fns";
import { addWorkingDays, isFrenchPublicHoliday } from "./calendar";

/**
 * Mobility allowances (issue 15, spec 001 §2.7, §5, §9): the rules of the dates, the days at the office,
 * the simulation and the yearly caps, as pure functions of days (YYYY-MM-DD, the Europe/Paris calendar
 * day — callers pass `todayInParis()`), cents and metres. The wizards use them to guide; the platform
 * (services/allowances/requests.ts) applies them again on every confirmation, and its figures always win.
 *
 * Date arithmetic is date-fns on each day taken at noon of the process's calendar (as domain/calendar.ts),
 * so daylight-saving changes and the server's time zone change nothing.
 */

export const ALLOWANCE_TYPES = ["carpooling", "bicycle", "subscription"] as const;
export type AllowanceType = (typeof ALLOWANCE_TYPES)[number];
/** The allowances paid per kilometre (the forfait mobilités durables). */
export const DISTANCE_TYPES = ["carpooling", "bicycle"] as const;
export type DistanceType = (typeof DISTANCE_TYPES)[number];
export const TRAVEL_ROLES = ["driver", "passenger"] as const;
export type TravelRole = (typeof TRAVEL_ROLES)[number];

export const isAllowanceType = (v: unknown): v is AllowanceType =>
  typeof v === "string" && (ALLOWANCE_TYPES as readonly string[]).includes(v);
export const isDistanceType = (v: unknown): v is DistanceType =>
  typeof v === "string" && (DISTANCE_TYPES as readonly string[]).includes(v);

/**
 * Last year's days may still be claimed until this day of January inclusive (spec 001 §5 gives the
 * 14th and the 15th; we take the 15th — decision 0027).
 */
export const LAST_YEAR_DEADLINE_DAY = 15;
/** A period must be shorter than this many months (spec 001 §9). */
export const MAX_PERIOD_MONTHS = 18;
/** Forfait mobilités durables: exempt up to 600 € a year per employee (Code de la sécurité sociale L136-1-1, CGI 81 19° ter). */
export const LEGAL_FMD_CAP = 60_000;
/** The forfait together with the public-transport share: exempt up to 900 € a year. */
export const LEGAL_COMBINED_CAP = 90_000;
/** The employer pays at least half of a public-transport subscription (Code du travail R3261-1). */
export const LEGAL_TRANSPORT_SHARE = 50;
/** A share up to 75 % is exempt until 31 December 2026; after that, 50 %. */
export const RAISED_TRANSPORT_SHARE = 75;
export const RAISED_TRANSPORT_SHARE_LAST_YEAR = 2026;

const noonOf = (day: string) => new Date(`${day}T12:00:00`);
const dayOf = (date: Date) => formatISO(date, { representation: "date" });

/** The window a period may start in, given today. */
export interface StartWindow {
  /** 1 January of this year, or of last year until 15 January inclusive. */
  min: string;
  /** Today for carpooling and bicycle (a past period is claimed); 31 December for a subscription. */
  max: string;
}

export function startWindow(type: AllowanceType, today: string): StartWindow {
  const date = noonOf(today);
  const thisYear = startOfYear(date);
  const lateForLastYear = date.getMonth() > 0 || date.getDate() > LAST_YEAR_DEADLINE_DAY;
  const min = lateForLastYear ? thisYear : startOfYear(addMonths(thisYear, -12));
  const max = type === "subscription" ? dayOf(lastDayOfYear(date)) : today;
  return { min: dayOf(min), max };
}

/** The latest day a period starting on `start` may end on. */
export function maxEndDate(type: AllowanceType, start: string, today: string): string {
  if (type === "subscription") return dayOf(lastDayOfYear(noonOf(start)));
  return today;
}

/** The problems of a period, as codes (`allowances.errors.<code>` their words). */
export type PeriodProblem =
  | "startRequired"
  | "endRequired"
  | "startDateInvalid"
  | "endAfterToday"
  | "endDateLastDayOfYearInvalid"
  | "endBeforeStart"
  | "periodTooLong";

/**
 * The forms say more than the codes: a start after its window is said by the side it fell off (issue 31
 * §3) — after today for a mileage allowance, next year for a subscription — not by the year rule.
 */
export type DateErrorKey = `allowances.errors.${PeriodProblem | "startAfterToday" | "startNextYear"}`;

type ByDateField<T> = { start_at?: T[]; ends_at?: T[] };

/**
 * The problems of a period, by field (`start_at`, `ends_at`), as codes; empty when valid. `null` stands
 * for a day that is missing or not a day of the calendar.
 */
export function periodCodes(
  type: AllowanceType,
  start: string | null,
  end: string | null,
  today: string,
): ByDateField<PeriodProblem> {
  const problems: ByDateField<PeriodProblem> = {};
  if (!start) problems.start_at = ["startRequired"];
  if (!end) problems.ends_at = ["endRequired"];
  // The start's window is its own: said even while the end is missing or not a day.
  const window = startWindow(type, today);
  if (start && (start < window.min || start > window.max)) problems.start_at = ["startDateInvalid"];
  if (!start || !end) return problems;
  let endProblem: PeriodProblem | null = null;
  if (end < start) endProblem = "endBeforeStart";
  else if (type === "subscription" && end > maxEndDate(type, start, today)) endProblem = "endDateLastDayOfYearInvalid";
  else if (type !== "subscription" && end > today) endProblem = "endAfterToday";
  else if (!periodShortEnough(start, end)) endProblem = "periodTooLong";
  if (endProblem) problems.ends_at = [endProblem];
  return problems;
}

/** The same problems as i18n keys, for the forms' schemas (whose messages are catalogue keys), said as `DateErrorKey` says. */
export function periodProblems(
  type: AllowanceType,
  start: string | null,
  end: string | null,
  today: string,
): ByDateField<DateErrorKey> {
  const codes = periodCodes(type, start, end, today);
  const late = start !== null && start > startWindow(type, today).max;
  const keyOf = (code: PeriodProblem): DateErrorKey =>
    code !== "startDateInvalid" || !late
      ? `allowances.errors.${code}`
      : type === "subscription"
        ? "allowances.errors.startNextYear"
        : "allowances.errors.startAfterToday";
  const keys = (list: PeriodProblem[]) => list.map(keyOf);
  return {
    ...(codes.start_at ? { start_at: keys(codes.start_at) } : {}),
    ...(codes.ends_at ? { ends_at: keys(codes.ends_at) } : {}),
  };
}

/** Under 18 months: the end comes before the same day 18 months after the start. */
export function periodShortEnough(start: string, end: string): boolean {
  return dayOf(addMonths(noonOf(start), MAX_PERIOD_MONTHS)) > end;
}

/** Spec 001 §5: if the start moves after the end, the end is set to the start. */
export function followStart(start: string, end: string | null): string {
  return !end || end < start ? start : end;
}

/** The days from `start` to `end` inclusive, Sundays excepted (the most days at the office). 0 if end < start. */
export function daysWithoutSundays(start: string, end: string): number {
  if (end < start) return 0;
  return eachDayOfInterval({ start: noonOf(start), end: noonOf(end) }).filter((d) => !isSunday(d)).length;
}

export type OfficeDaysProblem = "noWorkingDay" | "daysAtOfficeRange";

/**
 * The problem of the days at the office, as a code, or null: a whole number from 1 to the period's
 * days without Sundays (a period without any cannot be claimed); while the period is not valid
 * (`null`), only from 1.
 */
export function officeDaysProblem(
  days: unknown,
  period: { start: string; end: string } | null,
): OfficeDaysProblem | null {
  const max = period ? daysWithoutSundays(period.start, period.end) : Number.MAX_SAFE_INTEGER;
  if (max === 0) return "noWorkingDay";
  const whole = typeof days === "number" && Number.isSafeInteger(days);
  return whole && days >= 1 && days <= max ? null : "daysAtOfficeRange";
}

/** Days at the office clamped to 1…max (spec 001 §5: clamped when the maximum drops). 0 when max is 0. */
export function clampDays(days: number, max: number): number {
  if (max < 1) return 0;
  return Math.min(Math.max(1, Math.trunc(days)), max);
}

/** The calendar months a period touches (1 March – 15 April: 2), over which the allowance is paid monthly. */
export function monthsOfPeriod(start: string, end: string): number {
  return differenceInCalendarMonths(noonOf(end), noonOf(start)) + 1;
}

/** The months of a period as YYYY-MM, in order (the monthly payouts). */
export function monthList(start: string, end: string): string[] {
  const count = monthsOfPeriod(start, end);
  const first = noonOf(`${start.slice(0, 7)}-01`);
  return Array.from({ length: count }, (_, i) => dayOf(addMonths(first, i)).slice(0, 7));
}

/**
 * An amount split over `months` payments of whole cents: equal payments rounded down, the last one
 * taking the remainder (a few cents more, never fewer), so that they add up to the amount exactly.
 * (Rounding each to the nearest cent could leave the last payment negative: 0,09 € over 6 months.)
 */
export function monthlySplit(amount: number, months: number): number[] {
  if (months < 1) return [];
  const each = Math.floor(amount / months);
  const parts = Array.from({ length: months }, () => each);
  parts[months - 1] = amount - each * (months - 1);
  return parts;
}

/** An approved allowance's monthly payout comes at least this many working days after the approval (as refunds). */
export const PAYOUT_WORKING_DAYS = 7;

/** The first working day (Monday–Friday, French public holidays excepted) on or after `day`. */
function workingDayFrom(day: string): string {
  const weekday = noonOf(day).getDay();
  if (weekday !== 0 && weekday !== 6 && !isFrenchPublicHoliday(day)) return day;
  return addWorkingDays(day, 1);
}

/**
 * When a month's payout is made: on the first working day of the following month, and never before
 * 7 working days after the approval (a past month is paid with the first payout).
 */
export function payoutDay(month: string, approvedOn: string): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  const next = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, "0")}-01`;
  const firstWorking = workingDayFrom(next);
  const earliest = addWorkingDays(approvedOn, PAYOUT_WORKING_DAYS);
  return firstWorking > earliest ? firstWorking : earliest;
}

export interface MonthlyPayout {
  /** YYYY-MM */
  month: string;
  amount: number;
  scheduledFor: string;
}

/** An approved allowance's payouts: one per month of its period, adding up to its amount, each on its payout day. */
export function monthlyPayouts(amount: number, start: string, end: string, approvedOn: string): MonthlyPayout[] {
  const months = monthList(start, end);
  const amounts = monthlySplit(amount, months.length);
  return months.map((month, i) => ({ month, amount: amounts[i] ?? 0, scheduledFor: payoutDay(month, approvedOn) }));
}

/** What is left of the yearly forfait mobilités durables for one group, all figures in cents for one calendar year. */
export interface CapInput {
  /** The group's own cap (at most LEGAL_FMD_CAP). */
  groupCap: number;
  /** Carpooling and bicycle allowances already sent, approved or paid with this group. */
  usedWithGroup: number;
  /** The same with every group (the exemption is per employee). */
  usedAllGroups: number;
  /** Public-transport shares (subscription allowances) of the year, with every group. */
  transportShares: number;
}

export function remainingCap(input: CapInput): number {
  const room = Math.min(
    Math.min(input.groupCap, LEGAL_FMD_CAP) - input.usedWithGroup,
    LEGAL_FMD_CAP - input.usedAllGroups,
    LEGAL_COMBINED_CAP - input.usedAllGroups - input.transportShares,
  );
  return Math.max(0, room);
}

/** The caps of one group for one year: the figures they are made of, and what is left of the forfait. */
export interface CapStatus extends CapInput {
  /** What is left of the yearly forfait for a new carpooling or bicycle allowance with this group. */
  remaining: number;
}

/** An allowance of the year that counts towards the caps (sent, approved or paid): its group, type and amount. */
export interface CountedAllowance {
  groupId: string;
  type: string;
  amount: number;
}

/**
 * The caps of one group from the year's counted allowances: carpooling and bicycle count towards the
 * forfait (with this group, and with every group), subscriptions as public-transport shares.
 */
export function capStatusOf(groupId: string, groupCap: number, counted: readonly CountedAllowance[]): CapStatus {
  let usedWithGroup = 0;
  let usedAllGroups = 0;
  let transportShares = 0;
  for (const allowance of counted) {
    if (isDistanceType(allowance.type)) {
      usedAllGroups += allowance.amount;
      if (allowance.groupId === groupId) usedWithGroup += allowance.amount;
    } else transportShares += allowance.amount;
  }
  return {
    remaining: remainingCap({ groupCap, usedWithGroup, usedAllGroups, transportShares }),
    groupCap,
    usedWithGroup,
    usedAllGroups,
    transportShares,
  };
}

const kilometresFormat = new Intl.NumberFormat("fr-FR", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** 7.24 → "7,24 km": a distance in kilometres as the pages show it (French format, always 2 decimals). */
export function formatKilometres(km: number): string {
  return `${kilometresFormat.format(km)} km`;
}

/** A one-way distance as the round trip shown: hundredths of a kilometre (724) and "7.24" (point, 2 decimals). */
export function roundTripKm(oneWayMeters: number): { hundredths: number; distanceRoundtrip: string } {
  const hundredths = Math.round((oneWayMeters * 2) / 10);
  return { hundredths, distanceRoundtrip: (hundredths / 100).toFixed(2) };
}

export interface DistanceSimulation {
  /** Round trip in hundredths of a kilometre (724 = 7,24 km). */
  roundTripHundredthsKm: number;
  /** "7.24": the spec's distance_roundtrip (point, 2 decimals). */
  distanceRoundtrip: string;
  perKm: number;
  /** The allowance for the period before the cap, and after it. */
  allowanceBeforeCap: number;
  allowance: number;
  perMonth: number;
  numberOfMonths: number;
  /** What was left of the yearly cap before this allowance, and after it. */
  capRemainingBefore: number;
  capRemainingAfter: number;
  /** True when the cap lowered the amount. */
  capped: boolean;
}

/**
 * Carpooling and bicycle: allowance = round trip (km, 2 decimals) × days × rate, capped by what is left
 * of the yearly cap; paid over the period's months. The round trip is rounded first, as it is shown,
 * so that the figures on the summary multiply out.
 */
export function simulateDistance(input: {
  oneWayMeters: number;
  daysAtOffice: number;
  ratePerKm: number;
  capRemaining: number;
  start: string;
  end: string;
}): DistanceSimulation {
  const { hundredths: roundTripHundredthsKm, distanceRoundtrip } = roundTripKm(input.oneWayMeters);
  const allowanceBeforeCap = Math.round((roundTripHundredthsKm * input.daysAtOffice * input.ratePerKm) / 100);
  const capRemainingBefore = Math.max(0, input.capRemaining);
  const allowance = Math.min(allowanceBeforeCap, capRemainingBefore);
  const numberOfMonths = monthsOfPeriod(input.start, input.end);
  return {
    roundTripHundredthsKm,
    distanceRoundtrip,
    perKm: input.ratePerKm,
    allowanceBeforeCap,
    allowance,
    perMonth: monthlySplit(allowance, numberOfMonths)[0] ?? 0,
    numberOfMonths,
    capRemainingBefore,
    capRemainingAfter: capRemainingBefore - allowance,
    capped: allowance < allowanceBeforeCap,
  };
}

/** The share a group may pay of a subscription in a given year: its own, within 50 % and the exempt maximum. */
export function transportSharePercent(groupShare: number, year: number): number {
  const max = year <= RAISED_TRANSPORT_SHARE_LAST_YEAR ? RAISED_TRANSPORT_SHARE : LEGAL_TRANSPORT_SHARE;
  return Math.min(Math.max(groupShare, LEGAL_TRANSPORT_SHARE), max);
}

export interface SubscriptionSimulation {
  percentage: number;
  /** True when the group's share was lowered to the exempt maximum of the year. */
  shareLowered: boolean;
  allowance: number;
  perMonth: number;
  numberOfMonths: number;
}

/** Subscription: allowance = price × the group's share (rounded to the cent), paid over the period's months. */
export function simulateSubscription(input: {
  amount: number;
  groupShare: number;
  start: string;
  end: string;
}): SubscriptionSimulation {
  const percentage = transportSharePercent(input.groupShare, Number(input.start.slice(0, 4)));
  const allowance = Math.round((input.amount * percentage) / 100);
  const numberOfMonths = monthsOfPeriod(input.start, input.end);
  return {
    percentage,
    shareLowered: percentage < input.groupShare,
    allowance,
    perMonth: monthlySplit(allowance, numberOfMonths)[0] ?? 0,
    numberOfMonths,
  };
}

/** "8 rue des Lilas 69003 Lyon FR": an address as the spec's payload sends it (one string). */
export function addressLine(address: { line1: string; zipcode: string; city: string; country: string }): string {
  return [address.line1, address.zipcode, address.city, address.country].map((s) => s.trim()).join(" ");
}

/**
 * The usual one-way distance of a commute, in metres, by mode (issue 31 §2, decision 0055): 25 km by
 * bicycle (even an electric bicycle's daily commute rarely goes further), 150 km carpooling (about an hour
 * and a half each way by road). A distance above it is not refused — the bounds of decision 0049 do that
 * — but signed only with the employee's confirmation and reason, and flagged to the funder's review.
 */
export const USUAL_ONE_WAY_METERS: Record<DistanceType, number> = {
  bicycle: 25_000,
  carpooling: 150_000,
};

/** The reason the employee gives for an unusual distance: 1 to 500 characters once trimmed. */
export const PLAUSIBILITY_REASON_MAX = 500;

/**
 * The one-way distance that needs the employee's confirmation, in metres, or null when none does: the
 * larger of the estimate and the distance the employee declared, when it is above the mode's usual
 * distance. The estimate counts even when a shorter distance was declared: addresses 500 km apart make a
 * 10 km bicycle commute as unusual as the other way round, and the funder should see why.
 */
export function unusualDistance(
  type: DistanceType,
  estimateMeters: number,
  declaredMeters: number | null,
): number | null {
  const longest = Math.max(estimateMeters, declaredMeters ?? 0);
  return longest > USUAL_ONE_WAY_METERS[type] ? longest : null;
}

export type PlausibilityProblem = "distanceConfirmationRequired" | "distanceReasonRequired" | "distanceReasonTooLong";

/** The employee's confirmation of an unusual distance, as posted: the box ticked, the reason typed. */
export interface DistanceConfirmation {
  confirmed: boolean;
  reason: string;
}

/**
 * What an unusual distance still lacks, by field, as codes: the box "Je confirme cette distance" ticked
 * and a reason of 1 to 500 characters once trimmed. Nothing is asked of a usual distance (`unusual` null).
 */
export function plausibilityProblems(
  unusual: number | null,
  confirmation: DistanceConfirmation | null,
): { distance_confirmed?: PlausibilityProblem; distance_reason?: PlausibilityProblem } {
  if (unusual === null) return {};
  const reason = confirmation?.reason.trim() ?? "";
  const problems: { distance_confirmed?: PlausibilityProblem; distance_reason?: PlausibilityProblem } = {};
  if (confirmation?.confirmed !== true) problems.distance_confirmed = "distanceConfirmationRequired";
  if (reason.length === 0) problems.distance_reason = "distanceReasonRequired";
  else if (reason.length > PLAUSIBILITY_REASON_MAX) problems.distance_reason = "distanceReasonTooLong";
  return problems;
}
