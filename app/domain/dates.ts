import { addCalendarDays } from "./calendar";

/*
 * Paris dates in one home: showing them (Intl, decision 0004), today's Paris day, a Paris wall-clock time as an
 * instant and back. Arithmetic on calendar days, which no zone touches, is calendar.ts's (date-fns, decision 0018).
 */

/** Every date the portal shows or reads is a Paris date. */
const TIME_ZONE = "Europe/Paris";

/** The ways the portal shows a date, each one set of Intl options. */
const STYLES = {
  day: { day: "2-digit", month: "2-digit", year: "numeric" },
  time: { hour: "2-digit", minute: "2-digit", hourCycle: "h23" },
  timeWithSeconds: { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" },
  month: { month: "long", year: "numeric" },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

const formats = new Map<string, Intl.DateTimeFormat>();

/** A YYYY-MM-DD date is a calendar day, not an instant: it is shown as it is, whatever the zone. */
function formatInTimeZone(iso: string, style: keyof typeof STYLES, locale = "fr-FR"): string {
  const isDay = /^\d{4}-\d{2}-\d{2}$/.test(iso);
  const date = new Date(isDay ? `${iso}T12:00:00Z` : iso);
  // Formatters are costly to build and the styles are few: one per language, style and zone, kept.
  const key = `${locale} ${style} ${isDay ? "day" : "instant"}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { ...STYLES[style], timeZone: isDay ? "UTC" : TIME_ZONE });
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
  return formatInTimeZone(iso, "day");
}

export function formatDateTime(iso: string): string {
  return `${formatDate(iso)} ${formatInTimeZone(iso, "time")}`;
}

export function formatTime(iso: string): string {
  return formatInTimeZone(iso, "timeWithSeconds");
}

/** 2026-11-24 → 24/11/2026: a calendar day as a French form field and a message show it (no time zone involved). */
export function frenchDay(day: string): string {
  const [y, m, d] = day.split("-");
  return `${d}/${m}/${y}`;
}

/** "2026-11" (a calendar month, YYYY-MM) → "novembre 2026"; in another language when a page's words are ("November 2026"). */
export function formatMonth(month: string, locale = "fr-FR"): string {
  return formatInTimeZone(`${month}-01`, "month", locale);
}

// Building a DateTimeFormat costs far more than using one: keep it.
const parisDay = new Intl.DateTimeFormat("en-CA", {
  timeZone: TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** The Paris calendar day of an instant, as YYYY-MM-DD (a payment's, a payout's: not cached, unlike today's). */
export function parisDayOf(instant: Date): string {
  return parisDay.format(instant);
}

/** The last minute asked about and its Paris day: a page asks for today several times (a day starts on a minute). */
let lastDay = { minute: Number.NaN, day: "" };

/** Today's calendar day in Paris, as YYYY-MM-DD. */
export function todayInParis(now: Date = new Date()): string {
  const minute = Math.floor(now.getTime() / 60_000);
  if (minute !== lastDay.minute) lastDay = { minute, day: parisDayOf(now) };
  return lastDay.day;
}

/** The Paris calendar day `days` after today's (D+5), as YYYY-MM-DD. */
export function parisDayAfter(now: Date, days: number): string {
  return addCalendarDays(todayInParis(now), days);
}

// ---------------------------------------------------------------------------------------------
// Reading a typed day (issue 31 §3, decision 0057)
// ---------------------------------------------------------------------------------------------

/** The years a typed day may have: a ticket or a period of this century, nothing before 1900 nor after 2100. */
export const FIRST_YEAR = 1900;
export const LAST_YEAR = 2100;

/** Why a typed day is not one: nothing typed, no date's shape, a month, a year, or a day its month has not. */
export type DayProblem = "empty" | "format" | "month" | "dayOfMonth" | "year";

/**
 * A typed day, read: the day (YYYY-MM-DD), or the one rule it breaks. A day its month has not (31/02/2026)
 * carries what its message says: the day as typed in JJ/MM/AAAA, its month (YYYY-MM) and that month's days.
 */
export type DayReading =
  | { kind: "day"; day: string }
  | { kind: "problem"; problem: Exclude<DayProblem, "dayOfMonth"> }
  | { kind: "problem"; problem: "dayOfMonth"; typed: string; month: string; daysInMonth: number };

/** ISO, year first: 2026-11-01 (what a date picker sends), 2026/11/01. */
const YEAR_FIRST = /^(\d{4})\s*[-/.]\s*(\d{1,2})\s*[-/.]\s*(\d{1,2})$/;
/** Day first with separators, spaces around them allowed: 01/11/2026, 1/11/26, 01.11.2026, 01-11-2026, 01 11 2026. */
const DAY_FIRST = /^(\d{1,2})\s*[-/.\s]\s*(\d{1,2})\s*[-/.\s]\s*(\d{4}|\d{2})$/;
/** Digits only, as a phone's numeric keypad types them: 01112026 (JJMMAAAA) or 011126 (JJMMAA). */
const DIGITS_ONLY = /^(\d{2})(\d{2})(\d{4}|\d{2})$/;

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** The days of a month (1–12) of a year. */
function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * Reads a day typed any way a French person types one (issue 31 §3): JJ/MM/AAAA, J/M/AAAA, JJMMAAAA,
 * JJ MM AAAA (any spaces), JJ.MM.AAAA, JJ-MM-AAAA, ISO AAAA-MM-JJ; a two-digit year is of this century
 * (01/11/26 → 2026, decision 0057). When one part is wrong the answer names it (month, year, a day its month
 * has not); when several are (00000000), nothing of it is a date and the answer is its format.
 */
export function readDay(text: string): DayReading {
  const value = text.trim();
  if (value === "") return { kind: "problem", problem: "empty" };
  const yearFirst = YEAR_FIRST.exec(value);
  const dayFirst = yearFirst ? null : (DAY_FIRST.exec(value) ?? DIGITS_ONLY.exec(value));
  if (!yearFirst && !dayFirst) return { kind: "problem", problem: "format" };
  const [yearText, monthText, dayText] = yearFirst
    ? [yearFirst[1]!, yearFirst[2]!, yearFirst[3]!]
    : [dayFirst![3]!, dayFirst![2]!, dayFirst![1]!];
  const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
  const month = Number(monthText);
  const day = Number(dayText);
  const yearWrong = year < FIRST_YEAR || year > LAST_YEAR;
  const monthWrong = month < 1 || month > 12;
  const last = monthWrong ? 31 : daysInMonth(year, month);
  const dayWrong = day < 1 || day > last;
  const wrong = [yearWrong, monthWrong, dayWrong].filter(Boolean).length;
  if (wrong > 1) return { kind: "problem", problem: "format" };
  if (yearWrong) return { kind: "problem", problem: "year" };
  if (monthWrong) return { kind: "problem", problem: "month" };
  if (dayWrong)
    return {
      kind: "problem",
      problem: "dayOfMonth",
      typed: `${pad(day)}/${pad(month)}/${year}`,
      month: `${year}-${pad(month)}`,
      daysInMonth: last,
    };
  return { kind: "day", day: `${pad(year, 4)}-${pad(month)}-${pad(day)}` };
}

/**
 * The catalogue key of a typed day's problem (`dates.errors.<problem>`, decision 0057); nothing typed is said
 * by the field's own key ("Indiquez la date de début.").
 */
export function dayProblemKey(problem: DayProblem, requiredKey: string): string {
  return problem === "empty" ? requiredKey : `dates.errors.${problem}`;
}

/** A typed day (any form `readDay` reads) → YYYY-MM-DD; null when it is not a day of the calendar. */
export function parseDay(text: string): string | null {
  const reading = readDay(text);
  return reading.kind === "day" ? reading.day : null;
}
