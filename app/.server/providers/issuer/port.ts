/**
 * The card issuer: the outside company that makes the cards, holds their numbers and PINs, and
 * freezes or cancels them. The portal never sees a card number, CVC or PIN in clear: it only asks the
 * issuer to show them in the issuer's own isolated document (spec 000 §2 "Card reveal panel", §7).
 */
export type CancelReason = "lost" | "stolen";
export type RevealKind = "details" | "pin";
export type ShippingStatus = "submitted" | "pending" | "shipped" | "delivered" | "returned" | "canceled" | "failure";

export interface ShippingAddress {
  line1: string;
  line2: string | null;
  zipcode: string;
  city: string;
  country: string;
}

export interface IssuedCard {
  issuerRef: string;
  lastFour: string;
  brand: string;
  expMonth: number;
  expYear: number;
  shipping: { status: ShippingStatus; eta: string | null } | null;
}

export interface PinEncryptionKey {
  /** Names the key so the issuer knows which private key decrypts. */
  keyId: string;
  /** RSA public key (SPKI, PEM) used with RSA-OAEP/SHA-256 to encrypt a PIN before it leaves the portal. */
  publicKeyPem: string;
}

/** How the browser shows the secret: a document the issuer serves, or the issuer's JS elements. */
export type RevealSession =
  | { kind: "document"; url: string; expiresAt: string }
  | {
      kind: "elements";
      ephemeralKeySecret: string;
      nonce: string;
      cardRef: string;
      publishableKey: string;
      expiresAt: string;
    };

export type AddressField = "line1" | "line2" | "zipcode" | "city" | "country";

export class IssuerError extends Error {
  constructor(
    readonly code: "card_not_found" | "card_canceled" | "invalid_pin" | "invalid_address" | "unavailable" | "rejected",
    message?: string,
    /** For invalid_address: the address field the issuer refused, when it says which (spec 000 §5, the 422 mapping). */
    readonly field?: AddressField,
    /**
     * For unavailable: no answer came (a timeout, a dropped connection, a request still running at the issuer), so
     * the issuer may have done what was asked. Whatever creates something is then sent again with the same
     * idempotency key, never a new one (decision 0043). False when the issuer answered with its own failure.
     */
    readonly outcomeUnknown = false,
  ) {
    super(message ?? code);
  }
}

/** The person a card is made for; the issuer keeps them as its "cardholder". */
export interface CardholderInput {
  /** The issuer's reference, once a first card has been made for this person. */
  ref: string | null;
  /** Our user id, so the issuer can name the cardholder without our help. */
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string | null;
  billingAddress: ShippingAddress;
}

export interface NewCardInput {
  /**
   * Idempotency: the issuer makes at most one card per key, so a replayed or concurrent request
   * can never make a second card.
   */
  requestKey: string;
  cardholder: CardholderInput;
  type: "physical" | "virtual";
  brand: string;
  /** Physical cards: the chosen PIN, base64 RSA-OAEP ciphertext made with pinEncryptionKey(). */
  encryptedPin?: string;
  /** Physical cards: where to send it. */
  shippingAddress?: ShippingAddress;
}

export interface IssueCardResult {
  cardholderRef: string;
  issuerRef: string;
}

export interface CardIssuer {
  readonly name: string;
  freeze(issuerRef: string): Promise<void>;
  unfreeze(issuerRef: string): Promise<void>;
  /** Permanent. */
  cancel(issuerRef: string, reason: CancelReason): Promise<void>;
  pinEncryptionKey(): Promise<PinEncryptionKey>;
  /** `encryptedPin` is base64 RSA-OAEP ciphertext of the 4 digits, made with pinEncryptionKey(). */
  updatePin(issuerRef: string, encryptedPin: string): Promise<void>;
  /**
   * Set when the secret is drawn by the issuer's elements in the browser (Stripe Issuing Elements):
   * the browser first asks the issuer's script for a nonce for the card, and the session is made for
   * that nonce. Unset: the issuer serves a document (the sandbox), made with a nonce of our own.
   */
  readonly browserReveal?: { publishableKey: string };
  /** A single-use, short-lived way to show the card's number/CVC/expiry or its PIN. */
  createRevealSession(issuerRef: string, kind: RevealKind, nonce: string): Promise<RevealSession>;
  /**
   * Asks for a new card. It may take the issuer a moment to make it: see issuedCard. An address the
   * issuer refuses fails with IssuerError("invalid_address", …, field).
   */
  issueCard(input: NewCardInput): Promise<IssueCardResult>;
  /** The card once the issuer has made it; null while it is still being made. */
  issuedCard(issuerRef: string): Promise<IssuedCard | null>;
}
