import type { Kysely } from "kysely";

/**
 * Account settings (spec 001 §3): notification preferences per type and channel, stored only once the
 * user saves them (defaults otherwise); and the "choose a new password at next sign-in" flag.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("notification_preferences")
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("mail", "integer", (c) => c.notNull())
    .addColumn("push", "integer", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("notification_preferences_pk", ["user_id", "type"])
    .execute();
  await db.schema
    .alterTable("users")
    .addColumn("password_change_required", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("password_change_required").execute();
  await db.schema.dropTable("notification_preferences").execute();
}
