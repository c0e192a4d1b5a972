import type { Kysely } from "kysely";

/**
 * Text messages join the persistent outbox (issue 33, decision 0062): `mail_outbox.channel` says whether a row is
 * an e-mail (sent over SMTP) or a text message (sent through the SMS gateway), so that both are written first,
 * retried and given up alike (decision 0042). Every row written before is an e-mail.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("mail_outbox")
    .addColumn("channel", "text", (c) => c.notNull().defaultTo("email"))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("mail_outbox").dropColumn("channel").execute();
}
