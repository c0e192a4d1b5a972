import type { AuthorisationInput, WalletState } from "../../app/domain/authorisation";

/**
 * What the tests of the pure authorisation rules share (`app/domain/authorisation.ts`, and the decline's words built
 * on its decisions): a wallet's state and a request, on a fixed clock. Test code only.
 */

/** Tuesday 24 November 2026, 12:30 in Paris. Never the machine's today. */
export const TUESDAY_NOON = new Date("2026-11-24T11:30:00Z");

/** A wallet with one balance valid all of 2026–2027, no limits, nothing held or spent; its name is its id. */
export function walletState(id: string, type: string, balance: number, fields: Partial<WalletState> = {}): WalletState {
  return {
    id,
    name: id,
    type,
    unlimited: false,
    balances: [{ balance, startDate: "2026-01-01", endDate: "2027-12-31" }],
    creditLimits: [],
    held: 0,
    dailyLimit: null,
    perTransactionLimit: null,
    zeroLimitDay: null,
    spentToday: 0,
    funderAllowsSundays: false,
    ...fields,
  };
}

/** 12,50 € at a restaurant, contactless, on Tuesday at 12:30, an active card, one meal wallet, no saved card. */
export function authorisationInput(fields: Partial<AuthorisationInput> = {}): AuthorisationInput {
  return {
    amount: 1250,
    currency: "EUR",
    merchant: { name: "Le Petit Café", city: "Lyon", country: "FR", categoryCode: "5812" },
    at: TUESDAY_NOON,
    entryMode: "contactless",
    pinCheck: "not_checked",
    card: { status: "active", frozen: false, activated: true, pinLocked: false, wrongPinCount: 0 },
    wallets: [walletState("meal", "meal", 10000)],
    mealSpentToday: 0,
    overflow: { creditCardId: null, authorizedMax: 5000 },
    ...fields,
  };
}
