import { parseEuros } from "./money";

/**
 * Spec 000 §5 "Payment-method selection": moving a transaction onto other wallets. The amounts chosen
 * must be positive, each within what its wallet can give, and add up to the transaction's amount.
 * Amounts in cents; typed amounts in euros ("12", "12,5", "12.50"), read by `parseEuros` (domain/money.ts).
 */
export interface SelectableWallet {
  id: string;
  /** Cents this wallet can give to this transaction. */
  selectable: number;
}

/** What is wrong with an amount (by wallet id) or with the amounts together (`form`); the page says it in words. */
export type SplitError = "amountFormat" | "negative" | "tooMuch" | "empty" | "total";

export type SplitResult =
  | { kind: "split"; parts: { walletId: string; amount: number }[] }
  | { kind: "invalid"; errors: Record<string, SplitError>; total: number | null };

export function validateSplit(amount: number, wallets: SelectableWallet[], typed: Record<string, string>): SplitResult {
  const errors: Record<string, SplitError> = {};
  const parts: { walletId: string; amount: number }[] = [];
  for (const wallet of wallets) {
    const cents = parseEuros(typed[wallet.id] ?? "");
    if (cents === null) errors[wallet.id] = "amountFormat";
    else if (cents < 0) errors[wallet.id] = "negative";
    else if (cents > wallet.selectable) errors[wallet.id] = "tooMuch";
    else if (cents > 0) parts.push({ walletId: wallet.id, amount: cents });
  }
  const total = Object.keys(errors).length > 0 ? null : parts.reduce((sum, p) => sum + p.amount, 0);
  if (total !== null && parts.length === 0) errors.form = "empty";
  else if (total !== null && total !== amount) errors.form = "total";
  return Object.keys(errors).length > 0 ? { kind: "invalid", errors, total } : { kind: "split", parts };
}
