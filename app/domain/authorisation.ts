import { isSunday } from "date-fns";
import { isFrenchPublicHoliday } from "./calendar";
import { walletBalance, type BalanceLine, type CreditLimitLine } from "./wallets";
import { todayInParis } from "./dates";

/**
 * The card-payment authorisation rules (issue 17, spec 000 §2 debit priority and overflow, §3, §4, §9;
 * decision 0035). Pure: everything the decision needs comes in, the decision goes out; the service
 * (`app/.server/services/authorisations.ts`) loads the input and writes the result in one transaction.
 *
 * Checks, in this order: the request itself (amount, category code), the card (blocked, frozen, not
 * activated, PIN locked, the PIN typed), the currency, then the wallets in the card's priority order,
 * then the overflow to the saved card. All or nothing: either the whole amount is covered, or nothing is.
 * Days are Paris days (`todayInParis`), taken at noon for date-fns (decision 0027).
 */

/** Cents; the most one payment may be (anything larger is an input error, not a purchase). */
export const MAX_AUTHORISATION_AMOUNT = 1_000_000;
/** Code du travail R3262-10: at most 25 € of titres-restaurant a day (the 2026 ceiling). */
export const MEAL_DAILY_CAP = 2500;
/** Groceries (food not ready to eat) may be paid with titres-restaurant until this day inclusive. */
export const MEAL_GROCERIES_UNTIL = "2026-12-31";
/** The smallest amount the payment processor charges to a saved card (spec 000 §9, "0.5"). */
export const OVERFLOW_MINIMUM = 50;
/** Three wrong PINs in a row lock it (spec 000 §8, 001 §9). */
export const PIN_ATTEMPTS = 3;
export const SUPPORTED_CURRENCY = "EUR";

export type EntryMode = "chip_and_pin" | "contactless" | "online";
/** What the terminal (or the issuer) says of the PIN typed: only chip-and-PIN payments carry one. */
export type PinCheck = "match" | "mismatch" | "not_checked";

export interface CardState {
  /** "active"; anything else (blocked, canceled…) is stopped for good. */
  status: string;
  frozen: boolean;
  /** A physical card is usable once delivered; a virtual one at once. */
  activated: boolean;
  pinLocked: boolean;
  wrongPinCount: number;
}

export interface Merchant {
  name: string;
  city: string;
  country: string;
  /** ISO 18245 merchant category code, four digits. */
  categoryCode: string;
}

export interface WalletState {
  id: string;
  /** Its name as the person sees it ("Titres-restaurant"): a decline's detail names the wallets by it. */
  name: string;
  /** meal, mobility, culture, gift… */
  type: string;
  unlimited: boolean;
  balances: BalanceLine[];
  creditLimits: CreditLimitLine[];
  /** Cents already held on it (pending card payments, expense-request reservations). */
  held: number;
  /** Cents a day, or null. */
  dailyLimit: number | null;
  /** Cents per payment, or null. */
  perTransactionLimit: number | null;
  /** The Paris day on which the funder set today's limit to zero ("today zero"), or null. */
  zeroLimitDay: string | null;
  /** Cents paid with it today (Paris day): processed and held. */
  spentToday: number;
  /** The funder lets its Sunday and holiday workers use titres-restaurant on those days. */
  funderAllowsSundays: boolean;
}

export interface OverflowSettings {
  /** The default saved credit card, or null: no overflow. */
  creditCardId: string | null;
  /** The most the saved card may add, in cents (`balance_overflow_authorized`). */
  authorizedMax: number;
}

export interface AuthorisationInput {
  amount: number;
  currency: string;
  merchant: Merchant;
  at: Date;
  entryMode: EntryMode;
  pinCheck: PinCheck;
  card: CardState;
  /** The card's linked wallets, in the card's priority order. */
  wallets: WalletState[];
  /** Cents of titres-restaurant paid today across all the person's meal wallets. */
  mealSpentToday: number;
  overflow: OverflowSettings;
}

/**
 * Why a payment is declined, in the order the rules look (decision 0035). The codes only: the words are the
 * catalogue's `cards.transactions.reasons.*`, said by the pages and by the notification's wording module
 * (`services/card-payment-words.ts`, where a code without its words fails the typecheck).
 */
export const DECLINE_CODES = [
  "invalid_amount",
  "invalid_merchant_category",
  "card_blocked",
  "card_frozen",
  "card_not_activated",
  "pin_locked",
  "incorrect_pin",
  "currency_not_supported",
  "merchant_not_allowed",
  "meal_sunday",
  "meal_public_holiday",
  "meal_daily_cap",
  "today_zero_limit",
  "transaction_limit_exceeded",
  "daily_limit_exceeded",
  "overflow_limit_exceeded",
  "insufficient_funds",
] as const;
export type DeclineCode = (typeof DECLINE_CODES)[number];

/** The PIN counter after this attempt, when it changes. */
export interface PinUpdate {
  wrongPinCount: number;
  locked: boolean;
}

/**
 * What stopped one wallet at the figure it could pay (issue 30 §3): not accepted at this merchant's category, a
 * titres-restaurant rule (Sunday, public holiday, what the day's 25 € left), the funder's "today zero", its
 * per-payment or daily limit, or its balance (less what is held).
 */
export type WalletStop =
  | "category"
  | "meal_sunday"
  | "meal_public_holiday"
  | "meal_daily_cap"
  | "today_zero_limit"
  | "transaction_limit_exceeded"
  | "daily_limit_exceeded"
  | "balance";

/** One linked wallet in a decline's detail, in the card's priority order. */
export interface DeclineWallet {
  walletId: string;
  name: string;
  /** meal, mobility, culture, gift… */
  type: string;
  /** Cents it could pay of this payment here, after the wallets before it (the day's 25 € are shared). */
  canPay: number;
  /** What kept it at `canPay`; null: it could pay all that was still due. */
  stop: WalletStop | null;
  /** The per-payment or daily limit it met, in cents (null for the other stops). */
  limit: number | null;
}

/**
 * Whether the default saved card could pay the rest (spec 000 §9, decision 0035): `none` — no default saved card;
 * `belowMinimum` — its authorised maximum is under the processor's 0,50 €; `alone` — the wallets pay nothing, and the
 * saved card never pays a whole payment; `minimum` — lifted to 0,50 € it would pay the whole payment; `overMax` — the
 * rest (`needed`) is more than its authorised maximum.
 */
export type DeclineOverflow =
  | { kind: "none" }
  | { kind: "belowMinimum"; max: number }
  | { kind: "alone" }
  | { kind: "minimum"; needed: number }
  | { kind: "overMax"; max: number; needed: number };

/**
 * The figures of a decline decided at the wallets (issue 30 §3): the amount asked, what each wallet of the card
 * (eligible or not) could pay at this merchant and why not more, and whether the saved card could pay the rest.
 * Recorded with the authorisation (`card_authorizations.decline_detail`) and said by `DeclineExplanation` and
 * `services/card-payment-words.ts`. A decline decided before the wallets (the request, the card, the PIN, the
 * currency) has none: its short reason says it all.
 */
export interface DeclineDetail {
  /** Cents asked. */
  amount: number;
  wallets: DeclineWallet[];
  overflow: DeclineOverflow;
}

export type AuthorisationDecision =
  | {
      kind: "approved";
      /** What each wallet pays, in priority order; wallets paying nothing are left out. */
      split: { walletId: string; amount: number }[];
      /** Cents charged to the default saved card (0: none). */
      overflow: number;
      pin: PinUpdate | null;
    }
  | { kind: "declined"; code: DeclineCode; pin: PinUpdate | null; detail: DeclineDetail | null };

// ---------------------------------------------------------------------------------------------
// Merchant categories per wallet type
// ---------------------------------------------------------------------------------------------

/**
 * ISO 18245 merchant category codes (Visa Merchant Data Standards Manual, Mastercard Quick Reference
 * Booklet — Merchant Edition). One table, read by `categoryEligible`.
 */
export const MCC = {
  meal: {
    // Titres-restaurant, Code du travail L3262-1 and R3262-4: restaurants and the shops assimilated to
    // them (food ready to eat): caterers, restaurants, fast food, bakeries, butchers, dairy and
    // confectionery shops, other food shops (delicatessens, convenience stores).
    always: ["5811", "5812", "5814", "5422", "5441", "5451", "5462", "5499"],
    // Groceries (food not ready to eat) in supermarkets: loi n° 2022-1158 art. 6, extended to
    // 31 December 2026 (loi n° 2025-56) — MEAL_GROCERIES_UNTIL.
    groceries: ["5411"],
  },
  // Forfait mobilités durables and transport (Code du travail L3261-3-1): local and commuter transport,
  // railways, taxis, buses, other transport; fuel (service stations, fuel dispensers); electric vehicle
  // charging (5552, added 2022); bicycle shops.
  mobility: ["4111", "4112", "4121", "4131", "4789", "5541", "5542", "5552", "5940"],
  // Culture: book shops, newsstands, music and record shops, cinemas, theatres and ticket agencies,
  // bands and entertainers, tourist attractions and exhibits (museums).
  culture: ["5942", "5994", "5733", "5735", "7832", "7922", "7929", "7991"],
  gift: {
    // Chèques-cadeaux (URSSAF): any shop, except cash and its equivalents and fuel. Cash: manual and
    // automated cash, quasi-cash, wire transfers and money orders, stored-value loads. Fuel: service
    // stations, automated fuel dispensers, fuel dealers.
    excluded: ["6010", "6011", "6012", "6051", "4829", "6540", "5541", "5542", "5983"],
  },
} as const;

export function isCategoryCode(code: unknown): code is string {
  return typeof code === "string" && /^\d{4}$/.test(code);
}

/** Whether a wallet of this type may pay at a merchant of this category on this Paris day. */
export function categoryEligible(walletType: string, categoryCode: string, day: string): boolean {
  switch (walletType) {
    case "meal":
      return (
        (MCC.meal.always as readonly string[]).includes(categoryCode) ||
        (day <= MEAL_GROCERIES_UNTIL && (MCC.meal.groceries as readonly string[]).includes(categoryCode))
      );
    case "mobility":
      return (MCC.mobility as readonly string[]).includes(categoryCode);
    case "culture":
      return (MCC.culture as readonly string[]).includes(categoryCode);
    case "gift":
      return !(MCC.gift.excluded as readonly string[]).includes(categoryCode);
    default:
      // A type without rules here (sport, holidays…) pays nowhere until its rules are written.
      return false;
  }
}

// ---------------------------------------------------------------------------------------------
// The decision
// ---------------------------------------------------------------------------------------------

const decline = (
  code: DeclineCode,
  pin: PinUpdate | null = null,
  detail: DeclineDetail | null = null,
): AuthorisationDecision => ({ kind: "declined", code, pin, detail });

/** A bound on what one wallet may pay, and what is said when it is the one that stops the wallet. */
interface Bound {
  cents: number;
  code: WalletStop;
  /** The configured limit behind it (per-payment, daily), said with the figures. */
  limit?: number;
}

export function authorise(input: AuthorisationInput): AuthorisationDecision {
  const { amount, card } = input;
  if (!Number.isSafeInteger(amount) || amount <= 0 || amount > MAX_AUTHORISATION_AMOUNT) {
    return decline("invalid_amount");
  }
  if (!isCategoryCode(input.merchant?.categoryCode)) return decline("invalid_merchant_category");

  if (card.status !== "active") return decline("card_blocked");
  if (card.frozen) return decline("card_frozen");
  if (!card.activated) return decline("card_not_activated");
  if (card.pinLocked) return decline("pin_locked");
  let pin: PinUpdate | null = null;
  if (input.entryMode === "chip_and_pin" && input.pinCheck === "mismatch") {
    const wrongPinCount = card.wrongPinCount + 1;
    const locked = wrongPinCount >= PIN_ATTEMPTS;
    return decline(locked ? "pin_locked" : "incorrect_pin", { wrongPinCount, locked });
  }
  if (input.entryMode === "chip_and_pin" && input.pinCheck === "match" && card.wrongPinCount > 0) {
    pin = { wrongPinCount: 0, locked: false };
  }

  if (input.currency !== SUPPORTED_CURRENCY) return decline("currency_not_supported", pin);

  const day = todayInParis(input.at);
  const { split, remaining, walk } = payFromWallets({
    amount,
    wallets: input.wallets,
    day,
    categoryCode: input.merchant.categoryCode,
    mealSpentToday: input.mealSpentToday,
  });

  if (remaining === 0) return { kind: "approved", split, overflow: 0, pin };

  const stopped = overflowStop(amount, remaining, input.overflow);
  if (stopped) {
    const detail: DeclineDetail = { amount, wallets: walk, overflow: stopped };
    return decline(bindingCause(detail), pin, detail);
  }
  // The processor charges at least 0,50 €: the wallets give back what lifts a smaller remainder to it.
  const overflow = Math.max(remaining, OVERFLOW_MINIMUM);
  let giveBack = overflow - remaining;
  for (let i = split.length - 1; i >= 0 && giveBack > 0; i -= 1) {
    const part = split[i]!;
    const back = Math.min(part.amount, giveBack);
    part.amount -= back;
    giveBack -= back;
  }
  return { kind: "approved", split: split.filter((s) => s.amount > 0), overflow, pin };
}

/**
 * Why the default saved card cannot pay what the wallets leave (`remaining`), or null: it can. It pays from 0,50 €
 * (the processor's minimum) to its authorised maximum, and only tops up a payment a wallet takes part in: it never
 * pays a whole payment alone (the benefits card is not a credit card).
 */
function overflowStop(amount: number, remaining: number, settings: OverflowSettings): DeclineOverflow | null {
  if (settings.creditCardId === null) return { kind: "none" };
  if (settings.authorizedMax < OVERFLOW_MINIMUM) return { kind: "belowMinimum", max: settings.authorizedMax };
  if (remaining === amount) return { kind: "alone" };
  const needed = Math.max(remaining, OVERFLOW_MINIMUM);
  if (needed >= amount) return { kind: "minimum", needed };
  if (needed > settings.authorizedMax) return { kind: "overMax", max: settings.authorizedMax, needed };
  return null;
}

/**
 * The binding cause of a decline at the wallets (issue 30 §3), honestly: no linked wallet accepted here is
 * `merchant_not_allowed`. An empty wallet explains nothing but itself (its 0,00 € is in the figures); of the others,
 * when every one was stopped by one and the same rule (Sunday, public holiday, the day's 25 €, today zero, a limit),
 * or none could pay anything (the first rule in the card's order), that rule is the short reason. Otherwise the
 * wallets and the saved card together fall short — several wallets paid a part, or a balance ran out — and the code
 * is the shortfall: `overflow_limit_exceeded` when the saved card would have had to pay more than its maximum,
 * `insufficient_funds` else; the detail's figures say by how much.
 */
function bindingCause(detail: DeclineDetail): DeclineCode {
  const accepted = detail.wallets.filter((w) => w.stop !== "category");
  if (detail.wallets.length > 0 && accepted.length === 0) return "merchant_not_allowed";
  const telling = accepted.filter((w) => !(w.stop === "balance" && w.canPay === 0));
  const first = telling[0]?.stop ?? null;
  const oneRule = new Set(telling.map((w) => w.stop)).size === 1;
  const paidNothing = telling.every((w) => w.canPay === 0);
  if (first !== null && first !== "balance" && first !== "category" && (oneRule || paidNothing)) return first;
  return detail.overflow.kind === "overMax" ? "overflow_limit_exceeded" : "insufficient_funds";
}

/** A meal wallet's day (the wallet page): what is left of the 25 €, and why it cannot be used today, if so. */
export interface MealDay {
  /** Cents left today across all the person's titres-restaurant. */
  left: number;
  /** Sunday or public holiday (Paris day) without the funder's leave: titres-restaurant cannot be used today. */
  closed: "meal_sunday" | "meal_public_holiday" | null;
}

/**
 * Whether titres-restaurant may be used on this Paris day: not on Sundays nor public holidays, unless the funder
 * allows it for its Sunday and holiday workers. Read by the split's walk and the wallet page.
 */
export function mealDayRestriction(day: string, funderAllowsSundays: boolean): MealDay["closed"] {
  if (funderAllowsSundays) return null;
  if (isSunday(new Date(`${day}T12:00:00`))) return "meal_sunday";
  return isFrenchPublicHoliday(day) ? "meal_public_holiday" : null;
}

/**
 * The rules' bounds on what one wallet may pay on this Paris day, its balance apart, in the order their reasons are
 * given: Sundays and public holidays and what is left of the day's 25 € (`mealLeft`) for titres-restaurant, "today
 * zero", the per-payment limit, what the daily limit leaves.
 */
function ruleBounds(wallet: WalletState, day: string, mealLeft: number): Bound[] {
  const bounds: Bound[] = [];
  if (wallet.type === "meal") {
    const closed = mealDayRestriction(day, wallet.funderAllowsSundays);
    if (closed) bounds.push({ cents: 0, code: closed });
    bounds.push({ cents: mealLeft, code: "meal_daily_cap" });
  }
  if (wallet.zeroLimitDay === day) bounds.push({ cents: 0, code: "today_zero_limit" });
  if (wallet.perTransactionLimit !== null) {
    const limit = wallet.perTransactionLimit;
    bounds.push({ cents: limit, code: "transaction_limit_exceeded", limit });
  }
  if (wallet.dailyLimit !== null) {
    const limit = wallet.dailyLimit;
    bounds.push({ cents: Math.max(0, limit - wallet.spentToday), code: "daily_limit_exceeded", limit });
  }
  return bounds;
}

/**
 * The most the rules let one wallet pay of a payment made on this Paris day, its balance apart (the caller knows
 * what it holds): 0 when the category, Sunday or holiday, or "today zero" excludes it, else the least of `amount`,
 * what the day's 25 € leave (titres-restaurant), the per-payment limit and what the daily limit leaves. The same
 * bounds as the split's walk; read by the payment-method switch (decision 0038). `categoryCode` null: a payment
 * recorded without one (before the engine), whose category is not checked.
 */
export function ruleAllowance(input: {
  amount: number;
  wallet: WalletState;
  day: string;
  categoryCode: string | null;
  mealSpentToday: number;
}): number {
  const { wallet, day, categoryCode } = input;
  if (categoryCode !== null && !categoryEligible(wallet.type, categoryCode, day)) return 0;
  const mealLeft = Math.max(0, MEAL_DAILY_CAP - input.mealSpentToday);
  return Math.max(0, Math.min(input.amount, ...ruleBounds(wallet, day, mealLeft).map((b) => b.cents)));
}

/**
 * The split's walk (decision 0035): each wallet eligible at this category, in the given (the card's priority)
 * order, pays the least of what is still due and its bounds (Sundays and public holidays and the day's 25 € for
 * titres-restaurant, "today zero", per-payment and daily limits, the balance less what is held). Shared by the
 * decision and by an over-capture's difference (`authorisation-lifecycle`). `walk` says, for each wallet reached
 * (every one when the amount is not covered), what it could pay and what stopped it: a decline's detail.
 */
export function payFromWallets(input: {
  amount: number;
  wallets: WalletState[];
  /** The Paris day of the payment. */
  day: string;
  categoryCode: string;
  mealSpentToday: number;
}): {
  split: { walletId: string; amount: number }[];
  remaining: number;
  walk: DeclineWallet[];
} {
  const { day, categoryCode } = input;
  let remaining = input.amount;
  let mealLeft = Math.max(0, MEAL_DAILY_CAP - input.mealSpentToday);
  const split: { walletId: string; amount: number }[] = [];
  const walk: DeclineWallet[] = [];

  for (const wallet of input.wallets) {
    if (remaining === 0) break;
    const step = { walletId: wallet.id, name: wallet.name, type: wallet.type };
    if (!categoryEligible(wallet.type, categoryCode, day)) {
      walk.push({ ...step, canPay: 0, stop: "category", limit: null });
      continue;
    }
    const bounds = ruleBounds(wallet, day, mealLeft);
    const balance = walletBalance({
      unlimited: wallet.unlimited,
      balances: wallet.balances,
      creditLimits: wallet.creditLimits,
      today: day,
    });
    if (balance !== null) bounds.push({ cents: Math.max(0, balance - wallet.held), code: "balance" });

    // The tightest bound decides; on a tie the rule named first (a rule before the balance) is the reason.
    let pays = remaining;
    let binding: Bound | null = null;
    for (const bound of bounds) {
      if (bound.cents < pays) {
        pays = bound.cents;
        binding = bound;
      }
    }
    walk.push({ ...step, canPay: pays, stop: binding?.code ?? null, limit: binding?.limit ?? null });
    if (pays > 0) {
      split.push({ walletId: wallet.id, amount: pays });
      remaining -= pays;
      if (wallet.type === "meal") mealLeft -= pays;
    }
  }

  return { split, remaining, walk };
}

const WALLET_STOPS: readonly WalletStop[] = [
  "category",
  "meal_sunday",
  "meal_public_holiday",
  "meal_daily_cap",
  "today_zero_limit",
  "transaction_limit_exceeded",
  "daily_limit_exceeded",
  "balance",
];
const isCents = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
const isText = (v: unknown): v is string => typeof v === "string";

function readWallet(value: unknown): DeclineWallet | null {
  if (typeof value !== "object" || value === null) return null;
  const w = value as Record<string, unknown>;
  const stop =
    w.stop === null || WALLET_STOPS.includes(w.stop as WalletStop) ? (w.stop as WalletStop | null) : undefined;
  if (!isText(w.walletId) || !isText(w.name) || !isText(w.type) || !isCents(w.canPay) || stop === undefined) {
    return null;
  }
  const limit = isCents(w.limit) ? w.limit : null;
  return { walletId: w.walletId, name: w.name, type: w.type, canPay: w.canPay, stop, limit };
}

function readOverflow(value: unknown): DeclineOverflow | null {
  if (typeof value !== "object" || value === null) return null;
  const o = value as Record<string, unknown>;
  switch (o.kind) {
    case "none":
    case "alone":
      return { kind: o.kind };
    case "belowMinimum":
      return isCents(o.max) ? { kind: "belowMinimum", max: o.max } : null;
    case "minimum":
      return isCents(o.needed) ? { kind: "minimum", needed: o.needed } : null;
    case "overMax":
      return isCents(o.max) && isCents(o.needed) ? { kind: "overMax", max: o.max, needed: o.needed } : null;
    default:
      return null;
  }
}

/**
 * A decline's detail read back from where it was stored (`card_authorizations.decline_detail`, a notification's
 * facts), field by field: JSON text or an already parsed value. Anything else than the engine's shape gives null
 * (the short reason is then said alone), never an error.
 */
export function readDeclineDetail(stored: unknown): DeclineDetail | null {
  let value = stored;
  if (typeof stored === "string") {
    try {
      value = JSON.parse(stored);
    } catch {
      return null;
    }
  }
  if (typeof value !== "object" || value === null) return null;
  const d = value as Record<string, unknown>;
  if (!isCents(d.amount) || !Array.isArray(d.wallets)) return null;
  const wallets = d.wallets.map(readWallet);
  const overflow = readOverflow(d.overflow);
  if (!overflow || wallets.some((w) => w === null)) return null;
  return { amount: d.amount, wallets: wallets as DeclineWallet[], overflow };
}
