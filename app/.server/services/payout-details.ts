import type { DB } from "../db";
import { ibanProblem, normaliseIban } from "~/domain/iban";

/**
 * What the portal already knows to pay a person (issue 31 §1, decision 0054): the IBAN saved in their
 * profile and their postal address (the card's delivery address, users.address_*). The refund and allowance
 * wizards start from them instead of asking again. Every read and write is scoped to the signed-in user.
 */

export interface PostalAddress {
  line1: string;
  line2: string | null;
  zipcode: string;
  city: string;
  country: string;
}

export interface PayoutDetails {
  /** The saved IBAN, normalised; null when none is saved. */
  iban: string | null;
  /** The postal address when complete (line 1, postcode, city, country), else null. */
  address: PostalAddress | null;
}

const filled = (text: string | null): text is string => text !== null && text.trim() !== "";

export async function getPayoutDetails(db: DB, userId: string): Promise<PayoutDetails> {
  const row = await db
    .selectFrom("users")
    .select(["payout_iban", "address_line1", "address_line2", "address_zipcode", "address_city", "address_country"])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!row) return { iban: null, address: null };
  const { address_line1: line1, address_zipcode: zipcode, address_city: city, address_country: country } = row;
  const complete = filled(line1) && filled(zipcode) && filled(city) && filled(country);
  return {
    iban: row.payout_iban,
    address: complete
      ? { line1, line2: filled(row.address_line2) ? row.address_line2 : null, zipcode, city, country }
      : null,
  };
}

/**
 * Saves the IBAN of a person's first request to their profile, only when none is saved yet: a saved IBAN
 * changes only through the profile, with a confirmation code (decision 0054), never from a wizard.
 * Answers whether it saved it. An IBAN that is not a valid SEPA IBAN is never saved.
 */
export async function rememberFirstIban(db: DB, userId: string, iban: string): Promise<boolean> {
  const normalised = normaliseIban(iban);
  if (ibanProblem(normalised) !== null) return false;
  const result = await db
    .updateTable("users")
    .set({ payout_iban: normalised })
    .where("id", "=", userId)
    .where("payout_iban", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
