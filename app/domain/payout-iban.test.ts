import { expect, test } from "vitest";
import { payoutIbanFields } from "./payout-iban-schemas";
import { maskedIban, resolvePayoutIban } from "./payout-iban";
import { z } from "zod";

const SAVED = "FR7630006000011234567890189";
const GERMAN = "DE89370400440532013000";

test("with a saved IBAN, no choice and « saved » both answer it, from the profile, whatever was typed", () => {
  const saved = { kind: "iban", iban: SAVED, fromProfile: true };
  expect(resolvePayoutIban({ choice: undefined, typed: undefined, saved: SAVED })).toEqual(saved);
  expect(resolvePayoutIban({ choice: "saved", typed: "not an iban", saved: SAVED })).toEqual(saved);
});

test("« other » checks the typed IBAN: normalised when valid, not from the profile", () => {
  expect(resolvePayoutIban({ choice: "other", typed: "de89 3704 0044 0532 0130 00", saved: SAVED })).toEqual({
    kind: "iban",
    iban: GERMAN,
    fromProfile: false,
  });
});

test("« other » with nothing typed, a bad checksum or a foreign non-SEPA IBAN is refused on the IBAN field", () => {
  const refused = (typed: string | undefined) => resolvePayoutIban({ choice: "other", typed, saved: SAVED });
  expect(refused(undefined)).toEqual({ kind: "problem", field: "iban", message: "refunds.errors.ibanRequired" });
  expect(refused("FR7630006000011234567890188")).toEqual({
    kind: "problem",
    field: "iban",
    message: "refunds.errors.ibanChecksum",
  });
  expect(refused("DE89370400440532013001")).toEqual({
    kind: "problem",
    field: "iban",
    message: "refunds.errors.ibanChecksum",
  });
  // Brazil: a valid IBAN, outside the SEPA area our transfers reach.
  expect(refused("BR1800360305000010009795493C1")).toEqual({
    kind: "problem",
    field: "iban",
    message: "refunds.errors.ibanNotSepa",
  });
});

test("a choice that is neither is refused on the radios, never taken as the saved account", () => {
  expect(resolvePayoutIban({ choice: "someone-else", typed: GERMAN, saved: SAVED })).toEqual({
    kind: "problem",
    field: "iban_choice",
    message: "payoutIban.errors.choice",
  });
});

test("with none saved the typed IBAN is required and checked, whatever the choice says", () => {
  expect(resolvePayoutIban({ choice: "saved", typed: "", saved: null })).toEqual({
    kind: "problem",
    field: "iban",
    message: "refunds.errors.ibanRequired",
  });
  expect(resolvePayoutIban({ choice: undefined, typed: ` ${SAVED} `, saved: null })).toEqual({
    kind: "iban",
    iban: SAVED,
    fromProfile: false,
  });
});

test("the fields' schema takes the two choices and « on », and refuses anything else", () => {
  const schema = z.object(payoutIbanFields);
  expect(schema.safeParse({ iban_choice: "other", iban: GERMAN, save_iban: "on" }).success).toBe(true);
  expect(schema.safeParse({}).success).toBe(true);
  expect(schema.safeParse({ iban_choice: "mine" }).error?.issues[0]?.message).toBe("payoutIban.errors.choice");
  expect(schema.safeParse({ iban: "F".repeat(61) }).error?.issues[0]?.message).toBe("refunds.errors.ibanFormat");
  expect(schema.safeParse({ save_iban: "yes" }).success).toBe(false);
});

test("a masked IBAN shows its country, check digits and last four only, in groups of four", () => {
  expect(maskedIban(SAVED)).toBe("FR76 •••• •••• •••• •••• •••0 189");
  expect(maskedIban(GERMAN)).toBe("DE89 •••• •••• •••• ••30 00");
});
