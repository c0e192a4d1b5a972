import { z } from "zod";
import { CONSENT_CHOICES } from "./consent";

/*
 * The /cookies form's schema, apart from domain/consent.ts so that zod stays out of the browser: the consent
 * banner, in every page's shell, imports consent.ts (decision 0008).
 */

const choice = z.enum(CONSENT_CHOICES, { error: "consent.errors.choiceRequired" });

/** The /cookies form: analytics (and its survey) and the tag manager, each accepted or refused. */
export const consentSchema = z.object({ analytics: choice, tagManager: choice });
export type ConsentForm = z.infer<typeof consentSchema>;
