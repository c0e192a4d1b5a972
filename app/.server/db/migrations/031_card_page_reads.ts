import type { Kysely } from "kysely";

/** Reserved for CARD (issue 35 §3: the card page and the signed-in layout); filled by that work or removed. */
export async function up(_db: Kysely<unknown>): Promise<void> {}

export async function down(_db: Kysely<unknown>): Promise<void> {}
