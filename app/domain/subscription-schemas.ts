import { z } from "zod";
import { periodProblems } from "./allowances";
import { ibanProblem, normaliseIban } from "./iban";
import { parseEuros } from "./payment-methods";
import { parseDay } from "./refunds";

/*
 * The subscription wizard's forms (decision 0021, issue 15 item 4): the server parses each step with its
 * schema; errors are catalogue keys. The date rules are domain/allowances.ts's (`periodProblems` for a
 * subscription: start in this year or last year until 15 January, end on or after the start and not
 * after 31 December); the platform (services/allowances.ts) checks everything again on confirmation.
 * Kept apart from the components so that zod stays out of the browser (decision 0008).
 */

const text = (key: string) => z.string({ error: key }).trim().max(30, key);

/** Spec 001 §2.7 "Details", §5 "Subscription": group, start, end, amount (> 0, 2 decimals), IBAN. */
export const subscriptionDetailsSchema = (today: string) =>
  z
    .object({
      group_id: z
        .string({ error: "subscriptionWizard.errors.groupRequired" })
        .trim()
        .min(1, "subscriptionWizard.errors.groupRequired")
        .max(100, "allowances.errors.groupNotAllowed"),
      start_at: text("allowances.errors.startRequired"),
      ends_at: text("allowances.errors.endRequired"),
      amount: z
        .string({ error: "allowances.errors.amountInvalid" })
        .max(30, "allowances.errors.amountInvalid")
        .transform((raw, ctx) => {
          const cents = parseEuros(raw);
          if (cents === null || cents <= 0) {
            ctx.addIssue({ code: "custom", message: "allowances.errors.amountInvalid" });
            return z.NEVER;
          }
          return cents;
        }),
      iban: z
        .string({ error: "refunds.errors.ibanRequired" })
        .max(60, "refunds.errors.ibanFormat")
        .transform((raw, ctx) => {
          const iban = normaliseIban(raw);
          const problem = ibanProblem(iban);
          if (problem) {
            ctx.addIssue({ code: "custom", message: problem });
            return z.NEVER;
          }
          return iban;
        }),
    })
    .transform((value, ctx) => {
      const start = value.start_at ? parseDay(value.start_at) : null;
      const end = value.ends_at ? parseDay(value.ends_at) : null;
      const problems: Record<string, string[]> = periodProblems("subscription", start, end, today);
      // A day typed but not a day of the calendar is said as such, not as missing.
      if (value.start_at && !start) problems.start_at = ["allowances.errors.startDateInvalid"];
      if (value.ends_at && !end) problems.ends_at = ["subscriptionWizard.errors.endDateInvalid"];
      for (const [path, keys] of Object.entries(problems))
        for (const message of keys) ctx.addIssue({ code: "custom", message, path: [path] });
      if (ctx.issues.length) return z.NEVER;
      return { groupId: value.group_id, startAt: start!, endsAt: end!, amount: value.amount, iban: value.iban };
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
  iban: string;
};
