import type { Kysely } from "kysely";

/**
 * Consent and product analytics (issue 16, spec 000 §7, §8): the choice of each signed-in person on
 * /cookies (analytics and tag manager refused until they accept; CNIL rules), kept with the moment it
 * was made as proof, and the events the sandbox analytics provider records instead of sending them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("consents")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    /** 0/1: product analytics (surveys and events). */
    .addColumn("analytics", "integer", (c) => c.notNull().defaultTo(0))
    /** 0/1: the tag manager (window.dataLayer). */
    .addColumn("tag_manager", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("decided_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("analytics_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    /** e.g. `survey sent`, `clickPartner`. */
    .addColumn("name", "text", (c) => c.notNull())
    /** JSON object of the event's properties (never personal data). */
    .addColumn("properties", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("analytics_events_by_user")
    .on("analytics_events")
    .columns(["user_id", "created_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("analytics_events").execute();
  await db.schema.dropTable("consents").execute();
}
