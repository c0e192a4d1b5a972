/**
 * What happens to an approved card authorisation (issue 17 §2, decision 0035 "Lifecycle"): pure rules for
 * the capture (partial, or above the authorised amount within the networks' tolerance), the expiry and the
 * merchant's refunds. Amounts are integer cents. The service `authorisation-lifecycle.ts` applies them.
 */

export interface Part {
  walletId: string;
  amount: number;
}

/** An approval not captured within 7 days is released (issue 17 §2). */
export const STALE_AFTER_DAYS = 7;

/**
 * Over-capture, in percent of the authorised amount, by merchant category (ISO 18245).
 *
 * Restaurants, bars and fast food (5812, 5813, 5814): the tip is added after the authorisation; Visa's rule
 * (Visa Core Rules, table "permitted difference between authorization and capture amount", as issuers such as
 * Airwallex reproduce it) allows up to 20 % for these categories, and Mastercard applies the same 20 %.
 *
 * Fuel (5541 service stations, 5542 automated fuel dispensers): the pump pre-authorises an estimate agreed in
 * advance (in Europe typically 100 to 150 €) and the final amount is normally lower — a partial capture. The
 * networks' tables do not list fuel among the over-capture categories; ASSUMPTION (not verified against the
 * current network rules): we accept the same 20 % above the pre-authorisation, for a pump whose estimate was
 * too low, rather than refuse fuel already delivered. Every other category: never above the authorised amount.
 */
export const OVER_CAPTURE_PERCENT: Readonly<Record<string, number>> = {
  "5812": 20,
  "5813": 20,
  "5814": 20,
  "5541": 20,
  "5542": 20,
};

/** The most a merchant may capture of an authorisation of `authorised` cents at this category. */
export function maxCapture(authorised: number, categoryCode: string | null): number {
  const percent = (categoryCode && OVER_CAPTURE_PERCENT[categoryCode]) || 0;
  return authorised + Math.floor((authorised * percent) / 100);
}

/**
 * A capture of at most the authorised amount: the wallets keep paying in the card's priority order, each up to
 * what it holds; what is left of the capture is the overflow's. So a partial capture first lowers the overflow
 * (the employee's own money), then the last wallets of the split — the split would have been the same had the
 * merchant asked for this amount at first.
 */
export function allocatePartialCapture(
  holds: Part[],
  overflow: number,
  captured: number,
): { wallets: Part[]; overflow: number } {
  let left = captured;
  const wallets = holds.map((h) => {
    const amount = Math.min(h.amount, left);
    left -= amount;
    return { walletId: h.walletId, amount };
  });
  return { wallets, overflow: Math.min(overflow, left) };
}

/**
 * A merchant refund, in the reverse of the card's priority order: first the overflow (the employee's own money on
 * the saved card), then the wallets from the last to the first, each at most what it paid less what it already got
 * back. Reverse order mirrors the split — a refund undoes the last euros paid — so a partial refund (one item
 * returned) gives back first what the employee would least have wanted to spend, and a full refund restores
 * exactly what each source paid. Null when the refund exceeds what is left to refund.
 */
export function allocateRefund(
  amount: number,
  paid: Part[],
  overflowPaid: number,
  alreadyRefunded: { wallets: Map<string, number>; overflow: number },
): { wallets: Part[]; overflow: number } | null {
  let left = amount;
  const overflow = Math.min(left, Math.max(0, overflowPaid - alreadyRefunded.overflow));
  left -= overflow;
  const wallets: Part[] = [];
  for (const p of [...paid].reverse()) {
    if (left <= 0) break;
    const open = Math.max(0, p.amount - (alreadyRefunded.wallets.get(p.walletId) ?? 0));
    const give = Math.min(left, open);
    if (give > 0) wallets.push({ walletId: p.walletId, amount: give });
    left -= give;
  }
  return left > 0 ? null : { wallets, overflow };
}
