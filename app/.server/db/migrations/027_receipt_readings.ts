import type { Kysely } from "kysely";

/**
 * What the receipt reader found on a subscription's ticket and proof (issue 31 §5, decision 0056): one row a
 * file, its reading pending, done (with the facts read) or unreadable. It belongs to the file: a file deleted
 * (a new upload, a draft's files purged, the account closed) takes its reading with it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("receipt_readings")
    .addColumn("file_id", "text", (c) => c.primaryKey().references("files.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    /** pending, done or unreadable. */
    .addColumn("state", "text", (c) => c.notNull())
    /** JSON, once done: the amount in cents and the period's first and last days, each null when not read. */
    .addColumn("facts", "text")
    .addColumn("started_at", "text", (c) => c.notNull())
    .addColumn("finished_at", "text")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("receipt_readings").execute();
}
