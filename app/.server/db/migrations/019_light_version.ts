import type { Kysely } from "kysely";

/**
 * The light version for poor networks (issue 18 §3, decision 0040): 1 when the person chose it in the settings
 * ("Version légère"); pages are then served without any script. 0 for everyone until they choose.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("light_version", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("light_version").execute();
}
