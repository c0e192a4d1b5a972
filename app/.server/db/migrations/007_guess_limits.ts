import type { Kysely } from "kysely";

/**
 * Limits shared by every process and machine (decision 0014): wrong passwords and codes per account
 * (`guess_limits`), and, with PostgreSQL, the request counts of the rate limits (`rate_limit_hits`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("guess_limits")
    // "password" (subject: the e-mail typed, normalised) or "code" (subject: the user id).
    .addColumn("purpose", "text", (c) => c.notNull())
    // SHA-256 of the subject: the e-mails people typed are not kept in clear.
    .addColumn("subject_hash", "text", (c) => c.notNull())
    .addColumn("failures", "integer", (c) => c.notNull())
    .addColumn("locked_until", "text")
    .addColumn("last_guess_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("guess_limits_pk", ["purpose", "subject_hash"])
    .execute();
  await db.schema
    .createTable("rate_limit_hits")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("hits", "integer", (c) => c.notNull())
    .addColumn("reset_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("rate_limit_hits_reset_at").on("rate_limit_hits").column("reset_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("rate_limit_hits").execute();
  await db.schema.dropTable("guess_limits").execute();
}
