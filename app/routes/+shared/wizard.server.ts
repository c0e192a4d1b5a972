import { data } from "react-router";
import type { WizardReply } from "./wizard";

export { stepOf, type WizardReply } from "./wizard";

/**
 * The server half of the wizard kit (decision 0051): the refused-step answer, the form a refusal found
 * outside its step answers as, and the per-step dispatch, so each step's handler is a function of its
 * own that receives what it needs (the draft found and owned) and no handler is longer than a screen.
 */

/** A refused step: conform's reply, HTTP 400, for that step's form to show again. */
export function refusedStep<Step extends string, Extra extends object = object>(
  step: Step,
  lastResult: WizardReply<Step>["lastResult"],
  extra?: Extra,
) {
  return data<WizardReply<Step, Extra>>({ step, lastResult, ...extra } as WizardReply<Step, Extra>, { status: 400 });
}

/**
 * A FormData of these values: the submission a refusal found at another step answers as (the summary
 * finding the ticket step's amount wrong shows the ticket form with what the draft holds).
 */
export function formOf(values: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(values)) form.append(name, value);
  return form;
}

/** One handler a step: the map a wizard's loader or action dispatches on. */
export type StepHandlers<Step extends string, Ctx, Result> = { [S in Step]: (ctx: Ctx) => Promise<Result> };

/** Runs the handler of a step. */
export function runStep<Step extends string, Ctx, Result>(
  handlers: StepHandlers<Step, Ctx, Result>,
  step: Step,
  ctx: Ctx,
): Promise<Result> {
  return handlers[step](ctx);
}
