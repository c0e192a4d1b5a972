import type { Database } from "./schema";

/**
 * Every table and column of `schema.ts`, as a value: schema.ts is types only, so `migrate.test.ts`
 * compares the migrated database with this list. The two type checks below keep it in step with the
 * types both ways: a column listed here that the types lack, or a column of the types missing here,
 * fails `npm run typecheck`; a column the migrations create and not listed (or the reverse) fails the test.
 */
export const SCHEMA_COLUMNS = {
  groups: ["id", "name", "can_issue", "cards_brand", "address_line1", "address_zipcode", "address_city", "address_country"],
  users: ["id", "email", "password_hash", "first_name", "last_name", "phone", "address_line1", "address_line2", "address_zipcode", "address_city", "address_country", "terms_confirmed_at", "status", "mfa_enabled", "mfa_preferred", "permissions", "features", "balance_overflow_authorized", "created_at", "issuer_cardholder_ref", "processor_customer_ref", "marketing_emails", "password_change_required"],
  notification_preferences: ["user_id", "type", "mail", "push", "updated_at"],
  memberships: ["user_id", "group_id"],
  sessions: ["id_hash", "user_id", "data", "expires_at", "created_at"],
  one_time_codes: ["id", "user_id", "purpose", "code_hash", "channel", "destination", "attempts", "expires_at", "used_at", "created_at"],
  action_tokens: ["id", "user_id", "purpose", "token_hash", "expires_at", "used_at", "created_at"],
  outbox: ["id", "channel", "recipient", "subject", "body", "created_at"],
  pending_changes: ["id", "user_id", "field_name", "new_value", "created_at"],
  cards: ["id", "user_id", "group_id", "type", "brand", "last_four", "issuer_ref", "status", "frozen", "block_reason", "pin_can_update", "shipping_status", "shipping_eta", "shipping_line1", "shipping_line2", "shipping_zipcode", "shipping_city", "shipping_country", "created_at"],
  card_wallets: ["card_id", "wallet_id", "position"],
  card_authorizations: ["id", "card_id", "amount", "merchant_name", "merchant_city", "merchant_country", "status_name", "status_reason", "has_card_transactions", "frozen", "overflow_amount", "can_switch_payment_methods", "transaction_at"],
  payment_intents: ["id", "authorization_id", "credit_card_id", "amount", "latest_status", "created_at", "processor_ref"],
  credit_cards: ["id", "user_id", "brand", "last4", "exp_month", "exp_year", "is_default", "processor_ref", "created_at"],
  wallets: ["id", "user_id", "group_id", "name", "wallet_type", "subtype", "unlimited", "daily_spending_limit", "auto_extend_deposit", "source_name", "created_at"],
  wallet_balances: ["id", "wallet_id", "balance", "deposit_amount", "start_date", "end_date"],
  credit_limits: ["id", "wallet_id", "initial_amount", "remaining_amount", "eligibility_started_at", "eligibility_ended_at", "credit_started_at", "credit_ended_at"],
  wallet_transactions: ["id", "wallet_id", "amount", "main_comment", "merchant_name", "status", "created_at"],
  licences: ["id", "group_id", "user_id", "license_type", "metadata", "used_at"],
  notifications: ["id", "user_id", "type", "data_id", "created_at", "read_at"],
  expense_types: ["id", "technical_name", "name_fr", "name_en", "name_nl", "front_disabled", "position"],
  partners: ["id", "name_fr", "name_en", "name_nl", "line1", "zipcode", "city", "country", "enabled", "disabled_reason"],
  expense_requests: ["id", "user_id", "type_id", "partner_id", "amount", "amount_to_refund", "fees", "iban_last_four", "ticket_date", "status", "is_rectifiable", "is_cancellable", "created_at"],
  allowances: ["id", "user_id", "group_id", "type", "status", "amount", "iban_last_four", "days_at_office", "start_at", "ends_at", "travel_role", "home_address", "work_address", "is_cancellable", "created_at"],
  problem_reports: ["id", "user_id", "card_id", "authorization_id", "message", "created_at"],
  sandbox_issuer_cards: ["issuer_ref", "last_four", "brand", "type", "status", "frozen", "cancel_reason", "pin_ciphertext", "shipping_status", "shipping_eta", "created_at", "visible_at", "request_key"],
  sandbox_issuer_reveals: ["key_hash", "issuer_ref", "kind", "expires_at", "used_at"],
  card_requests: ["id", "user_id", "group_id", "type", "status", "pin_ciphertext", "line1", "line2", "zipcode", "city", "country", "attempt", "licence_id", "issuer_ref", "card_id", "created_at", "updated_at", "submitted_at"],
  sandbox_processor_cards: ["ref", "customer_ref", "brand", "last4", "exp_month", "exp_year", "outcome", "visible_at", "detached_at", "created_at"],
  payment_method_switches: ["id", "authorization_id", "wallet_id", "amount", "created_at"],
  sandbox_processor_setups: ["ref", "key_hash", "customer_ref", "return_url", "status", "card_ref", "attempts", "expires_at", "created_at"],
  sandbox_processor_payments: ["ref", "customer_ref", "amount", "status", "card_ref", "updated_at"],
  guess_limits: ["purpose", "subject_hash", "failures", "locked_until", "last_guess_at"],
  rate_limit_hits: ["key", "hits", "reset_at"],
} as const satisfies { [T in keyof Database]: readonly (keyof Database[T])[] };

/** Columns of the types not in SCHEMA_COLUMNS (must be never). */
type Unlisted = { [T in keyof Database]: Exclude<keyof Database[T], (typeof SCHEMA_COLUMNS)[T][number]> }[keyof Database];
const everyColumnListed: [Unlisted] extends [never] ? true : { missing: Unlisted } = true;
void everyColumnListed;
