import {
  constants,
  createCipheriv,
  createDecipheriv,
  createHmac,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  privateDecrypt,
  randomBytes,
  timingSafeEqual,
  type KeyObject,
} from "node:crypto";
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { luhnValid } from "../../../domain/luhn";
import { parisDayAfter } from "../../../domain/dates";
import type { DB } from "../../db";
import { newSecretToken, hashSecret } from "../../tokens";
import { newId } from "../../ids";
import {
  IssuerError,
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
 * The sandbox card issuer: works offline and stands for the outside company. It keeps its own records
 * (sandbox_issuer_* tables). Card numbers, CVCs and expiries are never stored: they are derived from
 * the card's reference with a secret key. PINs are stored only encrypted (AES-256-GCM).
 */
export const REVEAL_TTL_MS = 5 * 60 * 1000;
export const SANDBOX_PIN_KEY_ID = "sandbox-pin-key";
export const DEFAULT_SANDBOX_KEY_FILE = "data/sandbox-issuer.key";

const vaultKeys = new Map<string, Buffer>();
const pinKeyPairs = new Map<string, { publicKey: KeyObject; privateKey: KeyObject }>();

/**
 * Reads a key file, or creates it with `make`. Creation is atomic (write a temporary file, then
 * hard-link it into place, which fails if another process got there first): several servers started
 * at once on a fresh checkout (or the workers of one) must end up with the same key.
 */
function readOrCreateKeyFile(keyFile: string, make: () => string): string {
  try {
    return readFileSync(keyFile, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  mkdirSync(dirname(keyFile), { recursive: true });
  const tmp = `${keyFile}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  writeFileSync(tmp, make(), { mode: 0o600 });
  try {
    linkSync(tmp, keyFile);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  } finally {
    unlinkSync(tmp);
  }
  return readFileSync(keyFile, "utf8");
}

/** The vault key (32 bytes) derives numbers and encrypts PINs; kept in a file so restarts keep PINs readable. */
function vaultKeyFor(keyFile: string): Buffer {
  let key = vaultKeys.get(keyFile);
  if (!key) {
    key = Buffer.from(readOrCreateKeyFile(keyFile, () => randomBytes(32).toString("base64")).trim(), "base64");
    if (key.length !== 32)
      throw new Error(`${keyFile} must hold a base64 32-byte key (the sandbox issuer's vault key)`);
    vaultKeys.set(keyFile, key);
  }
  return key;
}

/**
 * The RSA pair PINs are encrypted to, next to the vault key: a PIN encrypted by one worker (or before
 * a restart) can be read by another (or after it).
 */
function pinKeysFor(keyFile: string) {
  let pair = pinKeyPairs.get(keyFile);
  if (!pair) {
    const pem = readOrCreateKeyFile(`${keyFile}.pin.pem`, () =>
      generateKeyPairSync("rsa", { modulusLength: 2048 })
        .privateKey.export({ type: "pkcs8", format: "pem" })
        .toString(),
    );
    const privateKey = createPrivateKey(pem);
    pair = { privateKey, publicKey: createPublicKey(privateKey) };
    pinKeyPairs.set(keyFile, pair);
  }
  return pair;
}

/** Test ranges: Visa 4000 00xx, Mastercard 5555 55xx. */
function binFor(brand: string): string {
  return brand.toLowerCase() === "mastercard" ? "555555" : "400000";
}

/**
 * A Luhn-valid 16-digit test number ending with the card's last four digits: 6 digits of test BIN,
 * 5 digits from an HMAC of the reference, 1 check digit, the last four. Same card, same key: same number.
 */
export function derivePan(vaultKey: Buffer, issuerRef: string, lastFour: string, brand = "visa"): string {
  const mac = createHmac("sha256", vaultKey).update(`pan:${issuerRef}`).digest();
  const middle = Array.from(mac.subarray(0, 5), (b) => String(b % 10)).join("");
  for (let fix = 0; fix < 10; fix++) {
    const pan = `${binFor(brand)}${middle}${fix}${lastFour}`;
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
  /** 4 digits; stored only encrypted. */
  pin?: string;
  frozen?: boolean;
  shipping?: { status: ShippingStatus; eta: string | null } | null;
  /** ISO instant; the expiry shown is this month, three years later. Defaults to now. */
  createdAt?: string;
}

export type ShippingStep = "submit" | "ship" | "deliver" | "return" | "fail";

const STEP_STATUS: Record<ShippingStep, ShippingStatus> = {
  submit: "submitted",
  ship: "shipped",
  deliver: "delivered",
  return: "returned",
  fail: "failure",
};

/** Days between shipping and the estimated delivery date set by the "ship" step. */
export const SANDBOX_SHIPPING_DAYS = 5;

export type RevealedSecret =
  { kind: "details"; pan: string; expiry: string; cvc: string } | { kind: "pin"; pin: string };

/** "MM/YY": the month the card was made, three years later. */
export function expiryFrom(createdAt: string): string {
  const created = new Date(createdAt);
  return `${String(created.getUTCMonth() + 1).padStart(2, "0")}/${String((created.getUTCFullYear() + 3) % 100).padStart(2, "0")}`;
}

/** Where the sandbox issuer ships physical cards: the European Economic Area, like an EU card programme. */
export const SANDBOX_SHIPPING_COUNTRIES = new Set([
  "AT",
  "BE",
  "BG",
  "CY",
  "CZ",
  "DE",
  "DK",
  "EE",
  "ES",
  "FI",
  "FR",
  "GR",
  "HR",
  "HU",
  "IE",
  "IS",
  "IT",
  "LI",
  "LT",
  "LU",
  "LV",
  "MT",
  "NL",
  "NO",
  "PL",
  "PT",
  "RO",
  "SE",
  "SI",
  "SK",
]);

/**
 * The issuer's own address checks, answered like an API's 422: the portal checks the form, the
 * issuer checks that it can deliver there.
 */
function checkShippingAddress(address: ShippingAddress): void {
  if (!SANDBOX_SHIPPING_COUNTRIES.has(address.country)) {
    throw new IssuerError("invalid_address", "cards are not shipped to this country", "country");
  }
  if (address.country === "FR" && !/^\d{5}$/.test(address.zipcode)) {
    throw new IssuerError("invalid_address", "a French postcode has 5 digits", "zipcode");
  }
}

export interface SandboxIssuerOptions {
  /** How long a new physical card takes to become visible, as a real issuer's processing would. */
  physicalCardDelayMs?: number;
}

export class SandboxIssuer implements CardIssuer {
  readonly name = "sandbox";

  constructor(
    private readonly db: DB,
    private readonly keyFile = DEFAULT_SANDBOX_KEY_FILE,
    private readonly options: SandboxIssuerOptions = {},
  ) {}

  /** Read (or created) on first use, so that building the issuer touches no file. */
  private get vaultKey(): Buffer {
    return vaultKeyFor(this.keyFile);
  }

  /** Adds a card to the issuer's records (seed, card creation). */
  async register(input: SandboxCardInput): Promise<void> {
    if (!/^\d{4}$/.test(input.lastFour)) throw new IssuerError("rejected", "lastFour must be 4 digits");
    if (input.pin !== undefined && !/^\d{4}$/.test(input.pin)) throw new IssuerError("invalid_pin");
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
        pin_ciphertext: input.pin ? encryptPinAtRest(this.vaultKey, input.pin) : null,
        shipping_status: input.shipping?.status ?? null,
        shipping_eta: input.shipping?.eta ?? null,
        created_at: input.createdAt ?? new Date().toISOString(),
      })
      .execute();
  }

  private async usableCard(issuerRef: string) {
    const card = await this.db
      .selectFrom("sandbox_issuer_cards")
      .selectAll()
      .where("issuer_ref", "=", issuerRef)
      .executeTakeFirst();
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
    await this.db
      .updateTable("sandbox_issuer_cards")
      .set({ status: "canceled", cancel_reason: reason, frozen: 0 })
      .where("issuer_ref", "=", issuerRef)
      .execute();
  }

  async pinEncryptionKey(): Promise<PinEncryptionKey> {
    return {
      keyId: SANDBOX_PIN_KEY_ID,
      publicKeyPem: pinKeysFor(this.keyFile).publicKey.export({ type: "spki", format: "pem" }).toString(),
    };
  }

  async updatePin(issuerRef: string, encryptedPin: string): Promise<void> {
    await this.usableCard(issuerRef);
    const pin = this.decryptPin(encryptedPin);
    await this.db
      .updateTable("sandbox_issuer_cards")
      .set({ pin_ciphertext: encryptPinAtRest(this.vaultKey, pin) })
      .where("issuer_ref", "=", issuerRef)
      .execute();
  }

  async createRevealSession(issuerRef: string, kind: RevealKind, _nonce: string): Promise<RevealSession> {
    const card = await this.usableCard(issuerRef);
    if (kind === "pin" && !card.pin_ciphertext) throw new IssuerError("rejected", "this card has no PIN");
    const key = newSecretToken();
    const expiresAt = new Date(Date.now() + REVEAL_TTL_MS).toISOString();
    await this.db
      .insertInto("sandbox_issuer_reveals")
      .values({ key_hash: hashSecret(key), issuer_ref: issuerRef, kind, expires_at: expiresAt, used_at: null })
      .execute();
    return { kind: "document", url: `/sandbox-issuer/reveal/${key}`, expiresAt };
  }

  /**
   * The terminal's PIN check (the sandbox terminal stands for the card's chip): the PIN typed against the one the
   * issuer keeps for the card (encrypted at rest, as the reveal reads it). `not_checked` when the card has no PIN or
   * it can no longer be read (the vault key changed); an unknown card too.
   */
  async checkPin(issuerRef: string, typed: string): Promise<"match" | "mismatch" | "not_checked"> {
    const card = await this.db
      .selectFrom("sandbox_issuer_cards")
      .select("pin_ciphertext")
      .where("issuer_ref", "=", issuerRef)
      .executeTakeFirst();
    if (!card?.pin_ciphertext) return "not_checked";
    let pin: string;
    try {
      pin = decryptPinAtRest(this.vaultKey, card.pin_ciphertext);
    } catch {
      return "not_checked";
    }
    const a = Buffer.from(pin, "utf8");
    const b = Buffer.from(typed, "utf8");
    return a.length === b.length && timingSafeEqual(a, b) ? "match" : "mismatch";
  }

  /**
   * Consumes a reveal key (single use, 5 minutes) and returns what the document shows, or null when
   * the key is unknown, used, expired, or its card was canceled meanwhile.
   * Only the sandbox's own reveal document calls this.
   */
  async consumeReveal(key: string, now = new Date()): Promise<RevealedSecret | null> {
    const keyHash = hashSecret(key);
    // One conditional update: of two simultaneous loads, only one can win.
    const used = await this.db
      .updateTable("sandbox_issuer_reveals")
      .set({ used_at: now.toISOString() })
      .where("key_hash", "=", keyHash)
      .where("used_at", "is", null)
      .where("expires_at", ">", now.toISOString())
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) return null;
    const reveal = await this.db
      .selectFrom("sandbox_issuer_reveals")
      .selectAll()
      .where("key_hash", "=", keyHash)
      .executeTakeFirstOrThrow();
    const card = await this.db
      .selectFrom("sandbox_issuer_cards")
      .selectAll()
      .where("issuer_ref", "=", reveal.issuer_ref)
      .executeTakeFirst();
    if (!card || card.status === "canceled") return null;
    if (reveal.kind === "pin") {
      if (!card.pin_ciphertext) return null;
      try {
        return { kind: "pin", pin: decryptPinAtRest(this.vaultKey, card.pin_ciphertext) };
      } catch {
        // The vault key changed (key file deleted): the stored PIN can no longer be read.
        return null;
      }
    }
    return {
      kind: "details",
      pan: derivePan(this.vaultKey, card.issuer_ref, card.last_four, card.brand),
      expiry: expiryFrom(card.created_at),
      cvc: deriveCvc(this.vaultKey, card.issuer_ref),
    };
  }

  async issueCard(input: NewCardInput, now = new Date()): Promise<IssueCardResult> {
    const cardholderRef =
      input.cardholder.ref ??
      `sich_${createHmac("sha256", this.vaultKey).update(`cardholder:${input.cardholder.userId}`).digest("base64url").slice(0, 16)}`;
    const known = await this.cardForRequest(input.requestKey);
    if (known) return { cardholderRef, issuerRef: known };

    let pin: string | undefined;
    if (input.type === "physical") {
      if (!input.shippingAddress) throw new IssuerError("invalid_address", "a physical card needs a shipping address");
      if (!input.encryptedPin) throw new IssuerError("invalid_pin", "a physical card needs a PIN");
      checkShippingAddress(input.shippingAddress);
      pin = this.decryptPin(input.encryptedPin);
    }
    const issuerRef = newId("sic");
    const delay = input.type === "physical" ? (this.options.physicalCardDelayMs ?? 0) : 0;
    try {
      await this.db
        .insertInto("sandbox_issuer_cards")
        .values({
          issuer_ref: issuerRef,
          last_four: String(randomBytes(2).readUInt16BE(0) % 10_000).padStart(4, "0"),
          brand: input.brand,
          type: input.type,
          status: "active",
          frozen: 0,
          cancel_reason: null,
          pin_ciphertext: pin ? encryptPinAtRest(this.vaultKey, pin) : null,
          shipping_status: input.type === "physical" ? "pending" : null,
          shipping_eta: null,
          created_at: now.toISOString(),
          visible_at: delay > 0 ? new Date(now.getTime() + delay).toISOString() : null,
          request_key: input.requestKey,
        })
        .execute();
    } catch (err) {
      // Two requests with one key at once: the unique key let only one card in; both get that card.
      const winner = await this.cardForRequest(input.requestKey);
      if (winner) return { cardholderRef, issuerRef: winner };
      throw err;
    }
    return { cardholderRef, issuerRef };
  }

  async issuedCard(issuerRef: string, now = new Date()): Promise<IssuedCard | null> {
    const card = await this.db
      .selectFrom("sandbox_issuer_cards")
      .selectAll()
      .where("issuer_ref", "=", issuerRef)
      .executeTakeFirst();
    if (!card) throw new IssuerError("card_not_found");
    if (card.visible_at && card.visible_at > now.toISOString()) return null;
    const [month, year] = expiryFrom(card.created_at).split("/").map(Number);
    return {
      issuerRef: card.issuer_ref,
      lastFour: card.last_four,
      brand: card.brand,
      expMonth: month!,
      expYear: 2000 + year!,
      shipping: card.shipping_status
        ? { status: card.shipping_status as ShippingStatus, eta: card.shipping_eta }
        : null,
    };
  }

  private async cardForRequest(requestKey: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom("sandbox_issuer_cards")
      .select("issuer_ref")
      .where("request_key", "=", requestKey)
      .executeTakeFirst();
    return row?.issuer_ref;
  }

  private decryptPin(encryptedPin: string): string {
    let pin: string;
    try {
      pin = privateDecrypt(
        { key: pinKeysFor(this.keyFile).privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" },
        Buffer.from(encryptedPin, "base64"),
      ).toString("utf8");
    } catch {
      throw new IssuerError("invalid_pin", "the PIN could not be decrypted");
    }
    if (!/^\d{4}$/.test(pin)) throw new IssuerError("invalid_pin");
    return pin;
  }

  /** See advanceSandboxShipping. */
  async advanceShipping(issuerRef: string, step: ShippingStep, now = new Date()): Promise<void> {
    await advanceSandboxShipping(this.db, issuerRef, step, now);
  }
}

/** True for the sandbox issuer, also across dev-server module reloads (where instanceof would fail). */
export function isSandboxIssuer(issuer: CardIssuer): issuer is SandboxIssuer {
  return issuer.name === "sandbox" && typeof (issuer as Partial<SandboxIssuer>).consumeReveal === "function";
}

/** Demos and tests: registers a card with the sandbox issuer (same vault key file as the server by default). */
export async function registerSandboxCard(
  db: DB,
  input: SandboxCardInput,
  keyFile = DEFAULT_SANDBOX_KEY_FILE,
): Promise<void> {
  await new SandboxIssuer(db, keyFile).register(input);
}

/**
 * Demo and test command: moves a physical card's delivery forward, as the issuer's carrier would,
 * and mirrors it onto the portal's card with the same reference (a real issuer would send a webhook).
 * "ship" sets the estimated date to today + 5 days (Paris calendar, YYYY-MM-DD); the other steps clear it.
 */
export async function advanceSandboxShipping(
  db: DB,
  issuerRef: string,
  step: ShippingStep,
  now = new Date(),
): Promise<void> {
  const status = STEP_STATUS[step];
  if (!status) throw new IssuerError("rejected", `unknown shipping step ${String(step)}`);
  const card = await db
    .selectFrom("sandbox_issuer_cards")
    .select("type")
    .where("issuer_ref", "=", issuerRef)
    .executeTakeFirst();
  if (!card) throw new IssuerError("card_not_found");
  if (card.type !== "physical") throw new IssuerError("rejected", "only physical cards are shipped");
  const eta = step === "ship" ? parisDayAfter(now, SANDBOX_SHIPPING_DAYS) : null;
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("sandbox_issuer_cards")
      .set({ shipping_status: status, shipping_eta: eta })
      .where("issuer_ref", "=", issuerRef)
      .execute();
    await trx
      .updateTable("cards")
      .set({ shipping_status: status, shipping_eta: eta })
      .where("issuer_ref", "=", issuerRef)
      .execute();
  });
}
