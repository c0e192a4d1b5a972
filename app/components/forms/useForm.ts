// The one place conform's own useForm is imported: every form goes through this wrapper.
// eslint-disable-next-line no-restricted-imports
import { useForm as useConformForm, type SubmissionResult } from "@conform-to/react";
import { useState } from "react";

/** conform's form props (id, noValidate, the error summary's aria): imported from here, never from conform. */
// eslint-disable-next-line no-restricted-imports
export { getFormProps } from "@conform-to/react";

/** conform's own way to start a form afresh: a result without values, what `reply({ resetForm: true })` sends. */
const FRESH: SubmissionResult<never> = { initialValue: null };

/**
 * conform's `useForm` for every form of the portal (decision 0021): the server's answer to the CURRENT submission
 * is the only thing the form renders. conform keeps the last answer it was given until another one comes; but
 * once an answer has been shown, `lastResult` going away means that answer is no longer current: a later
 * submission was accepted and redirected (the route's action data is gone), or the page passes none after a
 * success of its own. The form then starts afresh (its errors, the title's « Erreur : », the error summary,
 * `aria-invalid`, and the fields back to their defaults) instead of showing the refusal of a submission
 * that has since succeeded (RGAA 8.6, ACCESSIBILITY.md "Forms and errors"). Before any answer nothing changes,
 * so a form is never reset while the person types in it after hydration.
 */
// conform's own bound: `any` lets an interface (no index signature) be a form's shape, as with conform itself.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function useForm<Schema extends Record<string, any>, FormValue = Schema, FormError = string[]>(
  options: Parameters<typeof useConformForm<Schema, FormValue, FormError>>[0],
) {
  const [answered, setAnswered] = useState(false);
  if (options.lastResult && !answered) setAnswered(true);
  const lastResult = options.lastResult ?? (answered ? FRESH : options.lastResult);
  return useConformForm<Schema, FormValue, FormError>({ ...options, lastResult });
}
