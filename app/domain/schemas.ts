import { z } from "zod";

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
  redirectTo: z.string().optional(),
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
export type CodeForm = z.input<typeof codeSchema>;
export type StopCardForm = z.input<typeof stopCardSchema>;
export type ProblemReportForm = z.input<typeof problemReportSchema>;
