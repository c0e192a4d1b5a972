const euro = new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR" });

/** 1250 → "12,50 €" (French format, always 2 decimals). */
export function formatCents(cents: number): string {
  return euro.format(cents / 100);
}
