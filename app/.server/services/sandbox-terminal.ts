import { readDeclineDetail, type DeclineCode, type DeclineDetail } from "~/domain/authorisation";
import type { TerminalPayment } from "~/domain/terminal-schemas";
import type { DB } from "../db";
import type { Platform } from "../platform";
import { isSandboxIssuer } from "../providers/issuer/sandbox";
import { isSandboxProcessor } from "../providers/payments/sandbox";
import type { CaptureResult, RefundResult, ReverseResult } from "./authorisation-lifecycle";
import { declineSentence } from "./card-payment-words";
import { payWithCard, type CardPaymentDeps } from "./card-payments";

/**
 * The sandbox payment terminal (issue 17 §5, decision 0037), shared by `/dev/terminal` and `npm run sandbox:pay`:
 * finds the card by its last four digits (and its holder's e-mail when several cards share them), checks the PIN
 * typed against the one the sandbox issuer keeps, pays through the orchestrator and waits for the overflow's charge
 * and the notification before answering.
 */
export type TerminalDeps = CardPaymentDeps & Pick<Platform, "issuer">;

export type TerminalCard =
  | { kind: "found"; id: string; userId: string; email: string; issuerRef: string }
  | { kind: "unknown" }
  | { kind: "ambiguous" };

export async function findTerminalCard(db: DB, lastFour: string, holder: string | null): Promise<TerminalCard> {
  let query = db
    .selectFrom("cards")
    .innerJoin("users", "users.id", "cards.user_id")
    .select(["cards.id", "cards.user_id", "cards.issuer_ref", "users.email"])
    .where("cards.last_four", "=", lastFour)
    .limit(2);
  if (holder) query = query.where("users.email", "=", holder.toLowerCase());
  const rows = await query.execute();
  if (rows.length === 0) return { kind: "unknown" };
  if (rows.length > 1) return { kind: "ambiguous" };
  const row = rows[0]!;
  return { kind: "found", id: row.id, userId: row.user_id, email: row.email, issuerRef: row.issuer_ref };
}

export type TerminalPayResult =
  | { kind: "unknownCard" }
  | { kind: "ambiguousCard" }
  /** A request too malformed to record; `sentence` is the decline's words for the shell (`npm run sandbox:pay`). */
  | { kind: "invalid"; code: DeclineCode; sentence: string }
  | { kind: "decided"; authorizationId: string; holder: string };

export async function terminalPay(deps: TerminalDeps, payment: TerminalPayment): Promise<TerminalPayResult> {
  const card = await findTerminalCard(deps.db, payment.lastFour, payment.holder);
  if (card.kind === "unknown") return { kind: "unknownCard" };
  if (card.kind === "ambiguous") return { kind: "ambiguousCard" };
  const pinCheck =
    payment.pin === null
      ? "not_checked"
      : isSandboxIssuer(deps.issuer)
        ? await deps.issuer.checkPin(card.issuerRef, payment.pin)
        : "not_checked";
  if (payment.failNextCharge && isSandboxProcessor(deps.payments)) {
    const saved = await deps.db
      .selectFrom("credit_cards")
      .select("processor_ref")
      .where("user_id", "=", card.userId)
      .where("is_default", "=", 1)
      .executeTakeFirst();
    if (saved) await deps.payments.failNextCharge(saved.processor_ref);
  }
  const { result, settled } = await payWithCard(deps, {
    card: { id: card.id },
    amount: payment.amount,
    currency: payment.currency,
    merchant: payment.merchant,
    at: payment.at,
    entryMode: payment.entryMode,
    pinCheck,
  });
  await settled;
  if (result.kind === "unknownCard") return { kind: "unknownCard" };
  if (!result.authorizationId) {
    const code = result.kind === "declined" ? result.code : "invalid_amount";
    return { kind: "invalid", code, sentence: declineSentence(code) };
  }
  return { kind: "decided", authorizationId: result.authorizationId, holder: card.email };
}

export interface TerminalAuthorisation {
  id: string;
  lastFour: string;
  holder: string;
  merchantName: string;
  merchantCity: string;
  categoryCode: string | null;
  amount: number;
  transactionAt: string;
  /** approved (held), captured, declined, reversed (or expired). */
  state: "approved" | "captured" | "declined" | "reversed";
  reason: string | null;
  /** A decline's figures as the engine recorded them (issue 30 §3); null otherwise. */
  detail: DeclineDetail | null;
  /** Each wallet's part (its name and cents), in the card's priority order. */
  parts: { wallet: string; amount: number }[];
  overflow: number;
  /** The overflow's charge: processing, succeeded, payment_failed, canceled; null without overflow. */
  overflowStatus: string | null;
  /** Captured minus what the merchant already refunded. */
  refundable: number;
}

/** The latest authorisations (of one holder when told), newest payment time first, with their split. */
export async function listTerminalAuthorisations(
  db: DB,
  { holder, id, limit = 10 }: { holder?: string | null; id?: string | null; limit?: number } = {},
): Promise<TerminalAuthorisation[]> {
  let query = db
    .selectFrom("card_authorizations as a")
    .innerJoin("cards as c", "c.id", "a.card_id")
    .innerJoin("users as u", "u.id", "c.user_id")
    .select([
      "a.id",
      "c.last_four",
      "u.email",
      "a.merchant_name",
      "a.merchant_city",
      "a.merchant_category_code",
      "a.amount",
      "a.transaction_at",
      "a.status_name",
      "a.status_reason",
      "a.decline_detail",
      "a.frozen",
      "a.has_card_transactions",
      "a.overflow_amount",
    ])
    .orderBy("a.transaction_at", "desc")
    .orderBy("a.id", "desc")
    .limit(limit);
  if (holder) query = query.where("u.email", "=", holder.toLowerCase());
  if (id) query = query.where("a.id", "=", id);
  const rows = await query.execute();
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [moves, intents, refunds] = await Promise.all([
    db
      .selectFrom("wallet_transactions as t")
      .innerJoin("wallets as w", "w.id", "t.wallet_id")
      .innerJoin("card_authorizations as ta", "ta.id", "t.authorization_id")
      // The card's priority order (a wallet no longer linked comes last).
      .leftJoin("card_wallets as cw", (join) =>
        join.onRef("cw.card_id", "=", "ta.card_id").onRef("cw.wallet_id", "=", "t.wallet_id"),
      )
      .select(["t.authorization_id", "t.amount", "t.status", "t.main_comment", "w.name", "cw.position"])
      .where("t.authorization_id", "in", ids)
      .execute(),
    db
      .selectFrom("payment_intents")
      .select(["authorization_id", "latest_status"])
      .where("authorization_id", "in", ids)
      .orderBy("created_at", "desc")
      .execute(),
    db
      .selectFrom("card_authorization_refunds")
      .select(["authorization_id", "amount"])
      .where("authorization_id", "in", ids)
      .execute(),
  ]);
  return rows.map((r) => {
    const captured = r.has_card_transactions === 1;
    const state: TerminalAuthorisation["state"] = captured
      ? "captured"
      : r.status_name === "pending" && r.frozen === 1
        ? "approved"
        : r.status_name === "reversed"
          ? "reversed"
          : "declined";
    // The split: the holds while held (or released), the processed payments once captured.
    const parts = new Map<string, number>();
    const ordered = [...moves].sort((a, b) => (a.position ?? Infinity) - (b.position ?? Infinity));
    for (const m of ordered) {
      if (m.authorization_id !== r.id || m.main_comment !== "withdraw") continue;
      if (captured ? m.status !== "processed" : m.status === "processed") continue;
      parts.set(m.name, (parts.get(m.name) ?? 0) + Math.abs(m.amount));
    }
    const refunded = refunds.filter((f) => f.authorization_id === r.id).reduce((s, f) => s + f.amount, 0);
    return {
      id: r.id,
      lastFour: r.last_four,
      holder: r.email,
      merchantName: r.merchant_name,
      merchantCity: r.merchant_city,
      categoryCode: r.merchant_category_code,
      amount: r.amount,
      transactionAt: r.transaction_at,
      state,
      reason: r.status_reason,
      detail: readDeclineDetail(r.decline_detail ?? null),
      parts: [...parts.entries()].map(([wallet, amount]) => ({ wallet, amount })),
      overflow: r.overflow_amount,
      overflowStatus: intents.find((i) => i.authorization_id === r.id)?.latest_status ?? null,
      refundable: captured ? r.amount - refunded : 0,
    };
  });
}

/**
 * What a capture, a reversal or a refund at the terminal came to: done, or refused with the reason's code (the
 * page and the shell word them: `terminal.<code>`, `terminal.errors.<code>`).
 */
export type TerminalOutcome =
  | { kind: "done"; code: "captured" | "reversed" | "refunded" }
  | {
      kind: "refused";
      code:
        | "reverseCaptured"
        | "overTolerance"
        | "captureFunds"
        | "refundTooMuch"
        | "notRefundable"
        | "authorization"
        | "amountFormat"
        | "notCapturable"
        | "notReversible";
    };

const refusedBecause = (code: Extract<TerminalOutcome, { kind: "refused" }>["code"]): TerminalOutcome => ({
  kind: "refused",
  code,
});

/** The outcome of a capture, a reversal or a refund at the terminal. */
export function lifecycleOutcome(
  result: CaptureResult | ReverseResult | RefundResult,
  step: "capture" | "reverse" | "refund",
): TerminalOutcome {
  switch (result.kind) {
    case "captured":
    case "alreadyCaptured":
      return step === "capture" ? { kind: "done", code: "captured" } : refusedBecause("reverseCaptured");
    case "reversed":
    case "alreadyReleased":
      return { kind: "done", code: "reversed" };
    case "refunded":
    case "alreadyRefunded":
      return { kind: "done", code: "refunded" };
    case "overTolerance":
      return refusedBecause("overTolerance");
    case "insufficientFunds":
      return refusedBecause("captureFunds");
    case "tooMuch":
      return refusedBecause("refundTooMuch");
    case "notCaptured":
      return refusedBecause("notRefundable");
    case "notFound":
      return refusedBecause("authorization");
    case "invalid":
      return refusedBecause("amountFormat");
    default:
      return refusedBecause(
        step === "capture" ? "notCapturable" : step === "reverse" ? "notReversible" : "notRefundable",
      );
  }
}
