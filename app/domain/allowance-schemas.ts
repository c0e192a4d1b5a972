import { z } from "zod";
import { daysWithoutSundays, periodProblems, type AllowanceType, type DistanceType } from "./allowances";
import { DECLARED_DISTANCE_MAX_METERS } from "./amount-bounds";
import { dayProblemKey, parseDay, readDay } from "./dates";
import { ibanMessage, ibanProblem, normaliseIban } from "./iban";
import { PLAUSIBILITY_REASON_MAX } from "./allowances";
import { resolvePayoutIban } from "./payout-iban";
import { payoutIbanFields } from "./payout-iban-schemas";
import { deliveryAddressSchema } from "./schemas";

/*
 * The carpooling and bicycle wizard's forms (decision 0021): the server parses each step with its schema;
 * errors are catalogue keys. The rules are those of domain/allowances.ts and the address rules of the
 * delivery address (street number, 50 characters); the platform (services/allowances/requests.ts) checks them all
 * again on confirmation. Kept apart from the components so that zod stays out of the browser (decision 0008).
 */

/** An address of the wizard: the delivery address's rules, without its second line. */
export const allowanceAddressSchema = deliveryAddressSchema.pick({
  line1: true,
  zipcode: true,
  city: true,
  country: true,
});

/** An address whose fields were all left empty is still checked field by field (conform drops empty objects). */
const addressField = z.preprocess((value) => value ?? {}, allowanceAddressSchema);

const text = (key: string) => z.string({ error: key }).trim().max(30, key);

/** The group of an allowance (its rights are the platform's to check). */
export const allowanceGroupField = z
  .string({ error: "allowanceWizard.errors.groupRequired" })
  .trim()
  .min(1, "allowanceWizard.errors.groupRequired")
  .max(100, "allowances.errors.groupNotAllowed");

/** The IBAN the allowance is paid to: spaces removed, checked by ibantools (domain/iban.ts). */
export const allowanceIbanField = z
  .string({ error: "refunds.errors.ibanRequired" })
  .max(60, "refunds.errors.ibanFormat")
  .transform((raw, ctx) => {
    const iban = normaliseIban(raw);
    const problem = ibanProblem(iban);
    if (problem) {
      ctx.addIssue({ code: "custom", message: ibanMessage(problem) });
      return z.NEVER;
    }
    return iban;
  });

/**
 * A date as typed, any way `readDay` reads (decision 0057): one that is not a day says the rule it breaks on
 * its field, with the step's other fields' errors (the period's own rules need both days and every field).
 */
const dayText = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .max(30, { error: "dates.errors.format", abort: true })
    .superRefine((text, ctx) => {
      const reading = readDay(text);
      if (reading.kind === "problem" && reading.problem !== "empty")
        ctx.addIssue({ code: "custom", message: dayProblemKey(reading.problem, required) });
    });

/** The start and end dates as typed, in their text fields, before the period is checked. */
export const allowancePeriodFields = {
  start_at: dayText("allowances.errors.startRequired"),
  ends_at: dayText("allowances.errors.endRequired"),
};

/**
 * The period of an allowance of this type (domain/allowances.ts `periodProblems`): its issues are added
 * on `start_at` and `ends_at`; answers the two days, or null for one that is missing. The typed values are
 * those of `allowancePeriodFields`, which already refused any that is not a day (with the rule it breaks).
 */
export function checkPeriod(
  type: AllowanceType,
  typed: { start_at?: string; ends_at?: string },
  today: string,
  ctx: { addIssue(issue: { code: "custom"; message: string; path: string[] }): void },
): { start: string | null; end: string | null; valid: boolean } {
  const start = parseDay(typed.start_at ?? "");
  const end = parseDay(typed.ends_at ?? "");
  const problems = periodProblems(type, start, end, today);
  for (const [path, keys] of Object.entries(problems))
    for (const message of keys) ctx.addIssue({ code: "custom", message, path: [path] });
  return { start, end, valid: Object.keys(problems).length === 0 };
}

/** Whether the step's answer already has an issue on this field (its own rule, or a type). */
const hasIssue = (issues: readonly { path?: readonly PropertyKey[] }[], field: string) =>
  issues.some((issue) => issue.path?.[0] === field);

/**
 * The period's rules as a step's refinement: said even while another field of the step is wrong (zod's
 * `when`), on each date whose own field is right, so that a start after today and an end that is not a day
 * are said in the same answer. The step's transform reads the days again with `checkPeriod`.
 */
export function periodRefinement(type: AllowanceType, today: string) {
  return [
    (
      typed: { start_at?: string; ends_at?: string },
      ctx: Parameters<typeof checkPeriod>[3] & { issues: readonly { path?: readonly PropertyKey[] }[] },
    ) => {
      const problems = periodProblems(type, parseDay(typed.start_at ?? ""), parseDay(typed.ends_at ?? ""), today);
      for (const [path, keys] of Object.entries(problems))
        if (!hasIssue(ctx.issues, path))
          for (const message of keys) ctx.addIssue({ code: "custom", message, path: [path] });
    },
    {
      when: (payload: { issues: readonly { path?: readonly PropertyKey[] }[] }) =>
        !hasIssue(payload.issues, "start_at") || !hasIssue(payload.issues, "ends_at"),
    },
  ] as const;
}

/** Where the account paid comes from: the profile's, or typed (and to be saved when none is: "remember"). */
function ibanSourceOf(fromProfile: boolean, savedIban: string | null, save: string | undefined) {
  if (fromProfile) return "saved" as const;
  return savedIban === null && save === "on" ? ("remember" as const) : ("other" as const);
}

/**
 * Spec 001 §2.7 "Details", §5: the answers of the details step, checked together (the days need the dates).
 * The account paid is the saved IBAN unless another is chosen (decision 0054, `resolvePayoutIban`); its
 * source says whether the typed one is to be saved to the profile when the allowance is sent ("remember").
 */
export const allowanceDetailsSchema = (type: DistanceType, today: string, savedIban: string | null = null) =>
  z
    .object({
      group_id: allowanceGroupField,
      home: addressField,
      work: addressField,
      ...allowancePeriodFields,
      days_at_office: text("allowances.errors.daysAtOfficeRange"),
      ...payoutIbanFields,
      travel_role: z.enum(["driver", "passenger"], { error: "allowances.errors.travelRoleRequired" }).optional(),
    })
    .superRefine(...periodRefinement(type, today))
    .transform((value, ctx) => {
      const { start, end, valid } = checkPeriod(type, value, today, ctx);
      if (type === "carpooling" && !value.travel_role)
        ctx.addIssue({ code: "custom", message: "allowances.errors.travelRoleRequired", path: ["travel_role"] });
      const days = /^\d{1,4}$/.test(value.days_at_office) ? Number(value.days_at_office) : null;
      const account = resolvePayoutIban({ choice: value.iban_choice, typed: value.iban, saved: savedIban });
      if (account.kind === "problem") ctx.addIssue({ code: "custom", message: account.message, path: [account.field] });
      if (start && end && valid) {
        const max = daysWithoutSundays(start, end);
        if (max < 1) ctx.addIssue({ code: "custom", message: "allowances.errors.noWorkingDay", path: ["ends_at"] });
        else if (days === null || days < 1 || days > max)
          ctx.addIssue({ code: "custom", message: "allowances.errors.daysAtOfficeRange", path: ["days_at_office"] });
      } else if (days === null || days < 1)
        ctx.addIssue({ code: "custom", message: "allowances.errors.daysAtOfficeRange", path: ["days_at_office"] });
      if (ctx.issues.length) return z.NEVER;
      return {
        groupId: value.group_id,
        home: value.home,
        work: value.work,
        startAt: start!,
        endsAt: end!,
        daysAtOffice: days!,
        iban: account.kind === "iban" ? account.iban : "",
        ibanSource: ibanSourceOf(account.kind === "iban" && account.fromProfile, savedIban, value.save_iban),
        travelRole: type === "carpooling" ? (value.travel_role ?? null) : null,
      };
    });

/** The group chosen without JavaScript ("Choisir"): the page comes back with its work address. */
export const allowanceGroupSchema = z.object({ group_id: allowanceGroupField });

/** "7,5" or "7.5" km → metres; null when it is not a distance. */
export function parseKilometres(raw: string): number | null {
  const value = raw.trim().replace(/\s/g, "").replace(",", ".");
  if (!/^\d{1,3}(\.\d{1,3})?$/.test(value)) return null;
  return Math.round(Number(value) * 1000);
}

/**
 * Spec 001 §2.7: the employee corrects the one-way distance (both it and the estimate are kept): at least
 * 1 metre, at most the mode's bound (decision 0049).
 */
export const allowanceDistanceSchema = (type: DistanceType) =>
  z.object({
    declared_km: z
      .string({ error: "allowances.errors.distanceInvalid" })
      .max(20, "allowances.errors.distanceInvalid")
      .transform((raw, ctx) => {
        const meters = parseKilometres(raw);
        if (meters === null || meters < 1) {
          ctx.addIssue({ code: "custom", message: "allowances.errors.distanceInvalid" });
          return z.NEVER;
        }
        if (meters > DECLARED_DISTANCE_MAX_METERS[type]) {
          ctx.addIssue({ code: "custom", message: `allowances.errors.distanceTooLong.${type}` });
          return z.NEVER;
        }
        return meters;
      }),
  });

/** Spec 001 §2.7 "Summary" (every type): the sworn statement. Any amount posted is ignored: the server simulates. */
export const allowanceSummarySchema = z.object({
  sworn_statement: z.literal("on", { error: "allowances.errors.swornStatementRequired" }),
});

/**
 * Carpooling and bicycle's summary: the sworn statement and, for an unusual distance (decision 0055), the
 * box "Je confirme cette distance" and the reason, at most 500 characters once trimmed. Whether they are
 * needed depends on the platform's simulation: the platform asks for them (services/allowances/requests.ts).
 */
export const distanceSummarySchema = allowanceSummarySchema.extend({
  distance_confirmed: z.literal("on", { error: "allowances.errors.distanceConfirmationRequired" }).optional(),
  distance_reason: z
    .string({ error: "allowances.errors.distanceReasonRequired" })
    .trim()
    .max(PLAUSIBILITY_REASON_MAX, "allowances.errors.distanceReasonTooLong")
    .optional(),
});

export type AllowanceDetailsForm = {
  group_id: string;
  home: { line1: string; zipcode: string; city: string; country: string };
  work: { line1: string; zipcode: string; city: string; country: string };
  start_at: string;
  ends_at: string;
  days_at_office: string;
  iban_choice: string;
  iban: string;
  save_iban: string;
  travel_role: string;
};

/** The problems of an address by the delivery address rules (spec 000 §5), as codes (`errors.<code>` their words). */
export const ADDRESS_PROBLEMS = [
  "line1Required",
  "line1Numeric",
  "addStreetNumber",
  "maxLength50",
  "zipcodeRequired",
  "zipcodeInvalid",
  "cityRequired",
  "cityNumeric",
  "countryRequired",
  "countryInvalid",
] as const;
export type AddressProblem = (typeof ADDRESS_PROBLEMS)[number];

/** A line whose value has the wrong type (zod's own message then, not one of the schema's) counts as missing. */
const MISSING: Partial<Record<PropertyKey, AddressProblem>> = {
  line1: "line1Required",
  line2: "maxLength50",
  zipcode: "zipcodeRequired",
  city: "cityRequired",
  country: "countryRequired",
};

/**
 * The problems of an address, as codes, each once and in the order of its lines; none when valid. The
 * schema's messages are the codes' keys (`errors.<code>`); anything but an object counts as no address.
 */
export function addressProblems(address: unknown): AddressProblem[] {
  const parsed = deliveryAddressSchema.safeParse(typeof address === "object" && address !== null ? address : {});
  if (parsed.success) return [];
  const codes = parsed.error.issues.map(
    (issue) =>
      ADDRESS_PROBLEMS.find((code) => issue.message === `errors.${code}`) ?? MISSING[issue.path[0]!] ?? "line1Required",
  );
  return [...new Set(codes)];
}
