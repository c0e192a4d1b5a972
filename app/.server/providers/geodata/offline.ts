import { frenchDataset, normaliseName, type DatasetCommune, type FrenchDataset } from "./dataset";
import {
  PLACES_MAX,
  type DistanceResult,
  type GeoAddress,
  type Geodata,
  type GeoPoint,
  type LocateResult,
  type Place,
  type PlaceSearch,
} from "./port";

/** The mean Earth radius (IUGG), in metres. */
const EARTH_RADIUS_M = 6_371_008.8;

/** Countries (ISO 3166-1 alpha-2) whose addresses the French dataset covers: France and its overseas departments. */
const FRENCH_COUNTRIES = new Set(["FR", "GP", "MQ", "GF", "RE", "YT"]);

/** Great-circle (haversine) distance between two points, in metres. */
export function greatCircleMeters(a: GeoPoint, b: GeoPoint): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The city as typed, made comparable: "CEDEX" and its number dropped, then `normaliseName`. */
function normaliseCity(city: string): string {
  return normaliseName(city.replace(/\bcedex\b(\s*\d+)?/gi, " "));
}

/** Does the city typed name this commune? Its name, a former commune merged into it, or — for an arrondissement —
 * its city alone ("Lyon") or with the arrondissement's number ("Lyon 3", "Lyon 3e", "Lyon 3ème arrondissement"). */
function names(commune: DatasetCommune, city: string): boolean {
  if (normaliseName(commune.name) === city || commune.aliases.includes(city)) return true;
  const arrondissement = /^(\D+?) (\d{1,2})(?: ?(?:e|er|eme|ere))?(?: arrondissement)?$/.exec(city);
  if (!arrondissement || !commune.aliases.includes(arrondissement[1]!)) return false;
  // INSEE codes of arrondissements: 751NN (Paris), 6938N (Lyon), 132NN (Marseille).
  const number = Number(commune.code.startsWith("6938") ? commune.code.slice(4) : commune.code.slice(3));
  return Number(arrondissement[2]) === number;
}

/** The shortest beginning of a name searched for among the communes' names when no commune has the name itself. */
const PREFIX_MIN_LENGTH = 3;

/** A located commune as a place, with the postcode searched (else its first). */
function placeOf(commune: DatasetCommune, postcode?: string): Place[] {
  if (!commune.point) return [];
  const { code, name, department, point } = commune;
  return [{ code, name, department, point, postcode: postcode ?? commune.postcodes[0] ?? "" }];
}

/** The communes of a name: those that have it, else those whose name begins with it. */
function communesNamed(data: FrenchDataset, town: string): DatasetCommune[] {
  const name = normaliseName(town);
  const exact = data.byName.get(name);
  if (exact) return exact;
  if (name.length < PREFIX_MIN_LENGTH) return [];
  const found: DatasetCommune[] = [];
  for (const [key, communes] of data.byName) if (key.startsWith(name)) found.push(...communes);
  return found.sort((a, b) => b.population - a.population);
}

/**
 * The communes a search names (the store locator's postcode or town), the most populated first, at most
 * PLACES_MAX; none when nothing matches or the commune has no point.
 */
export async function findPlaces(search: PlaceSearch, dataset = frenchDataset): Promise<Place[]> {
  return findIn(await dataset(), search).slice(0, PLACES_MAX);
}

function findIn(data: FrenchDataset, search: PlaceSearch): Place[] {
  if ("code" in search) {
    const commune = data.byCode.get(search.code);
    return commune ? placeOf(commune) : [];
  }
  if (!("postcode" in search)) return communesNamed(data, search.town).flatMap((c) => placeOf(c));
  const communes = data.byPostcode.get(search.postcode.replace(/\s+/g, "")) ?? [];
  const city = normaliseCity(search.town ?? "");
  return communes.filter((c) => city === "" || names(c, city)).flatMap((c) => placeOf(c, search.postcode));
}

export interface OfflineGeodataOptions {
  /** Straight line × this = the road estimate (GEODATA_ROAD_FACTOR). */
  roadFactor: number;
  /** Tests only: another dataset than the French one of decision 0028. */
  dataset?: () => Promise<FrenchDataset>;
}

export interface OfflineGeodata extends Geodata {
  /** The straight-line estimate between two located points (the routing adapter falls back on it). */
  estimate(home: GeoPoint, work: GeoPoint): number;
}

/**
 * Locates an address by its postcode (and its city when the postcode covers several communes) in the French
 * dataset, and measures home → work as the great-circle distance × the road factor, labelled an estimate.
 * The dataset is loaded on the first call, once per process.
 */
export function createOfflineGeodata(options: OfflineGeodataOptions): OfflineGeodata {
  const dataset = options.dataset ?? frenchDataset;
  const estimate = (home: GeoPoint, work: GeoPoint) => Math.round(greatCircleMeters(home, work) * options.roadFactor);

  async function locate(address: GeoAddress): Promise<LocateResult> {
    if (!FRENCH_COUNTRIES.has(address.country.trim().toUpperCase())) return { kind: "unsupportedCountry" };
    const postcode = address.zipcode.replace(/\s+/g, "");
    if (!/^\d{5}$/.test(postcode)) return { kind: "unknownPostcode" };
    const communes = (await dataset()).byPostcode.get(postcode);
    if (!communes || communes.length === 0) return { kind: "unknownPostcode" };
    const city = normaliseCity(address.city);
    // No city: the postcode's most populated commune. A city: the commune it names, else the address is refused
    // (a postcode and a city that do not go together).
    const commune = city === "" ? communes[0]! : communes.find((c) => names(c, city));
    if (!commune?.point) return { kind: "unknownPostcode" };
    return { kind: "found", point: commune.point, label: commune.name };
  }

  async function distance(home: GeoAddress, work: GeoAddress): Promise<DistanceResult> {
    const from = await locate(home);
    if (from.kind !== "found") return { kind: "notLocated", field: "home_address", reason: from.kind };
    const to = await locate(work);
    if (to.kind !== "found") return { kind: "notLocated", field: "work_address", reason: to.kind };
    return { kind: "measured", oneWayMeters: estimate(from.point, to.point), source: "estimate" };
  }

  return { name: "offline", locate, distance, estimate };
}
