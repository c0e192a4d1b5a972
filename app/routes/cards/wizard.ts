import type { CardCreationOptions, CardType } from "~/domain/card-creation";
import type { WizardReply } from "~/routes/+shared/wizard";

/** The card creation wizard's steps and what its view receives (shared by the server flow and the component). */
export const WIZARD_STEPS = ["card", "pin", "address", "summary"] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];

export interface WizardAddress {
  line1: string;
  line2: string;
  zipcode: string;
  city: string;
  country: string;
}

export interface WizardView {
  step: WizardStep;
  requestId: string;
  groups: CardCreationOptions["groups"];
  blocked: CardCreationOptions["blocked"];
  /** Step 1: the funder shown and the type already chosen (when coming back). */
  groupId: string | null;
  type: CardType | null;
  hasPin: boolean;
  /** The delivery step's starting values: the request's, else the profile's. */
  address: WizardAddress;
  /** Set when the URL asked for something that could not be shown (a 400). */
  notice: string | null;
  /** The request was already submitted (Back, or a replay): where its card is, instead of a form. */
  done: string | null;
}

/**
 * What the action answers after a refusal (HTTP 400): the kit's envelope (the step to show again and conform's
 * reply for its form, `useForm({ lastResult })`; PINs never come back in it) and the card wizard's own fields.
 */
export type WizardActionData = WizardReply<
  WizardStep,
  {
    /** A replayed submit: where the card already asked for is. */
    done?: string;
    /** The card issuer's own words when it refused to make the card (spec 000 §8), shown under the message. */
    serverMessage?: string | null;
    /** After the issuer failed: the request the form must send again, whatever the URL names (decision 0043). */
    requestId?: string;
  }
>;

/** True when the wizard's answer has errors to show (the page's title then starts with "Erreur : "). */
export function wizardInvalid(view: WizardView, actionData: WizardActionData | undefined): boolean {
  return (
    Boolean(view.notice) ||
    Boolean(actionData?.lastResult.error && Object.values(actionData.lastResult.error).some((e) => e && e.length > 0))
  );
}
