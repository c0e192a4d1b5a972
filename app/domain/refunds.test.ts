import { expect, test } from "vitest";
import { fieldNameOf, findMobilitySubtype, mobilityChoices, parseDay } from "./refunds";

const NONE = { allowances: {}, expenseRequests: {} };

test("a day is read as JJ/MM/AAAA or YYYY-MM-DD, and only when the calendar has it", () => {
  expect(parseDay("14/11/2026")).toBe("2026-11-14");
  expect(parseDay(" 4/1/2026 ")).toBe("2026-01-04");
  expect(parseDay("2026-11-14")).toBe("2026-11-14");
  expect(parseDay("29/02/2028")).toBe("2028-02-29");
  for (const bad of ["31/02/2026", "29/02/2027", "00/01/2026", "14/13/2026", "2026-13-01", "hier", "", "14/11/26"])
    expect(parseDay(bad), bad).toBeNull();
});

test("the platform's error keys become conform's field names", () => {
  expect(fieldNameOf("payment_methods.0.amount")).toBe("payment_methods[0].amount");
  expect(fieldNameOf("payment_methods.12")).toBe("payment_methods[12]");
  expect(fieldNameOf("iban")).toBe("iban");
  expect(fieldNameOf("ticket_date")).toBe("ticket_date");
});

test("mobility subtypes behind a feature are offered only with it (true, or one of the person's groups)", () => {
  const ids = (features: Parameters<typeof mobilityChoices>[0], groups: string[] = []) =>
    mobilityChoices(features, groups).flatMap((g) => g.subtypes.map((s) => s.id));
  expect(ids(NONE)).toEqual(["subscription_ticket", "bicycle_shop", "bicycle_service", "carpooling_app", "carsharing"]);
  const all = ids({
    allowances: { carpooling: true, bicycle: true, subscription: true },
    expenseRequests: { "mobility-electric-vehicle-recharge": true, "fuel-expenses": true },
  });
  expect(all).toHaveLength(10);
  expect(ids({ allowances: { carpooling: ["grp_a"] }, expenseRequests: {} }, ["grp_b"])).not.toContain("carpooling");
  expect(ids({ allowances: { carpooling: ["grp_a"] }, expenseRequests: {} }, ["grp_a"])).toContain("carpooling");
  expect(ids({ allowances: { bicycle: false }, expenseRequests: {} })).not.toContain("ikv");
});

test("only carpooling, ikv and subscription open an allowance wizard", () => {
  expect(findMobilitySubtype("ikv")).toEqual({
    group: "bicycle",
    subtype: expect.objectContaining({ allowance: "bicycle" }),
  });
  expect(findMobilitySubtype("carpooling")?.subtype.allowance).toBe("carpooling");
  expect(findMobilitySubtype("subscription")?.subtype.allowance).toBe("subscription");
  for (const id of [
    "subscription_ticket",
    "bicycle_shop",
    "carpooling_app",
    "electric_vehicle_recharge",
    "fuel_expenses",
  ])
    expect(findMobilitySubtype(id)?.subtype.allowance, id).toBeNull();
  expect(findMobilitySubtype("rocket")).toBeNull();
});
