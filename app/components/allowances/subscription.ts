import { intents } from "~/routes/+shared/intents";
import type { SubscriptionDetailsForm } from "~/domain/subscription-schemas";

/**
 * What the subscription flow (`routes/allowances/subscription.server.ts`) gives its components
 * (`SubscriptionSteps.tsx`): one view per step. Shared by both sides (no server code here).
 */

/** Every button of the subscription wizard, declared once (decision 0021); closing is the frame's (`CLOSE_INTENT`). */
export const SUBSCRIPTION_INTENT = intents("continue", "upload", "removeFile", "resetFiles", "confirm");

/** Spec 001 §2.7: Abonnement, tickets, details, summary (0 … 3 in the draft's `stepReached`). */
export const SUBSCRIPTION_STEPS = ["intro", "tickets", "details", "summary"] as const;
export type SubscriptionStep = (typeof SUBSCRIPTION_STEPS)[number];

/** The two documents (spec 001 §3: `media` the ticket, `second_media` the proof of subscription). */
export const SUBSCRIPTION_FILES = ["media", "second_media"] as const;
export type SubscriptionFile = (typeof SUBSCRIPTION_FILES)[number];

/** The details the documents may give (issue 31 §5): the price and the period's two days. */
export const SUBSCRIPTION_READ_FIELDS = ["amount", "start_at", "ends_at"] as const;
export type SubscriptionReadField = (typeof SUBSCRIPTION_READ_FIELDS)[number];

export interface SubscriptionGroupView {
  id: string;
  name: string;
  /** The share of the subscription this group pays this year, in percent (50 … 75). */
  percentage: number;
}

export interface StoredFileView {
  id: string;
  fileName: string;
  size: number;
  /** Where the owner downloads it. */
  href: string;
}

export type SubscriptionStepView =
  | { step: "intro"; groups: SubscriptionGroupView[] }
  | { step: "tickets"; files: Record<SubscriptionFile, StoredFileView | null> }
  | {
      step: "details";
      /**
       * The reading of the two documents (decision 0056): still under way (the step waits, unless the person
       * chose to go on), or over (what it found, if anything, is in `values` and marked in `read`).
       */
      reading: "pending" | "over";
      /** This step without waiting for the reading. */
      skipReading: string;
      /** The fields whose value shown is the one read on a document (marked for the person to check). */
      read: Record<SubscriptionReadField, boolean>;
      groups: SubscriptionGroupView[];
      values: SubscriptionDetailsForm;
      /** The last four characters of the IBAN saved in the profile (decision 0054), null when none is. */
      savedLastFour: string | null;
      /** The first day a subscription may start on, and the last day of this year (the latest start and end). */
      startMin: string;
      endMax: string;
    }
  | {
      step: "summary";
      groupName: string;
      startAt: string;
      endsAt: string;
      amount: number;
      ibanLastFour: string;
      files: Record<SubscriptionFile, StoredFileView | null>;
      /** The server's simulation (null when it refused the answers: see problems). */
      simulation: {
        allowance: number;
        percentage: number;
        /** The group's share was lowered to the year's exempt maximum. */
        shareLowered: boolean;
        perMonth: number;
        numberOfMonths: number;
      } | null;
      /** The platform's refusals of the answers, by the spec's field keys (catalogue keys). */
      problems: Record<string, string[]>;
    };

export interface SubscriptionView {
  kind: "subscription";
  draftId: string;
  step: SubscriptionStep;
  /** The path of each step of this draft (forms post to their step's path). */
  paths: Record<SubscriptionStep, string>;
  back: string | null;
  /** "Annuler": the list, or the close confirmation once something would be lost. */
  closeTo: string;
  /** No group lets this person have a subscription allowance: the notice and only a cancel link. */
  noGroup: boolean;
  view: SubscriptionStepView;
}
