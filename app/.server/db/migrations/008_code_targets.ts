import { sql, type Kysely } from "kysely";

/**
 * One-time codes by purpose and target (decision 0022): a code is for one thing on one object — the
 * sign-in of an account, the reveal of one card, the pending change of one field. Codes already out are
 * carried over; reveal codes knew no card, so they are withdrawn (a new one takes a click).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("one_time_codes")
    .addColumn("target", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await sql`update one_time_codes set purpose = 'signIn', target = user_id where purpose = 'login'`.execute(db);
  await sql`update one_time_codes set purpose = 'contactChange', target = 'email' where purpose = 'pending_email'`.execute(
    db,
  );
  await sql`update one_time_codes set purpose = 'contactChange', target = 'phone' where purpose = 'pending_phone'`.execute(
    db,
  );
  await sql`update one_time_codes set used_at = created_at where purpose = 'reveal' and used_at is null`.execute(db);
  await db.schema.dropIndex("otc_user_purpose_idx").execute();
  await db.schema
    .createIndex("otc_subject_idx")
    .on("one_time_codes")
    .columns(["user_id", "purpose", "target"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("otc_subject_idx").execute();
  await db.schema.createIndex("otc_user_purpose_idx").on("one_time_codes").columns(["user_id", "purpose"]).execute();
  await sql`update one_time_codes set purpose = 'login' where purpose = 'signIn'`.execute(db);
  await sql`update one_time_codes set purpose = 'pending_' || target where purpose = 'contactChange'`.execute(db);
  await db.schema.alterTable("one_time_codes").dropColumn("target").execute();
}
