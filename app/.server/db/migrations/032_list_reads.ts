import type { Kysely } from "kysely";

/** Reserved for LISTS (issue 35 §1: wallet, notifications, refund and allowance lists); filled by that work or removed. */
export async function up(_db: Kysely<unknown>): Promise<void> {}

export async function down(_db: Kysely<unknown>): Promise<void> {}
