import type { Kysely } from "kysely";

/**
 * The sandbox support chat's conversations (issue 16 §5): one conversation per user, its messages in
 * order; `author` is `user` or `support`; `context` what the conversation was opened about (a card's
 * delivery), null otherwise. Crisp keeps its conversations itself: nothing is stored here then.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("support_messages")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("author", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("context", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("support_messages_user_idx")
    .on("support_messages")
    .columns(["user_id", "created_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("support_messages").execute();
}
