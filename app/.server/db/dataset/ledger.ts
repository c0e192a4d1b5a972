import {
  authorise,
  categoryEligible,
  MEAL_DAILY_CAP,
  mealDayRestriction,
  type AuthorisationDecision,
  type AuthorisationInput,
  type EntryMode,
  type WalletState,
} from "../../../domain/authorisation";
import { currentBalances, walletBalance } from "../../../domain/wallets";
import type { BulkWriter } from "./bulk";
import type { IdMaker } from "./random";

/** A generated balance: the engine's line, with the row it becomes (if it is written). */
export interface GeneratedBalance {
  id: string;
  balance: number;
  deposit: number;
  startDate: string;
  endDate: string;
}

/** A generated credit limit (mobility): the engine's line, with its row's figures. */
export interface GeneratedLimit {
  id: string;
  initial: number;
  remainingAmount: number;
  creditStartedAt: string;
  creditEndedAt: string;
}

export interface LedgerWallet extends WalletState {
  balances: GeneratedBalance[];
  creditLimits: GeneratedLimit[];
}

export interface Attempt {
  /** The Paris day and the instant. */
  day: string;
  at: Date;
  amount: number;
  merchant: string;
  city: string;
  categoryCode: string;
  entryMode: EntryMode;
}

/**
 * What the engine is asked for a generated attempt: an active, activated card with its PIN right when typed, the
 * card's wallets and the meal wallets' spending of the day as they stand before it, no saved card to cover the rest.
 */
export function engineRequest(attempt: Attempt, wallets: WalletState[], mealSpentToday: number): AuthorisationInput {
  return {
    amount: attempt.amount,
    currency: "EUR",
    merchant: { name: attempt.merchant, city: attempt.city, country: "FR", categoryCode: attempt.categoryCode },
    at: attempt.at,
    entryMode: attempt.entryMode,
    pinCheck: attempt.entryMode === "chip_and_pin" ? "match" : "not_checked",
    card: { status: "active", frozen: false, activated: true, pinLocked: false, wrongPinCount: 0 },
    wallets,
    mealSpentToday,
    overflow: { creditCardId: null, authorizedMax: 0 },
  };
}

/**
 * One person's card as the authorisation engine sees it while history is generated: the card's wallets in priority
 * order with their balances and credit limits, what each paid today. Each attempt is decided by the engine's own
 * rules (`authorise` of domain/authorisation.ts: categories, Sundays and holidays, the day's 25 €, limits, balances),
 * then its split is taken from the wallets as `debitWallet` takes it (the open credit limit, else the current
 * balances that end first). So a generated approval, decline and its figures are what the portal would have decided,
 * and the balances left are what those payments leave. No saved card: a generated history pays from wallets only.
 *
 * The engine's rules cost some 100 µs a payment (the Paris day and the public holidays are worked out on each
 * call): too slow for millions. The common case is answered without them, with the same result — the first wallet
 * accepting the category pays the whole amount within its rules (`quickApproval`); anything else (a split over
 * wallets, a decline and its figures) asks the engine.
 */
export class Ledger {
  private day = "";
  private mealSpentToday = 0;

  constructor(readonly wallets: LedgerWallet[]) {}

  /** Holds `amount` on a wallet (a refund request's reservation): the engine sees it as held, as the portal does. */
  hold(walletId: string, amount: number): void {
    this.wallets.find((w) => w.id === walletId)!.held += amount;
  }

  /** Takes `amount` from a wallet on `day` outside a card payment (a refund request's capture), as `debitWallet` does. */
  take(walletId: string, amount: number, day: string): void {
    this.debit(
      this.wallets.find((w) => w.id === walletId)!,
      amount,
      day,
    );
  }

  /** What a wallet holds on `day` less what is held on it, in cents (null: unlimited). */
  available(walletId: string, day: string): number | null {
    const wallet = this.wallets.find((w) => w.id === walletId)!;
    const balance = walletBalance({ ...wallet, today: day });
    return balance === null ? null : balance - wallet.held;
  }

  decide(attempt: Attempt): AuthorisationDecision {
    if (attempt.day !== this.day) {
      this.day = attempt.day;
      this.mealSpentToday = 0;
      for (const wallet of this.wallets) wallet.spentToday = 0;
    }
    const decision =
      this.quickApproval(attempt) ?? authorise(engineRequest(attempt, this.wallets, this.mealSpentToday));
    if (decision.kind === "approved") {
      for (const part of decision.split) {
        const wallet = this.wallets.find((w) => w.id === part.walletId)!;
        wallet.spentToday += part.amount;
        if (wallet.type === "meal") this.mealSpentToday += part.amount;
        this.debit(wallet, part.amount, attempt.day);
      }
    }
    return decision;
  }

  /**
   * The engine's answer when the first wallet accepting the category can pay it all: no per-payment limit nor
   * "today zero", a titres-restaurant on a day it pays and within the day's 25 €, within its daily limit and its
   * balance less what is held. Null otherwise: the engine decides.
   */
  private quickApproval(attempt: Attempt): AuthorisationDecision | null {
    const wallet = this.wallets.find((w) => categoryEligible(w.type, attempt.categoryCode, attempt.day));
    if (!wallet || wallet.perTransactionLimit !== null || wallet.zeroLimitDay !== null) return null;
    if (wallet.type === "meal") {
      if (wallet.funderAllowsSundays || mealClosed(attempt.day)) return null;
      if (this.mealSpentToday + attempt.amount > MEAL_DAILY_CAP) return null;
    }
    if (wallet.dailyLimit !== null && wallet.spentToday + attempt.amount > wallet.dailyLimit) return null;
    const available = this.available(wallet.id, attempt.day);
    if (available !== null && available < attempt.amount) return null;
    return { kind: "approved", split: [{ walletId: wallet.id, amount: attempt.amount }], overflow: 0, pin: null };
  }

  private debit(wallet: LedgerWallet, amount: number, day: string): void {
    if (wallet.unlimited) return;
    const open = wallet.creditLimits.find(
      (c) => c.creditStartedAt.slice(0, 10) <= day && day <= c.creditEndedAt.slice(0, 10),
    );
    if (open) {
      open.remainingAmount -= amount;
      return;
    }
    let left = amount;
    for (const balance of currentBalances(wallet.balances, day)) {
      const take = Math.min(left, balance.balance);
      balance.balance -= take;
      left -= take;
      if (left === 0) break;
    }
  }
}

const mealClosedDays = new Map<string, boolean>();

/** Whether titres-restaurant pay nowhere on a day (a Sunday, a public holiday), worked out once a day. */
function mealClosed(day: string): boolean {
  let closed = mealClosedDays.get(day);
  if (closed === undefined) {
    closed = mealDayRestriction(day, false) !== null;
    mealClosedDays.set(day, closed);
  }
  return closed;
}

/** Whom a generated payment belongs to, and how its notification is left. */
export interface PaymentOwner {
  userId: string;
  cardId: string;
}

/**
 * The rows of one decided attempt, as the engine and the capture write them for a settled payment: the
 * authorisation (approved and captured: `closed` with card transactions; declined: `closed` with its code and
 * figures), for each wallet paying its hold (`captured` once settled) and its processed payment, and the
 * payment's notification with its facts (issue 30 §4), read `readAfterMs` after it came (null: unread).
 */
export function writePayment(
  writer: BulkWriter,
  ids: IdMaker,
  owner: PaymentOwner,
  attempt: Attempt,
  decision: AuthorisationDecision,
  readAfterMs: number | null,
): void {
  const approved = decision.kind === "approved";
  const id = ids.next("auth");
  const at = attempt.at.toISOString();
  const detail = decision.kind === "declined" && decision.detail ? decision.detail : null;
  writer.add("card_authorizations", {
    id,
    card_id: owner.cardId,
    amount: attempt.amount,
    merchant_name: attempt.merchant,
    merchant_city: attempt.city,
    merchant_country: "FR",
    status_name: "closed",
    status_reason: decision.kind === "declined" ? decision.code : null,
    has_card_transactions: approved ? 1 : 0,
    frozen: 0,
    overflow_amount: 0,
    can_switch_payment_methods: 0,
    transaction_at: at,
    scopes: null,
    currency: "EUR",
    merchant_category_code: attempt.categoryCode,
    entry_mode: attempt.entryMode,
    stripe_authorization_id: null,
    decline_detail: detail ? JSON.stringify(detail) : null,
  });
  if (decision.kind === "approved") {
    for (const status of ["captured", "processed"]) {
      for (const part of decision.split) {
        writer.add("wallet_transactions", {
          id: ids.next("wtx"),
          wallet_id: part.walletId,
          amount: -part.amount,
          main_comment: "withdraw",
          merchant_name: attempt.merchant,
          status,
          created_at: at,
          authorization_id: id,
        });
      }
    }
  }
  const facts =
    decision.kind === "declined"
      ? { amount: attempt.amount, merchant: attempt.merchant, code: decision.code, detail }
      : { amount: attempt.amount, merchant: attempt.merchant };
  writer.add("notifications", {
    id: ids.next("ntf"),
    user_id: owner.userId,
    type: approved ? "card_authorization_approved_notification" : "card_authorization_declined_notification",
    data_id: id,
    created_at: at,
    read_at: readAfterMs === null ? null : new Date(attempt.at.getTime() + readAfterMs).toISOString(),
    facts: JSON.stringify(facts),
  });
}

/** A funder's deposit on a wallet: its "deposit" line and its wallet_reload_notification, as `reloadWallet` writes them. */
export function writeDeposit(
  writer: BulkWriter,
  ids: IdMaker,
  owner: { userId: string; walletId: string; walletName: string },
  deposit: { amount: number; at: Date; endDate: string; balanceAfter: number },
  readAfterMs: number | null,
): void {
  const at = deposit.at.toISOString();
  writer.add("wallet_transactions", {
    id: ids.next("wtx"),
    wallet_id: owner.walletId,
    amount: deposit.amount,
    main_comment: "deposit",
    merchant_name: null,
    status: "processed",
    created_at: at,
    authorization_id: null,
  });
  writer.add("notifications", {
    id: ids.next("ntf"),
    user_id: owner.userId,
    type: "wallet_reload_notification",
    data_id: owner.walletId,
    created_at: at,
    read_at: readAfterMs === null ? null : new Date(deposit.at.getTime() + readAfterMs).toISOString(),
    facts: JSON.stringify({
      wallet: owner.walletName,
      amount: deposit.amount,
      balance: deposit.balanceAfter,
      endDate: deposit.endDate,
    }),
  });
}
