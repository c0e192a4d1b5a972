import type { Kysely } from "kysely";

/**
 * Merchant refunds of a captured card authorisation (issue 17 §2, decision 0035 "Lifecycle"): one row per
 * refund reference the merchant or the issuer sends, so that the same refund received twice credits the
 * wallets once. What each wallet got back is its `wallet_transactions` row (`refund`, processed) naming
 * the authorisation. Amounts are integer cents.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("card_authorization_refunds")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("authorization_id", "text", (c) => c.notNull().references("card_authorizations.id").onDelete("cascade"))
    .addColumn("reference", "text", (c) => c.notNull())
    .addColumn("amount", "integer", (c) => c.notNull())
    /** What of it goes back to the saved card (the overflow), for the caller to refund through the processor. */
    .addColumn("overflow_amount", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("card_authorization_refunds_reference", ["authorization_id", "reference"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("card_authorization_refunds").execute();
}
