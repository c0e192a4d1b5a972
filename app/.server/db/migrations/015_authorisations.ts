import type { Kysely } from "kysely";

/**
 * The authorisation engine (issue 17, decision 0035). The decision is a `card_authorizations` row, the
 * record the card screens already read (spec 000 §3): approved = `pending` and `frozen` 1 while its
 * amounts are held; declined = `closed`, with the reason code in `status_reason`. Each wallet's part is
 * a `wallet_transactions` row (`withdraw`, status `frozen`) that now names its authorisation: the wallet
 * screens already show and subtract frozen rows, so the engine and the screens cannot disagree. The
 * overflow is the authorisation's `overflow_amount` and a `payment_intents` row for the saved card.
 *
 * New here: what the request said (currency, category code, entry mode), the funder's Sunday-worker
 * exception for titres-restaurant, two wallet limits (per payment, "today zero") and the wrong-PIN
 * counter of a card. Amounts are integer cents; days are Paris days YYYY-MM-DD.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  /** 0/1: the funder lets its Sunday and public-holiday workers pay with titres-restaurant on those days. */
  await db.schema
    .alterTable("groups")
    .addColumn("meal_sunday_workers", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  /** Cents one payment may take from the wallet, or null: no such limit (`has_limit_per_transaction`). */
  await db.schema.alterTable("wallets").addColumn("limit_per_transaction", "integer").execute();
  /** The Paris day on which the funder set the wallet's limit to zero (`has_today_zero_spending_limit`). */
  await db.schema.alterTable("wallets").addColumn("zero_limit_day", "text").execute();

  /** What the payment request said; null on rows written before the engine (the demo's history). */
  await db.schema.alterTable("card_authorizations").addColumn("currency", "text").execute();
  await db.schema.alterTable("card_authorizations").addColumn("merchant_category_code", "text").execute();
  /** chip_and_pin, contactless or online. */
  await db.schema.alterTable("card_authorizations").addColumn("entry_mode", "text").execute();

  /** The authorisation a wallet movement belongs to (its hold, later its capture), or null. */
  await db.schema
    .alterTable("wallet_transactions")
    .addColumn("authorization_id", "text", (c) => c.references("card_authorizations.id").onDelete("set null"))
    .execute();
  await db.schema
    .createIndex("wallet_transactions_by_authorization")
    .on("wallet_transactions")
    .column("authorization_id")
    .execute();
  /** Today's spending of a wallet is read on every payment. */
  await db.schema
    .createIndex("wallet_transactions_by_wallet_day")
    .on("wallet_transactions")
    .columns(["wallet_id", "created_at"])
    .execute();

  /** Wrong PINs typed in a row at terminals; locked after 3 until a new PIN is chosen. No row: none. */
  await db.schema
    .createTable("card_pin_attempts")
    .addColumn("card_id", "text", (c) => c.primaryKey().references("cards.id").onDelete("cascade"))
    .addColumn("wrong_count", "integer", (c) => c.notNull())
    .addColumn("locked", "integer", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("card_pin_attempts").execute();
  await db.schema.dropIndex("wallet_transactions_by_wallet_day").execute();
  await db.schema.dropIndex("wallet_transactions_by_authorization").execute();
  await db.schema.alterTable("wallet_transactions").dropColumn("authorization_id").execute();
  for (const column of ["entry_mode", "merchant_category_code", "currency"]) {
    await db.schema.alterTable("card_authorizations").dropColumn(column).execute();
  }
  await db.schema.alterTable("wallets").dropColumn("zero_limit_day").execute();
  await db.schema.alterTable("wallets").dropColumn("limit_per_transaction").execute();
  await db.schema.alterTable("groups").dropColumn("meal_sunday_workers").execute();
}
