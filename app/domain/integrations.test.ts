import { expect, test } from "vitest";
import { failureOf, flagOn, isPartnerId, visiblePartners } from "./integrations";

test("a flag is on when true or a non-empty list", () => {
  expect(flagOn(true)).toBe(true);
  expect(flagOn(["g1"])).toBe(true);
  expect(flagOn([])).toBe(false);
  expect(flagOn(false)).toBe(false);
  expect(flagOn(undefined)).toBe(false);
  expect(flagOn("true")).toBe(false);
});

test("partners show in the spec's order, the Decathlon ones only with decathlon-integrations", () => {
  expect(visiblePartners({ klaro: true, uggy: ["g"], joko: [] })).toEqual(["uggy", "klaro"]);
  expect(visiblePartners({ "decathlon-intranet": true })).toEqual([]);
  expect(visiblePartners({ "decathlon-integrations": ["g"], rosaly: true })).toEqual([
    "rosaly",
    "decathlon-intranet",
    "decathlon-myPeopleDoc",
    "decathlon-winchapps",
  ]);
  expect(visiblePartners({})).toEqual([]);
});

test("a forged partner name is not a partner", () => {
  expect(isPartnerId("klaro")).toBe(true);
  expect(isPartnerId("decathlon-integrations")).toBe(false);
  expect(isPartnerId("__proto__")).toBe(false);
  expect(isPartnerId(undefined)).toBe(false);
});

test("each partner's failure message", () => {
  expect(failureOf("uggy")).toBe("getUggyFailed");
  expect(failureOf("uggy-vouchers")).toBe("getUggyFailed");
  expect(failureOf("klaro")).toBe("getKlaroFailed");
  expect(failureOf("joko")).toBe("unavailable");
});
