import { data } from "react-router";
import type { AllowanceFlowContext } from "./allowance-flow";

/**
 * The subscription wizard's steps (spec 001 §2.7): Abonnement, tickets, details, summary.
 * PART D REPLACES THIS FILE (skeleton from the contract so the frame compiles).
 */
export interface SubscriptionView {
  type: "subscription";
}
export type SubscriptionActionData = { type: "subscription" };

export async function subscriptionLoad(_ctx: AllowanceFlowContext): Promise<SubscriptionView> {
  throw data(null, { status: 404 });
}

/** Reads the request body itself (the tickets step is multipart): the frame never reads it for a subscription draft. */
export async function subscriptionAct(_ctx: AllowanceFlowContext): Promise<Response | SubscriptionActionData> {
  throw data(null, { status: 404 });
}
