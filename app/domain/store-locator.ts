import { MCC, MEAL_GROCERIES_UNTIL } from "./authorisation";

/**
 * The store locator (issue 30 item 6, spec 001 §2.9): the search form's rules, which shops a wallet pays at,
 * and how distances read. Pure, shared by the service (app/.server/services/store-locator.ts) and the page.
 */

/** The longest search looked at: a town's name, with its postcode. */
export const STORE_SEARCH_MAX_LENGTH = 80;

/** The radii offered, in km; the search starts at the default and an empty one suggests the next. */
export const STORE_RADII_KM = [2, 5, 10, 20, 50, 100] as const;
export type StoreRadius = (typeof STORE_RADII_KM)[number];
export const DEFAULT_RADIUS_KM: StoreRadius = 10;

/** Shops per page of results; the pages end at STORE_MAX_PAGE (then: a smaller radius). */
export const STORE_PAGE_SIZE = 10;
export const STORE_MAX_PAGE = 20;

/** The radius after `radius`, or null at the widest: what "no shop in range" suggests. */
export function widerRadius(radius: StoreRadius): StoreRadius | null {
  return STORE_RADII_KM[STORE_RADII_KM.indexOf(radius) + 1] ?? null;
}

/**
 * What a search names: a postcode (5 digits, a space allowed after the département: "69 003"), a postcode and
 * a town ("38250 Villard-de-Lans"), or a town.
 */
export type StoreQuery = { postcode: string; town?: string } | { town: string };

/** Letters (any alphabet's, accents included), digits, spaces, hyphens, apostrophes and dots ("St."). */
const TOWN_CHARACTERS = /^[\p{L}\p{M}\d '’.-]+$/u;

/** The search as typed → what it names, or the catalogue key of why it is refused. */
export function parseStoreQuery(text: string): StoreQuery | { error: string } {
  const query = text.trim().replace(/\s+/g, " ");
  if (query === "") return { error: "storeLocator.errors.required" };
  if (query.length > STORE_SEARCH_MAX_LENGTH) return { error: "storeLocator.errors.tooLong" };
  if (!TOWN_CHARACTERS.test(query)) return { error: "storeLocator.errors.characters" };
  const postcode = /^(\d{2}) ?(\d{3})(?: (.*))?$/.exec(query);
  if (postcode) {
    const town = postcode[3];
    if (town !== undefined && /\d/.test(town)) return { error: "storeLocator.errors.postcode" };
    return { postcode: `${postcode[1]}${postcode[2]}`, ...(town ? { town } : {}) };
  }
  // Digits that are not a postcode: "6900", "690003", "69 00 3".
  if (/^[\d ]+$/.test(query) || /^\d/.test(query)) return { error: "storeLocator.errors.postcode" };
  if (!/\p{L}/u.test(query)) return { error: "storeLocator.errors.characters" };
  return { town: query };
}

/**
 * Which merchant categories a wallet of this type pays at on this Paris day, as the payment engine decides
 * (`categoryEligible`, domain/authorisation.ts, reading the same MCC table): only the codes listed, every code but
 * those listed (gifts), or none (a type without card rules yet: sport, holidays…). The database filters with it.
 */
export type CategoryRule = { only: readonly string[] } | { except: readonly string[] } | "none";

export function categoryRule(walletType: string, day: string): CategoryRule {
  switch (walletType) {
    case "meal":
      return { only: day <= MEAL_GROCERIES_UNTIL ? [...MCC.meal.always, ...MCC.meal.groceries] : MCC.meal.always };
    case "mobility":
      return { only: MCC.mobility };
    case "culture":
      return { only: MCC.culture };
    case "gift":
      return { except: MCC.gift.excluded };
    default:
      return "none";
  }
}

/** Whether a shop of this category code takes a wallet under `rule`. */
export function ruleAccepts(rule: CategoryRule, categoryCode: string): boolean {
  if (rule === "none") return false;
  return "only" in rule ? rule.only.includes(categoryCode) : !rule.except.includes(categoryCode);
}

const kilometres = new Intl.NumberFormat("fr-FR", { style: "unit", unit: "kilometer", maximumFractionDigits: 1 });
const wholeKilometres = new Intl.NumberFormat("fr-FR", { style: "unit", unit: "kilometer", maximumFractionDigits: 0 });
const metres = new Intl.NumberFormat("fr-FR", { style: "unit", unit: "meter", maximumFractionDigits: 0 });

/**
 * A distance in French: "350 m" under a kilometre (to 10 m), "1,2 km" to one decimal under 10 km, "24 km"
 * beyond (a distance between communes' points is no finer than that).
 */
export function formatDistance(meters: number): string {
  if (meters < 995) return metres.format(Math.round(meters / 10) * 10);
  if (meters < 9_950) return kilometres.format(Math.round(meters / 100) / 10);
  return wholeKilometres.format(Math.round(meters / 1000));
}

/** Directions to a shop's address on a map service (Google Maps URLs: the app on a phone, the site elsewhere). */
export function directionsUrl(address: { line1: string; zipcode: string; city: string }): string {
  const destination = `${address.line1}, ${address.zipcode} ${address.city}, France`;
  return `https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent(destination)}`;
}
