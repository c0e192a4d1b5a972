import { expect, test } from "vitest";
import { cardChoiceSchema, deliveryAddressSchema, onboardingProfileSchema } from "./schemas";

const address = { line1: "12 rue de la République", line2: "", zipcode: "69002", city: "Lyon", country: "fr" };
/** The first message of each field: the one the form shows (conform's `errors.field[0]`). */
function firstErrors(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const errors: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) errors[String(issue.path[0])] ??= issue.message;
  return errors;
}
const errorsOf = (input: Record<string, unknown>) => firstErrors(deliveryAddressSchema.safeParse(input));

test("a complete address passes, the country leaves upper-case and an empty line2 as null", () => {
  expect(deliveryAddressSchema.parse(address)).toEqual({
    line1: "12 rue de la République",
    line2: null,
    zipcode: "69002",
    city: "Lyon",
    country: "FR",
  });
});

test("line1 needs a street number (spec 000 §5: errors.addStreetNumber)", () => {
  expect(errorsOf({ ...address, line1: "rue de la Paix" })).toEqual({ line1: "errors.addStreetNumber" });
  expect(errorsOf({ ...address, line1: "bis 3, rue de la Paix" })).toEqual({});
});

test("line1 and city may be neither blank nor purely numeric", () => {
  expect(errorsOf({ ...address, line1: "   " })).toEqual({ line1: "errors.line1Required" });
  expect(errorsOf({ ...address, line1: "12 34" })).toEqual({ line1: "errors.line1Numeric" });
  expect(errorsOf({ ...address, city: " " })).toEqual({ city: "errors.cityRequired" });
  expect(errorsOf({ ...address, city: "69000" })).toEqual({ city: "errors.cityNumeric" });
});

test("line1 and line2 hold at most 50 characters (errors.maxLength50)", () => {
  const long = `1 ${"a".repeat(49)}`;
  expect(errorsOf({ ...address, line1: long })).toEqual({ line1: "errors.maxLength50" });
  expect(errorsOf({ ...address, line2: "b".repeat(51) })).toEqual({ line2: "errors.maxLength50" });
  expect(errorsOf({ ...address, line1: `1 ${"a".repeat(48)}`, line2: "b".repeat(50) })).toEqual({});
});

test("zipcode, city and country are required; the country must be one we offer", () => {
  expect(errorsOf({ line1: "1 rue A" })).toEqual({
    zipcode: "errors.zipcodeRequired",
    city: "errors.cityRequired",
    country: "errors.countryRequired",
  });
  expect(errorsOf({ ...address, zipcode: "  " })).toEqual({ zipcode: "errors.zipcodeRequired" });
  expect(errorsOf({ ...address, zipcode: "<script>" })).toEqual({ zipcode: "errors.zipcodeInvalid" });
  expect(errorsOf({ ...address, country: "France" })).toEqual({ country: "errors.countryInvalid" });
  expect(errorsOf({ ...address, country: "US" })).toEqual({ country: "errors.countryInvalid" });
  expect(errorsOf({ ...address, country: "be" })).toEqual({});
});

test("step 1 needs a funder and a type, physical or virtual", () => {
  expect(cardChoiceSchema.safeParse({ group: "grp_1", type: "virtual" }).success).toBe(true);
  const missing = cardChoiceSchema.safeParse({});
  expect(missing.success ? [] : missing.error.issues.map((i) => i.message)).toEqual([
    "errors.funderRequired",
    "errors.cardTypeRequired",
  ]);
  expect(cardChoiceSchema.safeParse({ group: "grp_1", type: "plastic" }).success).toBe(false);
});

test("onboarding profile: two letters per name, a phone of 10 characters at least, terms accepted", () => {
  const ok = { firstName: "Lê", lastName: "Bernard", phone: "06 12 34 56 78", terms: "on" };
  expect(onboardingProfileSchema.safeParse(ok).success).toBe(true);
  const issues = (input: Record<string, unknown>) => firstErrors(onboardingProfileSchema.safeParse(input));
  expect(issues({ ...ok, firstName: "J." })).toEqual({ firstName: "errors.nameTooShort" });
  expect(issues({ ...ok, lastName: "42" })).toEqual({ lastName: "errors.nameTooShort" });
  expect(issues({ ...ok, phone: "06 12 34 56" })).toEqual({ phone: "errors.phoneTooShort" });
  expect(issues({ ...ok, phone: "06 12 AB 56 78" })).toEqual({ phone: "errors.phoneInvalid" });
  expect(issues({ firstName: "", lastName: "", phone: "" })).toEqual({
    firstName: "errors.firstNameRequired",
    lastName: "errors.lastNameRequired",
    phone: "errors.phoneRequired",
    terms: "errors.termsRequired",
  });
});
