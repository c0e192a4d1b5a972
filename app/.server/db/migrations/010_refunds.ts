import { sql, type Kysely } from "kysely";
import { partnerSearchText } from "../../../domain/search-text";

/**
 * Refund requests (issue 14, spec 001 §2.6, §3, §4): receipts, wizard drafts, the wallets a request
 * is paid from, the amounts it holds on them, the payout to the employee's IBAN, and establishment
 * suggestions.
 *
 * `expense_requests.status` becomes the detailed state: sent, to_correct, approved (awaiting payment)
 * — "in progress" — and paid, refused, cancelled — "finished". Seeded rows are carried over.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  /** Partner names folded for an accent- and case-insensitive search (a LIKE on both databases). */
  await db.schema
    .alterTable("partners")
    .addColumn("search_text", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  const partners = await sql<{
    id: string;
    name_fr: string;
    name_en: string;
    name_nl: string;
  }>`select id, name_fr, name_en, name_nl from partners`.execute(db);
  for (const p of partners.rows) {
    await sql`update partners set search_text = ${partnerSearchText(p)} where id = ${p.id}`.execute(db);
  }

  await db.schema
    .createTable("files")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("storage_key", "text", (c) => c.notNull().unique())
    /** The name the employee's device gave the file (shown, never used as a path). */
    .addColumn("file_name", "text", (c) => c.notNull())
    /** Sniffed from the content: application/pdf, image/png or image/jpeg. */
    .addColumn("content_type", "text", (c) => c.notNull())
    .addColumn("size", "integer", (c) => c.notNull())
    .addColumn("sha256", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("files_user_sha_idx").on("files").columns(["user_id", "sha256"]).execute();

  await db.schema
    .alterTable("expense_requests")
    .addColumn("media_id", "text", (c) => c.references("files.id"))
    .execute();
  await db.schema
    .alterTable("expense_requests")
    .addColumn("second_media_id", "text", (c) => c.references("files.id"))
    .execute();
  /** The full IBAN the payout goes to (shown masked, last 4). Null for rows seeded before it existed. */
  await db.schema.alterTable("expense_requests").addColumn("iban", "text").execute();
  await db.schema.alterTable("expense_requests").addColumn("refusal_reason", "text").execute();
  await db.schema.alterTable("expense_requests").addColumn("correction_reason", "text").execute();
  /** The day the payout is scheduled for (YYYY-MM-DD), once approved. */
  await db.schema.alterTable("expense_requests").addColumn("payout_date", "text").execute();
  await db.schema.alterTable("expense_requests").addColumn("sworn_name", "text").execute();
  await db.schema.alterTable("expense_requests").addColumn("updated_at", "text").execute();
  await sql`update expense_requests set status = case
      when status = 'in_progress' and is_rectifiable = 1 then 'to_correct'
      when status = 'in_progress' then 'sent'
      else 'paid' end`.execute(db);

  await db.schema
    .createTable("expense_request_payment_methods")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("request_id", "text", (c) => c.notNull().references("expense_requests.id").onDelete("cascade"))
    .addColumn("wallet_id", "text", (c) => c.notNull().references("wallets.id"))
    .addColumn("amount", "integer", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("erpm_request_idx")
    .on("expense_request_payment_methods")
    .columns(["request_id"])
    .execute();

  /** An amount a request holds on a wallet: held until the review, then captured (debited) or released. */
  await db.schema
    .createTable("wallet_reservations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("wallet_id", "text", (c) => c.notNull().references("wallets.id").onDelete("cascade"))
    .addColumn("expense_request_id", "text", (c) => c.notNull().references("expense_requests.id").onDelete("cascade"))
    .addColumn("amount", "integer", (c) => c.notNull())
    /** held, captured or released */
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("settled_at", "text")
    .execute();
  await db.schema
    .createIndex("wallet_reservations_wallet_idx")
    .on("wallet_reservations")
    .columns(["wallet_id", "status"])
    .execute();

  await db.schema
    .createTable("payouts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("expense_request_id", "text", (c) => c.notNull().unique().references("expense_requests.id"))
    .addColumn("amount", "integer", (c) => c.notNull())
    .addColumn("iban", "text", (c) => c.notNull())
    .addColumn("scheduled_for", "text", (c) => c.notNull())
    /** scheduled or paid */
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("paid_at", "text")
    .execute();

  /** The wizard's answers kept on the server between steps (the URL carries the draft id and the step). */
  await db.schema
    .createTable("expense_request_drafts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    /** The request being corrected, or null for a new one. */
    .addColumn("request_id", "text", (c) => c.references("expense_requests.id").onDelete("cascade"))
    .addColumn("type_id", "text", (c) => c.references("expense_types.id"))
    .addColumn("mobility_group", "text")
    .addColumn("mobility_subtype", "text")
    .addColumn("media_id", "text", (c) => c.references("files.id"))
    .addColumn("second_media_id", "text", (c) => c.references("files.id"))
    .addColumn("partner_id", "text", (c) => c.references("partners.id"))
    .addColumn("ticket_date", "text")
    .addColumn("amount", "integer")
    .addColumn("iban", "text")
    /** JSON: [{ "walletId": "...", "amount": 123 }] */
    .addColumn("payment_methods", "text")
    /** JSON: the automatic reading's state and suggestions (date, partner, amount). */
    .addColumn("reading", "text")
    /** The furthest step reached (0 = type), for the close confirmation. */
    .addColumn("step_reached", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    /** Set once, by the send that wins: a second concurrent send finds it taken. */
    .addColumn("submitted_at", "text")
    .execute();
  await db.schema
    .createIndex("expense_request_drafts_user_idx")
    .on("expense_request_drafts")
    .columns(["user_id"])
    .execute();

  await db.schema
    .createTable("partner_suggestions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name_fr", "text", (c) => c.notNull())
    .addColumn("name_en", "text", (c) => c.notNull())
    .addColumn("name_nl", "text", (c) => c.notNull())
    .addColumn("website", "text")
    .addColumn("contact_email", "text")
    .addColumn("contact_phone", "text")
    .addColumn("line1", "text")
    .addColumn("zipcode", "text")
    .addColumn("city", "text")
    .addColumn("country", "text")
    /** pending, accepted or rejected (reviewed outside the portal) */
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    "partner_suggestions",
    "expense_request_drafts",
    "payouts",
    "wallet_reservations",
    "expense_request_payment_methods",
  ]) {
    await db.schema.dropTable(table).execute();
  }
  await sql`update expense_requests set status = case
      when status in ('sent', 'to_correct', 'approved') then 'in_progress' else 'finished' end`.execute(db);
  for (const column of [
    "updated_at",
    "sworn_name",
    "payout_date",
    "correction_reason",
    "refusal_reason",
    "iban",
    "second_media_id",
    "media_id",
  ]) {
    await db.schema.alterTable("expense_requests").dropColumn(column).execute();
  }
  await db.schema.dropTable("files").execute();
  await db.schema.alterTable("partners").dropColumn("search_text").execute();
}
