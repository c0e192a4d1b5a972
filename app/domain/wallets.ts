import { calendarDaysBetween } from "./calendar";

/** Pure wallet arithmetic shared by the card and wallet pages (spec 000 §2 "Wallet details"). */
export interface BalanceLine {
  balance: number;
  startDate: string;
  endDate: string;
}

export interface CreditLimitLine {
  remainingAmount: number;
  creditStartedAt: string;
  creditEndedAt: string;
}

/** Balances that count today: nonzero and inside their validity window, soonest expiry first. */
export function currentBalances<T extends BalanceLine>(lines: T[], today: string): T[] {
  return lines
    .filter((l) => l.balance !== 0 && l.startDate <= today && today <= l.endDate)
    .sort((a, b) => a.endDate.localeCompare(b.endDate));
}

/**
 * What a wallet holds today in cents, or null when unlimited. A wallet with a credit limit
 * holds what remains of the limit open today; otherwise the sum of its current balances.
 */
export function walletBalance(input: {
  unlimited: boolean;
  balances: BalanceLine[];
  creditLimits: CreditLimitLine[];
  today: string;
}): number | null {
  if (input.unlimited) return null;
  const openLimits = input.creditLimits.filter(
    (c) => c.creditStartedAt.slice(0, 10) <= input.today && input.today <= c.creditEndedAt.slice(0, 10),
  );
  if (openLimits.length > 0) return openLimits.reduce((sum, c) => sum + c.remainingAmount, 0);
  return currentBalances(input.balances, input.today).reduce((sum, b) => sum + b.balance, 0);
}

/** Spec 000 §3: the gift subtypes; every one of them spends where gifts do. */
export const GIFT_SUBTYPES = [
  "employee_christmas",
  "children_christmas",
  "birth_adoption",
  "marriage_pacs",
  "retirement",
  "mother_day",
  "father_day",
  "sainte_catherine",
  "saint_nicolas",
  "back_to_school",
] as const;

export type SpendingGuide = "meal" | "gift" | "mobility" | "culture" | "sport" | "holidays" | "general";

/** Which "where to spend" page a wallet links to (spec 000 §2): by type, every gift subtype → gift. */
export function spendingGuide(walletType: string, subtype: string | null): SpendingGuide {
  if (walletType === "gift" || (subtype !== null && (GIFT_SUBTYPES as readonly string[]).includes(subtype)))
    return "gift";
  const known: SpendingGuide[] = ["meal", "mobility", "culture", "sport", "holidays"];
  return known.find((k) => k === walletType) ?? "general";
}

/** Whole days from `today` to `day` (both YYYY-MM-DD), negative when past. */
export function daysBetween(today: string, day: string): number {
  return calendarDaysBetween(today, day);
}

/** How far a balance has gone through its validity, 0 to 100 (the expiry progress bar). */
export function validityElapsedPercent(startDate: string, endDate: string, today: string): number {
  const total = daysBetween(startDate, endDate);
  if (total <= 0) return 100;
  return Math.min(100, Math.max(0, Math.round((daysBetween(startDate, today) / total) * 100)));
}

/**
 * Spec 000 §3 "Wallet transaction": a "withdraw" shows the merchant (the partner's name, then the
 * merchant's, then the payable's); anything else shows what it is (a reload, a refund…).
 */
export function walletTransactionLabel(tx: {
  mainComment: string;
  partnerName?: string | null;
  merchantName: string | null;
  payableMerchantName?: string | null;
}): { kind: "merchant"; name: string } | { kind: "comment"; key: string } {
  if (tx.mainComment === "withdraw") {
    const name = tx.partnerName || tx.merchantName || tx.payableMerchantName;
    if (name) return { kind: "merchant", name };
    return { kind: "comment", key: "withdraw" };
  }
  return { kind: "comment", key: tx.mainComment };
}

/**
 * What a wallet holds back from its balance, in cents (issue 30 §5): the one "Réservé" figure and what it is made
 * of. Card payments approved and not yet captured (frozen withdrawals, decision 0037) and refund requests awaiting
 * the funder's review (held wallet_reservations, decision 0024) both hold money the wallet cannot spend again.
 */
export interface ReservedParts {
  /** Card payments approved, waiting for the merchant's capture. */
  frozen: number;
  /** Refund requests sent or to correct, waiting for the funder's review. */
  refundHolds: number;
}

export interface ReservedAmounts extends ReservedParts {
  /** Both parts: what the balance is reduced by. */
  reserved: number;
}

export function reservedAmounts(parts: ReservedParts): ReservedAmounts {
  return { frozen: parts.frozen, refundHolds: parts.refundHolds, reserved: parts.frozen + parts.refundHolds };
}

/** Several wallets' reserved amounts together (the card page's balances). */
export function sumReserved(amounts: ReservedParts[]): ReservedAmounts {
  return reservedAmounts({
    frozen: amounts.reduce((sum, a) => sum + a.frozen, 0),
    refundHolds: amounts.reduce((sum, a) => sum + a.refundHolds, 0),
  });
}

export interface WalletSummary extends ReservedAmounts {
  id: string;
  name: string;
  walletType: string;
  /** Cents available today (balance less everything reserved), or null when unlimited. */
  available: number | null;
}

/** A wallet page's figures; its reserved amounts (an unlimited wallet's too) as the summary's. */
export interface WalletDetail extends ReservedAmounts {
  id: string;
  name: string;
  walletType: string;
  guide: SpendingGuide;
  sourceName: string;
  unlimited: boolean;
  /** Cents the wallet can pay now (total less everything reserved); null when unlimited. */
  available: number | null;
  /** Cents the wallet holds, reserved amounts included (available + reserved); null when unlimited. */
  total: number | null;
  /**
   * "Limite de dépense" (spec 000 §2, the API's spendable_amount): cents the wallet can still pay today —
   * what it holds, capped by what its daily limit leaves today; null when unlimited with no daily limit.
   */
  spendable: number | null;
  /** Cents a day, when the wallet has a daily spending limit. */
  dailySpendingLimit: number | null;
  autoExtend: boolean;
  /** Nonzero balances valid today, soonest expiry first. */
  balances: {
    id: string;
    balance: number;
    deposit: number;
    startDate: string;
    endDate: string;
    elapsedPercent: number;
    daysLeft: number;
  }[];
  creditLimits: {
    id: string;
    initial: number;
    remaining: number;
    eligibleFrom: string;
    eligibleUntil: string;
    creditFrom: string;
    creditUntil: string;
  }[];
  /** The expiry date when exactly one balance counts today. */
  singleExpiry: string | null;
}

export interface WalletTransactionView {
  id: string;
  amount: number;
  label: ReturnType<typeof walletTransactionLabel>;
  createdAt: string;
}

export interface WalletLicence {
  id: string;
  groupName: string;
  walletType: string;
}
