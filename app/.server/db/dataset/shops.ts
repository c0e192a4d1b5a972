import { isFrenchPublicHoliday } from "../../../domain/calendar";
import type { EntryMode } from "../../../domain/authorisation";
import { parisInstant } from "../../../domain/dates";
import type { Random } from "./random";

/** A kind of shop a generated payment happens at: ISO 18245 category, how the card is used, the usual amounts. */
interface Shop {
  names: readonly string[];
  categoryCode: string;
  entryMode: EntryMode;
  /** Cents. */
  min: number;
  max: number;
}

const shop = (categoryCode: string, entryMode: EntryMode, min: number, max: number, names: string[]): Shop => ({
  names,
  categoryCode,
  entryMode,
  min,
  max,
});

/** Lunch: restaurants and fast food (titres-restaurant). */
const LUNCH = shop("5812", "contactless", 850, 1900, [
  "Le Bistrot des Halles",
  "Brasserie du Rhône",
  "Sakura Sushi",
  "Pizzeria Bella Napoli",
  "Le Comptoir Lyonnais",
  "Saveurs d'Asie",
  "Brasserie de la Gare",
  "Chez Paulette",
]);
const SNACK = shop("5814", "contactless", 280, 950, ["Le Petit Café", "Café de la Gare", "Green Bowl", "Bagel Corner"]);
const BAKERY = shop("5462", "contactless", 180, 780, ["Boulangerie Pain & Co", "Maison Fournier", "Au Bon Pain"]);
const FOOD_SHOP = shop("5499", "contactless", 450, 1800, ["Primeur du Plateau", "Épicerie Fine Mercière"]);
const SUPERMARKET = shop("5411", "chip_and_pin", 1200, 6500, ["Carrefour City", "Monoprix", "Intermarché Express"]);
const TRANSIT = shop("4111", "contactless", 190, 210, ["TCL Agence Bellecour", "RATP", "TCL Part-Dieu"]);
const TRAIN = shop("4112", "online", 1900, 9800, ["SNCF Connect", "SNCF Gare Part-Dieu", "Ouigo"]);
const BIKE = shop("5940", "chip_and_pin", 1500, 12000, ["Vélo Station Part-Dieu", "Cycles Lumière"]);
const CHARGING = shop("5552", "online", 600, 2400, ["Recharge Express Gerland", "Ionity Lyon Nord"]);
const GIFT = shop("5947", "chip_and_pin", 1500, 6000, ["Boutique Cadeaux Presqu'île", "Nature & Découvertes"]);
const TOYS = shop("5945", "chip_and_pin", 1800, 7500, ["La Grande Récré", "JouéClub Confluence"]);
const CLOTHES = shop("5651", "chip_and_pin", 2500, 9000, ["Galeries Lafayette", "Fnac Bellecour"]);
const ELECTRONICS = shop("5732", "chip_and_pin", 9000, 45000, ["Électro Shop Confluence", "Boulanger Part-Dieu"]);
const CASH = shop("6011", "chip_and_pin", 2000, 8000, ["Distributeur Bellecour", "Distributeur Part-Dieu"]);

const CITIES = ["Lyon", "Lyon", "Lyon", "Villeurbanne", "Paris"] as const;

/** One planned card payment of a day: minutes after Paris midnight, where, how much. */
export interface PlannedAttempt {
  minutes: number;
  merchant: string;
  city: string;
  categoryCode: string;
  entryMode: EntryMode;
  amount: number;
}

/** How much one person uses the card: chances of each habit on a day (several trips a day count one each). */
export interface Habits {
  breakfast: number;
  lunch: number;
  snack: number;
  groceries: number;
  /** Public-transport trips on a working day, at most. */
  trips: number;
  train: number;
  gifts: number;
  /** Attempts the engine is expected to refuse: a Sunday lunch, a cash machine, a purchase beyond the wallets. */
  mistakes: number;
}

/** Marie's history: a heavy user, three or four payments a working day. */
export const HEAVY: Habits = {
  breakfast: 0.8,
  lunch: 0.97,
  snack: 0.7,
  groceries: 0.25,
  trips: 1,
  train: 0.1,
  gifts: 0.15,
  mistakes: 0.05,
};

/** A company's employee: lunch on most working days, the odd trip, gifts around Christmas. */
export const TYPICAL: Habits = {
  breakfast: 0.03,
  lunch: 0.2,
  snack: 0.02,
  groceries: 0.02,
  trips: 0,
  train: 0.012,
  gifts: 0.01,
  mistakes: 0.004,
};

function attempt(random: Random, kind: Shop, from: number, to: number): PlannedAttempt {
  return {
    minutes: random.int(from, to),
    merchant: random.pick(kind.names),
    city: random.pick(CITIES),
    categoryCode: kind.categoryCode,
    entryMode: kind.entryMode,
    amount: random.int(kind.min / 5, kind.max / 5) * 5,
  };
}

/** What the day's payments depend on, worked out once a day for everyone. */
export interface DayFacts {
  day: string;
  /** 0 Sunday … 6 Saturday. */
  weekday: number;
  /** Monday to Friday, not a public holiday. */
  working: boolean;
}

export function dayFacts(day: string): DayFacts {
  const weekday = new Date(`${day}T12:00:00Z`).getUTCDay();
  return { day, weekday, working: weekday !== 0 && weekday !== 6 && !isFrenchPublicHoliday(day) };
}

/**
 * The card payments one person tries on a Paris day, in time order: meals on working days (breakfast, lunch
 * between 11:45 and 14:00, a snack), groceries, transport, gift shops (more in December), and now and then an
 * attempt the engine refuses (lunch on a Sunday, a cash machine, an electronics purchase beyond the wallets).
 */
export function dayAttempts(random: Random, facts: DayFacts, habits: Habits): PlannedAttempt[] {
  const { day, weekday, working } = facts;
  const attempts: PlannedAttempt[] = [];
  const maybe = (chance: number, kind: Shop, from: number, to: number) => {
    if (random.chance(chance)) attempts.push(attempt(random, kind, from, to));
  };
  if (working) {
    maybe(habits.breakfast, BAKERY, 7 * 60 + 30, 8 * 60 + 50);
    maybe(habits.lunch, LUNCH, 11 * 60 + 45, 14 * 60);
    maybe(habits.snack, SNACK, 15 * 60 + 30, 17 * 60);
    for (let trip = 0; trip < habits.trips; trip += 1) maybe(0.8, TRANSIT, 7 * 60 + trip * 180, 9 * 60 + trip * 180);
    maybe(habits.train, TRAIN, 17 * 60, 19 * 60);
  } else if (weekday === 0) {
    maybe(habits.mistakes * 4, LUNCH, 12 * 60, 13 * 60 + 30);
  }
  maybe(habits.groceries, random.chance(0.5) ? SUPERMARKET : FOOD_SHOP, 17 * 60 + 30, 19 * 60 + 45);
  const december = day.slice(5, 7) === "12";
  maybe(december ? habits.gifts * 6 : habits.gifts, random.pick([GIFT, TOYS, CLOTHES]), 10 * 60, 19 * 60);
  maybe(habits.train / 4, random.chance(0.5) ? BIKE : CHARGING, 10 * 60, 18 * 60);
  maybe(habits.mistakes / 2, CASH, 9 * 60, 20 * 60);
  maybe(habits.mistakes / 2, ELECTRONICS, 10 * 60, 19 * 60);
  return attempts.sort((a, b) => a.minutes - b.minutes);
}

/**
 * The instant of a Paris wall-clock time, `minutes` after midnight on `day`. The offset is looked up once a day
 * (the domain's `parisInstant` asks Intl twice a call): generated payments happen between 7:00 and 21:00, never
 * in the night hour a change of offset moves.
 */
export class ParisClock {
  private readonly offsets = new Map<string, number>();

  at(day: string, minutes: number): Date {
    let offset = this.offsets.get(day);
    if (offset === undefined) {
      const noon = parisInstant(day, "12:00")!;
      offset = Date.parse(`${day}T12:00:00Z`) - noon.getTime();
      this.offsets.set(day, offset);
    }
    return new Date(Date.parse(`${day}T00:00:00Z`) + minutes * 60_000 - offset);
  }
}
