import type { Kysely } from "kysely";

/**
 * The sandbox payment processor's refunds (issue 17, decision 0037): a refund of a succeeded overflow charge, once
 * per idempotency key (the portal sends its own reference, so a refund asked twice gives back once). Amounts are
 * integer cents. Sandbox only, like the other sandbox_processor_* tables.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("sandbox_processor_refunds")
    .addColumn("ref", "text", (c) => c.primaryKey())
    .addColumn("payment_ref", "text", (c) => c.notNull())
    .addColumn("idempotency_key", "text", (c) => c.notNull().unique())
    .addColumn("amount", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("sandbox_processor_refunds").execute();
}
