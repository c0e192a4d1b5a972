import { ibanMessage, ibanProblem, normaliseIban } from "./iban";

/**
 * The account a request is paid to (issue 31 §1, decision 0054): the IBAN saved in the profile unless the
 * person chooses another account for this one request. Browser-safe (no zod): the wizards' steps and the
 * field component share it.
 */

/** An IBAN change's field in pending_changes, as the e-mail's and the phone's are ("email", "phone"). */
export const IBAN_FIELD = "iban" as const;

/** "saved": the profile's IBAN; "other": the one typed, for this request only. */
export const IBAN_CHOICES = ["saved", "other"] as const;
export type IbanChoice = (typeof IBAN_CHOICES)[number];

export type PayoutIbanResolution =
  | { kind: "iban"; iban: string; fromProfile: boolean }
  | { kind: "problem"; field: "iban" | "iban_choice"; message: string };

/**
 * The IBAN a step's answers name. With a saved IBAN, "saved" (also when no choice was sent, the default)
 * answers it and "other" checks the typed one; without one, the typed IBAN is required and checked
 * (ISO 13616 checksum, country format, SEPA area: domain/iban.ts). A choice that is neither is refused on
 * the radios, never taken as "saved".
 */
export function resolvePayoutIban({
  choice,
  typed,
  saved,
}: {
  choice: string | undefined;
  typed: string | undefined;
  saved: string | null;
}): PayoutIbanResolution {
  if (saved !== null) {
    if (choice === undefined || choice === "saved") return { kind: "iban", iban: saved, fromProfile: true };
    if (choice !== "other") return { kind: "problem", field: "iban_choice", message: "payoutIban.errors.choice" };
  }
  const iban = normaliseIban(typed ?? "");
  const problem = ibanProblem(iban);
  if (problem) return { kind: "problem", field: "iban", message: ibanMessage(problem) };
  return { kind: "iban", iban, fromProfile: false };
}

/** What a payout step's form starts with: the saved account chosen, or (none saved) the typed one to be saved. */
export const PAYOUT_IBAN_DEFAULTS = { iban_choice: "saved", iban: "", save_iban: "on" } as const;

/**
 * An IBAN as the profile shows it: in groups of four, its country and check digits and its last four characters
 * only, "FR76 •••• •••• •••• •••• •••0 189"; the rest is never sent to a page.
 */
export function maskedIban(iban: string): string {
  const hidden = [...iban].map((char, i) => (i < 4 || i >= iban.length - 4 ? char : "•")).join("");
  return hidden.replace(/(.{4})(?!$)/g, "$1 ");
}
