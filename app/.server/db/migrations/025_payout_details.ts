import type { Kysely } from "kysely";
import { ibanProblem, normaliseIban } from "../../../domain/iban";

/**
 * The IBAN held once (issue 31 §1, decision 0054): `users.payout_iban` is the account refunds and allowances are
 * paid to, normalised, null when none is known; `expense_request_drafts.iban_source` says where a refund draft's
 * IBAN comes from ("saved", "other" for this request only, "remember": typed and saved to the profile when sent).
 *
 * Backfill: each person's saved IBAN is the full IBAN of their most recent refund request or allowance that holds
 * a valid one, so the accounts already used are not typed again. Rows holding only the last four give nothing.
 */
type Carrying = { user_id: string; iban: string | null; created_at: string };

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").addColumn("payout_iban", "text").execute();
  await db.schema.alterTable("expense_request_drafts").addColumn("iban_source", "text").execute();
  const source = db as unknown as Kysely<{ expense_requests: Carrying; allowances: Carrying }>;
  const rows = [
    ...(await source.selectFrom("expense_requests").select(["user_id", "iban", "created_at"]).execute()),
    ...(await source.selectFrom("allowances").select(["user_id", "iban", "created_at"]).execute()),
  ].sort((a, b) => b.created_at.localeCompare(a.created_at));
  const latest = new Map<string, string>();
  for (const row of rows) {
    if (row.iban === null || latest.has(row.user_id)) continue;
    const iban = normaliseIban(row.iban);
    if (ibanProblem(iban) === null) latest.set(row.user_id, iban);
  }
  const users = db as unknown as Kysely<{ users: { id: string; payout_iban: string | null } }>;
  for (const [userId, iban] of latest)
    await users.updateTable("users").set({ payout_iban: iban }).where("id", "=", userId).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("expense_request_drafts").dropColumn("iban_source").execute();
  await db.schema.alterTable("users").dropColumn("payout_iban").execute();
}
