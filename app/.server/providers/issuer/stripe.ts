import Stripe from "stripe";
import { parisDayOf } from "../../../domain/dates";
import {
  IssuerError,
  type AddressField,
  type CancelReason,
  type CardIssuer,
  type IssueCardResult,
  type IssuedCard,
  type NewCardInput,
  type PinEncryptionKey,
  type RevealKind,
  type RevealSession,
  type ShippingAddress,
  type ShippingStatus,
} from "./port";

/**
 * Stripe Issuing as the card issuer. Card numbers, CVCs and PINs never reach our server: the browser
 * shows them with Issuing Elements (Stripe.js), authorised by an ephemeral key made here for one card
 * and one nonce; a new PIN arrives already encrypted with the PIN key Stripe gave us.
 */
export interface StripeIssuerOptions {
  secretKey: string;
  publishableKey: string;
  /** RSA public key (SPKI PEM) for PIN encryption, and its id; without them PIN updates are unavailable. */
  pinPublicKeyPem?: string;
  pinKeyId?: string;
  /**
   * API version of the ephemeral keys: it must be the version Stripe.js uses in the browser.
   * Defaults to the SDK's own version.
   */
  apiVersion?: string;
  /** Tests: a local stand-in for api.stripe.com. */
  host?: string;
  port?: number;
  protocol?: "http" | "https";
  maxNetworkRetries?: number;
  timeoutMs?: number;
}

/** STRIPE_API_HOST: `https://api.example:443`, `http://127.0.0.1:12111` or a bare host name. */
export function parseApiHost(value: string): Pick<StripeIssuerOptions, "host" | "port" | "protocol"> {
  if (!/^https?:\/\//.test(value)) return { host: value };
  const url = new URL(value);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === "http" ? 80 : 443, protocol };
}

export class StripeIssuer implements CardIssuer {
  readonly name = "stripe";
  readonly browserReveal: { publishableKey: string };
  private readonly stripe: Stripe;
  private readonly apiVersion: string;

  constructor(private readonly options: StripeIssuerOptions) {
    this.apiVersion = options.apiVersion ?? Stripe.API_VERSION;
    this.browserReveal = { publishableKey: options.publishableKey };
    this.stripe = new Stripe(options.secretKey, {
      host: options.host,
      port: options.port,
      protocol: options.protocol,
      maxNetworkRetries: options.maxNetworkRetries ?? 1,
      timeout: options.timeoutMs ?? 4_000,
      appInfo: { name: "portail-avantages" },
    });
  }

  async freeze(issuerRef: string): Promise<void> {
    await this.call(() => this.stripe.issuing.cards.update(issuerRef, { status: "inactive" }));
  }

  async unfreeze(issuerRef: string): Promise<void> {
    await this.call(() => this.stripe.issuing.cards.update(issuerRef, { status: "active" }));
  }

  /**
   * A card already canceled answers card_canceled, like the sandbox: a cancel whose answer was lost (a timeout) did
   * happen, and Stripe refuses the retry (decision 0043).
   */
  async cancel(issuerRef: string, reason: CancelReason): Promise<void> {
    try {
      await this.call(() =>
        this.stripe.issuing.cards.update(issuerRef, { status: "canceled", cancellation_reason: reason }),
      );
    } catch (err) {
      if (!(err instanceof IssuerError) || err.code !== "rejected") throw err;
      const card = await this.stripe.issuing.cards.retrieve(issuerRef).catch(() => null);
      if (card?.status === "canceled") throw new IssuerError("card_canceled", err.message);
      throw err;
    }
  }

  async pinEncryptionKey(): Promise<PinEncryptionKey> {
    const { pinPublicKeyPem, pinKeyId } = this.options;
    if (!pinPublicKeyPem || !pinKeyId)
      throw new IssuerError("unavailable", "no Stripe PIN encryption key is configured");
    return { keyId: pinKeyId, publicKeyPem: pinPublicKeyPem };
  }

  /** The ciphertext goes to Stripe as is: only Stripe holds the private key. */
  async updatePin(issuerRef: string, encryptedPin: string): Promise<void> {
    if (!encryptedPin) throw new IssuerError("invalid_pin");
    await this.call(() => this.stripe.issuing.cards.update(issuerRef, { pin: { encrypted_number: encryptedPin } }));
  }

  /**
   * An ephemeral key for this card, bound to the nonce Stripe.js made in the browser (`stripe.createEphemeralKeyNonce`).
   * Issuing Elements shows the number, CVC and expiry, or the PIN, with it; `kind` only matters to the browser.
   */
  async createRevealSession(issuerRef: string, _kind: RevealKind, nonce: string): Promise<RevealSession> {
    if (!nonce) throw new IssuerError("rejected", "an ephemeral key nonce is required");
    const key = await this.call(() =>
      this.stripe.ephemeralKeys.create({ issuing_card: issuerRef, nonce }, { apiVersion: this.apiVersion }),
    );
    if (!key.secret) throw new IssuerError("unavailable", "Stripe returned an ephemeral key without a secret");
    return {
      kind: "elements",
      ephemeralKeySecret: key.secret,
      nonce,
      cardRef: issuerRef,
      publishableKey: this.options.publishableKey,
      expiresAt: new Date(key.expires * 1000).toISOString(),
    };
  }

  /**
   * A cardholder on first use, then the card, each with an idempotency key derived from the request:
   * a replay gets the same objects back instead of new ones. The brand comes from the Stripe card programme.
   */
  async issueCard(input: NewCardInput): Promise<IssueCardResult> {
    if (input.type === "physical" && !input.shippingAddress)
      throw new IssuerError("invalid_address", "a physical card needs a shipping address");
    if (input.type === "physical" && !input.encryptedPin)
      throw new IssuerError("invalid_pin", "a physical card needs a PIN");
    const { cardholder } = input;
    const name = `${cardholder.firstName} ${cardholder.lastName}`.trim();
    const cardholderRef =
      cardholder.ref ??
      (
        await this.call(() =>
          this.stripe.issuing.cardholders.create(
            {
              type: "individual",
              name,
              email: cardholder.email,
              ...(cardholder.phone ? { phone_number: cardholder.phone } : {}),
              individual: { first_name: cardholder.firstName, last_name: cardholder.lastName },
              billing: { address: stripeAddress(cardholder.billingAddress) },
              metadata: { user_id: cardholder.userId },
            },
            { idempotencyKey: `${input.requestKey}:cardholder` },
          ),
        )
      ).id;
    const card = await this.call(() =>
      this.stripe.issuing.cards.create(
        {
          cardholder: cardholderRef,
          currency: "eur",
          type: input.type,
          status: "active",
          ...(input.encryptedPin ? { pin: { encrypted_number: input.encryptedPin } } : {}),
          ...(input.type === "physical" && input.shippingAddress
            ? { shipping: { name, address: stripeAddress(input.shippingAddress), service: "standard" as const } }
            : {}),
          metadata: { request_key: input.requestKey },
        },
        { idempotencyKey: input.requestKey },
      ),
    );
    return { cardholderRef, issuerRef: card.id };
  }

  /** Stripe makes cards at once: the card is there as soon as it is created. */
  async issuedCard(issuerRef: string): Promise<IssuedCard> {
    const card = await this.call(() => this.stripe.issuing.cards.retrieve(issuerRef));
    return {
      issuerRef: card.id,
      lastFour: card.last4,
      brand: card.brand.toLowerCase(),
      expMonth: card.exp_month,
      expYear: card.exp_year,
      shipping: card.shipping
        ? {
            status: shippingStatus(card.shipping.status),
            eta: card.shipping.eta ? parisDayOf(new Date(card.shipping.eta * 1000)) : null,
          }
        : null,
    };
  }

  /** Every Stripe failure becomes an IssuerError; its message never includes the request (which may hold a PIN). */
  private async call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (err) {
      throw toIssuerError(err);
    }
  }
}

function stripeAddress(address: ShippingAddress) {
  return {
    line1: address.line1,
    ...(address.line2 ? { line2: address.line2 } : {}),
    city: address.city,
    postal_code: address.zipcode,
    country: address.country,
  };
}

/** Stripe's shipping statuses share our names; one Stripe adds later reads as "pending". */
const SHIPPING_STATUSES: ShippingStatus[] = [
  "submitted",
  "pending",
  "shipped",
  "delivered",
  "returned",
  "canceled",
  "failure",
];
function shippingStatus(status: string | null): ShippingStatus {
  return SHIPPING_STATUSES.find((s) => s === status) ?? "pending";
}

/** Stripe's address parameters (billing[address][postal_code], shipping[address][line1]…) → our fields. */
const ADDRESS_PARAMS: Record<string, AddressField> = {
  line1: "line1",
  line2: "line2",
  city: "city",
  postal_code: "zipcode",
  country: "country",
};

export function toIssuerError(err: unknown): IssuerError {
  if (err instanceof IssuerError) return err;
  if (!(err instanceof Stripe.errors.StripeError))
    return new IssuerError("unavailable", "the card issuer could not be reached", undefined, true);
  const detail = `Stripe ${err.type}${err.code ? ` ${err.code}` : ""}${err.statusCode ? ` (HTTP ${err.statusCode})` : ""}`;
  // No answer (the client's timeout, a dropped connection), or the same key still being worked on at Stripe (409):
  // Stripe may have done it. An answered 5xx is stored under the key and replayed: a retry needs a new key.
  if (err instanceof Stripe.errors.StripeConnectionError || err.statusCode === 409)
    return new IssuerError("unavailable", detail, undefined, true);
  const addressParam = /^(?:billing|shipping)\[address\]\[(\w+)\]$/.exec(err.param ?? "");
  if (err instanceof Stripe.errors.StripeInvalidRequestError && addressParam)
    return new IssuerError("invalid_address", detail, ADDRESS_PARAMS[addressParam[1]!]);
  if (err.statusCode === 404 || err.code === "resource_missing") return new IssuerError("card_not_found", detail);
  if (
    err instanceof Stripe.errors.StripeConnectionError ||
    err instanceof Stripe.errors.StripeRateLimitError ||
    err instanceof Stripe.errors.StripeAPIError
  ) {
    return new IssuerError("unavailable", detail);
  }
  if (err.statusCode !== undefined && err.statusCode >= 500) return new IssuerError("unavailable", detail);
  return new IssuerError("rejected", detail);
}
