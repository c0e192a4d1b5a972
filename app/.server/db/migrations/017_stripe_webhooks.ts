import type { Kysely } from "kysely";

/**
 * Stripe Issuing's webhook (issue 17 §6, decision 0036). Each event Stripe sends is recorded once by its id,
 * with its type and when it was received: a replayed delivery finds its row and changes nothing. A card
 * authorisation decided for Stripe names Stripe's authorisation (`iauth_…`), unique, so that the later events
 * (`issuing_authorization.updated`, `issuing_transaction.created`) find it and a replayed request finds the
 * decision already taken. Null on the authorisations of the sandbox issuer and the terminal.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("stripe_webhook_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("received_at", "text", (c) => c.notNull())
    .execute();

  await db.schema.alterTable("card_authorizations").addColumn("stripe_authorization_id", "text").execute();
  // A unique index rather than a column constraint: SQLite cannot add a UNIQUE column; both allow many nulls.
  await db.schema
    .createIndex("card_authorizations_stripe_authorization_id")
    .on("card_authorizations")
    .column("stripe_authorization_id")
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("card_authorizations_stripe_authorization_id").execute();
  await db.schema.alterTable("card_authorizations").dropColumn("stripe_authorization_id").execute();
  await db.schema.dropTable("stripe_webhook_events").execute();
}
