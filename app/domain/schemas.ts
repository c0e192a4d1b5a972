import { z } from "zod";
import { DELIVERY_COUNTRIES } from "./countries";
import { OVERFLOW_MAX_EUROS, OVERFLOW_MIN_EUROS } from "./overflow";

/**
 * Form schemas shared by the server (the authority) and the browser (early hints).
 * Messages are catalogue keys, translated where they are shown.
 */
export const loginSchema = z.object({
  email: z
    .string({ error: "errors.emailRequired" })
    .trim()
    .max(254, "errors.emailInvalid")
    .pipe(z.email({ error: "errors.emailInvalid" })),
  password: z.string({ error: "errors.passwordRequired" }).max(200, "errors.passwordTooLong"),
  // No redirectTo: the route reads the first one itself and checks it (a second one must not refuse the sign-in).
});

export const codeSchema = z.object({
  code: z
    .string({ error: "errors.codeRequired" })
    .transform((v) => v.replace(/[\s-]/g, ""))
    .pipe(z.string().regex(/^\d{6}$/, "errors.codeFormat")),
});

/** Spec 000 §5: a stop needs its reason, lost or stolen. */
export const stopCardSchema = z.object({
  reason: z.enum(["lost", "stolen"], { error: "errors.stopReasonRequired" }),
});

/** Spec 000 §5: exactly 4 digits, typed twice. */
export const newPinSchema = z
  .object({
    pin: z.string({ error: "errors.pinRequired" }).regex(/^\d{4}$/, "errors.pinFormat"),
    confirmation: z.string({ error: "errors.pinConfirmationRequired" }),
  })
  .refine((v) => v.pin === v.confirmation, { path: ["confirmation"], message: "errors.pinMismatch" });

/** Spec 000 §5: a problem report needs at least 10 characters. */
export const problemReportSchema = z.object({
  message: z
    .string({ error: "errors.reportRequired" })
    .trim()
    .min(10, "errors.reportTooShort")
    .max(1000, "errors.reportTooLong"),
});

/** Field shapes for conform's useForm in the browser (the schemas themselves stay on the server). */
export type LoginForm = z.input<typeof loginSchema>;
export type StopCardForm = z.input<typeof stopCardSchema>;
export type ProblemReportForm = z.input<typeof problemReportSchema>;

/** Spec 000 §2 "Create card", step 1: who funds the card, and which kind. */
export const cardChoiceSchema = z.object({
  group: z
    .string({ error: "errors.funderRequired" })
    .trim()
    .min(1, "errors.funderRequired")
    .max(64, "errors.funderRequired"),
  type: z.enum(["physical", "virtual"], { error: "errors.cardTypeRequired" }),
});

const onlyDigits = (v: string) => /^\d+$/.test(v.replace(/\s/g, ""));

/** A required address line of at most 50 characters (spec 000 §5, errors.maxLength50). */
const addressText = (required: string) =>
  z.string({ error: required }).trim().min(1, required).max(50, "errors.maxLength50");

/**
 * Spec 000 §5 "Delivery address": line1 and line2 at most 50 characters; line1 and city neither blank
 * nor purely numeric; line1 needs a street number; zipcode, city and country required; the country
 * leaves as an upper-case alpha-2 code.
 */
export const deliveryAddressSchema = z.object({
  line1: addressText("errors.line1Required")
    .refine((v) => !onlyDigits(v), "errors.line1Numeric")
    .refine((v) => /\d/.test(v), "errors.addStreetNumber"),
  line2: z
    .string()
    .trim()
    .max(50, "errors.maxLength50")
    .optional()
    .transform((v) => (v ? v : null)),
  zipcode: z
    .string({ error: "errors.zipcodeRequired" })
    .trim()
    .min(1, "errors.zipcodeRequired")
    .regex(/^[A-Za-z0-9][A-Za-z0-9 -]{1,9}$/, "errors.zipcodeInvalid"),
  city: addressText("errors.cityRequired").refine((v) => !onlyDigits(v), "errors.cityNumeric"),
  country: z
    .string({ error: "errors.countryRequired" })
    .trim()
    .min(1, "errors.countryRequired")
    .transform((v) => v.toUpperCase())
    .pipe(z.string().refine((v) => Object.hasOwn(DELIVERY_COUNTRIES, v), "errors.countryInvalid")),
});

/** At least two letters (spec 001 §5): "Jo" and "Lê" pass, "J." and "42" do not. */
const personName = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(50, "errors.nameTooLong")
    .refine((v) => (v.match(/\p{L}/gu) ?? []).length >= 2, "errors.nameTooShort");

/** Spec 001 §2.3 and §5 "Onboarding profile". */
export const onboardingProfileSchema = z.object({
  firstName: personName("errors.firstNameRequired"),
  lastName: personName("errors.lastNameRequired"),
  phoneCountry: z.string().default("FR"),
  phone: z
    .string({ error: "errors.phoneRequired" })
    .trim()
    .min(1, "errors.phoneRequired")
    .max(25, "errors.phoneInvalid")
    .refine((v) => v.replace(/\s/g, "").length >= 10, "errors.phoneTooShort")
    .refine((v) => /^(\+|00)?[\d\s.\-()]+$/.test(v), "errors.phoneInvalid"),
  terms: z.literal("on", { error: "errors.termsRequired" }),
});

export type OnboardingProfileForm = z.input<typeof onboardingProfileSchema>;

/** Spec 000 §2, §9: the overflow amount, whole euros from 50 to 150. */
export const overflowAmountSchema = z.object({
  amount: z
    .string({ error: "errors.overflowNotNumber" })
    .trim()
    .regex(/^\d{1,6}$/, "errors.overflowNotNumber")
    .transform(Number)
    .pipe(z.number().min(OVERFLOW_MIN_EUROS, "errors.overflowRange").max(OVERFLOW_MAX_EUROS, "errors.overflowRange")),
});

/**
 * Spec 001 §5 "Passwords" (the stricter reading): at least 8 characters with an upper-case letter, a
 * lower-case letter, a digit and a special character. The rules are listed before the person types.
 */
export const PASSWORD_RULES = [
  { key: "length", test: (v: string) => v.length >= 8 },
  { key: "upper", test: (v: string) => /\p{Lu}/u.test(v) },
  { key: "lower", test: (v: string) => /\p{Ll}/u.test(v) },
  { key: "digit", test: (v: string) => /\d/.test(v) },
  { key: "special", test: (v: string) => /[^\p{L}\d\s]/u.test(v) },
] as const;

const newPassword = z
  .string({ error: "errors.newPasswordRequired" })
  .min(1, "errors.newPasswordRequired")
  .max(200, "errors.passwordTooLong")
  .superRefine((value, ctx) => {
    const broken = PASSWORD_RULES.find((rule) => !rule.test(value));
    if (broken) ctx.addIssue({ code: "custom", message: `errors.passwordRule.${broken.key}` });
  });
const passwordConfirmation = z
  .string({ error: "errors.passwordConfirmationRequired" })
  .min(1, "errors.passwordConfirmationRequired");
const sameTwice = (v: { password: string; confirmation: string }) => v.password === v.confirmation;
const mismatch = { path: ["confirmation"], message: "errors.passwordMismatch" };

/** A new password typed twice: the first rule it breaks, or a mismatch. */
export const newPasswordSchema = z
  .object({ password: newPassword, confirmation: passwordConfirmation })
  .refine(sameTwice, mismatch);

/** Spec 001 §2.3 "verify/activation": the onboarding profile, a password, and the marketing opt-in. */
export const activationSchema = onboardingProfileSchema
  .extend({ password: newPassword, confirmation: passwordConfirmation, marketing: z.literal("on").optional() })
  .refine(sameTwice, mismatch);

export type ActivationForm = z.input<typeof activationSchema>;

export const lostPasswordSchema = z.object({
  email: loginSchema.shape.email,
});

export type LostPasswordForm = z.input<typeof lostPasswordSchema>;
export type NewPasswordForm = z.input<typeof newPasswordSchema>;

/**
 * Spec 001 §5 "Profile save": e-mail and phone are compared with the saved ones by the server; terms count only
 * when newly ticked. A field whose change waits for its code is not in the form at all and stays as it is; a
 * field the form sent is required ("Empty email or phone shows invalid"). conform reads an empty field as a
 * missing one, so the schema is told which fields came.
 */
export function profileSchema(sent: { email: boolean; phone: boolean }) {
  const { email } = loginSchema.shape;
  const { phone } = onboardingProfileSchema.shape;
  return z.object({
    email: sent.email ? email : email.optional(),
    phoneCountry: z.string().default("FR"),
    phone: sent.phone ? phone : phone.optional(),
    terms: z.literal("on").optional(),
  });
}

export type ProfileForm = z.input<ReturnType<typeof profileSchema>>;

/** The light version's setting (decision 0040): on or off, said explicitly. */
export const lightVersionSchema = z.object({
  lightVersion: z.enum(["on", "off"], { error: "errors.lightVersionRequired" }),
});

export type LightVersionForm = z.input<typeof lightVersionSchema>;

/** Spec 001 §3 "Password form": the current password, then the new one by the rules, typed twice. */
export const changePasswordSchema = z
  .object({
    currentPassword: z
      .string({ error: "errors.currentPasswordRequired" })
      .min(1, "errors.currentPasswordRequired")
      .max(200, "errors.passwordTooLong"),
    password: newPassword,
    confirmation: passwordConfirmation,
  })
  .refine(sameTwice, mismatch);
export type ChangePasswordForm = z.input<typeof changePasswordSchema>;

/** Issue 16 §5: a message to support, plain text, about one of the user's cards when `card` is given. */
export const SUPPORT_MESSAGE_MAX = 2000;
export const supportMessageSchema = z.object({
  message: z
    .string({ error: "support.errors.required" })
    .trim()
    .min(1, "support.errors.required")
    .max(SUPPORT_MESSAGE_MAX, "support.errors.tooLong"),
  card: z.string().trim().min(1).max(64).optional(),
});
export type SupportMessageForm = z.input<typeof supportMessageSchema>;
