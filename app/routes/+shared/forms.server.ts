import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import type { z } from "zod";

/**
 * The one form contract (decision 0021). An action parses its form with `parseForm`, and answers a
 * refused submission with `refuse`: conform's `submission.reply()` with HTTP 400, which the page gives
 * to `useForm({ lastResult })`. Errors are catalogue keys.
 */
export function parseForm<Schema extends z.ZodType>(form: FormData, schema: Schema) {
  return parseWithZod(form, { schema });
}

/** Any parsed submission (conform's `Submission`, whatever its schema). */
type Replyable = {
  reply(options?: { resetForm?: boolean } | (Refusal & { hideFields?: string[] })): SubmissionResult<string[]>;
};

export interface Refusal {
  /** Errors about the whole form (e.g. wrong credentials, an expired link). */
  formErrors?: string[];
  /** A server-side refusal of one field (e.g. a wrong current password), by field name. */
  fieldErrors?: Record<string, string[]>;
  /**
   * Secrets (passwords, PINs, codes) never come back in the reply; the page's secret fields are
   * emptied after each answer (`Field`'s `secret`).
   */
  hideFields?: string[];
}

/** What an action returns for a refused submission: `data(submission.reply(...), { status: 400 })`. */
export function refuse(submission: Replyable, refusal: Refusal = {}) {
  return data(reply(submission, refusal), { status: 400 });
}

/**
 * The reply alone, for the rare action whose answer carries more than the form (e.g. the code step's
 * screen): still answered with 400 by the route.
 */
export function reply(
  submission: Replyable,
  { formErrors, fieldErrors, hideFields }: Refusal = {},
): SubmissionResult<string[]> {
  return submission.reply({ ...(formErrors || fieldErrors ? { formErrors, fieldErrors } : {}), hideFields });
}

/**
 * A form that succeeded but stays on the page (no redirect): the fields start again from the page's
 * defaults. Answered with 200.
 */
export function resetForm(submission: Replyable): SubmissionResult<string[]> {
  return submission.reply({ resetForm: true });
}
