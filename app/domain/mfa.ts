/** Spec 001 §3 "MFA": codes go by e-mail (recommended) or SMS. */
export type MfaChannel = "EMAIL" | "SMS";
export const MFA_CHANNELS: readonly MfaChannel[] = ["EMAIL", "SMS"];

/** A channel named in a URL or a form, or null for anything else. */
export function mfaChannelOf(value: unknown): MfaChannel | null {
  return value === "EMAIL" || value === "SMS" ? value : null;
}

/** Said when a second factor is chosen while an e-mail or phone change still waits for its code. */
export const PENDING_CHANGE_FIRST: Record<"email" | "phone", string> = {
  email: "mfa.pendingEmailFirst",
  phone: "mfa.pendingPhoneFirst",
};

export interface MfaStatus {
  enabled: boolean;
  preferred: MfaChannel;
  /** Where each channel would send codes; null shows "non renseigné". */
  destinations: Record<MfaChannel, string | null>;
}
