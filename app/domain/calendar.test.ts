import { afterEach, expect, test, vi } from "vitest";
import { addCalendarDays, addWorkingDays, calendarDaysBetween, frenchPublicHolidays, isCalendarDay } from "./calendar";
import { daysBetween } from "./wallets";

afterEach(() => {
  vi.unstubAllEnvs();
});

test("a calendar day is YYYY-MM-DD and exists", () => {
  expect(isCalendarDay("2028-02-29")).toBe(true);
  expect(isCalendarDay("2026-02-29")).toBe(false);
  expect(isCalendarDay("2026-02-30")).toBe(false);
  expect(isCalendarDay("2026-13-01")).toBe(false);
  expect(isCalendarDay("2026-1-05")).toBe(false);
  expect(isCalendarDay("")).toBe(false);
  expect(isCalendarDay(20260105)).toBe(false);
  expect(isCalendarDay(null)).toBe(false);
});

test("adding days crosses month and year ends, and 29 February only in leap years", () => {
  expect(addCalendarDays("2026-01-31", 1)).toBe("2026-02-01");
  expect(addCalendarDays("2026-02-28", 1)).toBe("2026-03-01");
  expect(addCalendarDays("2028-02-28", 1)).toBe("2028-02-29");
  expect(addCalendarDays("2026-12-31", 1)).toBe("2027-01-01");
  expect(addCalendarDays("2026-03-01", -1)).toBe("2026-02-28");
  expect(addCalendarDays("2026-11-22", 0)).toBe("2026-11-22");
});

test("days between calendar days, across month ends and the daylight-saving changes", () => {
  expect(calendarDaysBetween("2026-01-31", "2026-03-01")).toBe(29);
  expect(calendarDaysBetween("2026-03-28", "2026-03-30")).toBe(2); // summer time starts on 29 March 2026
  expect(calendarDaysBetween("2026-10-24", "2026-10-26")).toBe(2); // winter time on 25 October 2026
  expect(calendarDaysBetween("2026-12-12", "2026-11-22")).toBe(-20);
  expect(daysBetween("2026-11-22", "2026-12-12")).toBe(20);
});

test("the answers do not depend on the server's own time zone", async () => {
  for (const zone of ["Europe/Paris", "America/Santiago", "Pacific/Kiritimati", "UTC"]) {
    vi.stubEnv("TZ", zone);
    vi.resetModules();
    const calendar = await import("./calendar");
    expect(calendar.addCalendarDays("2026-03-28", 1), zone).toBe("2026-03-29");
    expect(calendar.calendarDaysBetween("2026-10-24", "2026-10-26"), zone).toBe(2);
  }
});

test("French public holidays: the fixed days and those that follow Easter", () => {
  // Easter 2026 is on 5 April, Easter 2027 on 28 March, Easter 2038 on 25 April.
  expect(frenchPublicHolidays(2026)).toEqual([
    "2026-01-01",
    "2026-04-06",
    "2026-05-01",
    "2026-05-08",
    "2026-05-14",
    "2026-05-25",
    "2026-07-14",
    "2026-08-15",
    "2026-11-01",
    "2026-11-11",
    "2026-12-25",
  ]);
  expect(frenchPublicHolidays(2027)).toContain("2027-03-29");
  expect(frenchPublicHolidays(2027)).toContain("2027-05-06");
  expect(frenchPublicHolidays(2038)).toContain("2038-04-26");
});

test("working days skip weekends and public holidays (a refund is paid within 7 of them)", () => {
  expect(addWorkingDays("2026-11-23", 7)).toBe("2026-12-02"); // Monday → Wednesday of the week after next
  expect(addWorkingDays("2026-11-20", 1)).toBe("2026-11-23"); // Friday → Monday
  expect(addWorkingDays("2026-12-21", 7)).toBe("2026-12-31"); // Christmas skipped
  expect(addWorkingDays("2026-05-07", 1)).toBe("2026-05-11"); // Friday 8 May skipped, then the weekend
  expect(addWorkingDays("2026-11-10", 1)).toBe("2026-11-12"); // 11 November skipped
  expect(addWorkingDays("2026-12-31", 1)).toBe("2027-01-04"); // New Year's Day, then the weekend
  expect(addWorkingDays("2026-11-23", 0)).toBe("2026-11-23");
});
