import { addCalendarDays } from "./calendar";
import { formatInTimeZone, TIME_ZONE } from "./timezone";

/** Dates are shown in Europe/Paris: dd/MM/yyyy, with HH:mm when the time matters. */
export function formatDate(iso: string): string {
  return formatInTimeZone(iso, { day: "2-digit", month: "2-digit", year: "numeric" });
}

export function formatDateTime(iso: string): string {
  return `${formatDate(iso)} ${formatInTimeZone(iso, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" })}`;
}

export function formatTime(iso: string): string {
  return formatInTimeZone(iso, { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
}

/** 2026-11-24 → 24/11/2026: a calendar day as a French form field and a message show it (no time zone involved). */
export function frenchDay(day: string): string {
  const [y, m, d] = day.split("-");
  return `${d}/${m}/${y}`;
}

/** "2026-11" (a calendar month, YYYY-MM) → "novembre 2026". */
export function formatMonth(month: string): string {
  return formatInTimeZone(`${month}-01`, { month: "long", year: "numeric" });
}

// Building a DateTimeFormat costs far more than using one: keep it.
const parisDay = new Intl.DateTimeFormat("en-CA", {
  timeZone: TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** Today's calendar day in Paris, as YYYY-MM-DD. */
export function todayInParis(now: Date = new Date()): string {
  return parisDay.format(now);
}

/** The Paris calendar day `days` after today's (D+5), as YYYY-MM-DD. */
export function parisDayAfter(now: Date, days: number): string {
  return addCalendarDays(todayInParis(now), days);
}
