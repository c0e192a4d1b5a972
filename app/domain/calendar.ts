import getJoursFeries from "@socialgouv/jours-feries";
import { addDays, differenceInCalendarDays, formatISO, isWeekend } from "date-fns";

/**
 * Arithmetic on calendar days (YYYY-MM-DD) with date-fns (decision 0018): a day is a day, whatever
 * daylight-saving change lies between (adding 24 h to an instant would skip or repeat a day at the
 * change). Each day is taken at noon of the process's own calendar, which date-fns computes in, so
 * the answer does not depend on the server's time zone. Showing dates stays on Intl (decision 0004).
 */
const noonOf = (day: string) => new Date(`${day}T12:00:00`);

/** Whether a value is a day of the calendar written YYYY-MM-DD ("2026-02-30" is not). */
export function isCalendarDay(day: unknown): day is string {
  if (typeof day !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
}

/** The calendar day `days` after `day` (negative: before). */
export function addCalendarDays(day: string, days: number): string {
  return formatISO(addDays(noonOf(day), days), { representation: "date" });
}

/** Whole calendar days from `from` to `to`, negative when `to` is earlier. */
export function calendarDaysBetween(from: string, to: string): number {
  return differenceInCalendarDays(noonOf(to), noonOf(from));
}

/**
 * The day `days` working days after `day`: Monday to Friday, French public holidays excepted (jours
 * fériés of metropolitan France, Code du travail L3133-1). A refund is paid within 7 of them (spec 001 §9).
 */
export function addWorkingDays(day: string, days: number): string {
  let date = noonOf(day);
  for (let left = days; left > 0;) {
    date = addDays(date, 1);
    if (!isWeekend(date) && !isFrenchPublicHoliday(formatISO(date, { representation: "date" }))) left -= 1;
  }
  return formatISO(date, { representation: "date" });
}

/** Whether a day (YYYY-MM-DD) is a public holiday in metropolitan France. */
export function isFrenchPublicHoliday(day: string): boolean {
  return frenchPublicHolidays(Number(day.slice(0, 4))).includes(day);
}

/**
 * The eleven public holidays of metropolitan France in a year, as `@socialgouv/jours-feries` lists them
 * (without the two extra days of Alsace-Moselle). The package builds each day in local time, so it is read
 * with the local getters whatever the server's time zone.
 */
export function frenchPublicHolidays(year: number): string[] {
  return Object.values(getJoursFeries(year))
    .map(
      (d) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`,
    )
    .sort();
}
