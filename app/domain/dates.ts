import { addCalendarDays } from "./calendar";

/*
 * Paris dates in one home: showing them (Intl, decision 0004), today's Paris day, a Paris wall-clock time as an
 * instant and back. Arithmetic on calendar days, which no zone touches, is calendar.ts's (date-fns, decision 0018).
 */

/** Every date the portal shows or reads is a Paris date. */
const TIME_ZONE = "Europe/Paris";

const formats = new Map<string, Intl.DateTimeFormat>();

/** A YYYY-MM-DD date is a calendar day, not an instant: it is shown as it is, whatever the zone. */
function formatInTimeZone(iso: string, options: Intl.DateTimeFormatOptions): string {
  const isDay = /^\d{4}-\d{2}-\d{2}$/.test(iso);
  const date = new Date(isDay ? `${iso}T12:00:00Z` : iso);
  const resolved = { ...options, timeZone: isDay ? "UTC" : TIME_ZONE };
  // Formatters are costly to build and the options are few: one per set of options.
  const key = JSON.stringify(resolved);
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat("fr-FR", resolved);
    formats.set(key, format);
  }
  return format.format(date);
}

/** A Paris wall-clock day and time (2026-11-24, 12:30) → the instant; null for a day or time that does not exist. */
export function parisInstant(day: string, time: string): Date | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!d || !t) return null;
  const [y, mo, da, h, mi] = [d[1], d[2], d[3], t[1], t[2]].map(Number) as [number, number, number, number, number];
  if (mo < 1 || mo > 12 || da < 1 || da > 31 || h > 23 || mi > 59) return null;
  const wall = Date.UTC(y, mo - 1, da, h, mi);
  if (new Date(wall).getUTCDate() !== da) return null;
  // The zone's offset at that instant, found twice (the second pass settles a guess across a change of offset).
  let instant = wall;
  for (let i = 0; i < 2; i += 1) instant = wall - offsetAt(instant);
  return new Date(instant);
}

function offsetAt(instant: number): number {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: TIME_ZONE,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(new Date(instant));
  const part = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute")) - instant;
}

/** Now in Paris as the form's defaults: { day: "2026-11-24", time: "12:30" }. */
export function parisNow(now = new Date()): { day: string; time: string } {
  const local = new Date(now.getTime() + offsetAt(now.getTime()));
  const iso = local.toISOString();
  return { day: iso.slice(0, 10), time: iso.slice(11, 16) };
}

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
