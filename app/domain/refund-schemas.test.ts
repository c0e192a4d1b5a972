import { expect, test } from "vitest";
import { parseForm } from "~/routes/+shared/forms.server";
import { refundDetailsSchema } from "./refund-schemas";

/** Issue 31 §3: the ticket's date, typed any way (decision 0057), on a fixed day. */
const TODAY = "2026-11-24";

function details(ticketDate: string | undefined) {
  const form = new FormData();
  form.append("partner_id", "partner_bakery");
  form.append("amount", "9,10");
  if (ticketDate !== undefined) form.append("ticket_date", ticketDate);
  return parseForm(form, refundDetailsSchema(TODAY));
}

const dayOf = (typed: string) => {
  const submission = details(typed);
  return submission.status === "success" ? submission.value.ticket_date : submission.error;
};

const errorOf = (typed: string | undefined) => {
  const submission = details(typed);
  return submission.status === "success" ? null : submission.error?.ticket_date;
};

test("the ticket's date is read however it is typed, today included", () => {
  for (const typed of ["01/11/2026", "01112026", "01 11 2026", "1/11/2026", "01.11.2026", "01-11-2026", "2026-11-01"])
    expect(dayOf(typed), typed).toBe("2026-11-01");
  expect(dayOf("011126")).toBe("2026-11-01");
  expect(dayOf("24112026")).toBe(TODAY);
});

test("each date that is not one says the rule it breaks", () => {
  expect(errorOf(undefined)).toEqual(["refunds.errors.ticketDateRequired"]);
  expect(errorOf("   ")).toEqual(["refunds.errors.ticketDateRequired"]);
  expect(errorOf("hier")).toEqual(["dates.errors.format"]);
  expect(errorOf("00000000")).toEqual(["dates.errors.format"]);
  expect(errorOf("1/13/2026")).toEqual(["dates.errors.month"]);
  expect(errorOf("31/02/2026")).toEqual(["dates.errors.dayOfMonth"]);
  expect(errorOf("01/11/1850")).toEqual(["dates.errors.year"]);
  expect(errorOf("1".repeat(31))).toEqual(["dates.errors.format"]);
});

test("a ticket cannot be dated after today", () => {
  expect(errorOf("25112026")).toEqual(["refunds.errors.ticketDateFuture"]);
  expect(errorOf("01/01/2027")).toEqual(["refunds.errors.ticketDateFuture"]);
});
