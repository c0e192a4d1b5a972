import type { SubmissionResult } from "@conform-to/react";

/**
 * The wizards' one action envelope (decision 0051), shared by the card, refund and allowance wizards:
 * after a refused step (HTTP 400) the action answers the step to show again and conform's reply for
 * that step's form (`useForm({ lastResult })`). A wizard may add fields of its own beside these two.
 */
export type WizardReply<Step extends string, Extra extends object = object> = {
  step: Step;
  lastResult: SubmissionResult<string[]>;
} & Extra;

/** The step named by a URL or a hidden field, when it is one of the wizard's (declared once, in order). */
export function stepOf<Step extends string>(steps: readonly Step[], raw: unknown): Step | null {
  return typeof raw === "string" && (steps as readonly string[]).includes(raw) ? (raw as Step) : null;
}
