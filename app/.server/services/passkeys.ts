import { randomBytes } from "node:crypto";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { z } from "zod";
import { passkeyNameSchema } from "~/domain/passkeys";
import { inTransaction, type DB } from "../db";
import type { PasskeyTable } from "../db/schema";
import { newId, nowIso } from "../ids";
import { hashSecret } from "../tokens";
import type { RelyingParty } from "../webauthn";
import type { Account } from "./accounts";
import { guess } from "./guess-limits";

/**
 * Passkeys (issue 32, decision 0060): registering them, the options of each ceremony, checking the browser's
 * answers, and the person's list. Every challenge is stored here with what it is for and a hash of the binding
 * the route keeps in the person's session; an answer first spends its challenge (one UPDATE, so of many answers
 * to one challenge at most one goes on), then is checked. Assertions count as guesses of decision 0014 for the
 * account they are for, like codes. Nothing here knows HTTP: refusals are kinds the routes word.
 */

/** What an assertion is for: who must answer, and for a reveal which card and what. */
export type PasskeyCeremony =
  | { purpose: "signIn" } // discoverable: no user known before the answer
  | { purpose: "secondFactor"; userId: string } // after the password
  | { purpose: "reveal"; userId: string; target: string } // target: "<cardId>:<details|pin>", bound to that card and that reveal
  | { purpose: "confirm"; userId: string }; // a fresh confirmation of the account (e.g. before adding another passkey)

export type PasskeyRefusal =
  | { kind: "challenge" } // no challenge for this binding, another session's, already used, expired, or another purpose/target
  | { kind: "invalid" } // malformed answer, bad signature, wrong origin or RP id, user verification missing, wrong type
  | { kind: "unknownCredential" } // never registered, removed, or another user's (same words: no enumeration)
  | { kind: "counter" } // signature counter went backwards (a cloned authenticator): refused
  | { kind: "backupFlags" } // the credential's backup eligibility changed since registration: refused
  | { kind: "locked"; retryAt: Date } // decision 0014's per-account guesses ("code" purpose, subject = user id) are spent
  | { kind: "duplicate" } // registration: this authenticator is already registered
  | { kind: "tooMany" }; // registration: the account already has PASSKEY_LIMIT passkeys

export const PASSKEY_LIMIT = 10;
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;

/** Challenges whose expiry passed this long ago (so also every one used that long ago) are deleted. */
const CHALLENGE_KEPT_MS = 24 * 60 * 60 * 1000;

export interface PasskeySummary {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  backedUp: boolean;
  multiDevice: boolean;
}

/** A credential to store: what finishRegistration verified, or a test authenticator's. */
interface NewCredential {
  credentialId: string;
  publicKey: Uint8Array;
  counter: number;
  transports: string[];
  multiDevice: boolean;
  backedUp: boolean;
  name: string;
}

type ChallengePurpose = "register" | PasskeyCeremony["purpose"];

/** What a challenge is for; an answer is taken only for the very same. */
interface ChallengeScope {
  purpose: ChallengePurpose;
  userId: string | null;
  target: string | null;
}

interface SpentChallenge extends ChallengeScope {
  challenge: string;
}

function scopeOf(ceremony: PasskeyCeremony): ChallengeScope {
  if (ceremony.purpose === "signIn") return { purpose: "signIn", userId: null, target: null };
  const target = ceremony.purpose === "reveal" ? ceremony.target : null;
  return { purpose: ceremony.purpose, userId: ceremony.userId, target };
}

function sameScope(a: ChallengeScope, b: ChallengeScope): boolean {
  return a.purpose === b.purpose && a.userId === b.userId && a.target === b.target;
}

const bytesOf = (base64url: string) => new Uint8Array(Buffer.from(base64url, "base64url"));
const base64urlOf = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");

/** The WebAuthn user handle of an account: its id's bytes (random, no personal data). */
const userHandleOf = (userId: string) => new Uint8Array(Buffer.from(userId, "utf8"));

/**
 * Stores a new challenge for this binding (32 random bytes) and returns it. The binding's earlier challenge still
 * open is spent: one live challenge a binding, so an answer always meets the one it was made for. Challenges long
 * expired are deleted on the way (they are written a few at a time, so the clean-up stays small).
 */
async function storeChallenge(
  db: DB,
  scope: ChallengeScope,
  binding: string,
  now: Date,
): Promise<Uint8Array<ArrayBuffer>> {
  if (binding.length === 0) throw new Error("A passkey ceremony needs its session's binding");
  const challenge = new Uint8Array(randomBytes(32));
  const bindingHash = hashSecret(binding);
  await inTransaction(db, async (trx) => {
    await trx
      .deleteFrom("passkey_challenges")
      .where("expires_at", "<", new Date(now.getTime() - CHALLENGE_KEPT_MS).toISOString())
      .execute();
    await trx
      .updateTable("passkey_challenges")
      .set({ used_at: nowIso(now) })
      .where("binding_hash", "=", bindingHash)
      .where("used_at", "is", null)
      .execute();
    await trx
      .insertInto("passkey_challenges")
      .values({
        id: newId("pkc"),
        challenge: base64urlOf(challenge),
        purpose: scope.purpose,
        user_id: scope.userId,
        target: scope.target,
        binding_hash: bindingHash,
        expires_at: new Date(now.getTime() + CHALLENGE_TTL_MS).toISOString(),
        used_at: null,
        created_at: nowIso(now),
      })
      .execute();
  });
  return challenge;
}

/**
 * Spends this binding's open challenge, whatever the answer turns out to be: one UPDATE that only an unused,
 * unexpired challenge matches, so of parallel answers at most one finds it. Null: none (never asked, used,
 * expired, or another session's binding).
 */
async function spendChallenge(db: DB, binding: string, now: Date): Promise<SpentChallenge | null> {
  if (typeof binding !== "string" || binding.length === 0) return null;
  const row = await db
    .updateTable("passkey_challenges")
    .set({ used_at: nowIso(now) })
    .where("binding_hash", "=", hashSecret(binding))
    .where("used_at", "is", null)
    .where("expires_at", ">", nowIso(now))
    .returning(["challenge", "purpose", "user_id", "target"])
    .executeTakeFirst();
  if (!row) return null;
  return {
    challenge: row.challenge,
    purpose: row.purpose as ChallengePurpose,
    userId: row.user_id,
    target: row.target,
  };
}

/** The challenge the answer's client data signed; null when the client data is not what a browser sends. */
function answeredChallenge(clientDataJSON: string): string | null {
  try {
    const data: unknown = JSON.parse(Buffer.from(clientDataJSON, "base64url").toString("utf8"));
    const challenge = (data as { challenge?: unknown } | null)?.challenge;
    return typeof challenge === "string" ? challenge : null;
  } catch {
    return null;
  }
}

/** base64url text of a sensible length (a credential id is at most 1023 bytes; the route caps the whole at 16 KB). */
const base64url = z
  .string()
  .min(1)
  .max(16 * 1024)
  .regex(/^[A-Za-z0-9_-]+$/);

/** A browser's `PublicKeyCredential.toJSON()`, with this ceremony's `response`; the library checks the rest. */
function credentialShape<Response extends z.ZodRawShape>(response: Response) {
  return z.looseObject({
    id: base64url.max(1400),
    rawId: base64url.max(1400),
    type: z.literal("public-key"),
    clientExtensionResults: z.looseObject({}),
    response: z.looseObject(response),
  });
}

/** The answer of `navigator.credentials.get()`. */
const assertionShape = credentialShape({
  clientDataJSON: base64url,
  authenticatorData: base64url,
  signature: base64url,
  // Absent, null or empty when the authenticator returns none (a credential that is not discoverable).
  userHandle: z
    .string()
    .max(1024)
    .regex(/^[A-Za-z0-9_-]*$/)
    .nullish(),
});

/** The answer of `navigator.credentials.create()`. */
const attestationShape = credentialShape({
  clientDataJSON: base64url,
  attestationObject: base64url,
  transports: z.array(z.string().max(32)).max(10).optional(),
});

function summaryOf(row: PasskeyTable): PasskeySummary {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    backedUp: row.backed_up === 1,
    multiDevice: row.multi_device === 1,
  };
}

/** The person's credentials as WebAuthn descriptors: excluded at registration, allowed at an assertion. */
async function descriptorsOf(db: DB, userId: string): Promise<{ id: string; transports: string[] }[]> {
  const rows = await db
    .selectFrom("passkeys")
    .select(["credential_id", "transports"])
    .where("user_id", "=", userId)
    .orderBy("created_at")
    .execute();
  return rows.map((row) => ({ id: row.credential_id, transports: transportsOf(row.transports) }));
}

function transportsOf(json: string): string[] {
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? parsed.filter((t): t is string => typeof t === "string") : [];
  } catch {
    return [];
  }
}

/**
 * The options of `navigator.credentials.create()` for adding a passkey to this account: a discoverable credential
 * (so signing in needs no e-mail), user verification required, no attestation, none of its passkeys again.
 */
export async function registrationOptions(
  db: DB,
  rp: RelyingParty,
  account: Pick<Account, "id" | "email" | "firstName" | "lastName">,
  binding: string,
  now = new Date(),
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const excluded = await descriptorsOf(db, account.id);
  const challenge = await storeChallenge(db, { purpose: "register", userId: account.id, target: null }, binding, now);
  const fullName = [account.firstName, account.lastName].filter(Boolean).join(" ").trim();
  return generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: account.email,
    userID: userHandleOf(account.id),
    userDisplayName: fullName || account.email,
    challenge,
    timeout: CHALLENGE_TTL_MS,
    attestationType: "none",
    excludeCredentials: excluded,
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });
}

/**
 * Checks the answer to this binding's registration options and stores the new passkey under `name` (already
 * validated by the route with passkeyNameSchema; a name it would refuse throws here, before the challenge is spent).
 * Once the name is right the challenge is spent, whatever the answer turns out to be.
 */
export async function finishRegistration(
  db: DB,
  rp: RelyingParty,
  userId: string,
  binding: string,
  answer: unknown,
  name: string,
  now = new Date(),
): Promise<{ kind: "ok"; passkey: PasskeySummary } | PasskeyRefusal> {
  const cleanName = passkeyNameSchema.parse(name);
  const spent = await spendChallenge(db, binding, now);
  if (!spent || !sameScope(spent, { purpose: "register", userId, target: null })) return { kind: "challenge" };
  const parsed = attestationShape.safeParse(answer);
  if (!parsed.success) return { kind: "invalid" };
  const answered = answeredChallenge(parsed.data.response.clientDataJSON);
  if (answered === null) return { kind: "invalid" };
  if (answered !== spent.challenge) return { kind: "challenge" };
  let info;
  try {
    const verification = await verifyRegistrationResponse({
      response: parsed.data as unknown as RegistrationResponseJSON,
      expectedChallenge: spent.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      expectedType: "webauthn.create",
      requireUserPresence: true,
      requireUserVerification: true,
    });
    // The answer names the credential its authenticator data holds, or it is not one authenticator's answer.
    if (!verification.verified || verification.registrationInfo.credential.id !== parsed.data.id) {
      return { kind: "invalid" };
    }
    info = verification.registrationInfo;
  } catch {
    return { kind: "invalid" };
  }
  const stored = await insertPasskey(
    db,
    userId,
    {
      credentialId: info.credential.id,
      publicKey: info.credential.publicKey,
      counter: info.credential.counter,
      transports: parsed.data.response.transports ?? [],
      multiDevice: info.credentialDeviceType === "multiDevice",
      backedUp: info.credentialBackedUp,
      name: cleanName,
    },
    now,
  );
  return "kind" in stored ? stored : { kind: "ok", passkey: stored };
}

/**
 * Stores a credential unless it is already registered (by anyone) or the account has PASSKEY_LIMIT of them. The
 * account's row is written first inside the transaction, so two registrations of one account wait for each other
 * and cannot both slip under the limit.
 */
async function insertPasskey(
  db: DB,
  userId: string,
  credential: NewCredential,
  now: Date,
): Promise<PasskeySummary | { kind: "duplicate" } | { kind: "tooMany" }> {
  return inTransaction(db, async (trx) => {
    await trx
      .updateTable("users")
      .set((eb) => ({ id: eb.ref("id") }))
      .where("id", "=", userId)
      .execute();
    const taken = await trx
      .selectFrom("passkeys")
      .select("id")
      .where("credential_id", "=", credential.credentialId)
      .executeTakeFirst();
    if (taken) return { kind: "duplicate" } as const;
    const { count } = await trx
      .selectFrom("passkeys")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();
    if (Number(count) >= PASSKEY_LIMIT) return { kind: "tooMany" } as const;
    const row: PasskeyTable = {
      id: newId("pk"),
      user_id: userId,
      credential_id: credential.credentialId,
      public_key: base64urlOf(credential.publicKey),
      counter: credential.counter,
      transports: JSON.stringify(credential.transports),
      multi_device: credential.multiDevice ? 1 : 0,
      backed_up: credential.backedUp ? 1 : 0,
      name: passkeyNameSchema.parse(credential.name),
      created_at: nowIso(now),
      last_used_at: null,
    };
    await trx.insertInto("passkeys").values(row).execute();
    return summaryOf(row);
  });
}

/** For tests and fixtures (a virtual authenticator's credential made outside a ceremony): stores a credential as finishRegistration does. */
export async function savePasskey(
  db: DB,
  userId: string,
  credential: NewCredential,
  now = new Date(),
): Promise<PasskeySummary> {
  const stored = await insertPasskey(db, userId, credential, now);
  if ("kind" in stored) throw new Error(`The passkey was not saved: ${stored.kind}`);
  return stored;
}

/**
 * The options of `navigator.credentials.get()` for this ceremony: user verification required; for a known person
 * only their passkeys are allowed (null when they have none: nothing to offer); a sign-in with a passkey alone
 * lets the phone offer its discoverable ones.
 */
export async function authenticationOptions(
  db: DB,
  rp: RelyingParty,
  ceremony: PasskeyCeremony,
  binding: string,
  now = new Date(),
): Promise<PublicKeyCredentialRequestOptionsJSON | null> {
  const allowed = ceremony.purpose === "signIn" ? [] : await descriptorsOf(db, ceremony.userId);
  if (ceremony.purpose !== "signIn" && allowed.length === 0) return null;
  const challenge = await storeChallenge(db, scopeOf(ceremony), binding, now);
  return generateAuthenticationOptions({
    rpID: rp.id,
    challenge,
    allowCredentials: allowed,
    userVerification: "required",
    timeout: CHALLENGE_TTL_MS,
  });
}

type AssertionOutcome = { kind: "ok"; passkeyId: string } | Exclude<PasskeyRefusal, { kind: "locked" }>;

/**
 * Checks the answer to this binding's options for this ceremony. The challenge is spent first; then, once the
 * person is known (the ceremony's, or for a sign-in the passkey's owner), the check is one of decision 0014's
 * guesses for their account ("code" purpose): a failed assertion counts like a wrong code, and while their
 * guesses wait even a right one is refused.
 */
export async function finishAuthentication(
  db: DB,
  rp: RelyingParty,
  ceremony: PasskeyCeremony,
  binding: string,
  answer: unknown,
  now = new Date(),
): Promise<{ kind: "ok"; userId: string; passkeyId: string } | PasskeyRefusal> {
  const spent = await spendChallenge(db, binding, now);
  if (!spent || !sameScope(spent, scopeOf(ceremony))) return { kind: "challenge" };
  const parsed = assertionShape.safeParse(answer);
  const assertion = parsed.success ? (parsed.data as unknown as AuthenticationResponseJSON) : null;
  const userId = ceremony.purpose === "signIn" ? assertion && (await ownerOf(db, assertion.id)) : ceremony.userId;
  if (!userId) return assertion ? { kind: "unknownCredential" } : { kind: "invalid" };
  const checked: { outcome: AssertionOutcome } = { outcome: { kind: "invalid" } };
  const guessed = await guess(
    db,
    "code",
    userId,
    async () => {
      if (assertion) checked.outcome = await checkAssertion(db, rp, userId, spent.challenge, assertion, now);
      return checked.outcome.kind === "ok";
    },
    { now },
  );
  if (guessed.status === "locked") return { kind: "locked", retryAt: guessed.retryAt };
  return checked.outcome.kind === "ok" ? { kind: "ok", userId, passkeyId: checked.outcome.passkeyId } : checked.outcome;
}

async function ownerOf(db: DB, credentialId: string): Promise<string | null> {
  const row = await db
    .selectFrom("passkeys")
    .select("user_id")
    .where("credential_id", "=", credentialId)
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/**
 * One assertion of `userId`'s: made for this challenge, by one of their passkeys, signed over this origin and RP
 * id with the person verified, its counter ahead of the stored one and its backup eligibility unchanged. Then
 * the passkey's counter, backed-up state and last use are written, in one UPDATE that only a counter still
 * behind matches (two answers with one counter cannot both pass).
 */
async function checkAssertion(
  db: DB,
  rp: RelyingParty,
  userId: string,
  challenge: string,
  assertion: AuthenticationResponseJSON,
  now: Date,
): Promise<AssertionOutcome> {
  const answered = answeredChallenge(assertion.response.clientDataJSON);
  if (answered === null) return { kind: "invalid" };
  if (answered !== challenge) return { kind: "challenge" };
  const passkey = await db
    .selectFrom("passkeys")
    .selectAll()
    .where("credential_id", "=", assertion.id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!passkey) return { kind: "unknownCredential" };
  const handle = assertion.response.userHandle;
  if (handle && handle !== base64urlOf(userHandleOf(userId))) return { kind: "invalid" };
  let info;
  try {
    const verification = await verifyAuthenticationResponse({
      response: assertion,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      expectedType: "webauthn.get",
      requireUserVerification: true,
      // The counter is compared below, so that a counter going backwards is told apart from a bad signature.
      credential: { id: passkey.credential_id, publicKey: bytesOf(passkey.public_key), counter: 0 },
    });
    if (!verification.verified || !verification.authenticationInfo.userVerified) return { kind: "invalid" };
    info = verification.authenticationInfo;
  } catch {
    return { kind: "invalid" };
  }
  const counter = info.newCounter;
  // WebAuthn §6.1.1: a counter of 0 on both sides means the authenticator keeps none (most synced passkeys).
  if ((counter > 0 || passkey.counter > 0) && counter <= passkey.counter) return { kind: "counter" };
  if ((info.credentialDeviceType === "multiDevice") !== (passkey.multi_device === 1)) return { kind: "backupFlags" };
  const written = await db
    .updateTable("passkeys")
    .set({ counter, backed_up: info.credentialBackedUp ? 1 : 0, last_used_at: nowIso(now) })
    .where("id", "=", passkey.id)
    .where((eb) => (counter === 0 ? eb("counter", "=", 0) : eb("counter", "<", counter)))
    .executeTakeFirst();
  if (written.numUpdatedRows === 0n) {
    return (await findPasskey(db, userId, passkey.id)) ? { kind: "counter" } : { kind: "unknownCredential" };
  }
  return { kind: "ok", passkeyId: passkey.id };
}

/** The person's passkeys, newest first. */
export async function listPasskeys(db: DB, userId: string): Promise<PasskeySummary[]> {
  const rows = await db
    .selectFrom("passkeys")
    .selectAll()
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map(summaryOf);
}

export async function hasPasskeys(db: DB, userId: string): Promise<boolean> {
  const row = await db.selectFrom("passkeys").select("id").where("user_id", "=", userId).executeTakeFirst();
  return row !== undefined;
}

/** One of the person's passkeys; null when it is not theirs or is gone. */
export async function findPasskey(db: DB, userId: string, passkeyId: string): Promise<PasskeySummary | null> {
  const row = await db
    .selectFrom("passkeys")
    .selectAll()
    .where("id", "=", passkeyId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row ? summaryOf(row) : null;
}

/** Renames one of the person's passkeys (the name validated by the route; one it would refuse throws). False: not theirs or gone. */
export async function renamePasskey(db: DB, userId: string, passkeyId: string, name: string): Promise<boolean> {
  const result = await db
    .updateTable("passkeys")
    .set({ name: passkeyNameSchema.parse(name) })
    .where("id", "=", passkeyId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Removes one of the person's passkeys: every later assertion with it is an unknown credential. False: not theirs or gone. */
export async function removePasskey(db: DB, userId: string, passkeyId: string): Promise<boolean> {
  const result = await db
    .deleteFrom("passkeys")
    .where("id", "=", passkeyId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
