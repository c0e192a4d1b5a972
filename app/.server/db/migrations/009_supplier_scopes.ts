import type { Kysely } from "kysely";

/**
 * Spec 000 §3 "Card authorization … scopes" and §5: the wallet types the supplier accepts for a
 * payment (a JSON array of technical names, e.g. ["meal","gift"]); null when it accepts every wallet.
 * Switching a transaction's payment methods offers only the wallets the supplier authorises.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("card_authorizations").addColumn("scopes", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("card_authorizations").dropColumn("scopes").execute();
}
