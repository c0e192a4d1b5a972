import { beforeAll, describe, expect, test } from "vitest";
import { frenchDataset } from "./dataset";
import { createOfflineGeodata, greatCircleMeters } from "./offline";
import type { GeoAddress, GeoPoint } from "./port";

/**
 * The offline adapter on the real French dataset (decision 0028). References for the straight-line distances:
 * the coordinates in Wikipedia's infobox of each place, converted from degrees-minutes-seconds —
 * fr.wikipedia.org/wiki/3e_arrondissement_de_Lyon (45°45′31″N 4°51′21″E),
 * fr.wikipedia.org/wiki/6e_arrondissement_de_Lyon (45°46′18″N 4°51′17″E),
 * en.wikipedia.org/wiki/2nd_arrondissement_of_Lyon (45°45′15″N 4°49′45″E),
 * de.wikipedia.org/wiki/4._Arrondissement_(Paris) (48°51′37″N 2°21′01″E),
 * fr.wikipedia.org/wiki/1er_arrondissement_de_Marseille (43°17′51″N 5°22′52″E),
 * en.wikipedia.org/wiki/Aix-en-Provence (43°31′35″N 5°26′44″E).
 */
const dms = (d: number, m: number, s: number) => d + m / 60 + s / 3600;
const REFERENCE: Record<string, GeoPoint> = {
  lyon3: { lat: dms(45, 45, 31), lon: dms(4, 51, 21) },
  lyon6: { lat: dms(45, 46, 18), lon: dms(4, 51, 17) },
  lyon2: { lat: dms(45, 45, 15), lon: dms(4, 49, 45) },
  paris4: { lat: dms(48, 51, 37), lon: dms(2, 21, 1) },
  marseille1: { lat: dms(43, 17, 51), lon: dms(5, 22, 52) },
  aix: { lat: dms(43, 31, 35), lon: dms(5, 26, 44) },
};

const address = (zipcode: string, city: string, country = "FR"): GeoAddress => ({
  line1: "1 rue de la Paix",
  zipcode,
  city,
  country,
});

const straight = createOfflineGeodata({ roadFactor: 1 });

beforeAll(async () => {
  await frenchDataset();
}, 60_000);

test("the great-circle distance: one degree along a meridian is 111.195 km on the mean Earth radius", () => {
  expect(greatCircleMeters({ lat: 45, lon: 4 }, { lat: 46, lon: 4 })).toBeCloseTo(111_195, 0);
  expect(greatCircleMeters({ lat: 45, lon: 4 }, { lat: 45, lon: 4 })).toBe(0);
});

describe("straight-line distances of known pairs, within 1 km of the reference", () => {
  const cases: [string, GeoAddress, GeoAddress, GeoPoint, GeoPoint][] = [
    ["Lyon 3e – Lyon 6e", address("69003", "Lyon"), address("69006", "Lyon"), REFERENCE.lyon3!, REFERENCE.lyon6!],
    ["Paris 4e – Lyon 2e", address("75004", "Paris"), address("69002", "Lyon"), REFERENCE.paris4!, REFERENCE.lyon2!],
    [
      "Marseille 1er – Aix-en-Provence",
      address("13001", "Marseille"),
      address("13100", "Aix-en-Provence"),
      REFERENCE.marseille1!,
      REFERENCE.aix!,
    ],
  ];
  test.each(cases)("%s", async (_name, home, work, refHome, refWork) => {
    const reference = greatCircleMeters(refHome, refWork);
    const result = await straight.distance(home, work);
    expect(result.kind).toBe("measured");
    if (result.kind !== "measured") return;
    expect(result.source).toBe("estimate");
    expect(Math.abs(result.oneWayMeters - reference)).toBeLessThanOrEqual(1000);
  });
});

test("the road factor multiplies the straight line, rounded to the metre", async () => {
  const home = address("13001", "Marseille");
  const work = address("13100", "Aix-en-Provence");
  const line = await straight.distance(home, work);
  const road = await createOfflineGeodata({ roadFactor: 1.3 }).distance(home, work);
  if (line.kind !== "measured" || road.kind !== "measured") throw new Error("not measured");
  expect(road.oneWayMeters).toBeGreaterThan(line.oneWayMeters);
  expect(Math.abs(road.oneWayMeters - line.oneWayMeters * 1.3)).toBeLessThanOrEqual(1);
  expect(Number.isInteger(road.oneWayMeters)).toBe(true);
});

test("arrondissements of Paris, Lyon and Marseille each have their own point", async () => {
  const points = new Map<string, string>();
  for (const [zipcode, city, label] of [
    ["69003", "Lyon", "Lyon 3e Arrondissement"],
    ["69006", "Lyon", "Lyon 6e Arrondissement"],
    ["75001", "Paris", "Paris 1er Arrondissement"],
    ["75015", "Paris", "Paris 15e Arrondissement"],
    ["75116", "Paris", "Paris 16e Arrondissement"],
    ["13001", "Marseille", "Marseille 1er Arrondissement"],
    ["13008", "Marseille", "Marseille 8e Arrondissement"],
  ] as const) {
    const found = await straight.locate(address(zipcode, city));
    expect(found).toMatchObject({ kind: "found", label });
    if (found.kind === "found") points.set(zipcode, `${found.point.lat},${found.point.lon}`);
  }
  expect(new Set(points.values()).size).toBe(points.size);
});

test("the city may be written as people write it: case, accents, CEDEX, Saint abbreviated, the arrondissement's number", async () => {
  for (const [zipcode, city, label] of [
    ["69003", "LYON CEDEX 03", "Lyon 3e Arrondissement"],
    ["69003", "Lyon 3e", "Lyon 3e Arrondissement"],
    ["69003", "lyon 3ème arrondissement", "Lyon 3e Arrondissement"],
    ["13100", "aix en provence", "Aix-en-Provence"],
    ["13100", "Le Tholonet", "Le Tholonet"],
    ["01300", "Groslée-St-Benoît", "Groslée-Saint-Benoit"],
    // A former commune merged into a commune nouvelle (commune déléguée) is found as the new commune.
    ["01300", "Arbignieu", "Arboys en Bugey"],
  ] as const) {
    expect(await straight.locate(address(zipcode, city)), `${zipcode} ${city}`).toMatchObject({ kind: "found", label });
  }
});

test("no city: the postcode's most populated commune", async () => {
  expect(await straight.locate(address("13100", " "))).toMatchObject({ kind: "found", label: "Aix-en-Provence" });
});

test("an unknown or malformed postcode is not located", async () => {
  for (const zipcode of ["99999", "00000", "6900", "ABCDE", ""]) {
    expect(await straight.locate(address(zipcode, "Lyon")), zipcode).toEqual({ kind: "unknownPostcode" });
  }
  expect(await straight.distance(address("99999", "Nulle-Part"), address("69006", "Lyon"))).toEqual({
    kind: "notLocated",
    field: "home_address",
    reason: "unknownPostcode",
  });
});

test("a postcode and a city that do not go together are refused, not guessed", async () => {
  expect(await straight.locate(address("69003", "Marseille"))).toEqual({ kind: "unknownPostcode" });
  expect(await straight.locate(address("13001", "Marseille 2e"))).toEqual({ kind: "unknownPostcode" });
  expect(await straight.locate(address("13100", "Lyon"))).toEqual({ kind: "unknownPostcode" });
  expect(await straight.distance(address("69003", "Lyon"), address("69006", "Villeurbanne"))).toEqual({
    kind: "notLocated",
    field: "work_address",
    reason: "unknownPostcode",
  });
});

test("only French addresses (France and its overseas departments) are located", async () => {
  for (const country of ["BE", "DE", "CH", "", "FRA"]) {
    expect(await straight.locate(address("69003", "Lyon", country)), country).toEqual({ kind: "unsupportedCountry" });
  }
  expect(await straight.locate(address("69003", "Lyon", " fr "))).toMatchObject({ kind: "found" });
  expect(await straight.locate(address("97400", "Saint-Denis", "RE"))).toMatchObject({ kind: "found" });
  expect(await straight.distance(address("69003", "Lyon"), address("1000", "Bruxelles", "BE"))).toEqual({
    kind: "notLocated",
    field: "work_address",
    reason: "unsupportedCountry",
  });
});

test("a commune without a GeoNames place of its own takes the centroid of its postcode's located communes", async () => {
  const { byPostcode } = await frenchDataset();
  const [postcode, communes] = [...byPostcode].find(
    ([, list]) =>
      list.some((c) => c.pointFrom === "postcode") &&
      // one postcode only for that commune, so its neighbours are exactly this list
      [...byPostcode.values()].filter((other) => other.includes(list.find((c) => c.pointFrom === "postcode")!))
        .length === 1,
  )!;
  const fallback = communes.find((c) => c.pointFrom === "postcode")!;
  const located = communes.filter((c) => c.pointFrom === "commune").map((c) => c.point!);
  expect(located.length).toBeGreaterThan(0);
  expect(fallback.point!.lat).toBeCloseTo(located.reduce((sum, p) => sum + p.lat, 0) / located.length, 9);
  expect(fallback.point!.lon).toBeCloseTo(located.reduce((sum, p) => sum + p.lon, 0) / located.length, 9);
  expect(await straight.locate(address(postcode, fallback.name))).toEqual({
    kind: "found",
    point: fallback.point,
    label: fallback.name,
  });
});

test("the dataset is built once per process and keeps nearly every commune located", async () => {
  const first = await frenchDataset();
  expect(await frenchDataset()).toBe(first);
  const { commune, postcode, intercommunality, none } = first.counts;
  const total = commune + postcode + intercommunality + none;
  expect(total).toBeGreaterThan(34_000);
  // A point of its own for the places GeoNames keeps (500 inhabitants or more), a neighbour's for the others.
  expect(commune).toBeGreaterThan(14_000);
  expect(none / total).toBeLessThan(0.01);
});
