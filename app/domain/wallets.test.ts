import { expect, test } from "vitest";
import {
  currentBalances,
  daysBetween,
  GIFT_SUBTYPES,
  reservedAmounts,
  spendingGuide,
  sumReserved,
  validityElapsedPercent,
  walletBalance,
  walletTransactionLabel,
} from "./wallets";

const today = "2026-11-22";

test("only nonzero balances valid today count, soonest expiry first", () => {
  const lines = [
    { balance: 8000, startDate: "2026-01-01", endDate: "2027-06-10" },
    { balance: 12000, startDate: "2026-01-01", endDate: "2026-12-12" },
    { balance: 0, startDate: "2026-01-01", endDate: "2026-12-01" },
    { balance: 500, startDate: "2026-01-01", endDate: "2026-11-21" },
    { balance: 700, startDate: "2026-11-23", endDate: "2027-11-21" },
  ];
  expect(currentBalances(lines, today).map((l) => l.balance)).toEqual([12000, 8000]);
  expect(walletBalance({ unlimited: false, balances: lines, creditLimits: [], today })).toBe(20000);
});

test("an unlimited wallet has no amount; a credit limit open today gives what remains", () => {
  expect(walletBalance({ unlimited: true, balances: [], creditLimits: [], today })).toBeNull();
  const limits = [
    { remainingAmount: 42000, creditStartedAt: "2026-01-01T00:00:00Z", creditEndedAt: "2026-12-31T23:59:59Z" },
  ];
  expect(walletBalance({ unlimited: false, balances: [], creditLimits: limits, today })).toBe(42000);
  expect(walletBalance({ unlimited: false, balances: [], creditLimits: limits, today: "2027-01-01" })).toBe(0);
});

test("every gift subtype links to the gift guide; other types to their own, unknown ones to the general one", () => {
  expect(spendingGuide("gift", "employee_christmas")).toBe("gift");
  for (const subtype of GIFT_SUBTYPES) expect(spendingGuide("other", subtype)).toBe("gift");
  expect(spendingGuide("meal", null)).toBe("meal");
  expect(spendingGuide("mobility", null)).toBe("mobility");
  expect(spendingGuide("culture", null)).toBe("culture");
  expect(spendingGuide("fuel", null)).toBe("general");
});

test("expiry progress: the share of the validity already gone, bounded to 0–100", () => {
  expect(validityElapsedPercent("2026-01-01", "2026-01-11", "2026-01-06")).toBe(50);
  expect(validityElapsedPercent("2026-01-01", "2026-01-11", "2025-12-01")).toBe(0);
  expect(validityElapsedPercent("2026-01-01", "2026-01-11", "2026-02-01")).toBe(100);
  expect(daysBetween("2026-11-22", "2026-12-12")).toBe(20);
});

test("a withdraw names the partner, then the merchant, then the payable; other entries say what they are", () => {
  expect(
    walletTransactionLabel({
      mainComment: "withdraw",
      partnerName: "Uggy",
      merchantName: "Café",
      payableMerchantName: "X",
    }),
  ).toEqual({ kind: "merchant", name: "Uggy" });
  expect(walletTransactionLabel({ mainComment: "withdraw", merchantName: "Café", payableMerchantName: "X" })).toEqual({
    kind: "merchant",
    name: "Café",
  });
  expect(
    walletTransactionLabel({ mainComment: "withdraw", merchantName: null, payableMerchantName: "Le payable" }),
  ).toEqual({ kind: "merchant", name: "Le payable" });
  expect(walletTransactionLabel({ mainComment: "withdraw", merchantName: null })).toEqual({
    kind: "comment",
    key: "withdraw",
  });
  expect(walletTransactionLabel({ mainComment: "deposit", merchantName: "ignored" })).toEqual({
    kind: "comment",
    key: "deposit",
  });
});

test("the reserved figure is its two parts' sum, for one wallet and for a card's wallets together", () => {
  expect(reservedAmounts({ frozen: 1420, refundHolds: 12000 })).toEqual({
    frozen: 1420,
    refundHolds: 12000,
    reserved: 13420,
  });
  expect(reservedAmounts({ frozen: 0, refundHolds: 0 }).reserved).toBe(0);
  expect(
    sumReserved([
      { frozen: 1250, refundHolds: 3000 },
      { frozen: 0, refundHolds: 16590 },
      { frozen: 1890, refundHolds: 0 },
    ]),
  ).toEqual({ frozen: 3140, refundHolds: 19590, reserved: 22730 });
  expect(sumReserved([])).toEqual({ frozen: 0, refundHolds: 0, reserved: 0 });
});
