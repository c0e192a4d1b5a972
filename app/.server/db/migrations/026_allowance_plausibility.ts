import type { Kysely } from "kysely";

/**
 * A carpooling or bicycle allowance whose one-way distance is above its mode's usual bound (issue 31 §2,
 * decision 0055) is signed only with the employee's confirmation and reason, and reaches the funder's review
 * flagged: `plausibility_flag` is 1 for such an allowance (0 for every other, and for the rows written before),
 * `plausibility_reason` holds the employee's reason as typed (trimmed, 1 to 500 characters), null otherwise.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("allowances")
    .addColumn("plausibility_flag", "integer", (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("allowances").addColumn("plausibility_reason", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("allowances").dropColumn("plausibility_reason").execute();
  await db.schema.alterTable("allowances").dropColumn("plausibility_flag").execute();
}
