import { z } from "zod";

/** The two answers of each consent question on /cookies; anything else is a forged value (400). */
export const CONSENT_CHOICES = ["accept", "refuse"] as const;

const choice = z.enum(CONSENT_CHOICES, { error: "consent.errors.choiceRequired" });

/** The /cookies form: analytics (and its survey) and the tag manager, each accepted or refused. */
export const consentSchema = z.object({ analytics: choice, tagManager: choice });
export type ConsentForm = z.infer<typeof consentSchema>;
