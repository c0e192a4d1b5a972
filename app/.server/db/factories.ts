import { partnerSearchText } from "../../domain/search-text";
import { newId } from "../ids";
import type { Features } from "../services/accounts";
import type { DB } from "./index";
import type {
  AllowancePayoutTable,
  AllowanceTable,
  CardAuthorizationTable,
  CardTable,
  CreditCardTable,
  ExpenseRequestTable,
  FileTable,
  GroupTable,
  LicenceTable,
  PartnerTable,
  PendingChangeTable,
  UserTable,
  WalletBalanceTable,
  WalletReservationTable,
  WalletTable,
  WalletTransactionTable,
} from "./schema";

/**
 * Row factories: the one way to make rows of the portal's tables, used by the demo seed (seed.ts), the
 * service tests and the Playwright fixtures (tests/e2e/fixtures.ts). `build…` returns a complete row
 * with sensible defaults (nothing written); `create…` writes it. Ids are random.
 */

/** No integrations, allowances or expense requests. */
export const NO_FEATURES = { integrations: {}, allowances: { any: false }, expenseRequests: { any: false } };

export interface Address {
  line1: string;
  zipcode: string;
  city: string;
  country: string;
}

export function buildGroup(fields: Pick<GroupTable, "name"> & Partial<GroupTable>): GroupTable {
  return {
    id: newId("grp"),
    can_issue: 1,
    cards_brand: "visa",
    address_line1: "12 rue de la Paix",
    address_zipcode: "75002",
    address_city: "Paris",
    address_country: "FR",
    mobility_rate_per_km: 25,
    mobility_yearly_cap: 60000,
    subscription_share_percent: 50,
    meal_sunday_workers: 0,
    ...fields,
  };
}

export function buildUser(fields: Pick<UserTable, "email" | "created_at"> & Partial<UserTable>): UserTable {
  return {
    id: newId("usr"),
    password_hash: null,
    first_name: null,
    last_name: null,
    phone: null,
    address_line1: null,
    address_line2: null,
    address_zipcode: null,
    address_city: null,
    address_country: null,
    terms_confirmed_at: null,
    status: "active",
    mfa_enabled: 0,
    mfa_preferred: "EMAIL",
    permissions: "[]",
    features: JSON.stringify(NO_FEATURES),
    balance_overflow_authorized: null,
    issuer_cardholder_ref: null,
    processor_customer_ref: null,
    marketing_emails: 0,
    password_change_required: 0,
    light_version: 0,
    payout_iban: null,
    ...fields,
  };
}

export function buildCard(
  fields: Pick<CardTable, "user_id" | "group_id" | "type" | "last_four" | "created_at"> & Partial<CardTable>,
  shipTo?: Address,
): CardTable {
  return {
    id: newId("card"),
    brand: "visa",
    issuer_ref: newId("iss"),
    status: "active",
    frozen: 0,
    block_reason: null,
    pin_can_update: 0,
    shipping_status: null,
    shipping_eta: null,
    shipping_line1: shipTo?.line1 ?? null,
    shipping_line2: null,
    shipping_zipcode: shipTo?.zipcode ?? null,
    shipping_city: shipTo?.city ?? null,
    shipping_country: shipTo?.country ?? null,
    ...fields,
  };
}

export function buildWallet(
  fields: Pick<WalletTable, "user_id" | "group_id" | "name" | "wallet_type" | "source_name" | "created_at"> &
    Partial<WalletTable>,
): WalletTable {
  return {
    id: newId("wal"),
    subtype: null,
    unlimited: 0,
    daily_spending_limit: null,
    auto_extend_deposit: 0,
    limit_per_transaction: null,
    zero_limit_day: null,
    ...fields,
  };
}

export function buildWalletBalance(fields: Omit<WalletBalanceTable, "id">): WalletBalanceTable {
  return { id: newId("bal"), ...fields };
}

/** A wallet movement: a negative amount is a payment at `merchantName`, a positive one a reload. */
export function buildWalletTransaction(
  walletId: string,
  amount: number,
  createdAt: string,
  merchantName: string | null,
  status: "processed" | "frozen" = "processed",
): WalletTransactionTable {
  return {
    id: newId("wtx"),
    wallet_id: walletId,
    amount,
    // "withdraw" makes the screens resolve the merchant name (spec 000 §3); a reload is a "deposit".
    main_comment: amount < 0 ? "withdraw" : "deposit",
    merchant_name: merchantName,
    status,
    created_at: createdAt,
    authorization_id: null,
  };
}

/** A receipt's row (the bytes, if any, are the file-storage provider's business). */
export function buildFile(fields: Pick<FileTable, "user_id"> & Partial<FileTable>): FileTable {
  const id = fields.id ?? newId("file");
  return {
    id,
    storage_key: `receipts/${id}`,
    file_name: "ticket.jpg",
    content_type: "image/jpeg",
    size: 1234,
    sha256: newId("sha"),
    created_at: new Date().toISOString(),
    ...fields,
  };
}

/** A refund request as the platform stores it once sent (status sent, cancellable). */
export function buildRefund(
  fields: Pick<ExpenseRequestTable, "user_id" | "type_id" | "amount"> & Partial<ExpenseRequestTable>,
): ExpenseRequestTable {
  const iban = fields.iban ?? "FR7630006000011234567890189";
  return {
    id: newId("exr"),
    partner_id: null,
    amount_to_refund: fields.amount,
    fees: 0,
    iban,
    iban_last_four: iban.slice(-4),
    ticket_date: new Date().toISOString().slice(0, 10),
    status: "sent",
    is_rectifiable: 0,
    is_cancellable: 1,
    created_at: new Date().toISOString(),
    media_id: null,
    second_media_id: null,
    refusal_reason: null,
    correction_reason: null,
    payout_date: null,
    sworn_name: null,
    updated_at: null,
    ...fields,
  };
}

/** An amount a request holds on a wallet (held until the review). */
export function buildWalletReservation(
  fields: Pick<WalletReservationTable, "wallet_id" | "expense_request_id" | "amount"> & Partial<WalletReservationTable>,
): WalletReservationTable {
  return {
    id: newId("wres"),
    status: "held",
    created_at: new Date().toISOString(),
    settled_at: null,
    ...fields,
  };
}

/**
 * An allowance row as the platform stores one after a confirmation (status sent unless told): by default
 * marie's seeded carpooling allowance's figures (3 days a month at the office, 25 c/km, over 2 months).
 */
export function buildAllowance(
  fields: Pick<AllowanceTable, "user_id" | "group_id"> & Partial<AllowanceTable>,
): AllowanceTable {
  const iban = fields.iban ?? "FR7630006000011234567890189";
  const now = new Date().toISOString();
  return {
    id: newId("alw"),
    type: "carpooling",
    status: "sent",
    amount: 2400,
    iban,
    iban_last_four: iban.slice(-4),
    days_at_office: 6,
    start_at: now.slice(0, 10),
    ends_at: now.slice(0, 10),
    travel_role: "driver",
    home_address: "8 rue des Lilas 69003 Lyon FR",
    work_address: "3 avenue Foch 69006 Lyon FR",
    is_cancellable: 1,
    created_at: now,
    monthly_amount: 2400,
    number_of_months: 1,
    rate_per_km: 25,
    distance_estimate_m: 8000,
    distance_declared_m: null,
    distance_source: "estimate",
    amount_before_cap: 2400,
    cap_remaining_before: 60000,
    subscription_amount: null,
    percentage: null,
    media_id: null,
    second_media_id: null,
    signed_at: now.slice(0, 10),
    refusal_reason: null,
    decided_at: null,
    updated_at: now,
    draft_id: null,
    ...fields,
  };
}

/** Bare people (no group, no card) for a test of owner-scoped rows: their ids, in the order of the e-mails. */
export async function insertUsers(db: DB, emails: string[], now = new Date()): Promise<string[]> {
  const users = emails.map((email) => buildUser({ email, created_at: now.toISOString() }));
  await db.insertInto("users").values(users).execute();
  return users.map((u) => u.id);
}
/** The allowance row, and the monthly payouts of an approved one (to its IBAN). */
export async function createAllowanceRow(
  db: DB,
  fields: Parameters<typeof buildAllowance>[0],
  payouts: Pick<AllowancePayoutTable, "month" | "amount" | "scheduled_for" | "status">[] = [],
): Promise<AllowanceTable> {
  const row = buildAllowance(fields);
  await db.transaction().execute(async (trx) => {
    await trx.insertInto("allowances").values(row).execute();
    for (const p of payouts)
      await trx
        .insertInto("allowance_payouts")
        .values({
          id: newId("alp"),
          allowance_id: row.id,
          user_id: row.user_id,
          iban: row.iban ?? "",
          created_at: row.created_at,
          paid_at: p.status === "paid" ? `${p.scheduled_for}T09:00:00.000Z` : null,
          ...p,
        })
        .execute();
  });
  return row;
}

/**
 * A request with its split over wallets and, while it is in progress, the amounts it holds on them — what
 * sending it through the service would have stored.
 */
export async function createRefund(
  db: DB,
  fields: Parameters<typeof buildRefund>[0],
  split: { walletId: string; amount: number }[] = [],
): Promise<ExpenseRequestTable> {
  const request = buildRefund(fields);
  await db.insertInto("expense_requests").values(request).execute();
  for (const [position, m] of split.entries()) {
    await db
      .insertInto("expense_request_payment_methods")
      .values({ id: newId("erpm"), request_id: request.id, wallet_id: m.walletId, amount: m.amount, position })
      .execute();
    if (request.status === "sent" || request.status === "to_correct") {
      await db
        .insertInto("wallet_reservations")
        .values(buildWalletReservation({ wallet_id: m.walletId, expense_request_id: request.id, amount: m.amount }))
        .execute();
    }
  }
  return request;
}

export function buildLicence(
  groupId: string,
  userId: string,
  licenseType: "physical_card" | "virtual_card" | "wallet_activation",
  usedAt: string | null,
  walletType?: string,
): LicenceTable {
  return {
    id: newId("lic"),
    group_id: groupId,
    user_id: userId,
    license_type: licenseType,
    metadata: JSON.stringify(walletType ? { front: { types: [{ technical_name: walletType }] } } : {}),
    used_at: usedAt,
  };
}

/**
 * A partner shop (France, enabled unless given a `disabled_reason`); its names default to the French
 * one, and `search_text` is always made from them (partnerSearchText), as migration 010 does. Its category
 * code is unknown and it is not located unless given (the store locator locates it on its next search).
 */
export function buildPartner(
  fields: Pick<PartnerTable, "name_fr"> & Partial<Omit<PartnerTable, "search_text">>,
): PartnerTable {
  const names = { name_en: fields.name_en ?? fields.name_fr, name_nl: fields.name_nl ?? fields.name_fr };
  return {
    id: newId("ptn"),
    line1: "1 place Bellecour",
    zipcode: "69002",
    city: "Lyon",
    country: "FR",
    enabled: fields.disabled_reason ? 0 : 1,
    category_code: null,
    latitude: null,
    longitude: null,
    located_at: null,
    ...fields,
    ...names,
    disabled_reason: fields.disabled_reason ?? null,
    search_text: partnerSearchText({ name_fr: fields.name_fr, ...names }),
  };
}

export async function createPartner(db: DB, fields: Parameters<typeof buildPartner>[0]): Promise<PartnerTable> {
  const row = buildPartner(fields);
  await db.insertInto("partners").values(row).execute();
  return row;
}

/** A saved credit card (for overflow payments); its `processor_ref` is what the processor knows it by. */
export function buildCreditCard(
  fields: Pick<CreditCardTable, "user_id" | "brand" | "last4" | "exp_month" | "exp_year" | "created_at"> &
    Partial<CreditCardTable>,
): CreditCardTable {
  return { id: newId("cc"), is_default: 0, processor_ref: newId("pm"), ...fields };
}

/** A change of e-mail or phone waiting for its code (send the code too: `sendPendingPhoneCode`). */
export async function createPendingChange(db: DB, fields: Omit<PendingChangeTable, "id">): Promise<void> {
  await db
    .insertInto("pending_changes")
    .values({ id: newId("pch"), ...fields })
    .execute();
}

export type AuthorizationKind = "approved" | "declined" | "frozen";

/** How the issuer reports each kind (spec 000 §4): settled = approved, closed without settlement = declined. */
function authorizationStatus(kind: AuthorizationKind) {
  switch (kind) {
    case "approved":
      return { status_name: "closed", has_card_transactions: 1, frozen: 0 };
    case "declined":
      return { status_name: "closed", has_card_transactions: 0, frozen: 0 };
    case "frozen":
      return { status_name: "pending", has_card_transactions: 0, frozen: 1 };
  }
}

/** A card payment (authorization) of this kind. */
export function buildAuthorization(
  fields: Pick<CardAuthorizationTable, "card_id" | "amount" | "merchant_name" | "merchant_city" | "transaction_at"> & {
    kind: AuthorizationKind;
    reason?: string;
    overflow?: number;
    canSwitch?: boolean;
    /** The wallet kinds the supplier accepts (spec 000 §5); none named: any. */
    scopes?: string[];
  },
): CardAuthorizationTable {
  const { kind, reason, overflow, canSwitch, scopes, ...rest } = fields;
  return {
    id: newId("auth"),
    merchant_country: "FR",
    ...rest,
    ...authorizationStatus(kind),
    status_reason: reason ?? null,
    overflow_amount: overflow ?? 0,
    can_switch_payment_methods: canSwitch ? 1 : 0,
    scopes: scopes ? JSON.stringify(scopes) : null,
    currency: null,
    merchant_category_code: null,
    entry_mode: null,
  };
}

/** The card's wallets, in this priority order. */
export async function linkWallets(db: DB, cardId: string, walletIds: string[]): Promise<void> {
  await db
    .insertInto("card_wallets")
    .values(walletIds.map((walletId, position) => ({ card_id: cardId, wallet_id: walletId, position })))
    .execute();
}

// ---------------------------------------------------------------------------------------------
// A whole account, as a test describes it
// ---------------------------------------------------------------------------------------------

export interface CardSpec {
  type: "physical" | "virtual";
  lastFour: string;
  frozen?: boolean;
  /** Blocked for good (stopped, lost, stolen…). */
  status?: "active" | "canceled";
  shippingStatus?: CardTable["shipping_status"];
  /** Expected delivery day, YYYY-MM-DD. */
  shippingEta?: string;
  pinCanUpdate?: boolean;
  /** Names of this account's wallets, in priority order. */
  wallets?: string[];
  /** Payments with the card, newest first. An overflow is charged to the default saved card, and failed. */
  payments?: {
    kind: AuthorizationKind;
    merchant: string;
    city?: string;
    amount: number;
    reason?: string;
    overflow?: number;
    canSwitch?: boolean;
    scopes?: string[];
    /**
     * An approved payment's split as the engine records it: cents paid by each wallet named (a processed `withdraw`
     * naming the authorisation; the wallet's `balance` is already after it).
     */
    paidBy?: Record<string, number>;
  }[];
}

export interface WalletSpec {
  name: string;
  type: string;
  /** Cents available now (one balance); none: an empty wallet. */
  balance?: number;
  dailyLimit?: number;
  /** Payments already made from it, newest last. */
  payments?: { merchant: string; amount: number }[];
}

export interface AccountSpec {
  email: string;
  passwordHash: string;
  /** Default true: names, phone, address, terms accepted (a card is needed too to count as onboarded). */
  profile?: boolean;
  /** The second factor's channel, or null for none. Default "EMAIL". */
  mfa?: "EMAIL" | "SMS" | null;
  bypassMFA?: boolean;
  disabled?: boolean;
  /** Invited, not activated yet: no password, no profile (give it an activation token: `createActivationToken`). */
  invited?: boolean;
  passwordChangeRequired?: boolean;
  phone?: string;
  /** The payout IBAN saved in the profile (decision 0054), normalised; none by default. */
  payoutIban?: string;
  cards?: CardSpec[];
  wallets?: WalletSpec[];
  creditCards?: { brand: string; last4: string; isDefault?: boolean }[];
  /** Licences still available: what the new-card and new-wallet screens offer. */
  freeLicences?: ("physical_card" | "virtual_card")[];
  /** The employer's name (default "Acme France"). */
  funder?: string;
  /**
   * Further employers the account belongs to, each with the card licences it still offers and, if told,
   * its own fields (an address, a mobility policy).
   */
  otherFunders?: { name: string; freeLicences?: ("physical_card" | "virtual_card")[]; group?: Partial<GroupTable> }[];
  /** Wallet activations still available, by wallet type (e.g. "mobility"). */
  freeWalletLicences?: string[];
  /** For the overflow feature: the most an overflow payment may be, in cents. */
  overflowLimit?: number;
  /** The account's features (spec 001 §3), over NO_FEATURES: e.g. `{ expenseRequests: { any: true } }`. */
  features?: Partial<Features>;
}

export interface CreatedAccount {
  userId: string;
  email: string;
  groupId: string;
  /** Card ids by last four. */
  cards: Record<string, string>;
  /** Wallet ids by name. */
  wallets: Record<string, string>;
}

const ADDRESS: Address = { line1: "27 boulevard Voltaire", zipcode: "75011", city: "Paris", country: "FR" };

/**
 * A fresh account in its own employer (group), with the cards, wallets and saved cards asked for.
 * Card rows only: a sandbox issuer must be told about them (`registerDemoCards`).
 */
export async function createAccount(db: DB, spec: AccountSpec, now = new Date()): Promise<CreatedAccount> {
  const at = (msAgo: number) => new Date(now.getTime() - msAgo).toISOString();
  const group = buildGroup({ name: spec.funder ?? "Acme France" });
  const user = accountUser(spec, at);
  const created: CreatedAccount = { userId: user.id, email: user.email, groupId: group.id, cards: {}, wallets: {} };
  await db.transaction().execute(async (trx) => {
    const made: AccountInMaking = { trx, spec, user, group, created, at, now, licences: [] };
    await insertMemberships(made);
    await insertWallets(made);
    const defaultCreditCard = await insertCreditCards(made);
    for (const [index, card] of (spec.cards ?? []).entries()) await insertCard(made, card, index, defaultCreditCard);
    if (made.licences.length > 0) await trx.insertInto("licences").values(made.licences).execute();
  });
  return created;
}

/** What the steps of `createAccount` share while they write its rows in one transaction. */
interface AccountInMaking {
  trx: DB;
  spec: AccountSpec;
  user: UserTable;
  group: GroupTable;
  created: CreatedAccount;
  /** The instant this long before `now`, as stored. */
  at: (msAgo: number) => string;
  now: Date;
  /** The licences the rows use up, written last. */
  licences: LicenceTable[];
}

/** The person's row: invited, disabled or active, with a profile unless invited, and the spec's settings. */
function accountUser(spec: AccountSpec, at: AccountInMaking["at"]): UserTable {
  const profile = spec.profile ?? !spec.invited;
  const mfa = spec.mfa === undefined ? "EMAIL" : spec.mfa;
  return buildUser({
    email: spec.email,
    password_hash: spec.invited ? null : spec.passwordHash,
    created_at: at(30 * 86_400_000),
    status: spec.invited ? "invited" : spec.disabled ? "disabled" : "active",
    mfa_enabled: mfa ? 1 : 0,
    mfa_preferred: mfa ?? "EMAIL",
    permissions: JSON.stringify(spec.bypassMFA ? ["bypassMFA"] : []),
    password_change_required: spec.passwordChangeRequired ? 1 : 0,
    balance_overflow_authorized: spec.overflowLimit ?? null,
    processor_customer_ref: spec.creditCards?.length ? newId("scus") : null,
    features: JSON.stringify({ ...NO_FEATURES, ...spec.features }),
    payout_iban: spec.payoutIban ?? null,
    ...(profile
      ? {
          first_name: "Alex",
          last_name: "Essai",
          phone: spec.phone ?? "+33612000000",
          address_line1: ADDRESS.line1,
          address_zipcode: ADDRESS.zipcode,
          address_city: ADDRESS.city,
          address_country: ADDRESS.country,
          terms_confirmed_at: at(29 * 86_400_000),
        }
      : { phone: spec.phone ?? null }),
  });
}

/** The funder, the other funders, the person in each, and the free licences the spec gives. */
async function insertMemberships({ trx, spec, user, group, licences }: AccountInMaking): Promise<void> {
  await trx.insertInto("groups").values(group).execute();
  await trx.insertInto("users").values(user).execute();
  await trx.insertInto("memberships").values({ user_id: user.id, group_id: group.id }).execute();
  for (const other of spec.otherFunders ?? []) {
    const otherGroup = buildGroup({ ...other.group, name: other.name });
    await trx.insertInto("groups").values(otherGroup).execute();
    await trx.insertInto("memberships").values({ user_id: user.id, group_id: otherGroup.id }).execute();
    licences.push(...(other.freeLicences ?? []).map((type) => buildLicence(otherGroup.id, user.id, type, null)));
  }
  licences.push(
    ...(spec.freeLicences ?? []).map((type) => buildLicence(group.id, user.id, type, null)),
    ...(spec.freeWalletLicences ?? []).map((walletType) =>
      buildLicence(group.id, user.id, "wallet_activation", null, walletType),
    ),
  );
}

/** Each wallet, its balance (the deposit, then the payments made from it) and its activation licence. */
async function insertWallets({ trx, spec, user, group, created, at, licences }: AccountInMaking): Promise<void> {
  for (const [index, w] of (spec.wallets ?? []).entries()) {
    const wallet = buildWallet({
      user_id: user.id,
      group_id: group.id,
      source_name: group.name,
      name: w.name,
      wallet_type: w.type,
      daily_spending_limit: w.dailyLimit ?? null,
      created_at: at((20 - index) * 86_400_000),
    });
    created.wallets[w.name] = wallet.id;
    await trx.insertInto("wallets").values(wallet).execute();
    licences.push(buildLicence(group.id, user.id, "wallet_activation", wallet.created_at, w.type));
    const spent = (w.payments ?? []).reduce((sum, p) => sum + p.amount, 0);
    if (w.balance !== undefined) {
      await trx
        .insertInto("wallet_balances")
        .values(
          buildWalletBalance({
            wallet_id: wallet.id,
            balance: w.balance,
            deposit_amount: w.balance + spent,
            start_date: at(10 * 86_400_000).slice(0, 10),
            end_date: at(-300 * 86_400_000).slice(0, 10),
          }),
        )
        .execute();
      await trx
        .insertInto("wallet_transactions")
        .values(buildWalletTransaction(wallet.id, w.balance + spent, at(10 * 86_400_000), null))
        .execute();
    }
    for (const [i, p] of (w.payments ?? []).entries()) {
      await trx
        .insertInto("wallet_transactions")
        .values(buildWalletTransaction(wallet.id, -p.amount, at((9 - i) * 86_400_000), p.merchant))
        .execute();
    }
  }
}

/** The saved credit cards; answers the default one's id (what an overflow is charged on), or null. */
async function insertCreditCards({ trx, spec, user, at, now }: AccountInMaking): Promise<string | null> {
  let defaultCreditCard: string | null = null;
  for (const [index, cc] of (spec.creditCards ?? []).entries()) {
    const row = buildCreditCard({
      user_id: user.id,
      brand: cc.brand,
      last4: cc.last4,
      exp_month: 9,
      exp_year: now.getFullYear() + 2,
      is_default: cc.isDefault ? 1 : 0,
      created_at: at((50 - index) * 86_400_000),
    });
    if (cc.isDefault) defaultCreditCard = row.id;
    await trx.insertInto("credit_cards").values(row).execute();
  }
  return defaultCreditCard;
}

/** A card (in the order given: the first is the one /cards opens), its licence, its wallets and its payments. */
async function insertCard(made: AccountInMaking, c: CardSpec, index: number, defaultCreditCard: string | null) {
  const { trx, user, group, created, at, licences } = made;
  const card = buildCard(
    {
      user_id: user.id,
      group_id: group.id,
      type: c.type,
      last_four: c.lastFour,
      frozen: c.frozen ? 1 : 0,
      status: c.status ?? "active",
      pin_can_update: c.pinCanUpdate ? 1 : 0,
      shipping_status: c.shippingStatus ?? (c.type === "physical" ? "delivered" : null),
      shipping_eta: c.shippingEta ?? null,
      created_at: at((100 - index) * 86_400_000),
    },
    c.type === "physical" ? ADDRESS : undefined,
  );
  created.cards[c.lastFour] = card.id;
  await trx.insertInto("cards").values(card).execute();
  licences.push(
    buildLicence(group.id, user.id, c.type === "physical" ? "physical_card" : "virtual_card", card.created_at),
  );
  const walletIds = (c.wallets ?? []).map((name) => {
    const id = created.wallets[name];
    if (!id) throw new Error(`createAccount: card ${c.lastFour} names an unknown wallet ${name}`);
    return id;
  });
  if (walletIds.length > 0) await linkWallets(trx, card.id, walletIds);
  for (const [i, p] of (c.payments ?? []).entries()) await insertCardPayment(made, card.id, p, i, defaultCreditCard);
}

/** A payment of the card: its authorisation, what each wallet paid, and a failed overflow charge if any. */
async function insertCardPayment(
  { trx, created, at }: AccountInMaking,
  cardId: string,
  p: NonNullable<CardSpec["payments"]>[number],
  i: number,
  defaultCreditCard: string | null,
) {
  const { merchant, city, paidBy, ...payment } = p;
  const row = buildAuthorization({
    card_id: cardId,
    merchant_name: merchant,
    merchant_city: city ?? "Paris",
    transaction_at: at((i + 1) * 26 * 3_600_000),
    ...payment,
  });
  await trx.insertInto("card_authorizations").values(row).execute();
  for (const [name, cents] of Object.entries(paidBy ?? {})) {
    const walletId = created.wallets[name];
    if (!walletId) throw new Error(`createAccount: payment ${merchant} names an unknown wallet ${name}`);
    await trx
      .insertInto("wallet_transactions")
      .values({ ...buildWalletTransaction(walletId, -cents, row.transaction_at, merchant), authorization_id: row.id })
      .execute();
  }
  if (row.overflow_amount > 0) {
    await trx
      .insertInto("payment_intents")
      .values({
        id: newId("pi"),
        authorization_id: row.id,
        credit_card_id: defaultCreditCard,
        amount: row.overflow_amount,
        latest_status: "payment_failed",
        created_at: row.transaction_at,
        processor_ref: newId("spi"),
      })
      .execute();
  }
}
