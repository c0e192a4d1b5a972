import type { Kysely } from "kysely";

/**
 * The persistent outbox of e-mails sent over SMTP (issue 18 §5, decision 0042). Each e-mail is written here
 * first, then sent; one that could not leave waits with its attempts, when to try again and the last error,
 * until it is sent or given up (`give_up_at`: a code's expiry, or a day). A process sending it holds a lease
 * (`lease_owner` until `lease_until`) so that two processes never send one message at once. Once sent or given
 * up, the body (it holds codes and links) is blanked; such rows are deleted a day later.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("mail_outbox")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("recipient", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull())
    .addColumn("next_attempt_at", "text", (c) => c.notNull())
    .addColumn("give_up_at", "text", (c) => c.notNull())
    .addColumn("lease_owner", "text")
    .addColumn("lease_until", "text")
    .addColumn("last_error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("finished_at", "text")
    .execute();
  await db.schema.createIndex("mail_outbox_due").on("mail_outbox").columns(["status", "next_attempt_at"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("mail_outbox").execute();
}
