const euro = new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR" });

/** 1250 → "12,50 €" (French format, always 2 decimals). */
export function formatCents(cents: number): string {
  return euro.format(cents / 100);
}

/** Cents → "9,10", as an amount field shows it. */
export function centsToField(cents: number): string {
  return `${Math.trunc(cents / 100)},${String(Math.abs(cents) % 100).padStart(2, "0")}`;
}

/** Cents from a typed euro amount; "" is 0; null when it is not an amount with at most 2 decimals. */
export function parseEuros(text: string): number | null {
  const value = text.trim().replace(/\s/g, "");
  if (value === "") return 0;
  const match = /^(-?)(\d{1,6})(?:[.,](\d{1,2}))?$/.exec(value);
  if (!match) return null;
  const cents = Number(match[2]) * 100 + Number((match[3] ?? "").padEnd(2, "0"));
  return match[1] === "-" ? -cents : cents;
}
