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
  | { kind: "elements"; ephemeralKeySecret: string; nonce: string; cardRef: string; publishableKey: string; expiresAt: string };

export class IssuerError extends Error {
  constructor(
    readonly code: "card_not_found" | "card_canceled" | "invalid_pin" | "unavailable" | "rejected",
    message?: string,
  ) {
    super(message ?? code);
  }
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
  /** A single-use, short-lived way to show the card's number/CVC/expiry or its PIN. */
  createRevealSession(issuerRef: string, kind: RevealKind, nonce: string): Promise<RevealSession>;
}
