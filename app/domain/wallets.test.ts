import { expect, test } from "vitest";
import { currentBalances, walletBalance } from "./wallets";

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
  const limits = [{ remainingAmount: 42000, creditStartedAt: "2026-01-01T00:00:00Z", creditEndedAt: "2026-12-31T23:59:59Z" }];
  expect(walletBalance({ unlimited: false, balances: [], creditLimits: limits, today })).toBe(42000);
  expect(walletBalance({ unlimited: false, balances: [], creditLimits: limits, today: "2027-01-01" })).toBe(0);
});
