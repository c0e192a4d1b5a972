import { z } from "zod";
import { IBAN_CHOICES } from "./payout-iban";

/**
 * The payout account's fields (issue 31 §1, decision 0054), spread into a wizard step's z.object: which
 * account (the saved one or another for this request), the IBAN typed, and "save this account" when none
 * is saved yet. The step's server code then calls `resolvePayoutIban` with the saved IBAN.
 */
export const payoutIbanFields = {
  iban_choice: z.enum(IBAN_CHOICES, { error: "payoutIban.errors.choice" }).optional(),
  iban: z.string().max(60, "refunds.errors.ibanFormat").optional(),
  save_iban: z.literal("on").optional(),
};

/** The profile's IBAN form (decision 0054): the new IBAN, checked by the route with `ibanProblem`. */
export const profileIbanSchema = z.object({
  iban: z
    .string({ error: "refunds.errors.ibanRequired" })
    .trim()
    .min(1, "refunds.errors.ibanRequired")
    .max(60, "refunds.errors.ibanFormat"),
});
export type ProfileIbanForm = z.input<typeof profileIbanSchema>;
