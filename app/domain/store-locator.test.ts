import { describe, expect, test } from "vitest";
import { categoryEligible, MCC } from "./authorisation";
import {
  categoryRule,
  directionsUrl,
  formatDistance,
  parseStoreQuery,
  ruleAccepts,
  STORE_SEARCH_MAX_LENGTH,
  widerRadius,
} from "./store-locator";
import { storeSearchSchema } from "./store-locator-schemas";

describe("what a search names", () => {
  test.each([
    ["69003", { postcode: "69003" }],
    ["  69 003 ", { postcode: "69003" }],
    ["38250 Villard-de-Lans", { postcode: "38250", town: "Villard-de-Lans" }],
    ["Saint-Denis", { town: "Saint-Denis" }],
    ["L’Haÿ-les-Roses", { town: "L’Haÿ-les-Roses" }],
    ["St. Étienne", { town: "St. Étienne" }],
  ])("%j", (text, expected) => {
    expect(parseStoreQuery(text)).toEqual(expected);
  });

  test.each([
    ["", "required"],
    ["   ", "required"],
    ["%", "characters"],
    ["Lyon%", "characters"],
    ["69_03", "characters"],
    ["Saint*", "characters"],
    ["<script>", "characters"],
    ["---", "characters"],
    ["6900", "postcode"],
    ["690003", "postcode"],
    ["69 00 3", "postcode"],
    ["69003 75001", "postcode"],
    ["1er arrondissement", "postcode"],
    ["a".repeat(STORE_SEARCH_MAX_LENGTH + 1), "tooLong"],
  ])("%j is refused (%s)", (text, error) => {
    expect(parseStoreQuery(text)).toEqual({ error: `storeLocator.errors.${error}` });
  });
});

describe("the search form", () => {
  test("radius and page fall back to their defaults when made up; a malformed commune is dropped", () => {
    expect(storeSearchSchema.parse({ q: "Lyon", radius: "7", page: "-3", commune: "x' or 1=1" })).toEqual({
      q: "Lyon",
      radius: 10,
      page: 1,
    });
    expect(storeSearchSchema.parse({ q: "Lyon", radius: "50", page: "2", commune: "2A004" })).toEqual({
      q: "Lyon",
      radius: 50,
      page: 2,
      commune: "2A004",
    });
  });

  test("a refused search is an error of the field q, as a catalogue key", () => {
    const result = storeSearchSchema.safeParse({ q: "%" });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path, i.message])).toEqual([[["q"], "storeLocator.errors.characters"]]);
    expect(storeSearchSchema.safeParse({}).error?.issues[0]?.message).toBe("storeLocator.errors.required");
  });

  test("the wider radius follows, none after the widest", () => {
    expect(widerRadius(10)).toBe(20);
    expect(widerRadius(100)).toBeNull();
  });
});

describe("which shops a wallet pays at: the payment engine's rule", () => {
  const codes = [
    ...new Set([...MCC.meal.always, ...MCC.meal.groceries, ...MCC.mobility, ...MCC.culture, ...MCC.gift.excluded]),
    "5999",
    "7997",
    "0000",
  ];
  test.each(["meal", "mobility", "culture", "gift", "sport", "holidays"])(
    "%s agrees with categoryEligible on every listed code, before and after the groceries' end",
    (type) => {
      for (const day of ["2026-06-01", "2027-01-01"])
        for (const code of codes)
          expect([type, day, code, ruleAccepts(categoryRule(type, day), code)]).toEqual([
            type,
            day,
            code,
            categoryEligible(type, code, day),
          ]);
    },
  );
});

test("distances read in French: metres to 10 m, then kilometres to one decimal, then whole", () => {
  const nbsp = (s: string) => s.replace(/\u00a0|\u202f/g, " ");
  expect(nbsp(formatDistance(0))).toBe("0 m");
  expect(nbsp(formatDistance(347))).toBe("350 m");
  expect(nbsp(formatDistance(996))).toBe("1 km");
  expect(nbsp(formatDistance(1_234))).toBe("1,2 km");
  expect(nbsp(formatDistance(9_960))).toBe("10 km");
  expect(nbsp(formatDistance(24_420))).toBe("24 km");
});

test("directions go to a maps service with the address, encoded", () => {
  expect(directionsUrl({ line1: "12 rue d'Algérie", zipcode: "69001", city: "Lyon" })).toBe(
    "https://www.google.com/maps/dir/?api=1&destination=12%20rue%20d'Alg%C3%A9rie%2C%2069001%20Lyon%2C%20France",
  );
});
