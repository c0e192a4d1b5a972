import type { SubmissionResult } from "@conform-to/react";
import type { AllowanceListItem } from "~/.server/services/allowances/requests";
import type { AllowanceType, DistanceSimulation, DistanceType, TravelRole } from "~/domain/allowances";
import type { AllowanceDetailsForm } from "~/domain/allowance-schemas";
import { intents } from "~/routes/+shared/intents";
import type { SubscriptionActionData, SubscriptionView } from "~/routes/allowances/subscription.server";

/**
 * What the allowance wizard's server side (`routes/plans/allowance-wizard.server.ts`, the frame, and
 * `distance-wizard.server.ts`, the carpooling and bicycle flow) gives its components. Shared by both sides.
 */

/** The buttons of the carpooling and bicycle flow, declared once (decision 0021). */
export const DISTANCE_INTENT = intents("continue", "chooseGroup", "correctDistance", "useEstimate", "confirm");

/** The frame's own button: the close confirmation's (any type of draft). */
export const CLOSE_INTENT = intents("discard");

export const DISTANCE_STEPS = ["intro", "details", "summary"] as const;
export type DistanceStep = (typeof DISTANCE_STEPS)[number];
export const isDistanceStep = (v: unknown): v is DistanceStep =>
  typeof v === "string" && (DISTANCE_STEPS as readonly string[]).includes(v);

export interface AddressView {
  line1: string;
  zipcode: string;
  city: string;
  country: string;
}

export interface GroupView {
  id: string;
  name: string;
  address: AddressView;
  /** Cents per kilometre. */
  ratePerKm: number;
  /** Cents a year. */
  yearlyCap: number;
  /** What is left of the cap this year with this group, in cents (null when it could not be said). */
  remaining: number | null;
}

/** The platform's simulation as the summary shows it: the domain's figures and where the distance came from. */
export type SimulationView = Omit<DistanceSimulation, "roundTripHundredthsKm"> & {
  /** One way, in metres: the provider's estimate, and the distance the employee typed if any. */
  estimateMeters: number;
  declaredMeters: number | null;
  source: "estimate" | "routing";
};

export type DistanceStepView =
  | { step: "intro"; groups: GroupView[] }
  | {
      step: "details";
      groups: GroupView[];
      values: AllowanceDetailsForm;
      /** The days a period may start on, and today (the latest end). */
      startMin: string;
      today: string;
    }
  | {
      step: "summary";
      groupName: string;
      home: string;
      work: string;
      startAt: string;
      endsAt: string;
      daysAtOffice: number;
      travelRole: TravelRole | null;
      ibanLastFour: string;
      /** The server's simulation (null when it refused the answers: see problems). */
      simulation: SimulationView | null;
      /** The platform's refusals of the answers, by the spec's field keys (catalogue keys). */
      problems: Record<string, string[]>;
      /** The correction field's value: the declared distance in km, or empty. */
      declaredKm: string;
    };

export interface DistanceView {
  kind: "distance";
  type: DistanceType;
  draftId: string;
  step: DistanceStep;
  /** The path of each step of this draft. */
  paths: Record<DistanceStep, string>;
  here: string;
  back: string | null;
  /** "Fermer"/"Annuler": the list, or the close confirmation once something would be lost. */
  closeTo: string;
  /** No group lets this person have this allowance: the notice and only a cancel link. */
  noGroup: boolean;
  view: DistanceStepView;
}

/** An allowance already asked for, as the read-only panel explains it: the list's item, documents with their links. */
export type AllowanceSummaryView = Omit<AllowanceListItem, "media"> & {
  media: { id: string; label: string; href: string }[];
};

export type FrameView =
  /** `new` without a type: the types this person may ask for. */
  | { kind: "choose"; closeTo: string; types: { type: AllowanceType; href: string }[] }
  /** A type this person may not ask for. */
  | { kind: "notAllowed"; closeTo: string }
  | { kind: "allowance"; closeTo: string; allowance: AllowanceSummaryView }
  /** Closing once something would be lost (a page of its own without JS). */
  | { kind: "confirmClose"; closeTo: string; type: AllowanceType; here: string; resume: string }
  | DistanceView
  | { kind: "subscription"; closeTo: string; view: SubscriptionView };

/** The action's answer to a refused step (HTTP 400). */
export type AllowanceActionData =
  | { kind: "distance"; step: DistanceStep; lastResult: SubmissionResult<string[]> }
  | { kind: "subscription"; data: SubscriptionActionData };
