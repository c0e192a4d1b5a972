import { z } from "zod";
import { DEFAULT_COUNTRY } from "./countries";
import { isWebsite, SUGGESTION_MAX, withScheme } from "./partner-suggestion";
import { deliveryAddressSchema, loginSchema, onboardingProfileSchema } from "./schemas";

/** "Suggérer un établissement" (partner-suggestion.ts): the form's and the service's schema. */

/** Empty or blank text is "not given" (the service may receive "" or null from other callers). */
const given = (v: unknown) => ((typeof v === "string" && v.trim() === "") || v === null ? undefined : v);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(given, schema.optional());

export const partnerSuggestionSchema = z.object({
  name: z.preprocess(
    given,
    z
      .string({ error: "partners.suggest.errors.nameRequired" })
      .trim()
      .min(1, "partners.suggest.errors.nameRequired")
      .max(SUGGESTION_MAX.name, "partners.suggest.errors.nameTooLong"),
  ),
  website: optional(
    z
      .string()
      .max(SUGGESTION_MAX.website, "partners.suggest.errors.websiteTooLong")
      .transform(withScheme)
      .refine(isWebsite, "partners.suggest.errors.websiteInvalid"),
  ),
  email: optional(loginSchema.shape.email),
  phone: optional(onboardingProfileSchema.shape.phone),
  line1: optional(deliveryAddressSchema.shape.line1),
  zipcode: optional(deliveryAddressSchema.shape.zipcode),
  city: optional(deliveryAddressSchema.shape.city),
  country: z.preprocess((v) => given(v) ?? DEFAULT_COUNTRY, deliveryAddressSchema.shape.country),
});

export type PartnerSuggestionForm = z.input<typeof partnerSuggestionSchema>;
