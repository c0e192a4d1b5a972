/**
 * Tables of the benefits platform. Portable between SQLite and PostgreSQL:
 * ids are random text, booleans are 0/1 integers, money is integer cents,
 * instants are ISO-8601 UTC text and calendar dates are YYYY-MM-DD text.
 */
export interface Database {
  groups: GroupTable;
  users: UserTable;
  notification_preferences: NotificationPreferenceTable;
  memberships: MembershipTable;
  sessions: SessionTable;
  one_time_codes: OneTimeCodeTable;
  action_tokens: ActionTokenTable;
  outbox: OutboxTable;
  pending_changes: PendingChangeTable;
  cards: CardTable;
  card_wallets: CardWalletTable;
  card_authorizations: CardAuthorizationTable;
  payment_intents: PaymentIntentTable;
  credit_cards: CreditCardTable;
  wallets: WalletTable;
  wallet_balances: WalletBalanceTable;
  credit_limits: CreditLimitTable;
  wallet_transactions: WalletTransactionTable;
  licences: LicenceTable;
  notifications: NotificationTable;
  expense_types: ExpenseTypeTable;
  partners: PartnerTable;
  expense_requests: ExpenseRequestTable;
  allowances: AllowanceTable;
  problem_reports: ProblemReportTable;
  sandbox_issuer_cards: SandboxIssuerCardTable;
  sandbox_issuer_reveals: SandboxIssuerRevealTable;
  card_requests: CardRequestTable;
  sandbox_processor_cards: SandboxProcessorCardTable;
  payment_method_switches: PaymentMethodSwitchTable;
  sandbox_processor_setups: SandboxProcessorSetupTable;
  sandbox_processor_payments: SandboxProcessorPaymentTable;
  sandbox_processor_refunds: SandboxProcessorRefundTable;
  guess_limits: GuessLimitTable;
  rate_limit_hits: RateLimitHitTable;
  support_messages: SupportMessageTable;
  files: FileTable;
  expense_request_payment_methods: ExpenseRequestPaymentMethodTable;
  wallet_reservations: WalletReservationTable;
  payouts: PayoutTable;
  expense_request_drafts: ExpenseRequestDraftTable;
  allowance_payouts: AllowancePayoutTable;
  consents: ConsentTable;
  analytics_events: AnalyticsEventTable;
  allowance_drafts: AllowanceDraftTable;
  partner_suggestions: PartnerSuggestionTable;
  partner_openings: PartnerOpeningTable;
  sandbox_partner_links: SandboxPartnerLinkTable;
  sandbox_partner_access: SandboxPartnerAccessTable;
  card_pin_attempts: CardPinAttemptTable;
  card_authorization_refunds: CardAuthorizationRefundTable;
  stripe_webhook_events: StripeWebhookEventTable;
  mail_outbox: MailOutboxTable;
  receipt_readings: ReceiptReadingTable;
  passkeys: PasskeyTable;
  passkey_challenges: PasskeyChallengeTable;
  push_subscriptions: PushSubscriptionTable;
}

export interface GroupTable {
  id: string;
  name: string;
  can_issue: number;
  cards_brand: string;
  address_line1: string;
  address_zipcode: string;
  address_city: string;
  address_country: string;
  /** Euro cents per kilometre paid for bicycle and carpooling allowances (migration 011). */
  mobility_rate_per_km: number;
  /** The yearly forfait mobilités durables cap this funder pays, in cents, at most 60000. */
  mobility_yearly_cap: number;
  /** The share of a public-transport subscription paid, in percent (50 to 75). */
  subscription_share_percent: number;
  /** 0/1: titres-restaurant may pay on Sundays and public holidays, for its workers of those days (migration 015). */
  meal_sunday_workers: number;
}

export interface UserTable {
  id: string;
  email: string;
  password_hash: string | null;
  first_name: string | null;
  last_name: string | null;
  phone: string | null;
  address_line1: string | null;
  address_line2: string | null;
  address_zipcode: string | null;
  address_city: string | null;
  address_country: string | null;
  terms_confirmed_at: string | null;
  /** "active" once the account can sign in, "invited" until the activation link is used. */
  status: string;
  mfa_enabled: number;
  /** "EMAIL" or "SMS". */
  mfa_preferred: string;
  /** JSON array: manageGroups, manageOwnGroups, bypassMFA. */
  permissions: string;
  /** JSON object: integrations, allowances, expenseRequests (spec 000 §3, 001 §3). */
  features: string;
  /**
   * Euro cents a saved credit card may cover beyond the wallets; null: never chosen, the panel's default (50 €,
   * services/overflow.ts) applies. Nothing is covered without a default saved card.
   */
  balance_overflow_authorized: number | null;
  created_at: string;
  /** The card issuer's reference for this person, once a first card was made. */
  issuer_cardholder_ref: string | null;
  /** The payment processor's customer reference, once a card was saved. */
  processor_customer_ref: string | null;
  /** Opted in to marketing e-mails at activation (0/1). */
  marketing_emails: number;
  /** 1 when the next sign-in must choose a new password (a temporary one was given). */
  password_change_required: number;
  /** 1 when the person chose the light version (settings, decision 0040): pages without any script. */
  light_version: number;
  /** The IBAN refunds and allowances are paid to, normalised (decision 0054); changed only with a code. */
  payout_iban: string | null;
}

/** A saved notification preference (spec 001 §3); a type without a row has its default. */
export interface NotificationPreferenceTable {
  user_id: string;
  type: string;
  mail: number;
  push: number;
  updated_at: string;
}

export interface MembershipTable {
  user_id: string;
  group_id: string;
}

export interface SessionTable {
  /** SHA-256 of the id held by the cookie, so a database leak does not leak live sessions. */
  id_hash: string;
  user_id: string | null;
  data: string;
  expires_at: string;
  created_at: string;
}

export interface OneTimeCodeTable {
  id: string;
  user_id: string;
  /** What the code unlocks (codes.ts `CodePurpose`): signIn, reveal, contactChange. */
  purpose: string;
  /** What it unlocks it on: the account (signIn), the card (reveal), the pending field (contactChange). */
  target: string;
  code_hash: string;
  channel: string;
  destination: string;
  attempts: number;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export interface ActionTokenTable {
  id: string;
  user_id: string;
  /** activation, reset_password */
  purpose: string;
  token_hash: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export interface OutboxTable {
  id: string;
  channel: string;
  recipient: string;
  subject: string;
  body: string;
  created_at: string;
}

/** An e-mail waiting for, or done with, SMTP (migration 020, decision 0042). */
export interface MailOutboxTable {
  id: string;
  /** An e-mail (SMTP) or a text message (the SMS gateway); migration 029. */
  channel: "email" | "sms";
  recipient: string;
  subject: string;
  /** The text; blanked ("") once sent or given up. */
  body: string;
  status: "pending" | "sent" | "given_up";
  attempts: number;
  next_attempt_at: string;
  give_up_at: string;
  lease_owner: string | null;
  lease_until: string | null;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
}

export interface PendingChangeTable {
  id: string;
  user_id: string;
  field_name: string;
  new_value: string;
  created_at: string;
}

export interface CardTable {
  id: string;
  user_id: string;
  group_id: string;
  type: string;
  brand: string;
  last_four: string;
  /** The card issuer's own id for this card. */
  issuer_ref: string;
  /** active or blocked */
  status: string;
  frozen: number;
  block_reason: string | null;
  pin_can_update: number;
  shipping_status: string | null;
  shipping_eta: string | null;
  shipping_line1: string | null;
  shipping_line2: string | null;
  shipping_zipcode: string | null;
  shipping_city: string | null;
  shipping_country: string | null;
  created_at: string;
}

export interface CardWalletTable {
  card_id: string;
  wallet_id: string;
  position: number;
}

export interface CardAuthorizationTable {
  id: string;
  card_id: string;
  amount: number;
  merchant_name: string;
  merchant_city: string;
  merchant_country: string;
  /** Issuer status name: closed, pending, reversed... */
  status_name: string;
  status_reason: string | null;
  /** 1 when card transactions settled this authorization (it is then "approved"). */
  has_card_transactions: number;
  /** 1 while the amount is held (a pending authorization: the "frozen" section). */
  frozen: number;
  overflow_amount: number;
  can_switch_payment_methods: number;
  transaction_at: string;
  /** JSON array of the wallet types the supplier accepts (spec 000 §3 "scopes"); null: every wallet. */
  scopes: string | null;
  /** What the payment request said (migration 015); null on rows written before the engine. */
  currency: string | null;
  merchant_category_code: string | null;
  /** chip_and_pin, contactless or online. */
  entry_mode: string | null;
  /** Stripe Issuing's authorisation id (`iauth_…`) of a decision taken for the webhook (migration 017); unique. */
  stripe_authorization_id?: string | null;
  /** A decline's figures, the engine's `DeclineDetail` as JSON text (migration 021); null otherwise. */
  decline_detail?: string | null;
}

/** A Stripe webhook event received and applied, once per id (migration 017). */
export interface StripeWebhookEventTable {
  id: string;
  /** The event's type, e.g. issuing_authorization.request. */
  type: string;
  received_at: string;
}

/** Wrong PINs typed in a row at terminals (migration 015); no row: none. */
export interface CardPinAttemptTable {
  card_id: string;
  wrong_count: number;
  /** 1 after 3 wrong PINs in a row, until a new PIN is chosen. */
  locked: number;
  updated_at: string;
}

/** A merchant refund of a captured authorisation, once per reference (migration 016). */
export interface CardAuthorizationRefundTable {
  id: string;
  authorization_id: string;
  reference: string;
  amount: number;
  /** The part going back to the saved card (the overflow). */
  overflow_amount: number;
  created_at: string;
}

export interface PaymentIntentTable {
  id: string;
  authorization_id: string;
  credit_card_id: string | null;
  amount: number;
  /** succeeded, payment_failed, processing */
  latest_status: string;
  created_at: string;
  /** The payment processor's reference for this payment. */
  processor_ref: string | null;
}

export interface CreditCardTable {
  id: string;
  user_id: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  is_default: number;
  processor_ref: string;
  created_at: string;
}

export interface WalletTable {
  id: string;
  user_id: string;
  group_id: string;
  name: string;
  /** meal, gift, mobility, culture... */
  wallet_type: string;
  /** A gift subtype such as employee_christmas, or null. */
  subtype: string | null;
  unlimited: number;
  /** Cents per day, or null without a daily limit. */
  daily_spending_limit: number | null;
  auto_extend_deposit: number;
  source_name: string;
  created_at: string;
  /** Cents one payment may take, or null: no such limit (migration 015). */
  limit_per_transaction: number | null;
  /** The Paris day on which the funder set today's limit to zero, or null. */
  zero_limit_day: string | null;
}

export interface WalletBalanceTable {
  id: string;
  wallet_id: string;
  balance: number;
  deposit_amount: number;
  start_date: string;
  end_date: string;
}

export interface CreditLimitTable {
  id: string;
  wallet_id: string;
  initial_amount: number;
  remaining_amount: number;
  eligibility_started_at: string;
  eligibility_ended_at: string;
  credit_started_at: string;
  credit_ended_at: string;
}

export interface WalletTransactionTable {
  id: string;
  wallet_id: string;
  /** Signed cents: negative for a spend. */
  amount: number;
  main_comment: string;
  merchant_name: string | null;
  /**
   * processed or frozen; a card authorisation's hold becomes `captured` (its payment is a new processed row) or
   * `released` (reversed or expired): neither is listed nor counted (decision 0035 "Lifecycle").
   */
  status: string;
  created_at: string;
  /** The card authorisation this movement holds or settles (migration 015), or null. */
  authorization_id: string | null;
}

export interface LicenceTable {
  id: string;
  group_id: string;
  user_id: string;
  /** physical_card, virtual_card, wallet_activation */
  license_type: string;
  /** JSON object, e.g. {"front":{"types":[{"technical_name":"mobility"}]}} */
  metadata: string;
  used_at: string | null;
}

export interface NotificationTable {
  id: string;
  user_id: string;
  type: string;
  data_id: string | null;
  created_at: string;
  read_at: string | null;
  /** What happened, as its producer wrote it (a JSON object); null for older rows (migration 022). */
  facts: string | null;
}

export interface ExpenseTypeTable {
  id: string;
  technical_name: string;
  name_fr: string;
  name_en: string;
  name_nl: string;
  front_disabled: number;
  position: number;
}

export interface PartnerTable {
  id: string;
  name_fr: string;
  name_en: string;
  name_nl: string;
  line1: string;
  zipcode: string;
  city: string;
  country: string;
  enabled: number;
  disabled_reason: string | null;
  /** The names folded for search (migration 010, partnerSearchText). */
  search_text: string;
  /** ISO 18245 merchant category code: which wallets pay there (migration 023); null: unknown, not listed. */
  category_code: string | null;
  /** Where the geodata provider places its postcode and city (migration 023); null: not located. */
  latitude: number | null;
  longitude: number | null;
  /** When it was located (found or not); null: still to locate. */
  located_at: string | null;
}

export interface ExpenseRequestTable {
  id: string;
  user_id: string;
  type_id: string;
  partner_id: string | null;
  amount: number;
  amount_to_refund: number;
  fees: number;
  iban_last_four: string;
  ticket_date: string;
  /** sent, to_correct, approved (in progress); paid, refused, cancelled (finished). Migration 010. */
  status: ExpenseRequestStatus;
  is_rectifiable: number;
  is_cancellable: number;
  created_at: string;
  media_id: string | null;
  second_media_id: string | null;
  iban: string | null;
  refusal_reason: string | null;
  correction_reason: string | null;
  payout_date: string | null;
  sworn_name: string | null;
  updated_at: string | null;
}

export type ExpenseRequestStatus = "sent" | "to_correct" | "approved" | "paid" | "refused" | "cancelled";

/** An uploaded receipt (migration 010); the bytes are in the file-storage provider under storage_key. */
export interface FileTable {
  id: string;
  user_id: string;
  storage_key: string;
  file_name: string;
  content_type: string;
  size: number;
  sha256: string;
  created_at: string;
}

export interface ExpenseRequestPaymentMethodTable {
  id: string;
  request_id: string;
  wallet_id: string;
  amount: number;
  position: number;
}

export interface WalletReservationTable {
  id: string;
  wallet_id: string;
  expense_request_id: string;
  amount: number;
  status: "held" | "captured" | "released";
  created_at: string;
  settled_at: string | null;
}

export interface PayoutTable {
  id: string;
  user_id: string;
  expense_request_id: string;
  amount: number;
  iban: string;
  scheduled_for: string;
  status: "scheduled" | "paid";
  created_at: string;
  paid_at: string | null;
}

export interface ExpenseRequestDraftTable {
  id: string;
  user_id: string;
  request_id: string | null;
  type_id: string | null;
  mobility_group: string | null;
  mobility_subtype: string | null;
  media_id: string | null;
  second_media_id: string | null;
  partner_id: string | null;
  ticket_date: string | null;
  amount: number | null;
  iban: string | null;
  /** Where the draft's IBAN comes from (decision 0054): "saved", "other", or "remember" (typed, saved when sent). */
  iban_source: string | null;
  payment_methods: string | null;
  reading: string | null;
  step_reached: number;
  created_at: string;
  updated_at: string;
  submitted_at: string | null;
}

export interface PartnerSuggestionTable {
  id: string;
  user_id: string;
  name_fr: string;
  name_en: string;
  name_nl: string;
  website: string | null;
  contact_email: string | null;
  contact_phone: string | null;
  line1: string | null;
  zipcode: string | null;
  city: string | null;
  country: string | null;
  status: string;
  created_at: string;
}

export type AllowanceStatus = "sent" | "approved" | "paid" | "refused" | "cancelled";

export interface AllowanceTable {
  id: string;
  user_id: string;
  group_id: string;
  /** carpooling, bicycle, subscription */
  type: string;
  status: AllowanceStatus;
  /** The allowance granted for the whole period, in cents (after the yearly cap). */
  amount: number;
  iban_last_four: string;
  days_at_office: number | null;
  start_at: string;
  ends_at: string;
  travel_role: string | null;
  /** One string each, as the spec's payload sends them: "line1 zipcode city country". */
  home_address: string | null;
  work_address: string | null;
  /** Kept for the seeded rows; the service derives it from the status (sent = cancellable). */
  is_cancellable: number;
  created_at: string;
  iban: string | null;
  monthly_amount: number | null;
  number_of_months: number | null;
  rate_per_km: number | null;
  distance_estimate_m: number | null;
  distance_declared_m: number | null;
  distance_source: string | null;
  amount_before_cap: number | null;
  cap_remaining_before: number | null;
  subscription_amount: number | null;
  percentage: number | null;
  media_id: string | null;
  second_media_id: string | null;
  signed_at: string | null;
  refusal_reason: string | null;
  decided_at: string | null;
  updated_at: string | null;
  draft_id: string | null;
  /**
   * 1 when the one-way distance was above its mode's usual bound and the employee confirmed it, else 0
   * (migration 026, decision 0055). Optional on insert: the rows that are never flagged leave the default.
   */
  plausibility_flag?: number;
  /** The employee's reason for that distance, null when not flagged. */
  plausibility_reason?: string | null;
}

export interface AllowancePayoutTable {
  id: string;
  allowance_id: string;
  user_id: string;
  /** YYYY-MM */
  month: string;
  amount: number;
  iban: string;
  scheduled_for: string;
  status: "scheduled" | "paid" | "cancelled";
  created_at: string;
  paid_at: string | null;
}

export interface AllowanceDraftTable {
  id: string;
  user_id: string;
  type: string;
  /** JSON of AllowanceAnswers (services/allowances/drafts.ts). */
  answers: string;
  media_id: string | null;
  second_media_id: string | null;
  step_reached: number;
  created_at: string;
  updated_at: string;
  submitted_at: string | null;
  allowance_id: string | null;
}

export interface ProblemReportTable {
  id: string;
  user_id: string;
  card_id: string;
  authorization_id: string;
  message: string;
  created_at: string;
}

/** The sandbox issuer's own storage (it stands for an outside company). */
export interface SandboxIssuerCardTable {
  issuer_ref: string;
  last_four: string;
  brand: string;
  type: string;
  /** active or canceled */
  status: string;
  frozen: number;
  cancel_reason: string | null;
  /** AES-GCM ciphertext of the PIN under the sandbox key; never the PIN itself. */
  pin_ciphertext: string | null;
  shipping_status: string | null;
  shipping_eta: string | null;
  created_at: string;
  /** When a card being made becomes visible (null: at once). */
  visible_at: string | null;
  /** The idempotency key it was made with (one card per key). */
  request_key: string | null;
}

export interface SandboxIssuerRevealTable {
  key_hash: string;
  issuer_ref: string;
  /** details or pin */
  kind: string;
  expires_at: string;
  used_at: string | null;
}

export interface CardRequestTable {
  id: string;
  user_id: string;
  group_id: string;
  /** physical or virtual */
  type: string;
  /** draft, submitted, issued */
  status: string;
  pin_ciphertext: string | null;
  line1: string | null;
  line2: string | null;
  zipcode: string | null;
  city: string | null;
  country: string | null;
  attempt: number;
  licence_id: string | null;
  issuer_ref: string | null;
  card_id: string | null;
  created_at: string;
  updated_at: string;
  submitted_at: string | null;
}

export interface SandboxProcessorCardTable {
  ref: string;
  customer_ref: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  /** succeed or decline */
  outcome: string;
  visible_at: string;
  detached_at: string | null;
  created_at: string;
}

export interface SandboxProcessorSetupTable {
  ref: string;
  key_hash: string;
  customer_ref: string;
  return_url: string;
  /** pending, succeeded, failed */
  status: string;
  card_ref: string | null;
  attempts: number;
  expires_at: string;
  created_at: string;
}

/** Each opening of a partner service from the integrations page (issue 16). */
export interface PartnerOpeningTable {
  id: string;
  user_id: string;
  /** A partner id of ~/domain/integrations (uggy, klaro, …). */
  partner: string;
  /** opened, no_access, failed */
  outcome: string;
  /** The partner-link adapter that answered (sandbox, http). */
  provider: string;
  created_at: string;
}

/** A sandbox partner link: single use, short-lived; only the hash of its token is kept. */
export interface SandboxPartnerLinkTable {
  token_hash: string;
  user_id: string;
  partner: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

/** The sandbox partners' access of a user (Klaro's has_access); no row: access granted. */
export interface SandboxPartnerAccessTable {
  user_id: string;
  partner: string;
  /** 1 or 0 */
  has_access: number;
  updated_at: string;
}

export interface SandboxProcessorPaymentTable {
  ref: string;
  customer_ref: string;
  amount: number;
  status: string;
  card_ref: string | null;
  updated_at: string;
}

/** A refund of a sandbox processor payment, once per idempotency key (migration 018). */
export interface SandboxProcessorRefundTable {
  ref: string;
  payment_ref: string;
  idempotency_key: string;
  amount: number;
  created_at: string;
}

export interface PaymentMethodSwitchTable {
  id: string;
  authorization_id: string;
  wallet_id: string;
  /** Cents taken from this wallet. */
  amount: number;
  created_at: string;
}

/** Wrong guesses of one kind for one account (decision 0014); deleted by a right guess. */
export interface GuessLimitTable {
  /** "password" or "code". */
  purpose: string;
  /** SHA-256 of the normalised e-mail typed (password) or of the user id (codes). */
  subject_hash: string;
  /** Guesses counted since the last right one (a guess counts before it is checked). */
  failures: number;
  /** Guesses are refused until then. */
  locked_until: string | null;
  last_guess_at: string;
}

/** Request counts of the rate limits when they live in the database (PostgreSQL). */
/** A message of the sandbox support chat (migration 013). */
export interface SupportMessageTable {
  id: string;
  user_id: string;
  author: "user" | "support";
  /** Plain text, shown as text (never as HTML). */
  body: string;
  /** What the conversation was opened about (`card:<id>`), or null. */
  context: string | null;
  created_at: string;
}

export interface RateLimitHitTable {
  /** The limit's prefix and the requester: an address or a session's hash. */
  key: string;
  hits: number;
  /** When the count starts again. */
  reset_at: string;
}

/**
 * Every table and column above, as a value: the interfaces are types only, so `migrate.test.ts`
 * compares the migrated database with this list. The two type checks below keep it in step with the
 * types both ways: a column listed here that the types lack, or a column of the types missing here,
 * fails `npm run typecheck` (it lives here, not in a file of its own, because tsc only checks `.server` files that included files import); a column the migrations create and not listed (or the reverse) fails the test.
 */
export const SCHEMA_COLUMNS = {
  groups: [
    "id",
    "name",
    "can_issue",
    "cards_brand",
    "address_line1",
    "address_zipcode",
    "address_city",
    "address_country",
    "mobility_rate_per_km",
    "mobility_yearly_cap",
    "subscription_share_percent",
    "meal_sunday_workers",
  ],
  users: [
    "id",
    "email",
    "password_hash",
    "first_name",
    "last_name",
    "phone",
    "address_line1",
    "address_line2",
    "address_zipcode",
    "address_city",
    "address_country",
    "terms_confirmed_at",
    "status",
    "mfa_enabled",
    "mfa_preferred",
    "permissions",
    "features",
    "balance_overflow_authorized",
    "created_at",
    "issuer_cardholder_ref",
    "processor_customer_ref",
    "marketing_emails",
    "password_change_required",
    "light_version",
    "payout_iban",
  ],
  notification_preferences: ["user_id", "type", "mail", "push", "updated_at"],
  memberships: ["user_id", "group_id"],
  sessions: ["id_hash", "user_id", "data", "expires_at", "created_at"],
  one_time_codes: [
    "id",
    "user_id",
    "purpose",
    "target",
    "code_hash",
    "channel",
    "destination",
    "attempts",
    "expires_at",
    "used_at",
    "created_at",
  ],
  action_tokens: ["id", "user_id", "purpose", "token_hash", "expires_at", "used_at", "created_at"],
  outbox: ["id", "channel", "recipient", "subject", "body", "created_at"],
  pending_changes: ["id", "user_id", "field_name", "new_value", "created_at"],
  cards: [
    "id",
    "user_id",
    "group_id",
    "type",
    "brand",
    "last_four",
    "issuer_ref",
    "status",
    "frozen",
    "block_reason",
    "pin_can_update",
    "shipping_status",
    "shipping_eta",
    "shipping_line1",
    "shipping_line2",
    "shipping_zipcode",
    "shipping_city",
    "shipping_country",
    "created_at",
  ],
  card_wallets: ["card_id", "wallet_id", "position"],
  card_authorizations: [
    "id",
    "card_id",
    "amount",
    "merchant_name",
    "merchant_city",
    "merchant_country",
    "status_name",
    "status_reason",
    "has_card_transactions",
    "frozen",
    "overflow_amount",
    "can_switch_payment_methods",
    "transaction_at",
    "scopes",
    "currency",
    "merchant_category_code",
    "entry_mode",
    "stripe_authorization_id",
    "decline_detail",
  ],
  payment_intents: [
    "id",
    "authorization_id",
    "credit_card_id",
    "amount",
    "latest_status",
    "created_at",
    "processor_ref",
  ],
  credit_cards: [
    "id",
    "user_id",
    "brand",
    "last4",
    "exp_month",
    "exp_year",
    "is_default",
    "processor_ref",
    "created_at",
  ],
  wallets: [
    "id",
    "user_id",
    "group_id",
    "name",
    "wallet_type",
    "subtype",
    "unlimited",
    "daily_spending_limit",
    "auto_extend_deposit",
    "source_name",
    "created_at",
    "limit_per_transaction",
    "zero_limit_day",
  ],
  wallet_balances: ["id", "wallet_id", "balance", "deposit_amount", "start_date", "end_date"],
  credit_limits: [
    "id",
    "wallet_id",
    "initial_amount",
    "remaining_amount",
    "eligibility_started_at",
    "eligibility_ended_at",
    "credit_started_at",
    "credit_ended_at",
  ],
  wallet_transactions: [
    "id",
    "wallet_id",
    "amount",
    "main_comment",
    "merchant_name",
    "status",
    "created_at",
    "authorization_id",
  ],
  licences: ["id", "group_id", "user_id", "license_type", "metadata", "used_at"],
  notifications: ["id", "user_id", "type", "data_id", "created_at", "read_at", "facts"],
  expense_types: ["id", "technical_name", "name_fr", "name_en", "name_nl", "front_disabled", "position"],
  partners: [
    "id",
    "name_fr",
    "name_en",
    "name_nl",
    "line1",
    "zipcode",
    "city",
    "country",
    "enabled",
    "disabled_reason",
    "search_text",
    "category_code",
    "latitude",
    "longitude",
    "located_at",
  ],
  expense_requests: [
    "id",
    "user_id",
    "type_id",
    "partner_id",
    "amount",
    "amount_to_refund",
    "fees",
    "iban_last_four",
    "ticket_date",
    "status",
    "is_rectifiable",
    "is_cancellable",
    "created_at",
    "media_id",
    "second_media_id",
    "iban",
    "refusal_reason",
    "correction_reason",
    "payout_date",
    "sworn_name",
    "updated_at",
  ],
  files: ["id", "user_id", "storage_key", "file_name", "content_type", "size", "sha256", "created_at"],
  expense_request_payment_methods: ["id", "request_id", "wallet_id", "amount", "position"],
  wallet_reservations: ["id", "wallet_id", "expense_request_id", "amount", "status", "created_at", "settled_at"],
  payouts: [
    "id",
    "user_id",
    "expense_request_id",
    "amount",
    "iban",
    "scheduled_for",
    "status",
    "created_at",
    "paid_at",
  ],
  expense_request_drafts: [
    "id",
    "user_id",
    "request_id",
    "type_id",
    "mobility_group",
    "mobility_subtype",
    "media_id",
    "second_media_id",
    "partner_id",
    "ticket_date",
    "amount",
    "iban",
    "iban_source",
    "payment_methods",
    "reading",
    "step_reached",
    "created_at",
    "updated_at",
    "submitted_at",
  ],
  partner_suggestions: [
    "id",
    "user_id",
    "name_fr",
    "name_en",
    "name_nl",
    "website",
    "contact_email",
    "contact_phone",
    "line1",
    "zipcode",
    "city",
    "country",
    "status",
    "created_at",
  ],
  allowances: [
    "id",
    "user_id",
    "group_id",
    "type",
    "status",
    "amount",
    "iban_last_four",
    "days_at_office",
    "start_at",
    "ends_at",
    "travel_role",
    "home_address",
    "work_address",
    "is_cancellable",
    "created_at",
    "iban",
    "monthly_amount",
    "number_of_months",
    "rate_per_km",
    "distance_estimate_m",
    "distance_declared_m",
    "distance_source",
    "amount_before_cap",
    "cap_remaining_before",
    "subscription_amount",
    "percentage",
    "media_id",
    "second_media_id",
    "signed_at",
    "refusal_reason",
    "decided_at",
    "updated_at",
    "draft_id",
    "plausibility_flag",
    "plausibility_reason",
  ],
  allowance_payouts: [
    "id",
    "allowance_id",
    "user_id",
    "month",
    "amount",
    "iban",
    "scheduled_for",
    "status",
    "created_at",
    "paid_at",
  ],
  allowance_drafts: [
    "id",
    "user_id",
    "type",
    "answers",
    "media_id",
    "second_media_id",
    "step_reached",
    "created_at",
    "updated_at",
    "submitted_at",
    "allowance_id",
  ],
  problem_reports: ["id", "user_id", "card_id", "authorization_id", "message", "created_at"],
  sandbox_issuer_cards: [
    "issuer_ref",
    "last_four",
    "brand",
    "type",
    "status",
    "frozen",
    "cancel_reason",
    "pin_ciphertext",
    "shipping_status",
    "shipping_eta",
    "created_at",
    "visible_at",
    "request_key",
  ],
  sandbox_issuer_reveals: ["key_hash", "issuer_ref", "kind", "expires_at", "used_at"],
  card_requests: [
    "id",
    "user_id",
    "group_id",
    "type",
    "status",
    "pin_ciphertext",
    "line1",
    "line2",
    "zipcode",
    "city",
    "country",
    "attempt",
    "licence_id",
    "issuer_ref",
    "card_id",
    "created_at",
    "updated_at",
    "submitted_at",
  ],
  sandbox_processor_cards: [
    "ref",
    "customer_ref",
    "brand",
    "last4",
    "exp_month",
    "exp_year",
    "outcome",
    "visible_at",
    "detached_at",
    "created_at",
  ],
  payment_method_switches: ["id", "authorization_id", "wallet_id", "amount", "created_at"],
  sandbox_processor_setups: [
    "ref",
    "key_hash",
    "customer_ref",
    "return_url",
    "status",
    "card_ref",
    "attempts",
    "expires_at",
    "created_at",
  ],
  sandbox_processor_payments: ["ref", "customer_ref", "amount", "status", "card_ref", "updated_at"],
  sandbox_processor_refunds: ["ref", "payment_ref", "idempotency_key", "amount", "created_at"],
  guess_limits: ["purpose", "subject_hash", "failures", "locked_until", "last_guess_at"],
  rate_limit_hits: ["key", "hits", "reset_at"],
  partner_openings: ["id", "user_id", "partner", "outcome", "provider", "created_at"],
  sandbox_partner_links: ["token_hash", "user_id", "partner", "expires_at", "used_at", "created_at"],
  sandbox_partner_access: ["user_id", "partner", "has_access", "updated_at"],
  card_pin_attempts: ["card_id", "wrong_count", "locked", "updated_at"],
  card_authorization_refunds: ["id", "authorization_id", "reference", "amount", "overflow_amount", "created_at"],
  stripe_webhook_events: ["id", "type", "received_at"],
  mail_outbox: [
    "id",
    "recipient",
    "subject",
    "body",
    "status",
    "attempts",
    "next_attempt_at",
    "give_up_at",
    "lease_owner",
    "lease_until",
    "last_error",
    "created_at",
    "finished_at",
    "channel",
  ],
  support_messages: ["id", "user_id", "author", "body", "context", "created_at"],
  consents: ["user_id", "analytics", "tag_manager", "decided_at"],
  analytics_events: ["id", "user_id", "name", "properties", "created_at"],
  receipt_readings: ["file_id", "user_id", "state", "facts", "started_at", "finished_at"],
  passkeys: [
    "id",
    "user_id",
    "credential_id",
    "public_key",
    "counter",
    "transports",
    "multi_device",
    "backed_up",
    "name",
    "created_at",
    "last_used_at",
  ],
  passkey_challenges: [
    "id",
    "challenge",
    "purpose",
    "user_id",
    "target",
    "binding_hash",
    "expires_at",
    "used_at",
    "created_at",
  ],
  push_subscriptions: ["id", "user_id", "endpoint", "p256dh", "auth", "device_name", "created_at", "updated_at"],
} as const satisfies { [T in keyof Database]: readonly (keyof Database[T])[] };

/** Columns of the types not in SCHEMA_COLUMNS (must be never). */
type Unlisted = {
  [T in keyof Database]: Exclude<keyof Database[T], (typeof SCHEMA_COLUMNS)[T][number]>;
}[keyof Database];
const everyColumnListed: [Unlisted] extends [never] ? true : { missing: Unlisted } = true;
void everyColumnListed;

/** The cookie choice of a signed-in person (/cookies); no row: everything but the necessary refused. */
export interface ConsentTable {
  user_id: string;
  analytics: number;
  tag_manager: number;
  decided_at: string;
}

/** An event the sandbox analytics provider kept instead of sending it. */
export interface AnalyticsEventTable {
  id: string;
  user_id: string;
  name: string;
  /** JSON object. */
  properties: string;
  created_at: string;
}

/** The reading of a subscription's ticket or proof (migration 027, decision 0056); it goes with its file. */
export interface ReceiptReadingTable {
  file_id: string;
  user_id: string;
  /** pending, done or unreadable. */
  state: string;
  /** JSON once done: `{ amount, periodStart, periodEnd }`, each null when not read. */
  facts: string | null;
  started_at: string;
  finished_at: string | null;
}

/** A person's passkey (migration 028, decision 0060): what checks its assertions, never a private key. */
export interface PasskeyTable {
  id: string;
  user_id: string;
  /** base64url, unique. */
  credential_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  counter: number;
  /** JSON array of transports. */
  transports: string;
  /** 0/1: backup eligible, fixed at registration. */
  multi_device: number;
  /** 0/1: backed up at its last use. */
  backed_up: number;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

/** A WebAuthn challenge handed out (migration 028): single-use, bound to a session, expiring. */
export interface PasskeyChallengeTable {
  id: string;
  challenge: string;
  /** register, signIn, secondFactor, reveal or confirm. */
  purpose: string;
  user_id: string | null;
  target: string | null;
  binding_hash: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

/** A browser subscribed to a person's pushes (migration 030, decision 0063); the endpoint is unique. */
export interface PushSubscriptionTable {
  id: string;
  user_id: string;
  endpoint: string;
  /** base64url, 65 bytes. */
  p256dh: string;
  /** base64url, 16 bytes. */
  auth: string;
  device_name: string | null;
  created_at: string;
  updated_at: string;
}
