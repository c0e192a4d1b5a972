import { createHash } from "node:crypto";
import Stripe from "stripe";
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
 * Stripe as the payment processor: a Customer per employee, a SetupIntent to save a card (the browser
 * types it into Stripe's Payment Element), PaymentMethods as the saved cards, and PaymentIntents for
 * overflow payments. Card numbers never reach our server.
 */
export interface StripePaymentOptions {
  secretKey: string;
  publishableKey: string;
  /** Tests: a local stand-in for api.stripe.com. */
  host?: string;
  port?: number;
  protocol?: "http" | "https";
  maxNetworkRetries?: number;
  timeoutMs?: number;
}

const refOf = (value: string | { id: string } | null | undefined): string | null =>
  value === null || value === undefined ? null : typeof value === "string" ? value : value.id;

export class StripePaymentProcessor implements PaymentProcessor {
  readonly name = "stripe";
  private readonly stripe: Stripe;

  constructor(private readonly options: StripePaymentOptions) {
    this.stripe = new Stripe(options.secretKey, {
      host: options.host,
      port: options.port,
      protocol: options.protocol,
      maxNetworkRetries: options.maxNetworkRetries ?? 1,
      timeout: options.timeoutMs ?? 4_000,
      appInfo: { name: "portail-avantages" },
    });
  }

  /**
   * `returnUrl` is for Stripe.js in the browser (confirmParams.return_url); the API does not need it.
   * The customer is created once per person: its idempotency key is our user id (with what is sent, as Stripe
   * refuses a key reused with other parameters), so a retry after a lost answer, or two tabs at once, get the same
   * customer instead of a second one that would hold the card out of our sight (decision 0043). The SetupIntent
   * has no key of ours: it moves nothing until the browser confirms it, and a key would hand a later visit the
   * SetupIntent already used.
   */
  async startCardSetup(customer: Customer, _returnUrl: string): Promise<{ customerRef: string; setup: CardSetup }> {
    const fields = { email: customer.email, name: customer.name, metadata: { user_id: customer.userId } };
    const customerRef =
      customer.ref ??
      (
        await this.call(() =>
          this.stripe.customers.create(fields, {
            idempotencyKey: `${customer.userId}:customer:${createHash("sha256").update(JSON.stringify(fields)).digest("hex").slice(0, 16)}`,
          }),
        )
      ).id;
    const intent = await this.call(() =>
      this.stripe.setupIntents.create({
        customer: customerRef,
        allowed_payment_method_types: ["card"],
        usage: "off_session",
        metadata: { user_id: customer.userId },
      }),
    );
    if (!intent.client_secret)
      throw new PaymentError("unavailable", "Stripe returned a SetupIntent without a client secret");
    return {
      customerRef,
      setup: {
        kind: "elements",
        clientSecret: intent.client_secret,
        publishableKey: this.options.publishableKey,
        setupRef: intent.id,
      },
    };
  }

  async setupResult(customerRef: string, setupRef: string): Promise<{ status: SetupStatus; cardRef: string | null }> {
    const intent = await this.call(() => this.stripe.setupIntents.retrieve(setupRef));
    if (refOf(intent.customer) !== customerRef)
      throw new PaymentError("notFound", "this SetupIntent is another customer's");
    if (intent.status === "succeeded") return { status: "succeeded", cardRef: refOf(intent.payment_method) };
    if (intent.status === "canceled" || (intent.status === "requires_payment_method" && intent.last_setup_error))
      return { status: "failed", cardRef: null };
    return { status: "pending", cardRef: null };
  }

  async listCards(customerRef: string): Promise<SavedCard[]> {
    const methods = await this.call(() =>
      this.stripe.paymentMethods.list({ customer: customerRef, type: "card", limit: 100 }),
    );
    return methods.data
      .filter((pm) => pm.card)
      .map((pm) => ({
        ref: pm.id,
        brand: pm.card!.brand,
        last4: pm.card!.last4,
        expMonth: pm.card!.exp_month,
        expYear: pm.card!.exp_year,
      }));
  }

  /** Checked first: a payment method of another customer is never detached on this one's behalf. */
  async detachCard(customerRef: string, cardRef: string): Promise<void> {
    const method = await this.call(() => this.stripe.paymentMethods.retrieve(cardRef));
    if (refOf(method.customer) !== customerRef) throw new PaymentError("notFound", "this card is another customer's");
    await this.call(() => this.stripe.paymentMethods.detach(cardRef));
  }

  /** A decline is an answer ("payment_failed"), not an error. */
  async retryPayment(customerRef: string, paymentRef: string, cardRef: string): Promise<PaymentStatus> {
    const intent = await this.call(() => this.stripe.paymentIntents.retrieve(paymentRef));
    if (refOf(intent.customer) !== customerRef)
      throw new PaymentError("notFound", "this PaymentIntent is another customer's");
    if (intent.status === "succeeded") return "succeeded";
    try {
      const confirmed = await this.stripe.paymentIntents.confirm(paymentRef, {
        payment_method: cardRef,
        off_session: true,
      });
      return confirmed.status === "succeeded"
        ? "succeeded"
        : confirmed.status === "processing"
          ? "processing"
          : "payment_failed";
    } catch (err) {
      if (err instanceof Stripe.errors.StripeCardError) return "payment_failed";
      throw toPaymentError(err);
    }
  }

  /**
   * A PaymentIntent created and confirmed at once, off-session, on the saved card; the portal's payment intent id is
   * the idempotency key (a retried request creates nothing twice). A card decline answers `payment_failed` with the
   * PaymentIntent Stripe made (the "Relancer le paiement" button confirms it again).
   */
  async chargeOverflow(charge: {
    customerRef: string;
    cardRef: string;
    amount: number;
    idempotencyKey: string;
  }): Promise<{ paymentRef: string | null; status: PaymentStatus }> {
    try {
      const intent = await this.stripe.paymentIntents.create(
        {
          amount: charge.amount,
          currency: "eur",
          customer: charge.customerRef,
          payment_method: charge.cardRef,
          off_session: true,
          confirm: true,
          metadata: { payment_intent_id: charge.idempotencyKey },
        },
        { idempotencyKey: charge.idempotencyKey },
      );
      return {
        paymentRef: intent.id,
        status:
          intent.status === "succeeded"
            ? "succeeded"
            : intent.status === "processing"
              ? "processing"
              : "payment_failed",
      };
    } catch (err) {
      if (err instanceof Stripe.errors.StripeCardError)
        return { paymentRef: refOf(err.payment_intent) ?? null, status: "payment_failed" };
      throw toPaymentError(err);
    }
  }

  async refundPayment(refund: {
    paymentRef: string;
    amount: number;
    idempotencyKey: string;
  }): Promise<{ refundRef: string }> {
    const created = await this.call(() =>
      this.stripe.refunds.create(
        { payment_intent: refund.paymentRef, amount: refund.amount },
        { idempotencyKey: refund.idempotencyKey },
      ),
    );
    return { refundRef: created.id };
  }

  /** Every Stripe failure becomes a PaymentError; its message never includes the request. */
  private async call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (err) {
      throw toPaymentError(err);
    }
  }
}

export function toPaymentError(err: unknown): PaymentError {
  if (err instanceof PaymentError) return err;
  if (!(err instanceof Stripe.errors.StripeError))
    return new PaymentError("unavailable", "the payment processor could not be reached");
  const detail = `Stripe ${err.type}${err.code ? ` ${err.code}` : ""}${err.statusCode ? ` (HTTP ${err.statusCode})` : ""}`;
  if (err.statusCode === 404 || err.code === "resource_missing") return new PaymentError("notFound", detail);
  if (
    err instanceof Stripe.errors.StripeConnectionError ||
    err instanceof Stripe.errors.StripeRateLimitError ||
    err instanceof Stripe.errors.StripeAPIError
  ) {
    return new PaymentError("unavailable", detail);
  }
  if (err.statusCode !== undefined && err.statusCode >= 500) return new PaymentError("unavailable", detail);
  return new PaymentError("rejected", detail);
}
