import type { Kysely } from "kysely";

/** The whole first schema. Only portable types: text, integer (booleans as 0/1, money as cents). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("groups")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("can_issue", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("cards_brand", "text", (c) => c.notNull().defaultTo("visa"))
    .addColumn("address_line1", "text", (c) => c.notNull())
    .addColumn("address_zipcode", "text", (c) => c.notNull())
    .addColumn("address_city", "text", (c) => c.notNull())
    .addColumn("address_country", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("users")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("password_hash", "text")
    .addColumn("first_name", "text")
    .addColumn("last_name", "text")
    .addColumn("phone", "text")
    .addColumn("address_line1", "text")
    .addColumn("address_line2", "text")
    .addColumn("address_zipcode", "text")
    .addColumn("address_city", "text")
    .addColumn("address_country", "text")
    .addColumn("terms_confirmed_at", "text")
    .addColumn("status", "text", (c) => c.notNull().defaultTo("active"))
    .addColumn("mfa_enabled", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("mfa_preferred", "text", (c) => c.notNull().defaultTo("EMAIL"))
    .addColumn("permissions", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("features", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("balance_overflow_authorized", "integer")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("memberships")
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("group_id", "text", (c) => c.notNull().references("groups.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("memberships_pk", ["user_id", "group_id"])
    .execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("data", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sessions_user_idx").on("sessions").column("user_id").execute();

  await db.schema
    .createTable("one_time_codes")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("purpose", "text", (c) => c.notNull())
    .addColumn("code_hash", "text", (c) => c.notNull())
    .addColumn("channel", "text", (c) => c.notNull())
    .addColumn("destination", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("otc_user_purpose_idx").on("one_time_codes").columns(["user_id", "purpose"]).execute();

  await db.schema
    .createTable("action_tokens")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("purpose", "text", (c) => c.notNull())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("outbox")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("channel", "text", (c) => c.notNull())
    .addColumn("recipient", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("pending_changes")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("field_name", "text", (c) => c.notNull())
    .addColumn("new_value", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("pending_changes_user_field", ["user_id", "field_name"])
    .execute();

  await db.schema
    .createTable("wallets")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("group_id", "text", (c) => c.notNull().references("groups.id"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("wallet_type", "text", (c) => c.notNull())
    .addColumn("subtype", "text")
    .addColumn("unlimited", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("daily_spending_limit", "integer")
    .addColumn("auto_extend_deposit", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("source_name", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("wallets_user_idx").on("wallets").column("user_id").execute();

  await db.schema
    .createTable("wallet_balances")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("wallet_id", "text", (c) => c.notNull().references("wallets.id").onDelete("cascade"))
    .addColumn("balance", "integer", (c) => c.notNull())
    .addColumn("deposit_amount", "integer", (c) => c.notNull())
    .addColumn("start_date", "text", (c) => c.notNull())
    .addColumn("end_date", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("wallet_balances_wallet_idx").on("wallet_balances").column("wallet_id").execute();

  await db.schema
    .createTable("credit_limits")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("wallet_id", "text", (c) => c.notNull().references("wallets.id").onDelete("cascade"))
    .addColumn("initial_amount", "integer", (c) => c.notNull())
    .addColumn("remaining_amount", "integer", (c) => c.notNull())
    .addColumn("eligibility_started_at", "text", (c) => c.notNull())
    .addColumn("eligibility_ended_at", "text", (c) => c.notNull())
    .addColumn("credit_started_at", "text", (c) => c.notNull())
    .addColumn("credit_ended_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("wallet_transactions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("wallet_id", "text", (c) => c.notNull().references("wallets.id").onDelete("cascade"))
    .addColumn("amount", "integer", (c) => c.notNull())
    .addColumn("main_comment", "text", (c) => c.notNull())
    .addColumn("merchant_name", "text")
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("wallet_tx_wallet_idx")
    .on("wallet_transactions")
    .columns(["wallet_id", "created_at"])
    .execute();

  await db.schema
    .createTable("cards")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("group_id", "text", (c) => c.notNull().references("groups.id"))
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("brand", "text", (c) => c.notNull())
    .addColumn("last_four", "text", (c) => c.notNull())
    .addColumn("issuer_ref", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("active"))
    .addColumn("frozen", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("block_reason", "text")
    .addColumn("pin_can_update", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("shipping_status", "text")
    .addColumn("shipping_eta", "text")
    .addColumn("shipping_line1", "text")
    .addColumn("shipping_line2", "text")
    .addColumn("shipping_zipcode", "text")
    .addColumn("shipping_city", "text")
    .addColumn("shipping_country", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("cards_user_idx").on("cards").column("user_id").execute();

  await db.schema
    .createTable("card_wallets")
    .addColumn("card_id", "text", (c) => c.notNull().references("cards.id").onDelete("cascade"))
    .addColumn("wallet_id", "text", (c) => c.notNull().references("wallets.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("card_wallets_pk", ["card_id", "wallet_id"])
    .execute();

  await db.schema
    .createTable("card_authorizations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("card_id", "text", (c) => c.notNull().references("cards.id").onDelete("cascade"))
    .addColumn("amount", "integer", (c) => c.notNull())
    .addColumn("merchant_name", "text", (c) => c.notNull())
    .addColumn("merchant_city", "text", (c) => c.notNull())
    .addColumn("merchant_country", "text", (c) => c.notNull())
    .addColumn("status_name", "text", (c) => c.notNull())
    .addColumn("status_reason", "text")
    .addColumn("has_card_transactions", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("frozen", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("overflow_amount", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("can_switch_payment_methods", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("transaction_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("card_auth_card_idx")
    .on("card_authorizations")
    .columns(["card_id", "transaction_at"])
    .execute();

  await db.schema
    .createTable("credit_cards")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("brand", "text", (c) => c.notNull())
    .addColumn("last4", "text", (c) => c.notNull())
    .addColumn("exp_month", "integer", (c) => c.notNull())
    .addColumn("exp_year", "integer", (c) => c.notNull())
    .addColumn("is_default", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("processor_ref", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("payment_intents")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("authorization_id", "text", (c) => c.notNull().references("card_authorizations.id").onDelete("cascade"))
    .addColumn("credit_card_id", "text", (c) => c.references("credit_cards.id").onDelete("set null"))
    .addColumn("amount", "integer", (c) => c.notNull())
    .addColumn("latest_status", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("licences")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("group_id", "text", (c) => c.notNull().references("groups.id"))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("license_type", "text", (c) => c.notNull())
    .addColumn("metadata", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("used_at", "text")
    .execute();

  await db.schema
    .createTable("notifications")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("data_id", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("read_at", "text")
    .execute();
  await db.schema
    .createIndex("notifications_user_idx")
    .on("notifications")
    .columns(["user_id", "created_at"])
    .execute();

  await db.schema
    .createTable("expense_types")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("technical_name", "text", (c) => c.notNull().unique())
    .addColumn("name_fr", "text", (c) => c.notNull())
    .addColumn("name_en", "text", (c) => c.notNull())
    .addColumn("name_nl", "text", (c) => c.notNull())
    .addColumn("front_disabled", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable("partners")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name_fr", "text", (c) => c.notNull())
    .addColumn("name_en", "text", (c) => c.notNull())
    .addColumn("name_nl", "text", (c) => c.notNull())
    .addColumn("line1", "text", (c) => c.notNull())
    .addColumn("zipcode", "text", (c) => c.notNull())
    .addColumn("city", "text", (c) => c.notNull())
    .addColumn("country", "text", (c) => c.notNull())
    .addColumn("enabled", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("disabled_reason", "text")
    .execute();

  await db.schema
    .createTable("expense_requests")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("type_id", "text", (c) => c.notNull().references("expense_types.id"))
    .addColumn("partner_id", "text", (c) => c.references("partners.id"))
    .addColumn("amount", "integer", (c) => c.notNull())
    .addColumn("amount_to_refund", "integer", (c) => c.notNull())
    .addColumn("fees", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("iban_last_four", "text", (c) => c.notNull())
    .addColumn("ticket_date", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("is_rectifiable", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("is_cancellable", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("allowances")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("group_id", "text", (c) => c.notNull().references("groups.id"))
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("amount", "integer", (c) => c.notNull())
    .addColumn("iban_last_four", "text", (c) => c.notNull())
    .addColumn("days_at_office", "integer")
    .addColumn("start_at", "text", (c) => c.notNull())
    .addColumn("ends_at", "text", (c) => c.notNull())
    .addColumn("travel_role", "text")
    .addColumn("home_address", "text")
    .addColumn("work_address", "text")
    .addColumn("is_cancellable", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    "allowances",
    "expense_requests",
    "partners",
    "expense_types",
    "notifications",
    "licences",
    "payment_intents",
    "credit_cards",
    "card_authorizations",
    "card_wallets",
    "cards",
    "wallet_transactions",
    "credit_limits",
    "wallet_balances",
    "wallets",
    "pending_changes",
    "outbox",
    "action_tokens",
    "one_time_codes",
    "sessions",
    "memberships",
    "users",
    "groups",
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
