import type { SubmissionResult } from "@conform-to/react";
import { intents } from "~/routes/+shared/intents";

/**
 * The one-time-code step (decision 0022), shared by the sign-in, the card reveal and the e-mail or phone
 * change: its buttons' intents and its form's fields, declared once for the page and the action
 * (`code-step.server.ts`).
 */
export const CODE_STEP_INTENTS = ["verify", "resend", "cancel"] as const;
export const CODE_STEP_INTENT = intents(...CODE_STEP_INTENTS);
export type CodeStepIntent = (typeof CODE_STEP_INTENTS)[number];

/** The code form's fields; `resend` only carries the refusal of a new code asked too soon. */
export interface CodeStepFields {
  code: string;
  resend?: string;
}

/** What the step's page needs from the server besides the feature's own words. */
export interface CodeStepScreen {
  /** When a new code can be asked for (ISO), or null when it can be now. */
  resendAt: string | null;
}

/** What the code step's action answers when the person stays on the page: conform's reply. */
export type CodeStepActionData = SubmissionResult<string[]>;

/**
 * Whether the last answer refused something: the page's title says "Erreur" then. Here rather than in
 * CodeStep.tsx, so that a page whose code step is one of several loads the step's form with that step only.
 */
export function codeStepFailed(actionData: CodeStepActionData | undefined): boolean {
  return actionData?.status === "error";
}
