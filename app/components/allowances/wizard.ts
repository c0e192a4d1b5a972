import type { AllowanceType, TravelRole } from "~/domain/allowances";
import { intents } from "~/routes/+shared/intents";
import type { WizardReply } from "~/routes/+shared/wizard";
import type { DistanceStep, DistanceView } from "./distance";
import type { SubscriptionStep, SubscriptionView } from "./subscription";

/**
 * What the allowance wizards' frame (`routes/allowances/wizard.server.ts`) gives its components: the
 * frame's own views, the flows' views (distance.ts, subscription.ts, each beside its flow) and the one
 * action envelope. Shared by both sides (no server code here).
 */

/** The frame's own button: the close confirmation's (any type of draft). */
export const CLOSE_INTENT = intents("discard");

/** An allowance already asked for, as the read-only panel explains it: its figures, documents with their links. */
export interface AllowanceSummaryView {
  type: AllowanceType;
  groupName: string;
  status: string;
  refusalReason: string | null;
  startAt: string;
  endsAt: string;
  travelRole: TravelRole | null;
  /** The allowance for the whole period (after the cap), in cents. */
  amount: number;
  amountBeforeCap: number | null;
  capRemainingBefore: number | null;
  monthlyAmount: number | null;
  numberOfMonths: number | null;
  daysAtOffice: number | null;
  /** "7.24" (km, point, 2 decimals). */
  distanceRoundtrip: string | null;
  ratePerKm: number | null;
  percentage: number | null;
  subscriptionAmount: number | null;
  /** A one-way distance above the mode's usual one, confirmed and flagged (decision 0055), in metres. */
  unusual: { meters: number; usualMeters: number } | null;
  ibanLastFour: string;
  signedAt: string | null;
  media: { id: string; label: string; href: string }[];
  payouts: { month: string; amount: number; scheduledFor: string; status: string }[];
}

export type FrameView =
  /** `new` without a type: the types this person may ask for. */
  | { kind: "choose"; closeTo: string; types: { type: AllowanceType; href: string }[] }
  /** A type this person may not ask for. */
  | { kind: "notAllowed"; closeTo: string }
  | { kind: "allowance"; closeTo: string; allowance: AllowanceSummaryView }
  /** Closing once something would be lost (a page of its own without JS). */
  | { kind: "confirmClose"; closeTo: string; type: AllowanceType; here: string; resume: string }
  | DistanceView
  | SubscriptionView;

/** The flows of the frame, by the `kind` of their view. */
export type AllowanceFlow = (DistanceView | SubscriptionView)["kind"];

/** The action's answer to a refused step (HTTP 400): the kit's envelope, and the flow whose step it is. */
export type AllowanceReply =
  WizardReply<DistanceStep, { flow: "distance" }> | WizardReply<SubscriptionStep, { flow: "subscription" }>;
