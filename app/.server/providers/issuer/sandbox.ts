import { constants, createCipheriv, createDecipheriv, createHash, createHmac, generateKeyPairSync, privateDecrypt, randomBytes, type KeyObject } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { DB } from "../../db";
import { newSecretToken, hashSecret } from "../../tokens";
import { IssuerError, type CancelReason, type CardIssuer, type PinEncryptionKey, type RevealKind, type RevealSession, type ShippingStatus } from "./port";

/**
 * The sandbox card issuer: works offline and stands for the outside company. It keeps its own records
 * (sandbox_issuer_* tables). Card numbers, CVCs and expiries are never stored: they are derived from
 * the card's reference with a secret key. PINs are stored only encrypted (AES-256-GCM).
 */
export const REVEAL_TTL_MS = 5 * 60 * 1000;

interface SandboxSecrets {
  /** 32 bytes: derives numbers and encrypts PINs. Kept in a file so restarts keep the PINs readable. */
  vaultKey: Buffer;
  pinKeys: { publicKey: KeyObject; privateKey: KeyObject };
}

let secrets: SandboxSecrets | undefined;

function loadSecrets(keyFile: string): SandboxSecrets {
  if (secrets) return secrets;
  let vaultKey: Buffer;
  if (existsSync(keyFile)) {
    vaultKey = Buffer.from(readFileSync(keyFile, "utf8").trim(), "base64");
  } else {
    vaultKey = randomBytes(32);
    mkdirSync(dirname(keyFile), { recursive: true });
    writeFileSync(keyFile, vaultKey.toString("base64"), { mode: 0o600 });
  }
  // The PIN key pair only has to live as long as the process: the portal asks for the public key each time.
  secrets = { vaultKey, pinKeys: generateKeyPairSync("rsa", { modulusLength: 2048 }) };
  return secrets;
}

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** A Luhn-valid 16-digit test number (BIN 400000) ending with the card's last four digits. */
export function derivePan(vaultKey: Buffer, issuerRef: string, lastFour: string): string {
  const mac = createHmac("sha256", vaultKey).update(`pan:${issuerRef}`).digest();
  const middle = Array.from(mac.subarray(0, 5), (b) => String(b % 10)).join("");
  for (let fix = 0; fix < 10; fix++) {
    const pan = `400000${middle}${fix}${lastFour}`;
    if (luhnValid(pan)) return pan;
  }
  throw new Error("unreachable: one digit always completes a Luhn checksum");
}

export function deriveCvc(vaultKey: Buffer, issuerRef: string): string {
  const mac = createHmac("sha256", vaultKey).update(`cvc:${issuerRef}`).digest();
  return String(mac.readUInt16BE(0) % 1000).padStart(3, "0");
}

function encryptPinAtRest(vaultKey: Buffer, pin: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", vaultKey, iv);
  const body = Buffer.concat([cipher.update(pin, "utf8"), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString("base64")).join(".");
}

function decryptPinAtRest(vaultKey: Buffer, stored: string): string {
  const [iv, tag, body] = stored.split(".").map((p) => Buffer.from(p, "base64"));
  const decipher = createDecipheriv("aes-256-gcm", vaultKey, iv!);
  decipher.setAuthTag(tag!);
  return Buffer.concat([decipher.update(body!), decipher.final()]).toString("utf8");
}

export interface SandboxCardInput {
  issuerRef: string;
  lastFour: string;
  brand: string;
  type: "physical" | "virtual";
  pin?: string;
  frozen?: boolean;
  shipping?: { status: ShippingStatus; eta: string | null } | null;
  createdAt?: string;
}

export class SandboxIssuer implements CardIssuer {
  readonly name = "sandbox";
  private readonly secrets: SandboxSecrets;

  constructor(
    private readonly db: DB,
    keyFile = "data/sandbox-issuer.key",
  ) {
    this.secrets = loadSecrets(keyFile);
  }

  /** Adds a card to the issuer's records (seed, card creation). */
  async register(input: SandboxCardInput): Promise<void> {
    await this.db
      .insertInto("sandbox_issuer_cards")
      .values({
        issuer_ref: input.issuerRef,
        last_four: input.lastFour,
        brand: input.brand,
        type: input.type,
        status: "active",
        frozen: input.frozen ? 1 : 0,
        cancel_reason: null,
        pin_ciphertext: input.pin ? encryptPinAtRest(this.secrets.vaultKey, input.pin) : null,
        shipping_status: input.shipping?.status ?? null,
        shipping_eta: input.shipping?.eta ?? null,
        created_at: input.createdAt ?? new Date().toISOString(),
      })
      .execute();
  }

  private async usableCard(issuerRef: string) {
    const card = await this.db.selectFrom("sandbox_issuer_cards").selectAll().where("issuer_ref", "=", issuerRef).executeTakeFirst();
    if (!card) throw new IssuerError("card_not_found");
    if (card.status === "canceled") throw new IssuerError("card_canceled");
    return card;
  }

  async freeze(issuerRef: string): Promise<void> {
    await this.usableCard(issuerRef);
    await this.db.updateTable("sandbox_issuer_cards").set({ frozen: 1 }).where("issuer_ref", "=", issuerRef).execute();
  }

  async unfreeze(issuerRef: string): Promise<void> {
    await this.usableCard(issuerRef);
    await this.db.updateTable("sandbox_issuer_cards").set({ frozen: 0 }).where("issuer_ref", "=", issuerRef).execute();
  }

  async cancel(issuerRef: string, reason: CancelReason): Promise<void> {
    await this.usableCard(issuerRef);
    await this.db.updateTable("sandbox_issuer_cards").set({ status: "canceled", cancel_reason: reason, frozen: 0 }).where("issuer_ref", "=", issuerRef).execute();
  }

  async pinEncryptionKey(): Promise<PinEncryptionKey> {
    return { keyId: "sandbox-pin-key", publicKeyPem: this.secrets.pinKeys.publicKey.export({ type: "spki", format: "pem" }).toString() };
  }

  async updatePin(issuerRef: string, encryptedPin: string): Promise<void> {
    await this.usableCard(issuerRef);
    let pin: string;
    try {
      pin = privateDecrypt({ key: this.secrets.pinKeys.privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" }, Buffer.from(encryptedPin, "base64")).toString("utf8");
    } catch {
      throw new IssuerError("invalid_pin", "the PIN could not be decrypted");
    }
    if (!/^\d{4}$/.test(pin)) throw new IssuerError("invalid_pin");
    await this.db.updateTable("sandbox_issuer_cards").set({ pin_ciphertext: encryptPinAtRest(this.secrets.vaultKey, pin) }).where("issuer_ref", "=", issuerRef).execute();
  }

  async createRevealSession(issuerRef: string, kind: RevealKind, _nonce: string): Promise<RevealSession> {
    await this.usableCard(issuerRef);
    const key = newSecretToken();
    const expiresAt = new Date(Date.now() + REVEAL_TTL_MS).toISOString();
    await this.db.insertInto("sandbox_issuer_reveals").values({ key_hash: hashSecret(key), issuer_ref: issuerRef, kind, expires_at: expiresAt, used_at: null }).execute();
    return { kind: "document", url: `/sandbox-issuer/reveal/${key}`, expiresAt };
  }

  /**
   * Consumes a reveal key (single use, 5 minutes) and returns what the document shows, or null.
   * Only the sandbox's own reveal document calls this.
   */
  async consumeReveal(key: string, now = new Date()): Promise<{ kind: "details"; pan: string; expiry: string; cvc: string } | { kind: "pin"; pin: string } | null> {
    const keyHash = hashSecret(key);
    const used = await this.db
      .updateTable("sandbox_issuer_reveals")
      .set({ used_at: now.toISOString() })
      .where("key_hash", "=", keyHash)
      .where("used_at", "is", null)
      .where("expires_at", ">", now.toISOString())
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) return null;
    const reveal = await this.db.selectFrom("sandbox_issuer_reveals").selectAll().where("key_hash", "=", keyHash).executeTakeFirstOrThrow();
    const card = await this.db.selectFrom("sandbox_issuer_cards").selectAll().where("issuer_ref", "=", reveal.issuer_ref).executeTakeFirst();
    if (!card || card.status === "canceled") return null;
    if (reveal.kind === "pin") {
      return card.pin_ciphertext ? { kind: "pin", pin: decryptPinAtRest(this.secrets.vaultKey, card.pin_ciphertext) } : null;
    }
    const created = new Date(card.created_at);
    const expiry = `${String(created.getUTCMonth() + 1).padStart(2, "0")}/${String((created.getUTCFullYear() + 3) % 100).padStart(2, "0")}`;
    return { kind: "details", pan: derivePan(this.secrets.vaultKey, card.issuer_ref, card.last_four), expiry, cvc: deriveCvc(this.secrets.vaultKey, card.issuer_ref) };
  }

  /**
   * Demo and test command: moves a physical card's delivery forward, as the issuer's carrier would,
   * and mirrors it onto the portal's card (a real issuer would send a webhook).
   */
  async advanceShipping(issuerRef: string, step: "submit" | "ship" | "deliver" | "return" | "fail", now = new Date()): Promise<void> {
    const status: ShippingStatus = { submit: "submitted", ship: "shipped", deliver: "delivered", return: "returned", fail: "failure" }[step] as ShippingStatus;
    const eta = step === "ship" ? new Date(now.getTime() + 5 * 86_400_000).toISOString().slice(0, 10) : null;
    await this.db.updateTable("sandbox_issuer_cards").set({ shipping_status: status, shipping_eta: eta }).where("issuer_ref", "=", issuerRef).execute();
    await this.db.updateTable("cards").set({ shipping_status: status, shipping_eta: eta }).where("issuer_ref", "=", issuerRef).execute();
  }
}

/** For tests: a digest of a PAN, to look for it in stored rows without keeping it around. */
export function panFingerprint(pan: string): string {
  return createHash("sha256").update(pan).digest("hex");
}
