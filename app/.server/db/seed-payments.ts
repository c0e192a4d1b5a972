import { isSunday } from "date-fns";
import type { DeclineCode, EntryMode } from "../../domain/authorisation";
import { addCalendarDays, isFrenchPublicHoliday } from "../../domain/calendar";
import { parisInstant, todayInParis } from "../../domain/dates";

/**
 * Marie's card payments on •••• 4242 (shared/DEMO.md: 12 approved, 3 declined, 2 frozen), as requests to the
 * authorisation engine (issue 17 §8): the seed asks `authorise` for each one, captures the approved ones and
 * keeps the frozen ones held, so the card and wallet pages show what the engine decided. `expect` is what the
 * engine must answer; the seed stops if it answers otherwise (the demo and the rules can never drift apart).
 *
 * The seed's clock is relative, so each payment's day is planned from the day the seed runs (`planPayments`):
 * a titres-restaurant payment falls on a working day (not a Sunday nor a public holiday), the Sunday decline on
 * a Sunday, every payment on a day before today (today's 25 € stay whole) and older than the one listed before it.
 *
 * The story, oldest first: the Titres-restaurant wallet is loaded a few days before its first meal; Cadeaux de
 * Noël only the day after the Sunday decline (`giftLoadedAfter`), a few days ago. Before that, a 189,90 € purchase
 * at an electronics shop finds no wallet able to pay (the saved card only tops up: insufficient funds), a cash
 * withdrawal is refused everywhere (no benefit pays cash), a 43,50 € meal takes the day's 25 € of titres-restaurant
 * and 18,50 € from the saved card, whose charge failed (the card page's first page offers to retry it), and a
 * Sunday lunch is refused (titres-restaurant never on Sundays, and nothing else could pay).
 */

export type DayRule =
  /** Titres-restaurant pay: a working day (not a Sunday nor a public holiday, Code du travail R3262-8). */
  "meal" | "sunday" | "any";

export type Expected =
  | { kind: "held"; split: Record<WalletRole, number> }
  | { kind: "captured"; split: Record<WalletRole, number>; overflow?: number }
  | { kind: "declined"; code: DeclineCode };

export type WalletRole = "meal" | "mobility" | "gift";

export interface DemoPayment {
  merchant: string;
  city: string;
  /** ISO 18245, from the engine's table (`MCC` in domain/authorisation.ts). */
  categoryCode: string;
  amount: number;
  entryMode: EntryMode;
  rule: DayRule;
  /** Days before the seed's day, before moving it to a day the rule accepts. */
  daysAgo: number;
  /** Paris time of day, HH:MM. */
  time: string;
  expect: Expected;
  /** The overflow's charge to the saved card failed (the processor says so after the decision). */
  overflowFailed?: boolean;
  /** The issuer lets the employee move this payment onto these wallet types afterwards (spec 000 §5). */
  switchableTo?: WalletRole[];
  /** Cadeaux de Noël is loaded the day after this payment (it has no balance before). */
  giftLoadedAfter?: boolean;
}

const none = { meal: 0, mobility: 0, gift: 0 };

/** Newest first, as the card page lists them. */
export const MARIE_PAYMENTS: DemoPayment[] = [
  {
    merchant: "Le Petit Café",
    city: "Lyon",
    categoryCode: "5814",
    amount: 1890,
    entryMode: "contactless",
    rule: "meal",
    daysAgo: 1,
    time: "12:35",
    expect: { kind: "held", split: { ...none, meal: 1890 } },
  },
  {
    merchant: "SNCF Connect",
    city: "Paris",
    categoryCode: "4112",
    amount: 1200,
    entryMode: "online",
    rule: "any",
    daysAgo: 1,
    time: "07:50",
    expect: { kind: "held", split: { ...none, mobility: 1200 } },
  },
  {
    merchant: "Le Bistrot des Halles",
    city: "Lyon",
    categoryCode: "5812",
    amount: 1250,
    entryMode: "contactless",
    rule: "meal",
    daysAgo: 2,
    time: "12:47",
    expect: { kind: "captured", split: { ...none, meal: 1250 } },
    switchableTo: ["meal", "gift"],
  },
  {
    merchant: "Boulangerie Pain & Co",
    city: "Lyon",
    categoryCode: "5462",
    amount: 890,
    entryMode: "contactless",
    rule: "meal",
    daysAgo: 3,
    time: "08:20",
    expect: { kind: "captured", split: { ...none, meal: 890 } },
  },
  {
    merchant: "Boutique Cadeaux Presqu'île",
    city: "Lyon",
    categoryCode: "5947",
    amount: 3500,
    entryMode: "chip_and_pin",
    rule: "any",
    daysAgo: 4,
    time: "15:20",
    expect: { kind: "captured", split: { ...none, gift: 3500 } },
  },
  {
    merchant: "Le Bouchon des Canuts",
    city: "Lyon",
    categoryCode: "5812",
    amount: 3200,
    entryMode: "chip_and_pin",
    rule: "sunday",
    daysAgo: 5,
    time: "12:50",
    expect: { kind: "declined", code: "meal_sunday" },
    giftLoadedAfter: true,
  },
  {
    merchant: "Brasserie du Rhône",
    city: "Lyon",
    categoryCode: "5812",
    amount: 1475,
    entryMode: "contactless",
    rule: "meal",
    daysAgo: 6,
    time: "13:05",
    expect: { kind: "captured", split: { ...none, meal: 1475 } },
  },
  {
    merchant: "SNCF Gare Part-Dieu",
    city: "Lyon",
    categoryCode: "4112",
    amount: 12000,
    entryMode: "chip_and_pin",
    rule: "any",
    daysAgo: 7,
    time: "18:10",
    expect: { kind: "captured", split: { ...none, mobility: 12000 } },
  },
  {
    merchant: "Le Comptoir Lyonnais",
    city: "Lyon",
    categoryCode: "5812",
    amount: 4350,
    entryMode: "chip_and_pin",
    rule: "meal",
    daysAgo: 8,
    time: "13:15",
    expect: { kind: "captured", split: { ...none, meal: 2500 }, overflow: 1850 },
    overflowFailed: true,
  },
  {
    merchant: "Sakura Sushi",
    city: "Lyon",
    categoryCode: "5812",
    amount: 1130,
    entryMode: "contactless",
    rule: "meal",
    daysAgo: 10,
    time: "12:40",
    expect: { kind: "captured", split: { ...none, meal: 1130 } },
  },
  {
    merchant: "Primeur du Plateau",
    city: "Lyon",
    categoryCode: "5499",
    amount: 960,
    entryMode: "contactless",
    rule: "meal",
    daysAgo: 12,
    time: "17:30",
    expect: { kind: "captured", split: { ...none, meal: 960 } },
  },
  {
    merchant: "Pizzeria Bella Napoli",
    city: "Villeurbanne",
    categoryCode: "5812",
    amount: 1550,
    entryMode: "contactless",
    rule: "meal",
    daysAgo: 14,
    time: "20:15",
    expect: { kind: "captured", split: { ...none, meal: 1550 } },
  },
  {
    merchant: "TCL Agence Bellecour",
    city: "Lyon",
    categoryCode: "4111",
    amount: 6000,
    entryMode: "chip_and_pin",
    rule: "any",
    daysAgo: 16,
    time: "09:00",
    expect: { kind: "captured", split: { ...none, mobility: 6000 } },
  },
  {
    merchant: "Café de la Gare",
    city: "Lyon",
    categoryCode: "5814",
    amount: 1215,
    entryMode: "contactless",
    rule: "meal",
    daysAgo: 18,
    time: "12:10",
    expect: { kind: "captured", split: { ...none, meal: 1215 } },
  },
  {
    merchant: "Saveurs d'Asie",
    city: "Lyon",
    categoryCode: "5812",
    amount: 790,
    entryMode: "contactless",
    rule: "meal",
    daysAgo: 19,
    time: "12:25",
    expect: { kind: "captured", split: { ...none, meal: 790 } },
  },
  {
    // A cash machine: no benefit pays cash (6011, automated cash disbursement).
    merchant: "Distributeur Bellecour",
    city: "Lyon",
    categoryCode: "6011",
    amount: 6000,
    entryMode: "chip_and_pin",
    rule: "any",
    daysAgo: 20,
    time: "11:40",
    expect: { kind: "declined", code: "merchant_not_allowed" },
  },
  {
    merchant: "Électro Shop Confluence",
    city: "Lyon",
    categoryCode: "5732",
    amount: 18990,
    entryMode: "chip_and_pin",
    rule: "any",
    daysAgo: 21,
    time: "16:45",
    expect: { kind: "declined", code: "insufficient_funds" },
  },
];

export interface PlannedPayment extends DemoPayment {
  /** The Paris day it happens. */
  day: string;
  at: Date;
}

/** The instant of `time` (HH:MM) on a Paris day. */
export function parisInstantOf(day: string, time: string): Date {
  const at = parisInstant(day, time);
  if (!at) throw new Error(`No ${time} on ${day} in Paris`);
  return at;
}

export function dayFits(rule: DayRule, day: string): boolean {
  const sunday = isSunday(new Date(`${day}T12:00:00`));
  if (rule === "sunday") return sunday;
  if (rule === "meal") return !sunday && !isFrenchPublicHoliday(day);
  return true;
}

/**
 * Each payment's day: its nominal day (`daysAgo` before today), moved back until its rule accepts it, and never
 * after the payment listed before it (newest first), nor on the day of another titres-restaurant payment (so each
 * meal has the day's 25 € to itself). Only days before today: the seed never spends today's allowance.
 */
export function planPayments(payments: DemoPayment[], now: Date): PlannedPayment[] {
  const today = todayInParis(now);
  const mealDays = new Set<string>();
  const planned: PlannedPayment[] = [];
  for (const payment of payments) {
    let day = addCalendarDays(today, -Math.max(1, payment.daysAgo));
    const previous = planned.at(-1);
    if (previous) {
      if (previous.day < day) day = previous.day;
      if (previous.day === day && payment.time >= previous.time) day = addCalendarDays(day, -1);
    }
    while (!dayFits(payment.rule, day) || (payment.rule === "meal" && mealDays.has(day))) {
      day = addCalendarDays(day, -1);
    }
    if (payment.rule === "meal") mealDays.add(day);
    planned.push({ ...payment, day, at: parisInstantOf(day, payment.time) });
  }
  return planned;
}
