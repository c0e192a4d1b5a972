/**
 * Spec 000 §5 "Payment-method selection": moving a transaction onto other wallets. The amounts chosen
 * must be positive, each within what its wallet can give, and add up to the transaction's amount.
 * Amounts in cents; typed amounts in euros ("12", "12,5", "12.50").
 */
export interface SelectableWallet {
  id: string;
  /** Cents this wallet can give to this transaction. */
  selectable: number;
}

/** What is wrong with an amount (by wallet id) or with the amounts together (`form`); the page says it in words. */
export type SplitError = "amountFormat" | "negative" | "tooMuch" | "empty" | "total";

export type SplitResult =
  | { ok: true; parts: { walletId: string; amount: number }[] }
  | { ok: false; errors: Record<string, SplitError>; total: number | null };

/** Cents from a typed euro amount; "" is 0; null when it is not an amount with at most 2 decimals. */
export function parseEuros(text: string): number | null {
  const value = text.trim().replace(/\s/g, "");
  if (value === "") return 0;
  const match = /^(-?)(\d{1,6})(?:[.,](\d{1,2}))?$/.exec(value);
  if (!match) return null;
  const cents = Number(match[2]) * 100 + Number((match[3] ?? "").padEnd(2, "0"));
  return match[1] === "-" ? -cents : cents;
}

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
  return Object.keys(errors).length > 0 ? { ok: false, errors, total } : { ok: true, parts };
}
