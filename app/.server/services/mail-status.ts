import type { DB } from "../db";

// What the pages may say of the e-mails waiting in the persistent outbox (decision 0042): whether they are failing
// to leave. Read from the table, so every process answers alike.

/**
 * Whether an e-mail is waiting after a failed attempt: one to `recipient` (the code page says so), or, without
 * one, any e-mail at all (pages that may not say whether an address has an account, lost password, say this).
 */
export async function mailDelayed(db: DB, recipient?: string): Promise<boolean> {
  const row = await db
    .selectFrom("mail_outbox")
    .select("id")
    .$if(recipient !== undefined, (q) => q.where("recipient", "=", recipient!))
    .where("status", "=", "pending")
    .where("attempts", ">", 0)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
