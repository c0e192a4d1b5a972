import { expect, test } from "vitest";
import { problem } from "~/domain/problems";
import { refusalOf, type ProblemWords } from "./problems.server";

const WORDS: ProblemWords<"amountInvalid" | "ibanInvalid" | "alreadySent"> = {
  amountInvalid: "refunds.errors.amountInvalid",
  ibanInvalid: "refunds.errors.ibanFormat",
  alreadySent: "refunds.errors.mediaTwice",
};

test("each code is worded at its field, in order, and a problem without a field at the form", () => {
  const refusal = refusalOf(
    [problem("amount", "amountInvalid"), problem(null, "alreadySent"), problem("amount", "ibanInvalid")],
    WORDS,
  );
  expect(refusal).toEqual({
    fieldErrors: { amount: ["refunds.errors.amountInvalid", "refunds.errors.ibanFormat"] },
    formErrors: ["refunds.errors.mediaTwice"],
  });
});

test("no problem, no error", () => {
  expect(refusalOf([], WORDS)).toEqual({ fieldErrors: {}, formErrors: [] });
});
