import type { Kysely } from "kysely";

/**
 * What a wallet holds back (issue 30 §5: one "Réservé" figure, pending card payments and refund holds) is summed by
 * the database on every page that shows a balance. Refund holds have their (wallet_id, status) index since
 * migration 010; pending card payments only had (wallet_id, created_at), so their sum read the wallet's whole
 * history. This index finds a wallet's frozen rows directly and carries their amounts, so the sum reads nothing else.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("wallet_transactions_by_wallet_status")
    .on("wallet_transactions")
    .columns(["wallet_id", "status", "amount"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("wallet_transactions_by_wallet_status").execute();
}
