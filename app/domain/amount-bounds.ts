import type { DistanceType } from "./allowances";

/*
 * The upper bounds of every amount a person types (issue 28 item 4, decision 0049), in one place: the
 * forms' schemas, the platform's services and the hints under the fields all read them from here. Each is
 * far above what an honest answer reaches and far below what a slip of the keyboard or a probe types; the
 * funder's review still sees every request with its receipt. The error messages of the catalogues say
 * the figures in words; amount-bounds.test.ts keeps them equal to these. (The days at the office keep the spec's
 * bound, the period's days without Sundays — domain/allowances.ts `daysWithoutSundays`; the overflow
 * amount keeps its 50–150 €, domain/overflow.ts.)
 */

/** The largest amount of one refund request, in cents: 5 000 € (a receipt of a benefits wallet's size). */
export const REFUND_MAX_AMOUNT = 500_000;

/**
 * The largest price of a transport subscription per month of its period, in cents: 1 000 € a month,
 * above the dearest monthly commuter passes (a Navigo month is about 90 €). The form asks the price for
 * the whole period, so the bound is this times the calendar months the period touches.
 */
export const SUBSCRIPTION_MAX_PER_MONTH = 100_000;

/** A subscription's period ends within the calendar year of its start: 12 months at most. */
export const SUBSCRIPTION_MAX_MONTHS = 12;

/**
 * The largest price for a subscription's period, in cents: 1 000 € per calendar month the period touches
 * (domain/allowances.ts `monthsOfPeriod`), or per month of the longest period while it is not known.
 */
export function subscriptionMaxAmount(months: number | null): number {
  return SUBSCRIPTION_MAX_PER_MONTH * Math.min(months ?? SUBSCRIPTION_MAX_MONTHS, SUBSCRIPTION_MAX_MONTHS);
}

/**
 * The longest one-way distance an employee may declare instead of the estimate, in metres, by mode:
 * 50 km by bicycle (a 100 km ride every day is beyond any commute), 200 km carpooling (about two hours
 * each way by road).
 */
export const DECLARED_DISTANCE_MAX_METERS: Record<DistanceType, number> = {
  bicycle: 50_000,
  carpooling: 200_000,
};
