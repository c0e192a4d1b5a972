import { z } from "zod";
import { DEFAULT_COUNTRY } from "./countries";
import { deliveryAddressSchema, loginSchema, onboardingProfileSchema } from "./schemas";

/**
 * "Suggérer un établissement" (spec 001 §2.8, §3 "Partner suggestion", §5 "Suggest partner"): the French
 * name is required (English and Dutch copy it); the website, contacts and address are optional, each
 * checked when given. One schema for the form (conform, browser and server) and the service.
 */

/** Field maxima (spec 001 §9: 50 for address fields; names and addresses of the web a little longer). */
export const SUGGESTION_MAX = { name: 100, website: 255 } as const;

/** A scheme at the start ("https:", "javascript:"), but not a host followed by its port ("exemple.fr:8080"). */
const SCHEME = /^[a-z][a-z0-9+.-]*:(?!\d)/i;

/**
 * Spec 001 §5: a website without a scheme gets `http://` prepended. What has a scheme keeps it (and is
 * then refused unless http or https).
 */
export function withScheme(website: string): string {
  const trimmed = website.trim();
  return SCHEME.test(trimmed) ? trimmed : `http://${trimmed}`;
}

/** An http(s) address with a host name that has a dot, no spaces and no user name or password in it. */
export function isWebsite(website: string): boolean {
  if (/\s/.test(website)) return false;
  let url: URL;
  try {
    url = new URL(website);
  } catch {
    return false;
  }
  return (
    (url.protocol === "http:" || url.protocol === "https:") &&
    /^[^.]+(\.[^.]+)+$/.test(url.hostname) &&
    url.username === "" &&
    url.password === ""
  );
}

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
export type PartnerSuggestion = z.output<typeof partnerSuggestionSchema>;
