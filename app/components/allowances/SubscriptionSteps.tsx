import type { SubscriptionActionData, SubscriptionView } from "~/routes/plans/subscription-wizard.server";

/** The subscription wizard's steps inside the frame's panel. PART D REPLACES THIS FILE. */
export function SubscriptionSteps(_props: { view: SubscriptionView; actionData: SubscriptionActionData | undefined }) {
  return null;
}
