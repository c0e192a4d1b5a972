import { expect, test } from "vitest";
import { problemReportSchema } from "./schemas";
import { clampLimit, MAX_LISTED, MAX_PAGES, transactionStatus } from "./transactions";

test.each([
  // With card transactions: approved, whatever the status name.
  [true, "closed", "approved"],
  [true, "pending", "approved"],
  // None and closed: declined; none and anything else: the raw name.
  [false, "closed", "declined"],
  [false, "reversed", "reversed"],
  [false, "pending", "pending"],
  [false, "payment_failed", "payment_failed"],
  // Field absent: closed means declined, anything else approved.
  [null, "closed", "declined"],
  [null, "pending", "approved"],
  [null, "reversed", "approved"],
])("card transactions %s and status %s → %s", (has, name, expected) => {
  expect(transactionStatus({ hasCardTransactions: has, statusName: name })).toBe(expected);
});

test("limits from the URL are whole pages, at least one, at most MAX_PAGES pages", () => {
  expect(clampLimit(null, 7)).toBe(7);
  expect(clampLimit("", 7)).toBe(7);
  expect(clampLimit("7", 7)).toBe(7);
  expect(clampLimit("14", 7)).toBe(14);
  expect(clampLimit(" 14 ", 7)).toBe(14);
  expect(clampLimit("8", 7)).toBe(14);
  expect(clampLimit("1", 7)).toBe(7);
  expect(clampLimit("0", 7)).toBe(7);
  expect(clampLimit("-7", 7)).toBe(7);
  expect(clampLimit("abc", 7)).toBe(7);
  expect(clampLimit("14abc", 7)).toBe(7);
  expect(clampLimit("1e9", 7)).toBe(7);
  expect(clampLimit("7.5", 7)).toBe(7);
  expect(clampLimit("99999999999999999999", 7)).toBe(7);
  expect(clampLimit("999999", 7)).toBe(140);
  expect(clampLimit("10000000", 7)).toBe(MAX_LISTED);
  expect(clampLimit("10000000", 5)).toBe(MAX_PAGES * 5);
  expect(clampLimit("140", 7)).toBe(140);
  expect(clampLimit("141", 7)).toBe(140);
  expect(clampLimit("10", 5)).toBe(10);
  expect(clampLimit("11", 5)).toBe(15);
});

test("a problem report needs 10 characters once trimmed, and at most 1000", () => {
  const parse = (message: unknown) => problemReportSchema.safeParse({ message });
  expect(parse(undefined).error?.issues[0]?.message).toBe("errors.reportRequired");
  expect(parse("   123456789   ").error?.issues[0]?.message).toBe("errors.reportTooShort");
  expect(parse("x".repeat(1001)).error?.issues[0]?.message).toBe("errors.reportTooLong");
  expect(parse("  1234567890  ").data).toEqual({ message: "1234567890" });
  expect(parse("x".repeat(1000)).success).toBe(true);
});
