import type { DB } from "../db";

// What the pages may say of the messages waiting in the persistent outbox (decisions 0042, 0062): whether they are
// failing to leave, or were refused for good. Read from the table, so every process answers alike.

/**
 * Whether any e-mail is waiting after a failed attempt: pages that may not say whether an address has an account
 * (lost password) say that e-mails are slow to leave. The code page asks `messageStatus` of its own recipient.
 */
export async function mailDelayed(db: DB): Promise<boolean> {
  const row = await db
    .selectFrom("mail_outbox")
    .select("id")
    .where("channel", "=", "email")
    .where("status", "=", "pending")
    .where("attempts", ">", 0)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * What the code page says of the last message to `recipient`: `delayed` (it failed and waits for another try),
 * `refused` (the SMS gateway refused the number for good: no code will come this way), `givenUp` (it could not
 * leave before its code's end: ask for a new code), or null (sent, or nothing to say).
 */
export async function messageStatus(db: DB, recipient: string): Promise<"delayed" | "refused" | "givenUp" | null> {
  const last = await db
    .selectFrom("mail_outbox")
    .select(["status", "attempts", "last_error"])
    .where("recipient", "=", recipient)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  if (last?.status === "pending") return last.attempts > 0 ? "delayed" : null;
  if (last?.status === "given_up") return last.last_error?.startsWith("refused:") ? "refused" : "givenUp";
  return null;
}
