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

// Building a DateTimeFormat costs far more than using one: keep it.
const parisDay = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Paris", year: "numeric", month: "2-digit", day: "2-digit" });

export function todayInParis(now: Date = new Date()): string {
  return parisDay.format(now);
}
