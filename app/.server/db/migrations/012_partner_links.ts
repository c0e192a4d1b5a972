import type { Kysely } from "kysely";

/**
 * Partner links (issue 16, spec 000 §2 "Integrations page", §7): each opening of a partner service by a
 * user (`partner_openings`, with its outcome: opened, no_access, failed), and the sandbox partner's
 * short-lived single-use links (`sandbox_partner_links`, only the token's hash kept) and the sandbox's
 * per-user Klaro access (`sandbox_partner_access`, absent: access granted).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("partner_openings")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("partner", "text", (c) => c.notNull())
    .addColumn("outcome", "text", (c) => c.notNull())
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("partner_openings_user")
    .on("partner_openings")
    .columns(["user_id", "created_at"])
    .execute();

  await db.schema
    .createTable("sandbox_partner_links")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("partner", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("sandbox_partner_access")
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("partner", "text", (c) => c.notNull())
    .addColumn("has_access", "integer", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("sandbox_partner_access_pk", ["user_id", "partner"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("sandbox_partner_access").execute();
  await db.schema.dropTable("sandbox_partner_links").execute();
  await db.schema.dropTable("partner_openings").execute();
}
