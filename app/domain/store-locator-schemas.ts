import { z } from "zod";
import { DEFAULT_RADIUS_KM, parseStoreQuery, STORE_MAX_PAGE, STORE_RADII_KM, type StoreRadius } from "./store-locator";

/**
 * The store locator's search form (issue 30 item 6), apart from its rules (./store-locator.ts) so that the page's
 * browser code, which reads those rules, never carries zod (decision 0044: schemas live in `*-schemas.ts`).
 */

/**
 * The search form (a GET form: the search is in the URL). `q` is checked by `parseStoreQuery`; `commune` (an
 * INSEE code picked among homonyms), `radius` and `page` fall back to their defaults when made up.
 */
export const storeSearchSchema = z.object({
  q: z.string({ error: "storeLocator.errors.required" }).superRefine((value, ctx) => {
    const parsed = parseStoreQuery(value);
    if ("error" in parsed) ctx.addIssue({ code: "custom", message: parsed.error });
  }),
  commune: z
    .string()
    .regex(/^(?:\d{5}|2[AB]\d{3})$/)
    .optional()
    .catch(undefined),
  radius: z.coerce
    .number()
    .refine((n) => (STORE_RADII_KM as readonly number[]).includes(n))
    .transform((n) => n as StoreRadius)
    .default(DEFAULT_RADIUS_KM)
    .catch(DEFAULT_RADIUS_KM),
  page: z.coerce.number().int().min(1).max(STORE_MAX_PAGE).default(1).catch(1),
});
export type StoreSearchForm = z.input<typeof storeSearchSchema>;
