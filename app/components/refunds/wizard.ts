import { intents } from "~/routes/+shared/intents";
import type { WizardReply } from "~/routes/+shared/wizard";
import type { RefundStep } from "~/domain/refunds";
import type { PartnerOption, PartnerPageSize } from "~/domain/partners";
import { PARTNER_SEARCH_INTENT } from "./PartnerPicker";

/**
 * What the refund wizard's server flow (`routes/refunds/wizard.server.ts`) gives its
 * components: one view per step, and the action's answer after a refusal. Shared by both sides.
 */

/** Every button of the wizard, declared once (decision 0021). */
export const WIZARD_INTENT = intents(
  "continue",
  "upload",
  "removeFile",
  PARTNER_SEARCH_INTENT,
  "createWallet",
  "skipPreamble",
  "discard",
  "send",
);

export interface ReceiptView {
  id: string;
  fileName: string;
  size: number;
  /** Where the owner downloads it. */
  href: string;
  /** The same receipt (same content) is on another of the person's requests: its date. */
  usedElsewhereOn: string | null;
}

export type StepView =
  | {
      step: "type";
      types: { id: string; name: string; disabled: boolean }[];
      typeId: string | null;
      /** The help centre's questions (spec 001 §2.6 step 0: "link to the FAQ"). */
      faqUrl: string;
    }
  | { step: "preamble"; licences: { id: string; groupName: string }[] }
  | {
      step: "mobility";
      groups: { id: string; subtypes: { id: string; allowance: boolean }[] }[];
      subtype: string | null;
    }
  | { step: "ticket"; receipts: ReceiptView[] }
  | {
      step: "details";
      /** The automatic reading: still running (and not skipped), done with suggestions, or nothing to show. */
      reading: "pending" | "done" | "none";
      suggested: { ticketDate: boolean; amount: boolean; partner: boolean };
      values: { partner_id: string; ticket_date: string; amount: string };
      partner: PartnerOption | null;
      /** The search shown, and what it found (15 when prefilled from the reading, else 10). */
      query: string;
      results: PartnerOption[];
      limit: PartnerPageSize;
      /** The path of this step without waiting for the reading. */
      skipReading: string;
      suggestEstablishment: string;
    }
  | {
      step: "methods";
      amount: number;
      /** available: cents the wallet can give, or null when unlimited. */
      wallets: { id: string; name: string; walletType: string; available: number | null }[];
      values: { amounts: string[]; iban_choice: string; iban: string; save_iban: string };
      /**
       * The last four characters of the saved account (decision 0054): the profile's, or correcting, the
       * request's own on file; null when none is saved.
       */
      savedLastFour: string | null;
    }
  | {
      step: "summary";
      typeName: string;
      partnerName: string;
      ticketDate: string;
      amount: number;
      ibanLastFour: string;
      /** Where the account comes from (decision 0054); null when kept on file or not chosen yet. */
      ibanSource: "saved" | "other" | "remember" | null;
      receipts: ReceiptView[];
      methods: { walletId: string; name: string; walletType: string; amount: number }[];
      swornName: boolean;
    };

export interface WizardView {
  /** The wizard's own path (`/plans/expense-requests/new` or `/plans/expense-requests/<id>`). */
  base: string;
  draftId: string | null;
  editing: boolean;
  step: RefundStep;
  /** The steps of this road, for "Étape n sur N" (the type and mobility steps are not numbered). */
  numbered: RefundStep[];
  /** Where Back goes, if anywhere. */
  back: string | null;
  /** Where "Fermer" goes: the list, or the confirmation once something would be lost. */
  closeTo: string;
  /** The close confirmation is shown instead of the step. */
  confirmClose: boolean;
  /** The path of the step shown (the confirmation's "Reprendre"). */
  here: string;
  view: StepView;
}

/** The action's answer to a refused step (HTTP 400): the wizard kit's envelope, for the step to show again. */
export type WizardActionData = WizardReply<RefundStep>;
