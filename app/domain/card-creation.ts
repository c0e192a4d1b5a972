/** The card creation choices shown to a user (spec 000 §2 "Create card", §6). Shared by the server and the wizard view. */

/**
 * Card creation (spec 000 §2 "Create card", §5, §6). A wizard run is a card request kept on the
 * server: the funder and type, then for a physical card the PIN (only ever stored encrypted with the
 * issuer's key) and the delivery address. Submitting takes one licence and asks the issuer; the
 * request changes state with conditional updates, so a replayed or concurrent submit can neither
 * make a second card nor take a second licence.
 */
export type CardType = "physical" | "virtual";

export interface IssuingGroup {
  id: string;
  name: string;
  licences: Record<CardType, number>;
}

export interface CardCreationOptions {
  /** The user's groups that can issue cards, by name, each with the licences left to this user. */
  groups: IssuingGroup[];
  /** Spec 000 §6: no group can issue for this user, or no licence of either type remains. */
  blocked: null | "noGroup" | "noLicence";
}
