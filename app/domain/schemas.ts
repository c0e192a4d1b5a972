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
