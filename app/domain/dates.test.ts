import { expect, test } from "vitest";
import { formatDate, frenchDay, parisDayAfter, parisInstant, parisNow } from "./dates";

test("the Paris day after today counts calendar days, not 24-hour steps, across the spring change", () => {
  // 23:30 in Paris on Saturday 28 March 2026 (22:30 UTC): the next day is Sunday 29, which has 23 hours.
  const lateSaturday = new Date("2026-03-28T22:30:00Z");
  expect(parisDayAfter(lateSaturday, 0)).toBe("2026-03-28");
  expect(parisDayAfter(lateSaturday, 1)).toBe("2026-03-29");
  expect(parisDayAfter(lateSaturday, 2)).toBe("2026-03-30");
  // 00:30 in Paris on Sunday 25 October 2026 (22:30 UTC the day before): that day has 25 hours.
  const earlySunday = new Date("2026-10-24T22:30:00Z");
  expect(parisDayAfter(earlySunday, 0)).toBe("2026-10-25");
  expect(parisDayAfter(earlySunday, 1)).toBe("2026-10-26");
  expect(parisDayAfter(earlySunday, -1)).toBe("2026-10-24");
});

test("a calendar day as a French date field shows it, JJ/MM/AAAA", () => {
  expect(frenchDay("2026-11-14")).toBe("14/11/2026");
});

test("Paris wall-clock time, winter and summer; impossible dates refused", () => {
  expect(parisInstant("2026-11-24", "12:30")?.toISOString()).toBe("2026-11-24T11:30:00.000Z");
  expect(parisInstant("2026-07-14", "12:30")?.toISOString()).toBe("2026-07-14T10:30:00.000Z");
  expect(parisInstant("2026-02-30", "12:30")).toBeNull();
  expect(parisInstant("2026-11-24", "25:00")).toBeNull();
  expect(parisInstant("24/11/2026", "12:30")).toBeNull();
  expect(parisNow(new Date("2026-11-24T23:30:00Z"))).toEqual({ day: "2026-11-25", time: "00:30" });
});

test("a calendar day is shown as the day it is, as noon UTC of it was (the pages' former `day` helpers)", () => {
  for (const day of ["2026-01-01", "2026-03-29", "2026-10-25", "2026-12-31", "2028-02-29"])
    expect(formatDate(day), day).toBe(formatDate(`${day}T12:00:00Z`));
  expect(formatDate("2026-10-25")).toBe("25/10/2026");
});
