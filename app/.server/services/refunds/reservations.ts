import type { DB } from "../../db";
import { newId } from "../../ids";
import { debitWallet, walletSummaries } from "../wallets";

/**
 * The amounts a refund request holds on its wallets (spec 001 §5, decision 0024): held when it is sent,
 * released when it is cancelled, refused or replaced by its correction, captured (the wallets debited)
 * when it is approved. Every function runs inside the caller's transaction.
 */

/**
 * Locks the chosen wallets' rows until commit (a no-op update: PostgreSQL takes row locks, SQLite runs one
 * write transaction at a time), so two requests on one wallet are checked one after the other.
 */
export async function lockWallets(trx: DB, userId: string, walletIds: string[]): Promise<void> {
  await trx
    .updateTable("wallets")
    .set((eb) => ({ name: eb.ref("name") }))
    .where("user_id", "=", userId)
    .where("id", "in", walletIds)
    .execute();
}

/** Thrown when a hold leaves a wallet below zero: the transaction, the draft's claim included, rolls back. */
export class OverAvailable extends Error {
  constructor(readonly index: number) {
    super(`payment method ${index} over what its wallet has`);
  }
}

/**
 * Holds each payment method's amount on its wallet, then checks again with these holds in place: another
 * request sent meanwhile may have taken what a wallet had; then it throws `OverAvailable` (the index of the
 * first method over).
 */
export async function holdReservations(
  trx: DB,
  userId: string,
  requestId: string,
  methods: { walletId: string; amount: number }[],
  now: Date,
): Promise<void> {
  await trx
    .insertInto("wallet_reservations")
    .values(
      methods.map((m) => ({
        id: newId("wres"),
        wallet_id: m.walletId,
        expense_request_id: requestId,
        amount: m.amount,
        status: "held" as const,
        created_at: now.toISOString(),
        settled_at: null,
      })),
    )
    .execute();
  const after = await walletSummaries(
    trx,
    userId,
    methods.map((m) => m.walletId),
    now,
  );
  const over = methods.findIndex((m) => {
    const available = after.find((w) => w.id === m.walletId)?.available;
    return available !== null && available !== undefined && available < 0;
  });
  if (over >= 0) throw new OverAvailable(over);
}

/** Gives back what the request held (cancelled, refused, or replaced by its correction). */
export async function releaseReservations(trx: DB, requestId: string, now: Date): Promise<void> {
  await trx
    .updateTable("wallet_reservations")
    .set({ status: "released", settled_at: now.toISOString() })
    .where("expense_request_id", "=", requestId)
    .where("status", "=", "held")
    .execute();
}

/** Debits each held amount from its wallet (the movement names the partner), oldest hold first, and marks them captured. */
export async function captureReservations(
  trx: DB,
  requestId: string,
  partnerName: string | null,
  now: Date,
): Promise<void> {
  const held = await trx
    .selectFrom("wallet_reservations")
    .select(["id", "wallet_id", "amount"])
    .where("expense_request_id", "=", requestId)
    .where("status", "=", "held")
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  for (const r of held) {
    await debitWallet(trx, r.wallet_id, r.amount, "expense_request", partnerName, now);
  }
  await trx
    .updateTable("wallet_reservations")
    .set({ status: "captured", settled_at: now.toISOString() })
    .where("expense_request_id", "=", requestId)
    .where("status", "=", "held")
    .execute();
}
