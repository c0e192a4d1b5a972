import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";

/**
 * A software WebAuthn authenticator for service tests (issue 32): it answers a ceremony's options as a
 * phone's platform authenticator and its browser would (ES256 keys on P-256, "none" attestation,
 * discoverable credentials holding the user handle), and each knob of `Answer` makes one of the issue's
 * bad inputs: no user verification, a counter going backwards, another origin in the client data, another
 * RP id's hash, a tampered signature, another credential id, changed backup flags, another challenge.
 */

/** The values the tiny CBOR encoder below writes: enough for attestation objects and COSE keys. */
export type Cbor = number | string | Uint8Array | Map<number | string, Cbor>;

/** CBOR (RFC 8949) of a value: unsigned and negative integers, byte and text strings, maps in their given order. */
export function encodeCbor(value: Cbor): Uint8Array {
  const parts: Uint8Array[] = [];
  const head = (major: number, length: number) => {
    if (length < 24) parts.push(Uint8Array.of((major << 5) | length));
    else if (length < 0x100) parts.push(Uint8Array.of((major << 5) | 24, length));
    else if (length < 0x10000) parts.push(Uint8Array.of((major << 5) | 25, length >> 8, length & 0xff));
    else {
      const bytes = new Uint8Array(5);
      bytes[0] = (major << 5) | 26;
      new DataView(bytes.buffer).setUint32(1, length);
      parts.push(bytes);
    }
  };
  const write = (item: Cbor): void => {
    if (typeof item === "number") {
      if (!Number.isSafeInteger(item) || Math.abs(item) > 0xffffffff) throw new Error(`CBOR: unsupported ${item}`);
      if (item >= 0) head(0, item);
      else head(1, -1 - item);
    } else if (typeof item === "string") {
      const text = new TextEncoder().encode(item);
      head(3, text.length);
      parts.push(text);
    } else if (item instanceof Uint8Array) {
      head(2, item.length);
      parts.push(item);
    } else {
      head(5, item.size);
      for (const [key, entry] of item) {
        write(key);
        write(entry);
      }
    }
  };
  write(value);
  return Buffer.concat(parts);
}

const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

/** One credential the authenticator holds: its key pair, its id, the user handle it was made for, its counter. */
export interface SoftCredential {
  /** The credential id, base64url (as `savePasskey` and the responses carry it). */
  id: string;
  /** The COSE_Key of its public key (EC2, ES256, P-256), as the service stores it. */
  publicKey: Uint8Array;
  privateKey: KeyObject;
  /** The user handle (base64url) of the registration options, answered back at a discoverable sign-in. */
  userHandle: string | null;
  /** The signature counter the next assertion writes, then increments (0 counts as "no counter" in WebAuthn). */
  counter: number;
  /** Backup eligibility (the "multi-device" BE flag) and the backed-up state (BS) its answers carry. */
  backupEligible: boolean;
  backedUp: boolean;
}

/** What one answer should do differently from a right one: each knob makes one bad input of issue 32. */
export interface Answer {
  /** False: the UV flag is off (the person was present, not verified). */
  userVerified?: boolean;
  /** The signature counter written in this answer (the credential then goes on from it). */
  counter?: number;
  /** Another origin in the client data (a phishing page relaying the ceremony). */
  origin?: string;
  /** Another RP id whose hash the authenticator data carries. */
  rpId?: string;
  /** Another challenge than the options' one (one of another session, or an old one). */
  challenge?: string;
  /** Another client data type (e.g. a registration's "webauthn.create" for a sign-in). */
  type?: string;
  /** True: one byte of the signature is flipped. */
  tamperSignature?: boolean;
  /** Another credential id in the answer than the one that signed it. */
  credentialId?: string;
  /** Which credential answers (else the first the options allow, else the newest). */
  credential?: SoftCredential;
  /** Backup flags written in this answer instead of the credential's own. */
  backupEligible?: boolean;
  backedUp?: boolean;
}

/** COSE_Key (RFC 9053) of a P-256 public key: kty EC2 (2), alg ES256 (-7), crv P-256 (1), x, y. */
function coseKeyOf(privateKey: KeyObject): Uint8Array {
  const jwk = privateKey.export({ format: "jwk" });
  return encodeCbor(
    new Map<number, Cbor>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, "base64url")],
      [-3, Buffer.from(jwk.y!, "base64url")],
    ]),
  );
}

/** A new P-256 credential (outside any ceremony: a fixture's, or `register`'s). */
export function newSoftCredential(
  options: { userHandle?: string | null; backupEligible?: boolean; backedUp?: boolean } = {},
): SoftCredential {
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  return {
    id: base64url(randomBytes(16)),
    publicKey: coseKeyOf(privateKey),
    privateKey,
    userHandle: options.userHandle ?? null,
    counter: 0,
    backupEligible: options.backupEligible ?? true,
    backedUp: options.backedUp ?? options.backupEligible ?? true,
  };
}

/**
 * What `savePasskey` stores of a credential made outside a ceremony: its id, COSE key, counter and backup flags,
 * a platform authenticator's transports, under `name`.
 */
export function passkeyRecord(credential: SoftCredential, name: string) {
  return {
    credentialId: credential.id,
    publicKey: credential.publicKey,
    counter: credential.counter,
    transports: ["internal", "hybrid"],
    multiDevice: credential.backupEligible,
    backedUp: credential.backedUp,
    name,
  };
}

/** The PKCS#8 private key, base64 (not url): what CDP's `WebAuthn.addCredential` takes. */
export function privateKeyPkcs8(credential: SoftCredential): string {
  return credential.privateKey.export({ format: "der", type: "pkcs8" }).toString("base64");
}

const FLAG = { userPresent: 0x01, userVerified: 0x04, backupEligible: 0x08, backedUp: 0x10, attested: 0x40 };

/** Authenticator data: the RP id's hash, the flags, the counter (big-endian), then the attested credential when registering. */
function authenticatorData(rpId: string, credential: SoftCredential, answer: Answer, counter: number, attest: boolean) {
  const flags =
    FLAG.userPresent |
    ((answer.userVerified ?? true) ? FLAG.userVerified : 0) |
    ((answer.backupEligible ?? credential.backupEligible) ? FLAG.backupEligible : 0) |
    ((answer.backedUp ?? credential.backedUp) ? FLAG.backedUp : 0) |
    (attest ? FLAG.attested : 0);
  const head = Buffer.alloc(37);
  sha256(answer.rpId ?? rpId).copy(head, 0);
  head[32] = flags;
  head.writeUInt32BE(counter, 33);
  if (!attest) return head;
  const id = Buffer.from(credential.id, "base64url");
  const length = Buffer.alloc(2);
  length.writeUInt16BE(id.length);
  // An all-zero AAGUID: what a "none" attestation conveys about the authenticator's make.
  return Buffer.concat([head, Buffer.alloc(16), length, id, credential.publicKey]);
}

function clientData(type: string, challenge: string, origin: string, answer: Answer): Buffer {
  return Buffer.from(
    JSON.stringify({
      type: answer.type ?? type,
      challenge: answer.challenge ?? challenge,
      origin: answer.origin ?? origin,
      crossOrigin: false,
    }),
  );
}

/** What both answers' JSON say around their response: the credential id twice, as `toJSON()` writes it. */
function publicKeyCredential(id: string) {
  return {
    id,
    rawId: id,
    type: "public-key" as const,
    authenticatorAttachment: "platform" as const,
    clientExtensionResults: {},
  };
}

export interface SoftAuthenticator {
  /** Every credential made so far, oldest first. */
  readonly credentials: SoftCredential[];
  /** Makes a credential for these creation options and answers as `navigator.credentials.create()` then `toJSON()`. */
  register(options: PublicKeyCredentialCreationOptionsJSON, answer?: Answer): RegistrationResponseJSON;
  /** Signs these request options' challenge and answers as `navigator.credentials.get()` then `toJSON()`. */
  assert(options: PublicKeyCredentialRequestOptionsJSON, answer?: Answer): AuthenticationResponseJSON;
}

/** An authenticator used from the page at `origin` for the relying party `rpId`. */
export function softAuthenticator(site: {
  origin: string;
  rpId: string;
  backupEligible?: boolean;
  backedUp?: boolean;
}): SoftAuthenticator {
  const credentials: SoftCredential[] = [];

  function register(options: PublicKeyCredentialCreationOptionsJSON, answer: Answer = {}): RegistrationResponseJSON {
    const credential =
      answer.credential ??
      newSoftCredential({ userHandle: options.user.id, backupEligible: site.backupEligible, backedUp: site.backedUp });
    if (!credentials.includes(credential)) credentials.push(credential);
    const data = clientData("webauthn.create", options.challenge, site.origin, answer);
    const authData = authenticatorData(options.rp.id ?? site.rpId, credential, answer, answer.counter ?? 0, true);
    const attestation = encodeCbor(
      new Map<string, Cbor>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]),
    );
    return {
      ...publicKeyCredential(answer.credentialId ?? credential.id),
      response: {
        clientDataJSON: base64url(data),
        attestationObject: base64url(attestation),
        transports: ["internal", "hybrid"],
      },
    };
  }

  function assert(options: PublicKeyCredentialRequestOptionsJSON, answer: Answer = {}): AuthenticationResponseJSON {
    const allowed = options.allowCredentials?.map((c) => c.id) ?? [];
    const credential =
      answer.credential ??
      (allowed.length > 0 ? credentials.find((c) => allowed.includes(c.id)) : credentials.at(-1)) ??
      null;
    if (!credential) throw new Error("soft authenticator: no credential for these options");
    const counter = answer.counter ?? credential.counter + 1;
    credential.counter = counter;
    const data = clientData("webauthn.get", options.challenge, site.origin, answer);
    const authData = authenticatorData(options.rpId ?? site.rpId, credential, answer, counter, false);
    const signature = sign("sha256", Buffer.concat([authData, sha256(data)]), credential.privateKey);
    if (answer.tamperSignature) signature[signature.length - 1]! ^= 0x01;
    return {
      ...publicKeyCredential(answer.credentialId ?? credential.id),
      response: {
        clientDataJSON: base64url(data),
        authenticatorData: base64url(authData),
        signature: base64url(signature),
        ...(credential.userHandle ? { userHandle: credential.userHandle } : {}),
      },
    };
  }

  return { credentials, register, assert };
}
