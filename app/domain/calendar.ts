import { addBusinessDays, addDays, differenceInCalendarDays, formatISO } from "date-fns";

/**
 * Arithmetic on calendar days (YYYY-MM-DD) with date-fns (decision 0018): a day is a day, whatever
 * daylight-saving change lies between (adding 24 h to an instant would skip or repeat a day at the
 * change). Each day is taken at noon of the process's own calendar, which date-fns computes in, so
 * the answer does not depend on the server's time zone. Showing dates stays on Intl (decision 0004).
 */
const noonOf = (day: string) => new Date(`${day}T12:00:00`);

/** The calendar day `days` after `day` (negative: before). */
export function addCalendarDays(day: string, days: number): string {
  return formatISO(addDays(noonOf(day), days), { representation: "date" });
}

/** Whole calendar days from `from` to `to`, negative when `to` is earlier. */
export function calendarDaysBetween(from: string, to: string): number {
  return differenceInCalendarDays(noonOf(to), noonOf(from));
}

/** The day `days` working days (Monday to Friday) after `day`: a refund is paid within 7 of them (spec 001 §9). */
export function addWorkingDays(day: string, days: number): string {
  return formatISO(addBusinessDays(noonOf(day), days), { representation: "date" });
}
