import { describe, expect, test } from "vitest";
import { allocatePartialCapture, allocateRefund, maxCapture } from "./authorisation-lifecycle";

describe("maxCapture", () => {
  test("restaurants, bars, fast food and fuel: +20 %, rounded down to the cent; elsewhere the amount itself", () => {
    for (const code of ["5812", "5813", "5814", "5541", "5542"]) expect(maxCapture(1999, code)).toBe(1999 + 399);
    expect(maxCapture(1000, "5942")).toBe(1000);
    expect(maxCapture(1000, null)).toBe(1000);
  });
});

describe("allocations", () => {
  const holds = [
    { walletId: "a", amount: 2500 },
    { walletId: "b", amount: 500 },
  ];
  test("a partial capture lowers the overflow, then the last wallets", () => {
    expect(allocatePartialCapture(holds, 1000, 3200)).toEqual({ wallets: holds, overflow: 200 });
    expect(allocatePartialCapture(holds, 1000, 2600)).toEqual({
      wallets: [
        { walletId: "a", amount: 2500 },
        { walletId: "b", amount: 100 },
      ],
      overflow: 0,
    });
  });
  test("a refund gives back the overflow first, then the wallets from the last", () => {
    const none = { wallets: new Map<string, number>(), overflow: 0 };
    expect(allocateRefund(1200, holds, 1000, none)).toEqual({
      wallets: [{ walletId: "b", amount: 200 }],
      overflow: 1000,
    });
    expect(allocateRefund(700, holds, 0, { wallets: new Map([["b", 500]]), overflow: 0 })).toEqual({
      wallets: [{ walletId: "a", amount: 700 }],
      overflow: 0,
    });
    expect(allocateRefund(3001, holds, 0, none)).toBeNull();
  });
});
