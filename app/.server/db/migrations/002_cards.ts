import type { Kysely } from "kysely";

/** Problem reports on transactions, and the sandbox card issuer's own records (its "vault"). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("problem_reports")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("card_id", "text", (c) => c.notNull().references("cards.id").onDelete("cascade"))
    .addColumn("authorization_id", "text", (c) => c.notNull().references("card_authorizations.id").onDelete("cascade"))
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  // The sandbox issuer stands for an outside company; these tables are its storage, not the portal's.
  await db.schema
    .createTable("sandbox_issuer_cards")
    .addColumn("issuer_ref", "text", (c) => c.primaryKey())
    .addColumn("last_four", "text", (c) => c.notNull())
    .addColumn("brand", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("active"))
    .addColumn("frozen", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("cancel_reason", "text")
    /** AES-GCM ciphertext of the PIN (sandbox key), never the PIN itself. */
    .addColumn("pin_ciphertext", "text")
    .addColumn("shipping_status", "text")
    .addColumn("shipping_eta", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("sandbox_issuer_reveals")
    .addColumn("key_hash", "text", (c) => c.primaryKey())
    .addColumn("issuer_ref", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["sandbox_issuer_reveals", "sandbox_issuer_cards", "problem_reports"]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
