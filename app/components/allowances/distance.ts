import type { DistanceSimulation, DistanceType, TravelRole } from "~/domain/allowances";
import type { AllowanceDetailsForm } from "~/domain/allowance-schemas";
import { intents } from "~/routes/+shared/intents";

/**
 * What the carpooling and bicycle flow (`routes/allowances/distance.server.ts`) gives its components
 * (`DistanceSteps.tsx`): one view per step. Shared by both sides (no server code here).
 */

/** The buttons of the carpooling and bicycle flow, declared once (decision 0021). */
export const DISTANCE_INTENT = intents("continue", "chooseGroup", "correctDistance", "useEstimate", "confirm");

/** Spec 001 §2.7: Indemnité, details, summary (0 … 2 in the draft's `stepReached`). */
export const DISTANCE_STEPS = ["intro", "details", "summary"] as const;
export type DistanceStep = (typeof DISTANCE_STEPS)[number];

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
  /**
   * A one-way distance above the mode's usual one (decision 0055), both in metres: the summary asks the
   * employee to confirm it with a reason before signing. Null when usual.
   */
  unusual: { meters: number; usualMeters: number } | null;
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
      /** The last four characters of the IBAN saved in the profile (null: none is saved). */
      savedLastFour: string | null;
      /** The home address shown comes from the profile (nothing answered yet). */
      homeFromProfile: boolean;
    }
  | {
      step: "summary";
      groupName: string;
      home: string;
      work: string;
      startAt: string;
      endsAt: string;
      daysAtOffice: number;
      /** The period's days without Sundays: the most days at the office (spec 001 §5). */
      periodDays: number;
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
  /** The path of each step of this draft (forms post to their step's path). */
  paths: Record<DistanceStep, string>;
  back: string | null;
  /** "Fermer"/"Annuler": the list, or the close confirmation once something would be lost. */
  closeTo: string;
  /** No group lets this person have this allowance: the notice and only a cancel link. */
  noGroup: boolean;
  view: DistanceStepView;
}
