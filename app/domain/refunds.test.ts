import { expect, test } from "vitest";
import { REFUND_MAX_AMOUNT } from "./amount-bounds";
import {
  amountProblem,
  fieldNameOf,
  findMobilitySubtype,
  mobilityChoices,
  splitProblems,
  ticketDateProblem,
  walletTypesFor,
} from "./refunds";

const NONE = { allowances: {}, expenseRequests: {} };

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

test("an amount is whole cents, positive, and within the cap", () => {
  expect(amountProblem(1250)).toBeNull();
  expect(amountProblem(REFUND_MAX_AMOUNT)).toBeNull();
  expect(amountProblem(12.5)).toBe("amountInvalid");
  expect(amountProblem(Number.NaN)).toBe("amountInvalid");
  expect(amountProblem(0)).toBe("amountPositive");
  expect(amountProblem(-1)).toBe("amountPositive");
  expect(amountProblem(REFUND_MAX_AMOUNT + 1)).toBe("amountTooBig");
});

test("a ticket date is a day of the calendar, today at the latest", () => {
  expect(ticketDateProblem("2026-11-14", "2026-11-14")).toBeNull();
  expect(ticketDateProblem("", "2026-11-14")).toBe("ticketDateRequired");
  expect(ticketDateProblem("2026-02-30", "2026-11-14")).toBe("ticketDateInvalid");
  expect(ticketDateProblem("2026-11-15", "2026-11-14")).toBe("ticketDateFuture");
});

test("mobility costs may be paid from the mobility wallet, meals never from a refund", () => {
  expect(walletTypesFor("meal")).toEqual([]);
  expect(walletTypesFor("fuel_expenses")).toEqual(["mobility"]);
  expect(walletTypesFor("electric_vehicle_recharge")).toEqual(["mobility"]);
  expect(walletTypesFor("culture")).toEqual(["culture"]);
});

test("a split names each wrong method once, and its total only when every method and the amount hold", () => {
  const wallets = [
    { id: "w1", available: 1000 },
    { id: "w2", available: null },
  ];
  expect(splitProblems([], wallets, 500)).toEqual([{ field: "payment_methods", code: "paymentMethodsRequired" }]);
  expect(
    splitProblems(
      [
        { walletId: "w1", amount: 400 },
        { walletId: "w2", amount: 100 },
      ],
      wallets,
      500,
    ),
  ).toEqual([]);
  expect(
    splitProblems(
      [
        { walletId: "w9", amount: 100 },
        { walletId: "w1", amount: 100 },
        { walletId: "w1", amount: 100 },
      ],
      wallets,
      300,
    ),
  ).toEqual([
    { field: "payment_methods", code: "walletNotEligible" },
    { field: "payment_methods.0.amount", code: "walletNotEligible" },
    { field: "payment_methods.2.amount", code: "walletNotEligible" },
  ]);
  expect(
    splitProblems(
      [
        { walletId: "w1", amount: 1001 },
        { walletId: "w2", amount: 0 },
      ],
      wallets,
      1001,
    ),
  ).toEqual([
    { field: "payment_methods.0.amount", code: "paymentMethodOverAvailable" },
    { field: "payment_methods.1.amount", code: "paymentMethodAmountPositive" },
  ]);
  expect(splitProblems([{ walletId: "w2", amount: 400 }], wallets, 500)).toEqual([
    { field: "payment_methods", code: "paymentMethodsTotal" },
  ]);
  // The amount itself is wrong: its own error says so, not the total.
  expect(splitProblems([{ walletId: "w2", amount: 400 }], wallets, 0)).toEqual([]);
});
