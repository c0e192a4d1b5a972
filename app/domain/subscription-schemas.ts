import { z } from "zod";
import { allowanceGroupField, allowancePeriodFields, checkPeriod, periodRefinement } from "./allowance-schemas";
import { monthsOfPeriod } from "./allowances";
import { subscriptionMaxAmount } from "./amount-bounds";
import { parseEuros } from "./money";
import { payoutIbanFields } from "./payout-iban-schemas";

/*
 * The subscription wizard's forms (decision 0021, issue 15 item 4): the server parses each step with its
 * schema; errors are catalogue keys; the fields it shares with the other allowance wizards are theirs
 * (allowance-schemas.ts). The date rules are domain/allowances.ts's (`periodProblems` for a
 * subscription: start in this year or last year until 15 January, end on or after the start and not
 * after 31 December); the platform (services/allowances/requests.ts) checks everything again on confirmation.
 * Kept apart from the components so that zod stays out of the browser (decision 0008).
 */

/**
 * Spec 001 §2.7 "Details", §5 "Subscription": group, start, end, amount (> 0, 2 decimals, at most 1 000 € per
 * month of the period — decision 0049), the payout account (decision 0054: resolved by the step with the saved IBAN).
 */
export const subscriptionDetailsSchema = (today: string) =>
  z
    .object({
      group_id: allowanceGroupField,
      ...allowancePeriodFields,
      amount: z
        .string({ error: "allowances.errors.amountInvalid" })
        .max(30, "allowances.errors.amountInvalid")
        .transform((raw, ctx) => {
          const cents = parseEuros(raw);
          if (cents === null || cents <= 0) {
            ctx.addIssue({ code: "custom", message: "allowances.errors.amountInvalid" });
            return z.NEVER;
          }
          // Above the bound of the longest period: refused whatever the dates say.
          if (cents > subscriptionMaxAmount(null)) {
            ctx.addIssue({ code: "custom", message: "allowances.errors.subscriptionAmountTooBig" });
            return z.NEVER;
          }
          return cents;
        }),
      // The payout account (decision 0054): the saved one or another; the step's server code resolves it.
      ...payoutIbanFields,
    })
    .superRefine(...periodRefinement("subscription", today))
    .transform((value, ctx) => {
      const { start, end, valid } = checkPeriod("subscription", value, today, ctx);
      if (valid && value.amount > subscriptionMaxAmount(monthsOfPeriod(start!, end!)))
        ctx.addIssue({ code: "custom", message: "allowances.errors.subscriptionAmountTooBig", path: ["amount"] });
      if (ctx.issues.length) return z.NEVER;
      return {
        groupId: value.group_id,
        startAt: start!,
        endsAt: end!,
        amount: value.amount,
        ibanChoice: value.iban_choice,
        iban: value.iban,
        saveIban: value.save_iban,
      };
    });

/** Spec 001 §2.7 "Summary": the sworn statement. Any amount posted is ignored: the server simulates. */
export const subscriptionSummarySchema = z.object({
  sworn_statement: z.literal("on", { error: "allowances.errors.swornStatementRequired" }),
});

/** The tickets step has no field of its own but its two files (parsed apart, see uploads.server.ts). */
export const subscriptionTicketsSchema = z.object({});

export type SubscriptionDetailsForm = {
  group_id: string;
  start_at: string;
  ends_at: string;
  amount: string;
  iban_choice: string;
  iban: string;
  save_iban: string;
};
