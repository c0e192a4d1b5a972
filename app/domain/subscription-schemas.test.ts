import { expect, test } from "vitest";
import { parseForm } from "~/routes/+shared/forms.server";
import { subscriptionDetailsSchema, subscriptionSummarySchema } from "./subscription-schemas";

/** Issue 15 item 4, spec 001 §5 "Subscription": the details step's rules, on a fixed day. */
const TODAY = "2026-11-24";
const VALID = {
  group_id: "grp_cse",
  start_at: "01/11/2026",
  ends_at: "31/12/2026",
  amount: "86,40",
  iban: "fr76 3000 6000 0112 3456 7890 189",
};

function details(changes: Partial<typeof VALID>, today = TODAY) {
  const form = new FormData();
  for (const [name, value] of Object.entries({ ...VALID, ...changes })) form.append(name, value);
  return parseForm(form, subscriptionDetailsSchema(today));
}

function errorsOf(changes: Partial<typeof VALID>, today = TODAY) {
  const submission = details(changes, today);
  return (submission.status === "success" ? null : submission.error) ?? {};
}

test("valid answers: days, cents, and the payout account's fields as sent (the step resolves them, decision 0054)", () => {
  const submission = details({});
  expect(submission.status === "success" && submission.value).toEqual({
    groupId: "grp_cse",
    startAt: "2026-11-01",
    endsAt: "2026-12-31",
    amount: 8640,
    ibanChoice: undefined,
    iban: "fr76 3000 6000 0112 3456 7890 189",
    saveIban: undefined,
  });
  const other = details({ iban_choice: "other", save_iban: "on" } as Partial<typeof VALID>);
  expect(other.status === "success" && [other.value.ibanChoice, other.value.saveIban]).toEqual(["other", "on"]);
});

test("the amount: above 0, at most 2 decimals, a number", () => {
  for (const amount of ["0", "0,00", "douze", "12,345", "-5", ""])
    expect(errorsOf({ amount }).amount, amount).toEqual(["allowances.errors.amountInvalid"]);
  const one = details({ amount: "0,01" });
  expect(one.status === "success" && one.value.amount).toBe(1);
});

test("the price's bound (decision 0049): 1 000 € per month the period touches", () => {
  const accepted = (changes: Partial<typeof VALID>) => {
    const submission = details(changes);
    return submission.status === "success" ? submission.value.amount : errorsOf(changes);
  };
  const tooBig = { amount: ["allowances.errors.subscriptionAmountTooBig"] };
  // November and December: 2 months, 2 000 €.
  expect(accepted({ amount: "1 999,99" })).toBe(199_999);
  expect(accepted({ amount: "2000" })).toBe(200_000);
  expect(accepted({ amount: "2 000,01" })).toEqual(tooBig);
  // One day of November: 1 month, 1 000 €; 15 November – 14 December touches 2 months.
  expect(accepted({ ends_at: "01/11/2026", amount: "1000" })).toBe(100_000);
  expect(accepted({ ends_at: "01/11/2026", amount: "1 000,01" })).toEqual(tooBig);
  expect(accepted({ start_at: "15/11/2026", ends_at: "14/12/2026", amount: "2000" })).toBe(200_000);
  // The whole of 2026: 12 000 €.
  expect(accepted({ start_at: "01/01/2026", amount: "12 000" })).toBe(1_200_000);
  expect(accepted({ start_at: "01/01/2026", amount: "12 000,01" })).toEqual(tooBig);
  // The probe's 999 999,99 €; and above the longest period's bound even while the dates are wrong.
  expect(accepted({ amount: "999 999,99" })).toEqual(tooBig);
  expect(errorsOf({ ends_at: "", amount: "12 000,01" })).toEqual({
    ...tooBig,
    ends_at: ["allowances.errors.endRequired"],
  });
});

test("the period: end not after 31 December of the start's year, not before the start, start in the window", () => {
  expect(errorsOf({ ends_at: "01/01/2027" }).ends_at).toEqual(["allowances.errors.endDateLastDayOfYearInvalid"]);
  expect(errorsOf({ ends_at: "31/10/2026" }).ends_at).toEqual(["allowances.errors.endBeforeStart"]);
  // A subscription may start later this year (its end is not bounded by today).
  expect(errorsOf({ start_at: "01/12/2026" })).toEqual({});
  // Last year: until 15 January inclusive only.
  expect(errorsOf({ start_at: "01/12/2025", ends_at: "31/12/2025" }, "2026-01-15")).toEqual({});
  expect(errorsOf({ start_at: "01/12/2025", ends_at: "31/12/2025" }, "2026-01-16").start_at).toEqual([
    "allowances.errors.startDateInvalid",
  ]);
  expect(errorsOf({ start_at: "31/02/2026" }).start_at).toEqual(["dates.errors.dayOfMonth"]);
  // Next year is said as such, not by the year rule (issue 31 §3).
  expect(errorsOf({ start_at: "01/01/2027", ends_at: "31/01/2027" }).start_at).toEqual([
    "allowances.errors.startNextYear",
  ]);
  expect(errorsOf({ ends_at: "" }).ends_at).toEqual(["allowances.errors.endRequired"]);
});

test("the dates are read however they are typed; one that is not says the rule it breaks (decision 0057)", () => {
  expect(details({ start_at: "01112026", ends_at: "31 12 2026" }).status).toBe("success");
  expect(details({ start_at: "1/11/2026", ends_at: "2026-12-31" }).status).toBe("success");
  const cases: [string, string][] = [
    ["novembre", "dates.errors.format"],
    ["00000000", "dates.errors.format"],
    ["1/13/2026", "dates.errors.month"],
    ["31/11/2026", "dates.errors.dayOfMonth"],
    ["01/11/2101", "dates.errors.year"],
  ];
  for (const [typed, key] of cases) {
    expect(errorsOf({ start_at: typed }).start_at, typed).toEqual([key]);
    expect(errorsOf({ ends_at: typed }).ends_at, typed).toEqual([key]);
  }
});

test("the group is required; the payout account's choice is one of two, its IBAN 60 characters at most", () => {
  expect(errorsOf({ group_id: "" }).group_id).toEqual(["allowanceWizard.errors.groupRequired"]);
  // The IBAN's checksum is resolvePayoutIban's (payout-iban.test.ts), with the saved IBAN the schema does not know.
  expect(errorsOf({ iban: "FR76".padEnd(61, "1") }).iban).toEqual(["refunds.errors.ibanFormat"]);
  expect(errorsOf({ iban_choice: "theirs" } as Partial<typeof VALID>).iban_choice).toEqual([
    "payoutIban.errors.choice",
  ]);
  expect(errorsOf({ save_iban: "yes" } as Partial<typeof VALID>).save_iban).toBeDefined();
});

test("the summary needs the sworn statement; an amount posted there is not read", () => {
  const unsigned = new FormData();
  unsigned.append("amount", "999999");
  const refused = parseForm(unsigned, subscriptionSummarySchema);
  expect(refused.status === "error" && refused.error?.sworn_statement).toEqual([
    "allowances.errors.swornStatementRequired",
  ]);
  const signed = new FormData();
  signed.append("sworn_statement", "on");
  signed.append("amount", "999999");
  const accepted = parseForm(signed, subscriptionSummarySchema);
  expect(accepted.status === "success" && accepted.value).toEqual({ sworn_statement: "on" });
});
