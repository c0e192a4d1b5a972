import type { Kysely } from "kysely";

/** Account activation asks whether the person wants marketing e-mails (spec 001 §2.3, activation). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("marketing_emails", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("marketing_emails").execute();
}
