import { sql, type Kysely } from "kysely";

/**
 * The lists' reads (issue 35 §1): the wallet page, the notification centre and its bell, the refund and allowance
 * lists each read a page of items through an index that matches both their filter and their order, so a page costs
 * the rows it shows whatever the person's history (a wallet of 50,000 movements, years of notifications).
 *
 * - A wallet's movements by status, newest first (the wallet page's processed and frozen lists): before, the
 *   (wallet_id, created_at) index walked the wallet's whole history to find its few frozen rows.
 * - A person's notifications newest first, and the unread ones apart (a partial index: the bell's count and the
 *   "unread" tab read only what is unread): before, the count read every notification of the person.
 * - A person's refund requests by status, newest first (each tab's statuses read one by one, merged); before, a
 *   scan of every request of every person and a sort.
 * - A person's allowances newest first; before, a scan and a sort.
 * - A person's wallet licences and a wallet's credit limits, which had no index at all (a scan of the table, which
 *   grows with the number of employees).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("wallet_transactions_by_wallet_status_time")
    .on("wallet_transactions")
    .columns(["wallet_id", "status", "created_at", "id"])
    .execute();
  await db.schema
    .createIndex("notifications_by_user_time")
    .on("notifications")
    .columns(["user_id", "created_at", "id"])
    .execute();
  await db.schema
    .createIndex("notifications_unread_by_user_time")
    .on("notifications")
    .columns(["user_id", "created_at", "id"])
    .where(sql<boolean>`read_at is null`)
    .execute();
  // The older (user_id, created_at) index is a prefix of the new one: one index less to write on each notification.
  await db.schema.dropIndex("notifications_user_idx").execute();
  await db.schema
    .createIndex("expense_requests_by_user_status_time")
    .on("expense_requests")
    .columns(["user_id", "status", "created_at", "id"])
    .execute();
  await db.schema
    .createIndex("allowances_by_user_time")
    .on("allowances")
    .columns(["user_id", "created_at", "id"])
    .execute();
  await db.schema.createIndex("licences_by_user_type").on("licences").columns(["user_id", "license_type"]).execute();
  await db.schema
    .createIndex("credit_limits_by_wallet")
    .on("credit_limits")
    .columns(["wallet_id", "credit_started_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("credit_limits_by_wallet").execute();
  await db.schema.dropIndex("licences_by_user_type").execute();
  await db.schema.dropIndex("allowances_by_user_time").execute();
  await db.schema.dropIndex("expense_requests_by_user_status_time").execute();
  await db.schema
    .createIndex("notifications_user_idx")
    .on("notifications")
    .columns(["user_id", "created_at"])
    .execute();
  await db.schema.dropIndex("notifications_unread_by_user_time").execute();
  await db.schema.dropIndex("notifications_by_user_time").execute();
  await db.schema.dropIndex("wallet_transactions_by_wallet_status_time").execute();
}
