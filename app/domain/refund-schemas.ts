import { z } from "zod";
import { REFUND_MAX_AMOUNT } from "./amount-bounds";
import { dayProblemKey, readDay } from "./dates";
import { parseEuros } from "./money";
import { payoutIbanFields } from "./payout-iban-schemas";

/*
 * The wizard's forms (decision 0021): the server parses each step with its schema; errors are catalogue
 * keys. The rules that need the database (a partner that exists, a wallet's balance, the IBAN on file)
 * are the server flow's and the platform's.
 */
const required = (key: string) => z.string({ error: key }).trim().min(1, key).max(200, key);

export const refundTypeSchema = z.object({ type_id: required("refunds.errors.typeRequired") });
/** The ticket step has no field of its own but its file (parsed apart, see uploads.server.ts). */
export const refundTicketSchema = z.object({});
export const refundMobilitySchema = z.object({ subtype: required("refundWizard.errors.subtypeRequired") });

/** Cents from a typed amount ("9,10", "9.1", "9"): more than 0, at most 2 decimals, at most 5 000 € (decision 0049). */
const amountField = z
  .string({ error: "refundWizard.errors.amountRequired" })
  .max(30, "refunds.errors.amountInvalid")
  .transform((text, ctx) => {
    const cents = parseEuros(text);
    if (cents === null) {
      ctx.addIssue({ code: "custom", message: "refunds.errors.amountInvalid" });
      return z.NEVER;
    }
    if (cents <= 0) {
      ctx.addIssue({ code: "custom", message: "refunds.errors.amountPositive" });
      return z.NEVER;
    }
    if (cents > REFUND_MAX_AMOUNT) {
      ctx.addIssue({ code: "custom", message: "refunds.errors.amountTooBig" });
      return z.NEVER;
    }
    return cents;
  });

/** Spec 001 §5 "Expense details": partner, date (not after today, Paris), amount. */
export const refundDetailsSchema = (today: string) =>
  z.object({
    partner_id: required("refunds.errors.partnerRequired"),
    ticket_date: z
      .string({ error: "refunds.errors.ticketDateRequired" })
      .max(30, "dates.errors.format")
      .transform((text, ctx) => {
        // Typed any way (decision 0057); a day that is not one is said by the rule it breaks.
        const reading = readDay(text);
        if (reading.kind === "problem") {
          ctx.addIssue({
            code: "custom",
            message: dayProblemKey(reading.problem, "refunds.errors.ticketDateRequired"),
          });
          return z.NEVER;
        }
        if (reading.day > today) {
          ctx.addIssue({ code: "custom", message: "refunds.errors.ticketDateFuture" });
          return z.NEVER;
        }
        return reading.day;
      }),
    amount: amountField,
  });

/**
 * Spec 001 §5 "Methods": an amount per wallet offered (checked together by the flow), and the account paid: the
 * saved one or another (decision 0054; the flow resolves it with `resolvePayoutIban`).
 */
export const refundMethodsSchema = z.object({
  payment_methods: z
    .array(z.object({ wallet_id: z.string().max(100), amount: z.string().max(30).optional() }))
    .max(50)
    .default([]),
  ...payoutIbanFields,
});

/** Spec 001 §2.6 "Summary": the sworn statement, and the sworn name for mobility and holidays. */
export const refundSummarySchema = z.object({
  sworn_statement: z.literal("on", { error: "refunds.errors.swornStatementRequired" }),
  sworn_name: z.string().trim().max(200).optional(),
});
