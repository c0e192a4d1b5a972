import { describe, expect, test } from "vitest";
import {
  formatDate,
  formatDateTime,
  formatMonth,
  frenchDay,
  parseDay,
  parisDayAfter,
  parisInstant,
  parisNow,
  readDay,
  todayInParis,
} from "./dates";

test("today in Paris changes at Paris midnight, also when asked again within the same minute or across it", () => {
  // Winter: Paris is UTC+1, so its midnight is 23:00 UTC.
  expect(todayInParis(new Date("2026-11-28T22:59:00.000Z"))).toBe("2026-11-28");
  expect(todayInParis(new Date("2026-11-28T22:59:59.999Z"))).toBe("2026-11-28");
  expect(todayInParis(new Date("2026-11-28T23:00:00.000Z"))).toBe("2026-11-29");
  expect(todayInParis(new Date("2026-11-28T22:59:30.000Z"))).toBe("2026-11-28");
  // Summer: UTC+2.
  expect(todayInParis(new Date("2026-07-14T21:59:59.000Z"))).toBe("2026-07-14");
  expect(todayInParis(new Date("2026-07-14T22:00:00.000Z"))).toBe("2026-07-15");
  expect(() => todayInParis(new Date("not a date"))).toThrow(RangeError);
});

test("dates are shown in Paris time, and a calendar day as itself", () => {
  expect(formatDateTime("2026-11-28T06:50:00.000Z")).toBe("28/11/2026 07:50");
  expect(formatDateTime("2026-07-14T22:30:00.000Z")).toBe("15/07/2026 00:30");
  expect(formatDate("2026-02-01")).toBe("01/02/2026");
  expect(formatMonth("2026-11")).toBe("novembre 2026");
  expect(formatMonth("2026-11", "en-GB")).toBe("November 2026");
});

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

describe("a typed day is read any way a French person types it (issue 31 §3)", () => {
  test.each([
    ["01/11/2026", "2026-11-01"],
    ["01112026", "2026-11-01"],
    ["01 11 2026", "2026-11-01"],
    ["  01   11    2026  ", "2026-11-01"],
    ["01 / 11 / 2026", "2026-11-01"],
    ["1/11/2026", "2026-11-01"],
    ["1/1/2026", "2026-01-01"],
    ["4 1 2026", "2026-01-04"],
    ["01.11.2026", "2026-11-01"],
    ["01-11-2026", "2026-11-01"],
    ["2026-11-01", "2026-11-01"],
    ["2026/11/01", "2026-11-01"],
    ["01/11/26", "2026-11-01"],
    ["011126", "2026-11-01"],
    ["29/02/2028", "2028-02-29"],
    ["31/12/2099", "2099-12-31"],
    ["01/01/1900", "1900-01-01"],
    ["31/12/2100", "2100-12-31"],
  ])("%j is %s", (typed, day) => {
    expect(readDay(typed)).toEqual({ kind: "day", day });
    expect(parseDay(typed)).toBe(day);
  });

  test.each([
    ["", "empty"],
    ["   ", "empty"],
    ["hier", "format"],
    ["le 1er novembre", "format"],
    ["1er/11/2026", "format"],
    ["1112026", "format"],
    ["011120266", "format"],
    ["01/11/202", "format"],
    ["01/11", "format"],
    ["2026", "format"],
    ["01:11:2026", "format"],
    ["00000000", "format"],
    ["00/00/0000", "format"],
    ["99/99/9999", "format"],
    ["1/13/2026", "month"],
    ["01132026", "month"],
    ["14/00/2026", "month"],
    ["2026-13-01", "month"],
    ["31/13/2026", "month"],
    ["01/11/1899", "year"],
    ["01/11/1850", "year"],
    ["01/11/2101", "year"],
    ["01/11/9999", "year"],
    ["0101202", "format"],
  ])("%j is refused: %s", (typed, problem) => {
    expect(readDay(typed)).toEqual({ kind: "problem", problem });
    expect(parseDay(typed)).toBeNull();
  });

  test("a day its month has not names the day as typed, its month and the month's days", () => {
    expect(readDay("31/02/2026")).toEqual({
      kind: "problem",
      problem: "dayOfMonth",
      typed: "31/02/2026",
      month: "2026-02",
      daysInMonth: 28,
    });
    expect(readDay("29022027")).toMatchObject({ problem: "dayOfMonth", typed: "29/02/2027", daysInMonth: 28 });
    expect(readDay("30/2/2028")).toMatchObject({ problem: "dayOfMonth", typed: "30/02/2028", daysInMonth: 29 });
    expect(readDay("31/04/2026")).toMatchObject({ problem: "dayOfMonth", month: "2026-04", daysInMonth: 30 });
    expect(readDay("32 01 2026")).toMatchObject({ problem: "dayOfMonth", typed: "32/01/2026", daysInMonth: 31 });
    expect(readDay("00/01/2026")).toMatchObject({ problem: "dayOfMonth", typed: "00/01/2026", daysInMonth: 31 });
    expect(readDay("2026-02-30")).toMatchObject({ problem: "dayOfMonth", typed: "30/02/2026" });
    // 1900 is not a leap year (a century not divisible by 400), 2000 is.
    expect(readDay("29/02/1900")).toMatchObject({ problem: "dayOfMonth", daysInMonth: 28 });
    expect(readDay("29/02/00")).toEqual({ kind: "day", day: "2000-02-29" });
  });
});
