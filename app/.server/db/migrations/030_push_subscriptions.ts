import type { Kysely } from "kysely";

/**
 * Web Push subscriptions (issue 33 item 2, decision 0063): one row a browser that agreed to receive this person's
 * pushes — the push service's endpoint (unique: a device belongs to whoever subscribed on it last), the
 * subscription's public key and authentication secret (RFC 8291), the device's name as the settings show it.
 * They belong to the person: an account removed takes them with it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("push_subscriptions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("endpoint", "text", (c) => c.notNull().unique())
    /** The subscription's P-256 public key, base64url (65 bytes uncompressed). */
    .addColumn("p256dh", "text", (c) => c.notNull())
    /** The subscription's 16-byte authentication secret, base64url. */
    .addColumn("auth", "text", (c) => c.notNull())
    .addColumn("device_name", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    /** When it was last saved (subscribed again): the least recently saved goes first beyond the limit. */
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("push_subscriptions_user_idx").on("push_subscriptions").column("user_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("push_subscriptions").execute();
}
