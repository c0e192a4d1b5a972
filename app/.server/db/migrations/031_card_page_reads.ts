import type { Kysely } from "kysely";

/**
 * The card page's reads (issue 35 §1 and §3): each of its history queries reads the rows it shows through an index
 * that matches both its filter and its order, so the page costs the same with 20 payments or 20,000.
 *
 * - A card's held payments newest first (the transactions panel's "reserved" section: `frozen = 1`, settled or not):
 *   before, the (card_id, transaction_at) index walked the card's whole history and sorted it again by id; the
 *   (card_id, frozen, has_card_transactions, …) list index of migration 021 cannot give this order across both
 *   values of `has_card_transactions`.
 * - A page's payment intents by authorization, newest first (the latest status of each listed payment): before, a
 *   scan of every payment intent of every person.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("card_auth_card_frozen_idx")
    .on("card_authorizations")
    .columns(["card_id", "frozen", "transaction_at", "id"])
    .execute();
  await db.schema
    .createIndex("payment_intents_by_authorization")
    .on("payment_intents")
    .columns(["authorization_id", "created_at", "id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("payment_intents_by_authorization").execute();
  await db.schema.dropIndex("card_auth_card_frozen_idx").execute();
}
