import type { Kysely } from "kysely";

/**
 * The payment processor (spec 000 §2 "Balance overflow", "Add credit card"): the portal keeps the
 * processor's customer reference on the user and its payment reference on each payment intent. The
 * sandbox processor's own records (saved cards, card setups, payments) stand for the outside company.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").addColumn("processor_customer_ref", "text").execute();
  await db.schema.alterTable("payment_intents").addColumn("processor_ref", "text").execute();
  // One portal row per processor card, even when two list refreshes race.
  await db.schema
    .createIndex("credit_cards_processor_ref_idx")
    .on("credit_cards")
    .column("processor_ref")
    .unique()
    .execute();

  // Spec 000 §5 "Payment-method selection": the wallets (and amounts) a transaction was moved onto.
  await db.schema
    .createTable("payment_method_switches")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("authorization_id", "text", (c) => c.notNull().references("card_authorizations.id").onDelete("cascade"))
    .addColumn("wallet_id", "text", (c) => c.notNull().references("wallets.id").onDelete("cascade"))
    .addColumn("amount", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("sandbox_processor_cards")
    .addColumn("ref", "text", (c) => c.primaryKey())
    .addColumn("customer_ref", "text", (c) => c.notNull())
    .addColumn("brand", "text", (c) => c.notNull())
    .addColumn("last4", "text", (c) => c.notNull())
    .addColumn("exp_month", "integer", (c) => c.notNull())
    .addColumn("exp_year", "integer", (c) => c.notNull())
    /** What charging it does: succeed or decline (from the test number typed). */
    .addColumn("outcome", "text", (c) => c.notNull())
    /** When the card shows in the customer's list (a card under verification shows later). */
    .addColumn("visible_at", "text", (c) => c.notNull())
    .addColumn("detached_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("sandbox_processor_cards_customer_idx")
    .on("sandbox_processor_cards")
    .column("customer_ref")
    .execute();

  await db.schema
    .createTable("sandbox_processor_setups")
    .addColumn("ref", "text", (c) => c.primaryKey())
    .addColumn("key_hash", "text", (c) => c.notNull().unique())
    .addColumn("customer_ref", "text", (c) => c.notNull())
    .addColumn("return_url", "text", (c) => c.notNull())
    /** pending, succeeded, failed */
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("card_ref", "text")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("sandbox_processor_payments")
    .addColumn("ref", "text", (c) => c.primaryKey())
    .addColumn("customer_ref", "text", (c) => c.notNull())
    .addColumn("amount", "integer", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("card_ref", "text")
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    "sandbox_processor_payments",
    "sandbox_processor_setups",
    "sandbox_processor_cards",
    "payment_method_switches",
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  await db.schema.dropIndex("credit_cards_processor_ref_idx").ifExists().execute();
  await db.schema.alterTable("payment_intents").dropColumn("processor_ref").execute();
  await db.schema.alterTable("users").dropColumn("processor_customer_ref").execute();
}
