import type { Kysely } from "kysely";

/**
 * What a notification is about, in its own words (issue 30 §4, decision 0030): the facts its producer knew when
 * the event happened (an amount, a merchant, a wallet, a reason...), as a JSON object, so that the centre says what
 * happened even once the request is deleted or the card closed. Null for the rows written before (the centre then
 * says the type's sentence).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("notifications").addColumn("facts", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("notifications").dropColumn("facts").execute();
}
