import { describe, expect, test } from "vitest";
import {
  addressProblems,
  allowanceDetailsSchema,
  allowanceDistanceSchema,
  allowanceSummarySchema,
  distanceSummarySchema,
  parseKilometres,
} from "./allowance-schemas";
import { DECLARED_DISTANCE_MAX_METERS } from "./amount-bounds";
import { parseForm } from "~/routes/+shared/forms.server";

/** The details step's answers as the form posts them (conform's names). */
const TODAY = "2026-11-24";
const valid = {
  group_id: "grp_cse",
  home: { line1: "8 rue des Lilas", zipcode: "69003", city: "Lyon", country: "fr" },
  work: { line1: "3 avenue Foch", zipcode: "69006", city: "Lyon", country: "FR" },
  start_at: "02/11/2026",
  ends_at: "24/11/2026",
  days_at_office: "12",
  iban: "fr76 3000 6000 0112 3456 7890 189",
  travel_role: "driver",
};

/** Every message by path ("home.line1"), as conform would show them. */
function errorsOf(schema: ReturnType<typeof allowanceDetailsSchema>, input: Record<string, unknown>) {
  const result = schema.safeParse(input);
  const errors: Record<string, string[]> = {};
  for (const issue of result.error?.issues ?? []) (errors[issue.path.join(".")] ??= []).push(issue.message);
  return errors;
}

test("valid carpooling answers become the platform's input: days, the account as chosen, country upper-case", () => {
  expect(allowanceDetailsSchema("carpooling", TODAY).parse(valid)).toEqual({
    groupId: "grp_cse",
    home: { line1: "8 rue des Lilas", zipcode: "69003", city: "Lyon", country: "FR" },
    work: { line1: "3 avenue Foch", zipcode: "69006", city: "Lyon", country: "FR" },
    startAt: "2026-11-02",
    endsAt: "2026-11-24",
    daysAtOffice: 12,
    iban: "FR7630006000011234567890189",
    ibanSource: "other",
    travelRole: "driver",
  });
});

test("the account paid (decision 0054): the saved IBAN by default, another for this request, or the first one to remember", () => {
  const SAVED = "FR7630006000011234567890189";
  const OTHER = "DE89370400440532013000";
  const withSaved = allowanceDetailsSchema("bicycle", TODAY, SAVED);
  expect(withSaved.parse({ ...valid, iban: "" })).toMatchObject({ iban: SAVED, ibanSource: "saved" });
  expect(withSaved.parse({ ...valid, iban_choice: "saved", iban: OTHER })).toMatchObject({
    iban: SAVED,
    ibanSource: "saved",
  });
  expect(withSaved.parse({ ...valid, iban_choice: "other", iban: OTHER, save_iban: "on" })).toMatchObject({
    iban: OTHER,
    ibanSource: "other",
  });
  expect(errorsOf(withSaved, { ...valid, iban_choice: "other", iban: "" })).toEqual({
    iban: ["refunds.errors.ibanRequired"],
  });
  expect(errorsOf(withSaved, { ...valid, iban_choice: "mine" })).toEqual({ iban_choice: ["payoutIban.errors.choice"] });
  const none = allowanceDetailsSchema("bicycle", TODAY, null);
  expect(none.parse({ ...valid, save_iban: "on" })).toMatchObject({ iban: SAVED, ibanSource: "remember" });
  expect(errorsOf(none, { ...valid, iban: "" })).toEqual({ iban: ["refunds.errors.ibanRequired"] });
});

test("the bicycle has no travel role (one posted anyway is dropped); carpooling requires it", () => {
  expect(allowanceDetailsSchema("bicycle", TODAY).parse(valid).travelRole).toBeNull();
  expect(errorsOf(allowanceDetailsSchema("carpooling", TODAY), { ...valid, travel_role: undefined })).toEqual({
    travel_role: ["allowances.errors.travelRoleRequired"],
  });
  expect(errorsOf(allowanceDetailsSchema("carpooling", TODAY), { ...valid, travel_role: "pilot" })).toHaveProperty(
    "travel_role",
  );
});

test("days at the office: from 1 to the period's days without Sundays (2–24 November 2026: 20)", () => {
  const schema = allowanceDetailsSchema("bicycle", TODAY);
  expect(schema.parse({ ...valid, days_at_office: "20" }).daysAtOffice).toBe(20);
  for (const days of ["0", "21", "-1", "2.5", "douze", ""])
    expect(errorsOf(schema, { ...valid, days_at_office: days }), days).toEqual({
      days_at_office: ["allowances.errors.daysAtOfficeRange"],
    });
  // A period of Sundays only has no day to claim.
  expect(errorsOf(schema, { ...valid, start_at: "22/11/2026", ends_at: "22/11/2026", days_at_office: "1" })).toEqual({
    ends_at: ["allowances.errors.noWorkingDay"],
  });
});

test("the dates follow the domain's rules: end after today, before the start, outside the window, not a day", () => {
  const schema = allowanceDetailsSchema("bicycle", TODAY);
  expect(errorsOf(schema, { ...valid, ends_at: "25/11/2026" })).toEqual({
    ends_at: ["allowances.errors.endAfterToday"],
  });
  expect(errorsOf(schema, { ...valid, start_at: "20/11/2026", ends_at: "19/11/2026" })).toEqual({
    ends_at: ["allowances.errors.endBeforeStart"],
  });
  expect(errorsOf(schema, { ...valid, start_at: "31/12/2025" })).toHaveProperty("start_at", [
    "allowances.errors.startDateInvalid",
  ]);
  // A start after today is said as such, not by the year rule (issue 31 §3).
  expect(errorsOf(schema, { ...valid, start_at: "25/11/2026", ends_at: "25/11/2026" })).toHaveProperty("start_at", [
    "allowances.errors.startAfterToday",
  ]);
  expect(errorsOf(schema, { ...valid, start_at: "31/02/2026" })).toHaveProperty("start_at", [
    "dates.errors.dayOfMonth",
  ]);
  expect(errorsOf(schema, { ...valid, ends_at: "demain" })).toHaveProperty("ends_at", ["dates.errors.format"]);
  expect(errorsOf(schema, { ...valid, start_at: undefined, ends_at: undefined })).toMatchObject({
    start_at: ["allowances.errors.startRequired"],
    ends_at: ["allowances.errors.endRequired"],
  });
  // Until 15 January, last year's days may still be claimed.
  expect(allowanceDetailsSchema("bicycle", "2027-01-15").parse({ ...valid, days_at_office: "3" }).startAt).toBe(
    "2026-11-02",
  );
  expect(errorsOf(allowanceDetailsSchema("bicycle", "2027-01-16"), valid)).toHaveProperty("start_at");
});

test("the dates are read however they are typed (issue 31 §3, decision 0057)", () => {
  const schema = allowanceDetailsSchema("bicycle", TODAY);
  for (const [start, end] of [
    ["02112026", "24112026"],
    ["02 11 2026", "24 11 2026"],
    ["2/11/2026", "24.11.2026"],
    ["2026-11-02", "24-11-2026"],
    ["02/11/26", "241126"],
  ])
    expect(schema.parse({ ...valid, start_at: start, ends_at: end }), `${start} ${end}`).toMatchObject({
      startAt: "2026-11-02",
      endsAt: "2026-11-24",
    });
});

test("a date that is not one says the rule it breaks, on its own field", () => {
  const schema = allowanceDetailsSchema("bicycle", TODAY);
  const cases: [string, string][] = [
    ["hier", "dates.errors.format"],
    ["00000000", "dates.errors.format"],
    ["1/13/2026", "dates.errors.month"],
    ["31/02/2026", "dates.errors.dayOfMonth"],
    ["31/04/2026", "dates.errors.dayOfMonth"],
    ["01/11/1850", "dates.errors.year"],
    ["1".repeat(31), "dates.errors.format"],
  ];
  for (const [typed, key] of cases) {
    expect(errorsOf(schema, { ...valid, start_at: typed }).start_at, typed).toEqual([key]);
    expect(errorsOf(schema, { ...valid, ends_at: typed }).ends_at, typed).toEqual([key]);
  }
  // Said with the other fields' errors, not only once they are right.
  expect(errorsOf(schema, { ...valid, group_id: "", start_at: "1/13/2026", ends_at: "hier" })).toEqual({
    group_id: ["allowanceWizard.errors.groupRequired"],
    start_at: ["dates.errors.month"],
    ends_at: ["dates.errors.format"],
  });
  // The period's rules too, on each date whose own field is right.
  expect(errorsOf(schema, { ...valid, group_id: "", start_at: "25112026" })).toEqual({
    group_id: ["allowanceWizard.errors.groupRequired"],
    start_at: ["allowances.errors.startAfterToday"],
    ends_at: ["allowances.errors.endBeforeStart"],
  });
  expect(errorsOf(schema, { ...valid, start_at: "25112026", ends_at: "1/13/2026" })).toEqual({
    start_at: ["allowances.errors.startAfterToday"],
    ends_at: ["dates.errors.month"],
  });
  // "01112026" and "01 11 2026" are this year's: never the year rule (the bug of issue 31).
  expect(errorsOf(schema, { ...valid, start_at: "01112026", days_at_office: "3" })).toEqual({});
  expect(errorsOf(schema, { ...valid, start_at: "01 11 2026", days_at_office: "3" })).toEqual({});
});

test("addresses follow the delivery address's rules; an IBAN is checked by ibantools", () => {
  const schema = allowanceDetailsSchema("bicycle", TODAY);
  expect(errorsOf(schema, { ...valid, home: { ...valid.home, line1: "rue des Lilas" } })).toEqual({
    "home.line1": ["errors.addStreetNumber"],
  });
  expect(errorsOf(schema, { ...valid, work: { ...valid.work, city: "x".repeat(51) } })).toHaveProperty("work.city");
  // An address left empty is said field by field, in French keys.
  expect(errorsOf(schema, { ...valid, home: undefined })).toMatchObject({
    "home.line1": ["errors.line1Required"],
    "home.zipcode": ["errors.zipcodeRequired"],
    "home.city": ["errors.cityRequired"],
  });
  expect(errorsOf(schema, { ...valid, iban: "FR76 3000 6000 0112 3456 7890 188" })).toEqual({
    iban: ["refunds.errors.ibanChecksum"],
  });
  expect(errorsOf(schema, { ...valid, iban: "F".repeat(61) })).toEqual({ iban: ["refunds.errors.ibanFormat"] });
  expect(errorsOf(schema, { ...valid, group_id: "" })).toEqual({ group_id: ["allowanceWizard.errors.groupRequired"] });
});

test("the one-way distance typed in km: from 1 m, comma or point", () => {
  expect(parseKilometres("7,5")).toBe(7500);
  expect(parseKilometres(" 12.345 ")).toBe(12345);
  expect(parseKilometres("abc")).toBeNull();
  for (const type of ["carpooling", "bicycle"] as const) {
    const schema = allowanceDistanceSchema(type);
    expect(schema.parse({ declared_km: "0,001" })).toEqual({ declared_km: 1 });
    for (const km of ["0", "0,0004", "-3", "1e3", "douze", ""])
      expect(distanceErrors(type, km), `${type} ${km}`).toEqual(["allowances.errors.distanceInvalid"]);
  }
});

/** The errors of a typed distance, or null when accepted. */
function distanceErrors(type: "carpooling" | "bicycle", declared_km: string) {
  const form = new FormData();
  form.append("declared_km", declared_km);
  const submission = parseForm(form, allowanceDistanceSchema(type));
  return submission.status === "success" ? null : (submission.error?.declared_km ?? null);
}

test("the one-way distance's bound by mode (decision 0049): 50 km by bicycle, 200 km carpooling", () => {
  // Just below, at, just above (to the metre).
  expect(distanceErrors("bicycle", "49,999")).toBeNull();
  expect(distanceErrors("bicycle", "50")).toBeNull();
  expect(distanceErrors("bicycle", "50,001")).toEqual(["allowances.errors.distanceTooLong.bicycle"]);
  expect(distanceErrors("bicycle", "511,63")).toEqual(["allowances.errors.distanceTooLong.bicycle"]);
  expect(distanceErrors("carpooling", "199,999")).toBeNull();
  expect(distanceErrors("carpooling", "200")).toBeNull();
  expect(distanceErrors("carpooling", "200,001")).toEqual(["allowances.errors.distanceTooLong.carpooling"]);
  expect(distanceErrors("carpooling", "999")).toEqual(["allowances.errors.distanceTooLong.carpooling"]);
  expect(DECLARED_DISTANCE_MAX_METERS).toEqual({ bicycle: 50_000, carpooling: 200_000 });
});

test("carpooling and bicycle's summary: the confirmation of an unusual distance and its reason, at most 500 characters", () => {
  const sworn = { sworn_statement: "on" };
  expect(
    distanceSummarySchema.parse({ ...sworn, distance_confirmed: "on", distance_reason: "  Je dors à Paris.  " }),
  ).toEqual({
    ...sworn,
    distance_confirmed: "on",
    distance_reason: "Je dors à Paris.",
  });
  // Neither is required here: the platform asks for them when the distance is unusual.
  expect(distanceSummarySchema.parse(sworn)).toEqual(sworn);
  const messages = (input: Record<string, unknown>) =>
    distanceSummarySchema.safeParse({ ...sworn, ...input }).error?.issues.map((i) => i.message);
  expect(messages({ distance_reason: "x".repeat(500) })).toBeUndefined();
  expect(messages({ distance_reason: "x".repeat(501) })).toEqual(["allowances.errors.distanceReasonTooLong"]);
  expect(messages({ distance_reason: "x".repeat(2_000) })).toEqual(["allowances.errors.distanceReasonTooLong"]);
  expect(messages({ distance_confirmed: "yes" })).toEqual(["allowances.errors.distanceConfirmationRequired"]);
});

test("the summary needs the sworn statement; nothing else it posts is read", () => {
  expect(allowanceSummarySchema.safeParse({ sworn_statement: "on", amount: "999999" }).data).toEqual({
    sworn_statement: "on",
  });
  expect(allowanceSummarySchema.safeParse({}).error?.issues[0]?.message).toBe(
    "allowances.errors.swornStatementRequired",
  );
});

describe("addressProblems", () => {
  const HOME = { line1: "8 rue des Lilas", zipcode: "69003", city: "Lyon", country: "fr" };

  test("the delivery address's rules as codes, each once, in the order of the lines", () => {
    expect(addressProblems(HOME)).toEqual([]);
    expect(addressProblems({ ...HOME, line1: "rue des Lilas" })).toEqual(["addStreetNumber"]);
    expect(addressProblems({ ...HOME, line1: `8 ${"x".repeat(60)}` })).toEqual(["maxLength50"]);
    expect(addressProblems({ ...HOME, zipcode: "", city: "42", country: "XX" })).toEqual([
      "zipcodeRequired",
      "zipcodeInvalid",
      "cityNumeric",
      "countryInvalid",
    ]);
  });

  test("no address, or a line of the wrong type, counts as missing", () => {
    const missing = ["line1Required", "zipcodeRequired", "cityRequired", "countryRequired"];
    expect(addressProblems(undefined)).toEqual(missing);
    expect(addressProblems("8 rue des Lilas")).toEqual(missing);
    expect(addressProblems({ ...HOME, zipcode: 69003 })).toEqual(["zipcodeRequired"]);
    expect(addressProblems({ ...HOME, line2: 3 })).toEqual(["maxLength50"]);
  });
});
