import type { DB } from "../db";

// What the pages may say of the e-mails waiting in the persistent outbox (decision 0042): whether they are failing
// to leave. Read from the table, so every process answers alike.

/**
 * Whether e-mails are failing to leave right now (one is waiting after a failed attempt), whoever they are for:
 * pages that may not say whether an address has an account (lost password) say this instead.
 */
export async function mailDelayed(db: DB): Promise<boolean> {
  const row = await db
    .selectFrom("mail_outbox")
    .select("id")
    .where("status", "=", "pending")
    .where("attempts", ">", 0)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether an e-mail to this address is still waiting after a failed attempt (the code page says so). */
export async function mailWaitingFor(db: DB, recipient: string): Promise<boolean> {
  const row = await db
    .selectFrom("mail_outbox")
    .select("id")
    .where("recipient", "=", recipient)
    .where("status", "=", "pending")
    .where("attempts", ">", 0)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
