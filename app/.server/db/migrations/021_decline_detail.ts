import type { Kysely } from "kysely";

/**
 * A decline in figures (issue 30 §3): `card_authorizations.decline_detail` holds, as JSON text, the engine's
 * `DeclineDetail` — the amount asked, what each wallet of the card could pay at this merchant and why, and whether
 * the saved card could pay the rest — for a decline decided at the wallets. Null for approvals, for declines decided
 * before the wallets (card, PIN, currency), for the issuer's own declines and for rows written before.
 *
 * The card's transactions list held approvals first, then the captured payments (issue 30 §2): each of its lists
 * reads one card, one `frozen` and one `has_card_transactions` value, newest first, so one index serves them all in
 * order, a page at a time, without reading the card's whole history.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("card_authorizations").addColumn("decline_detail", "text").execute();
  await db.schema
    .createIndex("card_auth_card_list_idx")
    .on("card_authorizations")
    .columns(["card_id", "frozen", "has_card_transactions", "transaction_at", "id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("card_auth_card_list_idx").execute();
  await db.schema.alterTable("card_authorizations").dropColumn("decline_detail").execute();
}
