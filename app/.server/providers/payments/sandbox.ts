import { createHash } from "node:crypto";
import { luhnValid } from "~/domain/luhn";
import type { DB } from "../../db";
import { newId } from "../../ids";
import { hashSecret, newSecretToken } from "../../tokens";
import {
  PaymentError,
  type CardSetup,
  type Customer,
  type PaymentProcessor,
  type PaymentStatus,
  type SavedCard,
  type SetupStatus,
} from "./port";

/**
 * The sandbox payment processor: works offline and stands for the outside company. It keeps its own
 * records (sandbox_processor_* tables) and serves its own card fields (/sandbox-processor/fields/:key),
 * so card numbers never reach the portal's routes. It stores brand, last four digits and expiry only.
 *
 * Test numbers (any future expiry, any CVC):
 *   4242 4242 4242 4242  Visa, saved, payments succeed
 *   5555 5555 5555 4444  Mastercard, saved, payments succeed
 *   4000 0000 0000 0002  declined when saved
 *   4000 0000 0000 0341  saved, but payments on it are declined
 *   4000 0000 0000 0077  saved, then under verification for 30 s before it shows in the list
 */
export const SETUP_TTL_MS = 30 * 60 * 1000;
export const SETUP_MAX_ATTEMPTS = 5;
export const VERIFICATION_DELAY_MS = 30_000;

export const SANDBOX_TEST_CARDS = {
  visa: "4242424242424242",
  mastercard: "5555555555554444",
  declined: "4000000000000002",
  chargeDeclined: "4000000000000341",
  slowVerification: "4000000000000077",
} as const;

export type FieldName = "number" | "expiry" | "cvc";
export type FieldsOutcome =
  | { kind: "saved"; returnUrl: string }
  | { kind: "refused"; errors: Partial<Record<FieldName | "form", string>> }
  | { kind: "expired" };

function brandOf(number: string): string | null {
  if (/^4/.test(number)) return "visa";
  if (/^(5[1-5]|2[2-7])/.test(number)) return "mastercard";
  if (/^3[47]/.test(number)) return "amex";
  return null;
}

/** "MM/AA" or "MM/AAAA" → month and four-digit year, or null. */
function parseExpiry(value: string): { month: number; year: number } | null {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(value);
  if (!match) return null;
  const month = Number(match[1]);
  const year = match[2]!.length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  if (month < 1 || month > 12) return null;
  return { month, year };
}

export class SandboxPaymentProcessor implements PaymentProcessor {
  readonly name = "sandbox";

  constructor(private readonly db: DB) {}

  async startCardSetup(
    customer: Customer,
    returnUrl: string,
    now = new Date(),
  ): Promise<{ customerRef: string; setup: CardSetup }> {
    const customerRef =
      customer.ref ??
      `scus_${createHash("sha256").update(`customer:${customer.userId}`).digest("base64url").slice(0, 16)}`;
    const ref = newId("seti");
    const key = newSecretToken();
    const separator = returnUrl.includes("?") ? "&" : "?";
    await this.db
      .insertInto("sandbox_processor_setups")
      .values({
        ref,
        key_hash: hashSecret(key),
        customer_ref: customerRef,
        return_url: `${returnUrl}${separator}setup=${encodeURIComponent(ref)}`,
        status: "pending",
        card_ref: null,
        attempts: 0,
        expires_at: new Date(now.getTime() + SETUP_TTL_MS).toISOString(),
        created_at: now.toISOString(),
      })
      .execute();
    return { customerRef, setup: { kind: "hosted-fields", url: `/sandbox-processor/fields/${key}`, setupRef: ref } };
  }

  async setupResult(customerRef: string, setupRef: string): Promise<{ status: SetupStatus; cardRef: string | null }> {
    const row = await this.db
      .selectFrom("sandbox_processor_setups")
      .select(["status", "card_ref"])
      .where("ref", "=", setupRef)
      .where("customer_ref", "=", customerRef)
      .executeTakeFirst();
    if (!row) throw new PaymentError("notFound", "no such setup for this customer");
    return {
      status: row.status === "succeeded" ? "succeeded" : row.status === "failed" ? "failed" : "pending",
      cardRef: row.card_ref,
    };
  }

  async listCards(customerRef: string, now = new Date()): Promise<SavedCard[]> {
    const rows = await this.db
      .selectFrom("sandbox_processor_cards")
      .selectAll()
      .where("customer_ref", "=", customerRef)
      .where("detached_at", "is", null)
      .where("visible_at", "<=", now.toISOString())
      .orderBy("created_at")
      .orderBy("ref")
      .execute();
    return rows.map((r) => ({
      ref: r.ref,
      brand: r.brand,
      last4: r.last4,
      expMonth: r.exp_month,
      expYear: r.exp_year,
    }));
  }

  async detachCard(customerRef: string, cardRef: string, now = new Date()): Promise<void> {
    const result = await this.db
      .updateTable("sandbox_processor_cards")
      .set({ detached_at: now.toISOString() })
      .where("ref", "=", cardRef)
      .where("customer_ref", "=", customerRef)
      .where("detached_at", "is", null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw new PaymentError("notFound", "no such card for this customer");
  }

  async retryPayment(
    customerRef: string,
    paymentRef: string,
    cardRef: string,
    now = new Date(),
  ): Promise<PaymentStatus> {
    const payment = await this.db
      .selectFrom("sandbox_processor_payments")
      .selectAll()
      .where("ref", "=", paymentRef)
      .where("customer_ref", "=", customerRef)
      .executeTakeFirst();
    if (!payment) throw new PaymentError("notFound", "no such payment for this customer");
    if (payment.status === "succeeded") return "succeeded";
    const card = await this.db
      .selectFrom("sandbox_processor_cards")
      .select("outcome")
      .where("ref", "=", cardRef)
      .where("customer_ref", "=", customerRef)
      .where("detached_at", "is", null)
      .executeTakeFirst();
    if (!card) throw new PaymentError("notFound", "no such card for this customer");
    const status: PaymentStatus = card.outcome === "succeed" ? "succeeded" : "payment_failed";
    await this.db
      .updateTable("sandbox_processor_payments")
      .set({ status, card_ref: cardRef, updated_at: now.toISOString() })
      .where("ref", "=", paymentRef)
      .execute();
    return status;
  }

  /**
   * The overflow's charge: a row of sandbox_processor_payments whose ref comes from the idempotency key (the same
   * key finds the same payment). The card's `outcome` decides: `succeed`, `decline` (always), `decline_once` (this
   * charge fails, the card then succeeds again: the terminal's "next charge fails").
   */
  async chargeOverflow(
    charge: { customerRef: string; cardRef: string; amount: number; idempotencyKey: string },
    now = new Date(),
  ): Promise<{ paymentRef: string | null; status: PaymentStatus }> {
    const ref = `spay_${createHash("sha256").update(`charge:${charge.idempotencyKey}`).digest("base64url").slice(0, 20)}`;
    const known = await this.db
      .selectFrom("sandbox_processor_payments")
      .select(["status", "customer_ref"])
      .where("ref", "=", ref)
      .executeTakeFirst();
    if (known) {
      if (known.customer_ref !== charge.customerRef) throw new PaymentError("rejected", "idempotency key reused");
      return { paymentRef: ref, status: known.status === "succeeded" ? "succeeded" : "payment_failed" };
    }
    if (!Number.isSafeInteger(charge.amount) || charge.amount < 1) throw new PaymentError("rejected", "invalid amount");
    const card = await this.db
      .selectFrom("sandbox_processor_cards")
      .select("outcome")
      .where("ref", "=", charge.cardRef)
      .where("customer_ref", "=", charge.customerRef)
      .where("detached_at", "is", null)
      .executeTakeFirst();
    if (!card) throw new PaymentError("notFound", "no such card for this customer");
    const status: PaymentStatus = card.outcome === "succeed" ? "succeeded" : "payment_failed";
    if (card.outcome === "decline_once") {
      await this.db
        .updateTable("sandbox_processor_cards")
        .set({ outcome: "succeed" })
        .where("ref", "=", charge.cardRef)
        .execute();
    }
    await this.db
      .insertInto("sandbox_processor_payments")
      .values({
        ref,
        customer_ref: charge.customerRef,
        amount: charge.amount,
        status,
        card_ref: charge.cardRef,
        updated_at: now.toISOString(),
      })
      .execute();
    return { paymentRef: ref, status };
  }

  /** A refund row, once per idempotency key; never more than what the payment took, only of a succeeded one. */
  async refundPayment(
    refund: { paymentRef: string; amount: number; idempotencyKey: string },
    now = new Date(),
  ): Promise<{ refundRef: string }> {
    const known = await this.db
      .selectFrom("sandbox_processor_refunds")
      .select(["ref", "payment_ref"])
      .where("idempotency_key", "=", refund.idempotencyKey)
      .executeTakeFirst();
    if (known) {
      if (known.payment_ref !== refund.paymentRef) throw new PaymentError("rejected", "idempotency key reused");
      return { refundRef: known.ref };
    }
    const payment = await this.db
      .selectFrom("sandbox_processor_payments")
      .select(["amount", "status"])
      .where("ref", "=", refund.paymentRef)
      .executeTakeFirst();
    if (!payment) throw new PaymentError("notFound", "no such payment");
    const previous = await this.db
      .selectFrom("sandbox_processor_refunds")
      .select("amount")
      .where("payment_ref", "=", refund.paymentRef)
      .execute();
    const left = payment.amount - previous.reduce((sum, r) => sum + r.amount, 0);
    if (
      payment.status !== "succeeded" ||
      !Number.isSafeInteger(refund.amount) ||
      refund.amount < 1 ||
      refund.amount > left
    )
      throw new PaymentError("rejected", "nothing to refund for this amount");
    const ref = newId("sre");
    await this.db
      .insertInto("sandbox_processor_refunds")
      .values({
        ref,
        payment_ref: refund.paymentRef,
        idempotency_key: refund.idempotencyKey,
        amount: refund.amount,
        created_at: now.toISOString(),
      })
      .execute();
    return { refundRef: ref };
  }

  /** The sandbox terminal's switch: the customer's default card declines its next charge, then succeeds again. */
  async failNextCharge(cardRef: string): Promise<boolean> {
    const result = await this.db
      .updateTable("sandbox_processor_cards")
      .set({ outcome: "decline_once" })
      .where("ref", "=", cardRef)
      .where("outcome", "=", "succeed")
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Is this key a live setup? (The fields document shows the form, or says the link expired.) */
  async setupIsOpen(key: string, now = new Date()): Promise<boolean> {
    const row = await this.openSetup(key, now);
    return row !== undefined;
  }

  private openSetup(key: string, now: Date) {
    return this.db
      .selectFrom("sandbox_processor_setups")
      .selectAll()
      .where("key_hash", "=", hashSecret(key))
      .where("status", "=", "pending")
      .where("expires_at", ">", now.toISOString())
      .executeTakeFirst();
  }

  /**
   * The processor's own card form was posted: checks the card like a processor would (number, expiry,
   * CVC, then the test number's behaviour) and saves it for the customer.
   */
  async submitFields(
    key: string,
    fields: { number: string; expiry: string; cvc: string },
    now = new Date(),
  ): Promise<FieldsOutcome> {
    const setup = await this.openSetup(key, now);
    if (!setup) return { kind: "expired" };
    const number = fields.number.replace(/[\s-]/g, "");
    const errors: Partial<Record<FieldName | "form", string>> = {};
    const brand = brandOf(number);
    if (!number) errors.number = "Saisissez le numéro de la carte.";
    else if (!/^\d{13,19}$/.test(number) || !luhnValid(number) || !brand)
      errors.number = "Ce numéro de carte n’est pas valide. Vérifiez-le.";
    const expiry = parseExpiry(fields.expiry);
    const thisMonth = now.getUTCFullYear() * 12 + now.getUTCMonth();
    if (!fields.expiry.trim()) errors.expiry = "Saisissez la date d’expiration.";
    else if (!expiry) errors.expiry = "Saisissez la date d’expiration au format MM/AA, par exemple 09/28.";
    else if (expiry.year * 12 + (expiry.month - 1) < thisMonth) errors.expiry = "Cette carte a expiré.";
    const cvcLength = brand === "amex" ? 4 : 3;
    if (!fields.cvc.trim()) errors.cvc = "Saisissez le cryptogramme.";
    else if (!new RegExp(`^\\d{${cvcLength}}$`).test(fields.cvc.trim()))
      errors.cvc = `Le cryptogramme compte ${cvcLength} chiffres, au dos de la carte.`;
    if (Object.keys(errors).length === 0 && number === SANDBOX_TEST_CARDS.declined)
      errors.form = "Votre carte a été refusée. Essayez une autre carte.";

    if (Object.keys(errors).length > 0) {
      // Too many refusals end the setup: the portal then offers to start again.
      const attempts = setup.attempts + 1;
      await this.db
        .updateTable("sandbox_processor_setups")
        .set({ attempts, ...(attempts >= SETUP_MAX_ATTEMPTS ? { status: "failed" } : {}) })
        .where("ref", "=", setup.ref)
        .execute();
      return { kind: "refused", errors };
    }

    const cardRef = newId("spm");
    const claimed = await this.db
      .updateTable("sandbox_processor_setups")
      .set({ status: "succeeded", card_ref: cardRef })
      .where("ref", "=", setup.ref)
      .where("status", "=", "pending")
      .executeTakeFirst();
    // The same form posted twice: the first post saved the card.
    if (Number(claimed.numUpdatedRows) !== 1) return { kind: "saved", returnUrl: setup.return_url };
    const slow = number === SANDBOX_TEST_CARDS.slowVerification;
    await this.db
      .insertInto("sandbox_processor_cards")
      .values({
        ref: cardRef,
        customer_ref: setup.customer_ref,
        brand: brand!,
        last4: number.slice(-4),
        exp_month: expiry!.month,
        exp_year: expiry!.year,
        outcome: number === SANDBOX_TEST_CARDS.chargeDeclined ? "decline" : "succeed",
        visible_at: new Date(now.getTime() + (slow ? VERIFICATION_DELAY_MS : 0)).toISOString(),
        detached_at: null,
        created_at: now.toISOString(),
      })
      .execute();
    return { kind: "saved", returnUrl: setup.return_url };
  }

  /** Demo data: cards and payments the processor already holds for a customer. Known refs are left alone. */
  async registerDemo(
    customerRef: string,
    cards: (SavedCard & { createdAt: string })[],
    payments: { ref: string; amount: number; status: string; createdAt: string }[],
  ): Promise<void> {
    for (const card of cards) {
      const known = await this.db
        .selectFrom("sandbox_processor_cards")
        .select("ref")
        .where("ref", "=", card.ref)
        .executeTakeFirst();
      if (known) continue;
      await this.db
        .insertInto("sandbox_processor_cards")
        .values({
          ref: card.ref,
          customer_ref: customerRef,
          brand: card.brand,
          last4: card.last4,
          exp_month: card.expMonth,
          exp_year: card.expYear,
          outcome: "succeed",
          visible_at: card.createdAt,
          detached_at: null,
          created_at: card.createdAt,
        })
        .execute();
    }
    for (const payment of payments) {
      const known = await this.db
        .selectFrom("sandbox_processor_payments")
        .select("ref")
        .where("ref", "=", payment.ref)
        .executeTakeFirst();
      if (known) continue;
      await this.db
        .insertInto("sandbox_processor_payments")
        .values({
          ref: payment.ref,
          customer_ref: customerRef,
          amount: payment.amount,
          status: payment.status,
          card_ref: null,
          updated_at: payment.createdAt,
        })
        .execute();
    }
  }
}

/** True for the sandbox processor, also across dev-server module reloads (where instanceof would fail). */
export function isSandboxProcessor(processor: PaymentProcessor): processor is SandboxPaymentProcessor {
  return (
    processor.name === "sandbox" && typeof (processor as Partial<SandboxPaymentProcessor>).submitFields === "function"
  );
}
