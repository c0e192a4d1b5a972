import { afterEach, describe, expect, test, vi } from "vitest";
import {
  addressLine,
  capStatusOf,
  clampDays,
  daysWithoutSundays,
  followStart,
  formatKilometres,
  LAST_YEAR_DEADLINE_DAY,
  maxEndDate,
  monthList,
  monthlySplit,
  monthsOfPeriod,
  monthlyPayouts,
  officeDaysProblem,
  payoutDay,
  periodCodes,
  periodProblems,
  periodShortEnough,
  PLAUSIBILITY_REASON_MAX,
  plausibilityProblems,
  remainingCap,
  roundTripKm,
  simulateDistance,
  simulateSubscription,
  startWindow,
  transportSharePercent,
  unusualDistance,
  USUAL_ONE_WAY_METERS,
} from "./allowances";

/** Every rule runs on days given by the test (a fixed clock): never on the machine's today. */
afterEach(() => {
  vi.unstubAllEnvs();
});

describe("the window a period may start in (last year until 15 January inclusive)", () => {
  test("the deadline is the 15th (decision 0027)", () => {
    expect(LAST_YEAR_DEADLINE_DAY).toBe(15);
  });

  test("on 14 and 15 January last year may still be claimed; on the 16th no more", () => {
    expect(startWindow("carpooling", "2027-01-14")).toEqual({ min: "2026-01-01", max: "2027-01-14" });
    expect(startWindow("carpooling", "2027-01-15")).toEqual({ min: "2026-01-01", max: "2027-01-15" });
    expect(startWindow("carpooling", "2027-01-16")).toEqual({ min: "2027-01-01", max: "2027-01-16" });
    expect(startWindow("bicycle", "2027-02-01").min).toBe("2027-01-01");
    expect(startWindow("bicycle", "2026-11-24")).toEqual({ min: "2026-01-01", max: "2026-11-24" });
  });

  test("a subscription may start until the end of the year; a mileage allowance not after today", () => {
    expect(startWindow("subscription", "2027-01-15")).toEqual({ min: "2026-01-01", max: "2027-12-31" });
    expect(startWindow("subscription", "2026-11-24")).toEqual({ min: "2026-01-01", max: "2026-12-31" });
    expect(maxEndDate("subscription", "2026-12-01", "2027-01-10")).toBe("2026-12-31");
    expect(maxEndDate("carpooling", "2026-12-01", "2027-01-10")).toBe("2027-01-10");
  });

  test("a period of last year is accepted on 15 January and refused on the 16th", () => {
    expect(periodProblems("carpooling", "2026-03-02", "2026-12-18", "2027-01-14")).toEqual({});
    expect(periodProblems("carpooling", "2026-03-02", "2026-12-18", "2027-01-15")).toEqual({});
    expect(periodProblems("carpooling", "2026-03-02", "2026-12-18", "2027-01-16")).toEqual({
      start_at: ["allowances.errors.startDateInvalid"],
    });
    expect(periodProblems("subscription", "2026-12-01", "2026-12-31", "2027-01-15")).toEqual({});
    expect(periodProblems("subscription", "2026-12-01", "2026-12-31", "2027-01-16")).toEqual({
      start_at: ["allowances.errors.startDateInvalid"],
    });
    // Two years back is never open.
    expect(periodProblems("bicycle", "2025-12-31", "2026-01-05", "2027-01-10").start_at).toEqual([
      "allowances.errors.startDateInvalid",
    ]);
  });

  test("each field says what is wrong with it", () => {
    const today = "2026-11-24";
    expect(periodProblems("carpooling", null, null, today)).toEqual({
      start_at: ["allowances.errors.startRequired"],
      ends_at: ["allowances.errors.endRequired"],
    });
    expect(periodProblems("carpooling", "2026-11-02", "2026-11-25", today)).toEqual({
      ends_at: ["allowances.errors.endAfterToday"],
    });
    expect(periodProblems("bicycle", "2026-11-02", "2026-11-24", today)).toEqual({});
    // A mileage allowance claims a past period: its start cannot be after today either, said as such.
    expect(periodProblems("bicycle", "2026-11-25", "2026-11-26", today).start_at).toEqual([
      "allowances.errors.startAfterToday",
    ]);
    // A subscription may start until 31 December: next year is said as such, not by the year rule.
    expect(periodProblems("subscription", "2027-01-04", "2027-01-31", today).start_at).toEqual([
      "allowances.errors.startNextYear",
    ]);
    expect(periodProblems("carpooling", "2026-11-10", "2026-11-09", today)).toEqual({
      ends_at: ["allowances.errors.endBeforeStart"],
    });
    expect(periodProblems("subscription", "2026-12-01", "2027-01-01", today)).toEqual({
      ends_at: ["allowances.errors.endDateLastDayOfYearInvalid"],
    });
    expect(periodProblems("subscription", "2026-12-01", "2026-12-31", today)).toEqual({});
    // A subscription started last year (claimed in early January) ends within that year.
    expect(periodProblems("subscription", "2026-12-01", "2027-01-31", "2027-01-10")).toEqual({
      ends_at: ["allowances.errors.endDateLastDayOfYearInvalid"],
    });
  });

  test("the services' codes are the schemas' keys without their prefix", () => {
    const today = "2026-11-24";
    expect(periodCodes("carpooling", null, null, today)).toEqual({
      start_at: ["startRequired"],
      ends_at: ["endRequired"],
    });
    expect(periodCodes("carpooling", "2026-11-10", "2026-11-09", today)).toEqual({ ends_at: ["endBeforeStart"] });
    // The start's window is checked even without an end.
    expect(periodCodes("bicycle", "2026-11-25", null, today)).toEqual({
      start_at: ["startDateInvalid"],
      ends_at: ["endRequired"],
    });
    expect(periodCodes("bicycle", "2026-11-02", null, today)).toEqual({ ends_at: ["endRequired"] });
    expect(periodCodes("subscription", "2026-12-01", "2026-12-31", today)).toEqual({});
  });

  test("a start moved after the end moves the end", () => {
    expect(followStart("2026-05-10", "2026-05-01")).toBe("2026-05-10");
    expect(followStart("2026-05-10", "2026-06-01")).toBe("2026-06-01");
    expect(followStart("2026-05-10", null)).toBe("2026-05-10");
    expect(followStart("2026-05-10", "2026-05-10")).toBe("2026-05-10");
  });
});

describe("the 18-month rule", () => {
  test("a period must end before the same day 18 months after its start", () => {
    expect(periodShortEnough("2026-01-01", "2027-06-30")).toBe(true);
    expect(periodShortEnough("2026-01-01", "2027-07-01")).toBe(false);
    expect(periodShortEnough("2026-01-15", "2027-07-14")).toBe(true);
    expect(periodShortEnough("2026-01-15", "2027-07-15")).toBe(false);
    // From the last day of a month, date-fns clamps: 31 August 2027 + 18 months is 28 February 2029,
    // 31 August 2026 + 18 months is 29 February 2028 (a leap year).
    expect(periodShortEnough("2027-08-31", "2029-02-27")).toBe(true);
    expect(periodShortEnough("2027-08-31", "2029-02-28")).toBe(false);
    expect(periodShortEnough("2026-08-31", "2028-02-28")).toBe(true);
    expect(periodShortEnough("2026-08-31", "2028-02-29")).toBe(false);
    expect(periodShortEnough("2026-03-01", "2026-03-01")).toBe(true);
  });
});

describe("days at the office: the period's days without Sundays", () => {
  test("within a week, across months and across the year", () => {
    expect(daysWithoutSundays("2026-11-23", "2026-11-29")).toBe(6); // Monday to Sunday
    expect(daysWithoutSundays("2026-11-28", "2026-12-02")).toBe(4); // Sat 28 … Wed 2, Sunday 29 out
    expect(daysWithoutSundays("2026-12-31", "2027-01-01")).toBe(2); // Thursday, Friday
    expect(daysWithoutSundays("2026-01-01", "2026-12-31")).toBe(313); // 365 days, 52 Sundays
    expect(daysWithoutSundays("2026-11-24", "2026-11-24")).toBe(1);
  });

  test("leap years: 29 February 2028 counts, February 2027 has no such day", () => {
    expect(daysWithoutSundays("2028-02-26", "2028-03-01")).toBe(4); // Sat 26, Sun 27 out, Mon 28, Tue 29, Wed 1
    expect(daysWithoutSundays("2028-02-01", "2028-02-29")).toBe(25); // 29 days, 4 Sundays
    expect(daysWithoutSundays("2027-02-01", "2027-02-28")).toBe(24); // 28 days, 4 Sundays
    expect(daysWithoutSundays("2028-02-29", "2028-02-29")).toBe(1);
    expect(daysWithoutSundays("2028-01-01", "2028-12-31")).toBe(313); // 366 days, 53 Sundays
  });

  test("a period of Sundays only has no day; an end before the start neither", () => {
    expect(daysWithoutSundays("2028-02-27", "2028-02-27")).toBe(0);
    expect(daysWithoutSundays("2026-11-29", "2026-11-29")).toBe(0);
    expect(daysWithoutSundays("2026-11-30", "2026-11-29")).toBe(0);
  });

  test("the daylight-saving changes and the server's time zone change nothing", async () => {
    for (const zone of ["Europe/Paris", "America/Santiago", "Pacific/Kiritimati", "UTC"]) {
      vi.stubEnv("TZ", zone);
      vi.resetModules();
      const rules = await import("./allowances");
      expect(rules.daysWithoutSundays("2026-03-28", "2026-03-30"), zone).toBe(2); // summer time on Sunday 29 March
      expect(rules.daysWithoutSundays("2026-10-24", "2026-10-26"), zone).toBe(2); // winter time on Sunday 25 October
      expect(rules.startWindow("carpooling", "2027-01-15").min, zone).toBe("2026-01-01");
      expect(rules.monthList("2026-10-31", "2026-11-01"), zone).toEqual(["2026-10", "2026-11"]);
    }
  });

  test("the days asked: whole, from 1 to the period's days without Sundays; only from 1 while the period is not valid", () => {
    const week = { start: "2026-11-23", end: "2026-11-29" }; // Monday to Sunday: 6 days
    expect(officeDaysProblem(1, week)).toBeNull();
    expect(officeDaysProblem(6, week)).toBeNull();
    expect(officeDaysProblem(7, week)).toBe("daysAtOfficeRange");
    expect(officeDaysProblem(0, week)).toBe("daysAtOfficeRange");
    expect(officeDaysProblem(2.5, week)).toBe("daysAtOfficeRange");
    expect(officeDaysProblem("3", week)).toBe("daysAtOfficeRange");
    // A Sunday alone: no day to claim, whatever is asked.
    expect(officeDaysProblem(1, { start: "2026-11-29", end: "2026-11-29" })).toBe("noWorkingDay");
    expect(officeDaysProblem(400, null)).toBeNull();
    expect(officeDaysProblem(0, null)).toBe("daysAtOfficeRange");
    expect(officeDaysProblem(undefined, null)).toBe("daysAtOfficeRange");
  });

  test("the days asked are clamped to 1 … the maximum (when the maximum drops, so do they)", () => {
    expect(clampDays(30, 22)).toBe(22);
    expect(clampDays(0, 22)).toBe(1);
    expect(clampDays(-4, 22)).toBe(1);
    expect(clampDays(7.9, 22)).toBe(7);
    expect(clampDays(5, 0)).toBe(0);
  });
});

describe("months and monthly payments", () => {
  test("the calendar months a period touches", () => {
    expect(monthsOfPeriod("2026-03-01", "2026-04-15")).toBe(2);
    expect(monthsOfPeriod("2026-03-31", "2026-04-01")).toBe(2);
    expect(monthsOfPeriod("2026-03-01", "2026-03-31")).toBe(1);
    expect(monthsOfPeriod("2026-01-01", "2026-12-31")).toBe(12);
    expect(monthsOfPeriod("2026-12-15", "2027-01-10")).toBe(2);
    expect(monthList("2026-11-20", "2027-02-01")).toEqual(["2026-11", "2026-12", "2027-01", "2027-02"]);
    expect(monthList("2028-02-29", "2028-02-29")).toEqual(["2028-02"]);
  });

  test("a month is paid on the first working day of the next, never before 7 working days after approval", () => {
    // Approved on Friday 20 November 2026: 7 working days later is Tuesday 1 December.
    expect(payoutDay("2026-09", "2026-11-20")).toBe("2026-12-01");
    expect(payoutDay("2026-11", "2026-11-20")).toBe("2026-12-01");
    // 1 January is a holiday (Friday 2027-01-01): the first working day is Monday 4 January.
    expect(payoutDay("2026-12", "2026-11-20")).toBe("2027-01-04");
    // Approved on 28 December: 7 working days (1 January off) lead to 7 January.
    expect(payoutDay("2026-12", "2026-12-28")).toBe("2027-01-07");
    // 1 August 2026 is a Saturday: Monday 3 August.
    expect(payoutDay("2026-07", "2026-06-01")).toBe("2026-08-03");
  });

  test("an approved allowance's payouts: one a month, adding up to the amount, each on its payout day", () => {
    expect(monthlyPayouts(10000, "2026-10-15", "2026-12-20", "2026-11-20")).toEqual([
      { month: "2026-10", amount: 3333, scheduledFor: "2026-12-01" },
      { month: "2026-11", amount: 3333, scheduledFor: "2026-12-01" },
      { month: "2026-12", amount: 3334, scheduledFor: "2027-01-04" },
    ]);
    expect(monthlyPayouts(543, "2026-11-02", "2026-11-06", "2026-11-20")).toEqual([
      { month: "2026-11", amount: 543, scheduledFor: "2026-12-01" },
    ]);
  });

  test("equal payments of whole cents that add up to the amount, the last taking the remainder", () => {
    expect(monthlySplit(24000, 12)).toEqual(Array(12).fill(2000));
    expect(monthlySplit(10000, 3)).toEqual([3333, 3333, 3334]);
    expect(monthlySplit(3625, 2)).toEqual([1812, 1813]);
    // 0,09 € over 6 months: rounding each to the nearest cent would leave the last at -1 cent.
    expect(monthlySplit(9, 6)).toEqual([1, 1, 1, 1, 1, 4]);
    expect(monthlySplit(0, 2)).toEqual([0, 0]);
    expect(monthlySplit(100, 0)).toEqual([]);
    for (const [amount, months] of [
      [9, 6],
      [1, 12],
      [59999, 7],
      [12345, 11],
    ] as const) {
      const parts = monthlySplit(amount, months);
      expect(parts.reduce((a, b) => a + b, 0)).toBe(amount);
      expect(Math.min(...parts)).toBeGreaterThanOrEqual(0);
    }
  });
});

describe("the yearly caps (600 € per employee, the group's own, 900 € with transport shares)", () => {
  const nothing = { groupCap: 60000, usedWithGroup: 0, usedAllGroups: 0, transportShares: 0 };

  test("one group: its cap less what its allowances of the year already take", () => {
    expect(remainingCap(nothing)).toBe(60000);
    expect(remainingCap({ ...nothing, usedWithGroup: 24000, usedAllGroups: 24000 })).toBe(36000);
    expect(remainingCap({ ...nothing, usedWithGroup: 60000, usedAllGroups: 60000 })).toBe(0);
    // A group paying less than the law allows.
    expect(remainingCap({ ...nothing, groupCap: 30000, usedWithGroup: 10000, usedAllGroups: 10000 })).toBe(20000);
    // Never above the legal 600 €, never negative.
    expect(remainingCap({ ...nothing, groupCap: 80000 })).toBe(60000);
    expect(remainingCap({ ...nothing, usedWithGroup: 70000, usedAllGroups: 70000 })).toBe(0);
  });

  test("several groups: the 600 € are per employee, whatever group paid", () => {
    // 240 € with this group, 300 € with another: 60 € left, though this group alone would give 360 €.
    expect(remainingCap({ ...nothing, usedWithGroup: 24000, usedAllGroups: 54000 })).toBe(6000);
    // Another group used it all: nothing left here.
    expect(remainingCap({ ...nothing, usedWithGroup: 0, usedAllGroups: 60000 })).toBe(0);
    // This group's own cap binds first.
    expect(remainingCap({ groupCap: 20000, usedWithGroup: 15000, usedAllGroups: 25000, transportShares: 0 })).toBe(
      5000,
    );
  });

  test("with public-transport shares the forfait and the shares together stay within 900 €", () => {
    // 400 € of mileage allowances and 450 € of subscription shares: 50 € left, not 200 €.
    expect(remainingCap({ ...nothing, usedWithGroup: 40000, usedAllGroups: 40000, transportShares: 45000 })).toBe(5000);
    // Shares up to 300 € leave the full 600 €; above it they eat into the forfait.
    expect(remainingCap({ ...nothing, transportShares: 30000 })).toBe(60000);
    expect(remainingCap({ ...nothing, transportShares: 50000 })).toBe(40000);
    expect(remainingCap({ ...nothing, transportShares: 95000 })).toBe(0);
  });
});

describe("the caps of one group from the year's counted allowances", () => {
  test("carpooling and bicycle count towards the forfait (this group's and every group's), subscriptions as shares", () => {
    const counted = [
      { groupId: "grp_a", type: "carpooling", amount: 10000 },
      { groupId: "grp_a", type: "bicycle", amount: 5000 },
      { groupId: "grp_b", type: "carpooling", amount: 20000 },
      { groupId: "grp_b", type: "subscription", amount: 45000 },
    ];
    expect(capStatusOf("grp_a", 60000, counted)).toEqual({
      remaining: 10000,
      groupCap: 60000,
      usedWithGroup: 15000,
      usedAllGroups: 35000,
      transportShares: 45000,
    });
    expect(capStatusOf("grp_b", 30000, counted)).toMatchObject({ usedWithGroup: 20000, remaining: 10000 });
    // A group the employee is not a member of has a cap of 0: nothing is left.
    expect(capStatusOf("grp_c", 0, counted)).toMatchObject({ usedWithGroup: 0, remaining: 0 });
    expect(capStatusOf("grp_a", 60000, [])).toMatchObject({ remaining: 60000, usedAllGroups: 0 });
  });
});

describe("the simulation and its rounding", () => {
  test("the round trip is rounded to the hundredth of a kilometre first, as it is shown", () => {
    expect(roundTripKm(3624)).toEqual({ hundredths: 725, distanceRoundtrip: "7.25" }); // 7,248 km
    expect(roundTripKm(3622)).toEqual({ hundredths: 724, distanceRoundtrip: "7.24" }); // 7,244 km
    expect(roundTripKm(3625)).toEqual({ hundredths: 725, distanceRoundtrip: "7.25" });
    expect(roundTripKm(1)).toEqual({ hundredths: 0, distanceRoundtrip: "0.00" });
    expect(roundTripKm(200000)).toEqual({ hundredths: 40000, distanceRoundtrip: "400.00" });
  });

  test("allowance = round trip × days × rate, to the cent, then the cap", () => {
    const base = { ratePerKm: 25, capRemaining: 60000, start: "2026-09-01", end: "2026-11-20" };
    const sim = simulateDistance({ ...base, oneWayMeters: 3622, daysAtOffice: 3 });
    // 7,24 km × 3 × 0,25 € = 5,43 €
    expect(sim).toEqual({
      roundTripHundredthsKm: 724,
      distanceRoundtrip: "7.24",
      perKm: 25,
      allowanceBeforeCap: 543,
      allowance: 543,
      perMonth: 181,
      numberOfMonths: 3,
      capRemainingBefore: 60000,
      capRemainingAfter: 59457,
      capped: false,
    });
    // 7,23 km × 1 × 0,25 € = 1,8075 € → 1,81 €
    expect(simulateDistance({ ...base, oneWayMeters: 3615, daysAtOffice: 1 }).allowance).toBe(181);
    // 7,22 km × 1 × 0,25 € = 1,805 € → 1,81 € (half a cent up)
    expect(simulateDistance({ ...base, oneWayMeters: 3610, daysAtOffice: 1 }).allowance).toBe(181);
    // 7,21 km × 1 × 0,25 € = 1,8025 € → 1,80 €
    expect(simulateDistance({ ...base, oneWayMeters: 3605, daysAtOffice: 1 }).allowance).toBe(180);
  });

  test("the cap lowers the amount and says so", () => {
    const sim = simulateDistance({
      oneWayMeters: 25000, // 50 km a day
      daysAtOffice: 60,
      ratePerKm: 25,
      capRemaining: 36000,
      start: "2026-01-05",
      end: "2026-06-30",
    });
    expect(sim.allowanceBeforeCap).toBe(75000); // 50 × 60 × 0,25 € = 750 €
    expect(sim.allowance).toBe(36000);
    expect(sim.capped).toBe(true);
    expect(sim.capRemainingBefore).toBe(36000);
    expect(sim.capRemainingAfter).toBe(0);
    expect(sim.numberOfMonths).toBe(6);
    expect(sim.perMonth).toBe(6000);
    const none = simulateDistance({
      oneWayMeters: 25000,
      daysAtOffice: 2,
      ratePerKm: 25,
      capRemaining: 0,
      start: "2026-01-05",
      end: "2026-01-06",
    });
    expect(none.allowance).toBe(0);
    expect(none.capped).toBe(true);
  });

  test("the transport share: the group's, at least 50 %, at most 75 % until 2026 and 50 % after", () => {
    expect(transportSharePercent(75, 2026)).toBe(75);
    expect(transportSharePercent(80, 2026)).toBe(75);
    expect(transportSharePercent(40, 2026)).toBe(50);
    expect(transportSharePercent(60, 2026)).toBe(60);
    expect(transportSharePercent(75, 2027)).toBe(50);
    expect(transportSharePercent(50, 2027)).toBe(50);
  });

  test("subscription: price × share, rounded to the cent, paid over the period's months", () => {
    // 86,50 € at 75 %: 64,875 € → 64,88 €
    expect(simulateSubscription({ amount: 8650, groupShare: 75, start: "2026-11-01", end: "2026-12-31" })).toEqual({
      percentage: 75,
      shareLowered: false,
      allowance: 6488,
      perMonth: 3244,
      numberOfMonths: 2,
    });
    // The same subscription in 2027: the share falls to 50 % and the summary can say why.
    expect(simulateSubscription({ amount: 8650, groupShare: 75, start: "2027-01-01", end: "2027-03-31" })).toEqual({
      percentage: 50,
      shareLowered: true,
      allowance: 4325,
      perMonth: 1441,
      numberOfMonths: 3,
    });
    expect(simulateSubscription({ amount: 1, groupShare: 50, start: "2026-11-01", end: "2026-11-30" }).allowance).toBe(
      1,
    );
  });

  test("an address as one string, as the payload sends it", () => {
    expect(addressLine({ line1: " 8 rue des Lilas ", zipcode: "69003", city: "Lyon", country: "FR" })).toBe(
      "8 rue des Lilas 69003 Lyon FR",
    );
  });
});

test("a distance in kilometres is shown in French format with 2 decimals, as the old inline copies did", () => {
  expect(formatKilometres(7.24)).toBe("7,24 km");
  expect(formatKilometres(3)).toBe("3,00 km");
  expect(formatKilometres(3.3339)).toBe("3,33 km");
  // Thousands get the narrow no-break space (U+202F) that toLocaleString("fr-FR") gives.
  expect(formatKilometres(1234.5)).toBe("1\u202f234,50 km");
  expect(formatKilometres(1234.5)).toBe(
    `${(1234.5).toLocaleString("fr-FR", { minimumFractionDigits: 2, maximumFractionDigits: 2 })} km`,
  );
});

describe("plausible distances: above the mode's usual one-way distance, a confirmation and a reason (decision 0055)", () => {
  test("the usual distances: 25 km by bicycle, 150 km carpooling", () => {
    expect(USUAL_ONE_WAY_METERS).toEqual({ bicycle: 25_000, carpooling: 150_000 });
  });

  test("by bicycle: 25 km exactly is usual, one metre more is not", () => {
    expect(unusualDistance("bicycle", 25_000, null)).toBeNull();
    expect(unusualDistance("bicycle", 25_001, null)).toBe(25_001);
    expect(unusualDistance("bicycle", 7_240, null)).toBeNull();
    // Lyon–Paris (issue 31): the estimate of 511,63 km.
    expect(unusualDistance("bicycle", 511_630, null)).toBe(511_630);
  });

  test("carpooling: 150 km exactly is usual, one metre more is not; a bicycle's unusual distance is a usual carpool", () => {
    expect(unusualDistance("carpooling", 150_000, null)).toBeNull();
    expect(unusualDistance("carpooling", 150_001, null)).toBe(150_001);
    expect(unusualDistance("carpooling", 40_000, null)).toBeNull();
    expect(unusualDistance("bicycle", 40_000, null)).toBe(40_000);
  });

  test("the larger of the estimate and the declared distance counts", () => {
    // A longer distance declared over a short estimate.
    expect(unusualDistance("bicycle", 8_000, 30_000)).toBe(30_000);
    // A short distance declared over addresses far apart: still asked.
    expect(unusualDistance("bicycle", 511_630, 12_000)).toBe(511_630);
    expect(unusualDistance("bicycle", 8_000, 12_000)).toBeNull();
    expect(unusualDistance("carpooling", 160_000, 140_000)).toBe(160_000);
  });

  test("a usual distance asks nothing, whatever is posted", () => {
    expect(plausibilityProblems(null, null)).toEqual({});
    expect(plausibilityProblems(null, { confirmed: false, reason: "" })).toEqual({});
  });

  test("an unusual distance needs the box ticked and a reason of 1 to 500 characters once trimmed", () => {
    const unusual = 511_630;
    expect(plausibilityProblems(unusual, null)).toEqual({
      distance_confirmed: "distanceConfirmationRequired",
      distance_reason: "distanceReasonRequired",
    });
    expect(plausibilityProblems(unusual, { confirmed: true, reason: "   " })).toEqual({
      distance_reason: "distanceReasonRequired",
    });
    expect(plausibilityProblems(unusual, { confirmed: false, reason: "Je dors à Lyon en semaine." })).toEqual({
      distance_confirmed: "distanceConfirmationRequired",
    });
    expect(plausibilityProblems(unusual, { confirmed: true, reason: "x" })).toEqual({});
    expect(
      plausibilityProblems(unusual, { confirmed: true, reason: `  ${"x".repeat(PLAUSIBILITY_REASON_MAX)}  ` }),
    ).toEqual({});
    expect(plausibilityProblems(unusual, { confirmed: true, reason: "x".repeat(PLAUSIBILITY_REASON_MAX + 1) })).toEqual(
      {
        distance_reason: "distanceReasonTooLong",
      },
    );
    expect(plausibilityProblems(unusual, { confirmed: true, reason: "x".repeat(2_000) })).toEqual({
      distance_reason: "distanceReasonTooLong",
    });
  });
});
