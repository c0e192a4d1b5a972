import { expect, test } from "vitest";
import { formatDate, formatDateTime, formatMonth } from "./dates";
import { formatCents } from "./money";

test("amounts in French format with 2 decimals", () => {
  expect(formatCents(1250).replace(/\s/g, " ")).toBe("12,50 €");
  expect(formatCents(15240).replace(/\s/g, " ")).toBe("152,40 €");
  expect(formatCents(-1200).replace(/\s/g, " ")).toBe("-12,00 €");
});

test("dates in Europe/Paris, dd/MM/yyyy HH:mm", () => {
  expect(formatDateTime("2026-07-14T21:30:00Z")).toBe("14/07/2026 23:30");
  expect(formatDateTime("2026-01-05T08:05:00Z")).toBe("05/01/2026 09:05");
  expect(formatDate("2026-11-27")).toBe("27/11/2026");
  expect(formatDate("2026-12-31T23:30:00Z")).toBe("01/01/2027");
});

test("a calendar month in words, whatever the zone", () => {
  expect(formatMonth("2026-11")).toBe("novembre 2026");
  expect(formatMonth("2027-01")).toBe("janvier 2027");
});
