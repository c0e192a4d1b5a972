import { randomBytes } from "node:crypto";
import {
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  encodeCbor,
  newSoftCredential,
  passkeyRecord,
  softAuthenticator,
  type Answer,
  type SoftAuthenticator,
} from "../../../tests/support/soft-authenticator";
import { openTestDatabase } from "../../../tests/support/test-database";
import type { DatabaseHandle } from "../db";
import { buildUser } from "../db/factories";
import { newId } from "../ids";
import type { RelyingParty } from "../webauthn";
import { verifyCode, issueCode, setCodeGenerator } from "./codes";
import {
  authenticationOptions,
  CHALLENGE_TTL_MS,
  findPasskey,
  finishAuthentication,
  finishRegistration,
  hasPasskeys,
  listPasskeys,
  PASSKEY_LIMIT,
  registrationOptions,
  removePasskey,
  renamePasskey,
  savePasskey,
  type PasskeyCeremony,
} from "./passkeys";

/**
 * The passkey service (issue 32) against a software authenticator, on SQLite and on PostgreSQL
 * (TEST_DATABASE_URL): the happy paths, and every bad input of the issue refused with its kind, nothing
 * signed in, failed assertions counted with wrong codes (decision 0014).
 */
let handle: DatabaseHandle;
const rp: RelyingParty = { id: "portail.example", name: "Portail Avantages", origin: "https://portail.example" };
const later = (from: Date, ms: number) => new Date(from.getTime() + ms);
const newBinding = () => randomBytes(16).toString("base64url");

interface User {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
}

async function addUser(): Promise<User> {
  const id = newId("usr");
  const email = `${id.toLowerCase()}@example.com`;
  await handle.db
    .insertInto("users")
    .values(
      buildUser({
        id,
        email,
        first_name: "Marie",
        last_name: "Martin",
        mfa_enabled: 1,
        created_at: new Date().toISOString(),
      }),
    )
    .execute();
  return { id, email, firstName: "Marie", lastName: "Martin" };
}

const phone = () => softAuthenticator({ origin: rp.origin, rpId: rp.id });

/** Adds a passkey through a whole registration ceremony; returns the authenticator and what it made. */
async function enrol(user: User, authenticator = phone(), name = "iPhone de Marie", now = new Date()) {
  const binding = newBinding();
  const options = await registrationOptions(handle.db, rp, user, binding, now);
  const result = await finishRegistration(handle.db, rp, user.id, binding, authenticator.register(options), name, now);
  if (result.kind !== "ok") throw new Error(`enrolment refused: ${result.kind}`);
  return { authenticator, credential: authenticator.credentials.at(-1)!, passkey: result.passkey };
}

/** One assertion ceremony: options for `ceremony`, the authenticator's answer (changed by `answer`), the service's verdict. */
async function attempt(
  authenticator: SoftAuthenticator,
  ceremony: PasskeyCeremony,
  answer: Answer = {},
  at: { now?: Date; answeredAt?: Date; answerCeremony?: PasskeyCeremony; answerBinding?: string } = {},
) {
  const binding = newBinding();
  const options = await authenticationOptions(handle.db, rp, ceremony, binding, at.now);
  if (!options) throw new Error("no options: the user has no passkey");
  return finishAuthentication(
    handle.db,
    rp,
    at.answerCeremony ?? ceremony,
    at.answerBinding ?? binding,
    authenticator.assert(options, answer),
    at.answeredAt ?? at.now,
  );
}

beforeAll(async () => {
  handle = await openTestDatabase();
});
afterAll(() => handle.close());

describe("the software authenticator answers as a browser does", () => {
  test("its CBOR is RFC 8949's (appendix A's examples)", () => {
    const hex = (value: Parameters<typeof encodeCbor>[0]) => Buffer.from(encodeCbor(value)).toString("hex");
    expect([0, 23, 24, 500, 1_000_000, -1, -7, -500].map(hex)).toEqual([
      "00",
      "17",
      "1818",
      "1901f4",
      "1a000f4240",
      "20",
      "26",
      "3901f3",
    ]);
    expect(hex("IETF")).toBe("6449455446");
    expect(hex(Uint8Array.of(1, 2, 3, 4))).toBe("4401020304");
    expect(
      hex(
        new Map<string | number, Parameters<typeof encodeCbor>[0]>([
          [1, 2],
          ["a", new Map()],
        ]),
      ),
    ).toBe("a201026161a0");
  });

  // The test tool itself, checked by the library the service uses, without the service.
  test("a registration and an assertion verify; each knob is refused", async () => {
    const authenticator = phone();
    const challenge = randomBytes(32).toString("base64url");
    const registration = authenticator.register({
      rp: { id: rp.id, name: rp.name },
      user: { id: "dXNy", name: "m@example.com", displayName: "Marie" },
      challenge,
      pubKeyCredParams: [{ type: "public-key", alg: -7 }],
    });
    const made = await verifyRegistrationResponse({
      response: registration,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
    });
    expect(made.verified).toBe(true);
    expect(made.registrationInfo?.credential.id).toBe(authenticator.credentials[0]!.id);
    expect(made.registrationInfo?.credentialDeviceType).toBe("multiDevice");
    const credential = {
      id: made.registrationInfo!.credential.id,
      publicKey: made.registrationInfo!.credential.publicKey,
      counter: 0,
    };
    const check = (answer: Answer) =>
      verifyAuthenticationResponse({
        response: authenticator.assert({ challenge, rpId: rp.id }, answer),
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        credential,
      }).then(
        (r) => r.verified,
        () => false,
      );
    expect(await check({})).toBe(true);
    for (const knob of [
      { tamperSignature: true },
      { userVerified: false },
      { origin: "https://portail-example.fr" },
      { rpId: "evil.example" },
      { challenge: "b3RoZXI" },
      { type: "webauthn.create" },
    ]) {
      expect(await check(knob), JSON.stringify(knob)).toBe(false);
    }
  });
});

describe("happy paths", () => {
  test("a registration stores the passkey; a discoverable sign-in finds its owner and updates its use", async () => {
    const user = await addUser();
    expect(await hasPasskeys(handle.db, user.id)).toBe(false);
    const binding = newBinding();
    const options = await registrationOptions(handle.db, rp, user, binding);
    expect(options.rp.id).toBe(rp.id);
    expect(options.authenticatorSelection?.residentKey).toBe("required");
    expect(options.authenticatorSelection?.userVerification).toBe("required");
    expect(options.attestation ?? "none").toBe("none");
    const authenticator = phone();
    const result = await finishRegistration(
      handle.db,
      rp,
      user.id,
      binding,
      authenticator.register(options),
      "  Pixel 8  ",
    );
    expect(result).toMatchObject({ kind: "ok", passkey: { name: "Pixel 8", lastUsedAt: null, multiDevice: true } });
    expect(await hasPasskeys(handle.db, user.id)).toBe(true);

    const now = new Date();
    const signIn = await attempt(authenticator, { purpose: "signIn" }, {}, { now });
    expect(signIn).toMatchObject({ kind: "ok", userId: user.id });
    const [stored] = await listPasskeys(handle.db, user.id);
    expect(stored?.lastUsedAt).not.toBeNull();
  });

  test("the second factor, the reveal bound to its target, and the fresh confirmation", async () => {
    const user = await addUser();
    const { authenticator, passkey } = await enrol(user);
    const secondFactor = await attempt(authenticator, { purpose: "secondFactor", userId: user.id });
    expect(secondFactor).toEqual({ kind: "ok", userId: user.id, passkeyId: passkey.id });
    const reveal = { purpose: "reveal", userId: user.id, target: "crd_1:pin" } as const;
    expect(await attempt(authenticator, reveal)).toMatchObject({ kind: "ok", userId: user.id });
    expect(await attempt(authenticator, { purpose: "confirm", userId: user.id })).toMatchObject({ kind: "ok" });
  });

  test("the options of a known user allow only their passkeys; none without a passkey", async () => {
    const user = await addUser();
    const other = await addUser();
    await enrol(other);
    const { credential } = await enrol(user);
    const options = await authenticationOptions(
      handle.db,
      rp,
      { purpose: "secondFactor", userId: user.id },
      newBinding(),
    );
    expect(options?.allowCredentials?.map((c) => c.id)).toEqual([credential.id]);
    expect(options?.userVerification).toBe("required");
    const nobody = await addUser();
    for (const ceremony of [
      { purpose: "secondFactor", userId: nobody.id },
      { purpose: "reveal", userId: nobody.id, target: "crd_1:pin" },
      { purpose: "confirm", userId: nobody.id },
    ] as const) {
      expect(await authenticationOptions(handle.db, rp, ceremony, newBinding())).toBeNull();
    }
  });

  test("listed newest first; renamed and removed by their owner only", async () => {
    const user = await addUser();
    const other = await addUser();
    const first = await enrol(user, phone(), "Ancien téléphone", new Date("2026-01-05T10:00:00Z"));
    const second = await enrol(user, phone(), "Nouveau téléphone", new Date("2026-03-05T10:00:00Z"));
    const theirs = await enrol(other);
    expect((await listPasskeys(handle.db, user.id)).map((p) => p.name)).toEqual([
      "Nouveau téléphone",
      "Ancien téléphone",
    ]);
    expect(await findPasskey(handle.db, user.id, first.passkey.id)).toMatchObject({ name: "Ancien téléphone" });

    // Another user's passkey id: not found, not renamed, not removed.
    expect(await findPasskey(handle.db, user.id, theirs.passkey.id)).toBeNull();
    expect(await renamePasskey(handle.db, user.id, theirs.passkey.id, "Volé")).toBe(false);
    expect(await removePasskey(handle.db, user.id, theirs.passkey.id)).toBe(false);
    expect(await findPasskey(handle.db, other.id, theirs.passkey.id)).toMatchObject({ name: "iPhone de Marie" });

    expect(await renamePasskey(handle.db, user.id, second.passkey.id, "Pixel de Marie")).toBe(true);
    expect(await findPasskey(handle.db, user.id, second.passkey.id)).toMatchObject({ name: "Pixel de Marie" });
    expect(await removePasskey(handle.db, user.id, first.passkey.id)).toBe(true);
    expect(await removePasskey(handle.db, user.id, first.passkey.id)).toBe(false);
    expect(await renamePasskey(handle.db, user.id, first.passkey.id, "Revenu")).toBe(false);
    expect((await listPasskeys(handle.db, user.id)).map((p) => p.id)).toEqual([second.passkey.id]);
  });

  test("a passkey saved outside a ceremony (a fixture's) signs in as one registered", async () => {
    const user = await addUser();
    const authenticator = phone();
    const credential = newSoftCredential({ userHandle: Buffer.from(user.id).toString("base64url") });
    authenticator.credentials.push(credential);
    const passkey = await savePasskey(handle.db, user.id, passkeyRecord(credential, "Fixture"));
    expect(await attempt(authenticator, { purpose: "signIn" })).toEqual({
      kind: "ok",
      userId: user.id,
      passkeyId: passkey.id,
    });
  });
});

describe("bad input: challenges", () => {
  test("a replayed assertion is refused: its challenge is spent", async () => {
    const user = await addUser();
    const { authenticator } = await enrol(user);
    const binding = newBinding();
    const ceremony = { purpose: "signIn" } as const;
    const options = await authenticationOptions(handle.db, rp, ceremony, binding);
    const answer = authenticator.assert(options!);
    expect(await finishAuthentication(handle.db, rp, ceremony, binding, answer)).toMatchObject({ kind: "ok" });
    expect(await finishAuthentication(handle.db, rp, ceremony, binding, answer)).toEqual({ kind: "challenge" });
    // Even once the same session has asked for new options: the answer names the old, spent challenge.
    await authenticationOptions(handle.db, rp, ceremony, binding);
    expect(await finishAuthentication(handle.db, rp, ceremony, binding, answer)).toEqual({ kind: "challenge" });
  });

  test("a challenge of another session (another binding) is refused", async () => {
    const user = await addUser();
    const { authenticator } = await enrol(user);
    const result = await attempt(authenticator, { purpose: "signIn" }, {}, { answerBinding: newBinding() });
    expect(result).toEqual({ kind: "challenge" });
    // A challenge the server never made, answered in a session that has one.
    const forged = await attempt(
      authenticator,
      { purpose: "signIn" },
      { challenge: randomBytes(32).toString("base64url") },
    );
    expect(forged).toEqual({ kind: "challenge" });
  });

  test("an expired challenge is refused, one just within its time is not", async () => {
    const user = await addUser();
    const { authenticator } = await enrol(user);
    const now = new Date();
    const ceremony = { purpose: "secondFactor", userId: user.id } as const;
    const late = await attempt(authenticator, ceremony, {}, { now, answeredAt: later(now, CHALLENGE_TTL_MS + 1000) });
    expect(late).toEqual({ kind: "challenge" });
    const inTime = await attempt(authenticator, ceremony, {}, { now, answeredAt: later(now, CHALLENGE_TTL_MS - 1000) });
    expect(inTime).toMatchObject({ kind: "ok" });
  });

  test("a challenge of another purpose, another user, or another card's reveal is refused", async () => {
    const user = await addUser();
    const other = await addUser();
    const { authenticator } = await enrol(user);
    await enrol(other);
    const pin = { purpose: "reveal", userId: user.id, target: "crd_1:pin" } as const;
    const cases: [PasskeyCeremony, PasskeyCeremony][] = [
      [{ purpose: "secondFactor", userId: user.id }, pin],
      [
        { purpose: "confirm", userId: user.id },
        { purpose: "secondFactor", userId: user.id },
      ],
      [{ purpose: "signIn" }, { purpose: "secondFactor", userId: user.id }],
      [pin, { purpose: "reveal", userId: user.id, target: "crd_2:pin" }],
      [pin, { purpose: "reveal", userId: user.id, target: "crd_1:details" }],
      [pin, { purpose: "confirm", userId: user.id }],
      [
        { purpose: "secondFactor", userId: user.id },
        { purpose: "secondFactor", userId: other.id },
      ],
    ];
    for (const [asked, answered] of cases) {
      const result = await attempt(authenticator, asked, {}, { answerCeremony: answered });
      expect(result, `${JSON.stringify(asked)} answered as ${JSON.stringify(answered)}`).toEqual({ kind: "challenge" });
    }
  });

  test("of 20 parallel answers to one challenge exactly one is accepted", async () => {
    const user = await addUser();
    const { authenticator } = await enrol(user);
    const binding = newBinding();
    const ceremony = { purpose: "secondFactor", userId: user.id } as const;
    const options = await authenticationOptions(handle.db, rp, ceremony, binding);
    const answers = Array.from({ length: 20 }, () => authenticator.assert(options!));
    const results = await Promise.all(answers.map((a) => finishAuthentication(handle.db, rp, ceremony, binding, a)));
    expect(results.filter((r) => r.kind === "ok")).toHaveLength(1);
    expect(results.filter((r) => r.kind !== "ok")).toEqual(Array.from({ length: 19 }, () => ({ kind: "challenge" })));
  });

  test("a registration's challenge is single-use and bound to its session too", async () => {
    const user = await addUser();
    const authenticator = phone();
    const binding = newBinding();
    const options = await registrationOptions(handle.db, rp, user, binding);
    const answer = authenticator.register(options);
    expect(await finishRegistration(handle.db, rp, user.id, newBinding(), answer, "Pixel")).toEqual({
      kind: "challenge",
    });
    expect(await finishRegistration(handle.db, rp, user.id, binding, answer, "Pixel")).toMatchObject({ kind: "ok" });
    expect(await finishRegistration(handle.db, rp, user.id, binding, answer, "Pixel")).toEqual({ kind: "challenge" });
    const now = new Date();
    const stale = await registrationOptions(handle.db, rp, user, binding, now);
    const lateAnswer = phone().register(stale);
    const late = await finishRegistration(
      handle.db,
      rp,
      user.id,
      binding,
      lateAnswer,
      "Tard",
      later(now, CHALLENGE_TTL_MS + 1000),
    );
    expect(late).toEqual({ kind: "challenge" });
    // Another user's registration options answered for this user.
    const other = await addUser();
    const theirs = await registrationOptions(handle.db, rp, other, binding);
    expect(await finishRegistration(handle.db, rp, user.id, binding, phone().register(theirs), "X")).toEqual({
      kind: "challenge",
    });
    // A registration's challenge answered as a sign-in, and a sign-in's as a registration.
    const registering = await registrationOptions(handle.db, rp, user, binding);
    const signedWith = authenticator.assert({ challenge: registering.challenge, rpId: rp.id });
    expect(await finishAuthentication(handle.db, rp, { purpose: "signIn" }, binding, signedWith)).toEqual({
      kind: "challenge",
    });
    const signingIn = await authenticationOptions(handle.db, rp, { purpose: "signIn" }, binding);
    const madeWith = phone().register({ ...options, challenge: signingIn!.challenge });
    expect(await finishRegistration(handle.db, rp, user.id, binding, madeWith, "Y")).toEqual({ kind: "challenge" });
    expect(await listPasskeys(handle.db, user.id)).toHaveLength(1);
  });
});

describe("bad input: credentials and answers", () => {
  test("another user's credential is unknown for the second factor, a reveal and a confirmation", async () => {
    const user = await addUser();
    const other = await addUser();
    const { authenticator } = await enrol(user);
    const theirs = await enrol(other);
    for (const ceremony of [
      { purpose: "secondFactor", userId: user.id },
      { purpose: "reveal", userId: user.id, target: "crd_1:pin" },
      { purpose: "confirm", userId: user.id },
    ] as const) {
      const result = await attempt(authenticator, ceremony, { credential: theirs.credential });
      expect(result, ceremony.purpose).toEqual({ kind: "unknownCredential" });
    }
    // The right passkey still works afterwards (the refused challenges were spent, not the passkey).
    expect(await attempt(authenticator, { purpose: "confirm", userId: user.id })).toMatchObject({ kind: "ok" });
  });

  test("a credential never registered, or removed, is unknown", async () => {
    const user = await addUser();
    const { authenticator, passkey } = await enrol(user);
    const stranger = phone();
    stranger.credentials.push(newSoftCredential());
    expect(await attempt(stranger, { purpose: "signIn" })).toEqual({ kind: "unknownCredential" });
    expect(await removePasskey(handle.db, user.id, passkey.id)).toBe(true);
    expect(await attempt(authenticator, { purpose: "signIn" })).toEqual({ kind: "unknownCredential" });
    expect(await hasPasskeys(handle.db, user.id)).toBe(false);
    expect(
      await authenticationOptions(handle.db, rp, { purpose: "secondFactor", userId: user.id }, newBinding()),
    ).toBeNull();
  });

  test("an answer naming another credential than the one that signed is refused", async () => {
    const user = await addUser();
    const { authenticator } = await enrol(user);
    const other = await addUser();
    const theirs = await enrol(other);
    const result = await attempt(authenticator, { purpose: "signIn" }, { credentialId: theirs.credential.id });
    expect(result.kind).toBe("invalid");
  });

  test("a forged origin, another RP id, no user verification, a tampered signature, another type: invalid", async () => {
    for (const answer of [
      { origin: "https://portail-example.fr" },
      { origin: "http://portail.example" },
      { rpId: "example" },
      { userVerified: false },
      { tamperSignature: true },
      { type: "webauthn.create" },
    ]) {
      // A user each: their two failures stay among the free guesses (the limit is tested below).
      const user = await addUser();
      const { authenticator } = await enrol(user);
      for (const ceremony of [{ purpose: "signIn" }, { purpose: "secondFactor", userId: user.id }] as const) {
        const result = await attempt(authenticator, ceremony, answer);
        expect(result, `${JSON.stringify(answer)} for ${ceremony.purpose}`).toEqual({ kind: "invalid" });
      }
    }
  });

  test("a registration from another origin, for another RP id, or without user verification is refused", async () => {
    const user = await addUser();
    for (const answer of [
      { origin: "https://portail-example.fr" },
      { rpId: "example" },
      { userVerified: false },
      { type: "webauthn.get" },
    ]) {
      const binding = newBinding();
      const options = await registrationOptions(handle.db, rp, user, binding);
      const result = await finishRegistration(handle.db, rp, user.id, binding, phone().register(options, answer), "X");
      expect(result, JSON.stringify(answer)).toEqual({ kind: "invalid" });
    }
    expect(await hasPasskeys(handle.db, user.id)).toBe(false);
  });

  test("a signature counter that goes backwards, or stays, is refused; two authenticators without counters are not", async () => {
    const user = await addUser();
    const { authenticator } = await enrol(user);
    const ceremony = { purpose: "secondFactor", userId: user.id } as const;
    expect(await attempt(authenticator, ceremony, { counter: 5 })).toMatchObject({ kind: "ok" });
    expect(await attempt(authenticator, ceremony, { counter: 3 })).toEqual({ kind: "counter" });
    expect(await attempt(authenticator, ceremony, { counter: 5 })).toEqual({ kind: "counter" });
    expect(await attempt(authenticator, ceremony, { counter: 6 })).toMatchObject({ kind: "ok" });
    // Synced passkeys often keep their counter at 0: never "backwards" while both sides are 0.
    const still = await enrol(await addUser());
    const noCounter = { purpose: "signIn" } as const;
    expect(await attempt(still.authenticator, noCounter, { counter: 0 })).toMatchObject({ kind: "ok" });
    expect(await attempt(still.authenticator, noCounter, { counter: 0 })).toMatchObject({ kind: "ok" });
  });

  test("backup eligibility must not change; the backed-up state may, and is kept", async () => {
    const user = await addUser();
    const single = softAuthenticator({ origin: rp.origin, rpId: rp.id, backupEligible: false, backedUp: false });
    const { authenticator, passkey } = await enrol(user, single);
    expect(passkey).toMatchObject({ multiDevice: false, backedUp: false });
    expect(await attempt(authenticator, { purpose: "signIn" }, { backupEligible: true, backedUp: true })).toEqual({
      kind: "backupFlags",
    });
    const synced = await enrol(user);
    expect(synced.passkey).toMatchObject({ multiDevice: true, backedUp: true });
    expect(
      await attempt(synced.authenticator, { purpose: "signIn" }, { backupEligible: false, backedUp: false }),
    ).toEqual({
      kind: "backupFlags",
    });
    expect(await attempt(synced.authenticator, { purpose: "signIn" }, { backedUp: false })).toMatchObject({
      kind: "ok",
    });
    expect(await findPasskey(handle.db, user.id, synced.passkey.id)).toMatchObject({
      multiDevice: true,
      backedUp: false,
    });
  });

  test("malformed assertions are invalid, never a crash", async () => {
    const malformed: ((right: AuthenticationResponseJSON) => unknown)[] = [
      () => null,
      () => undefined,
      () => "",
      (right) => JSON.stringify(right),
      () => 42,
      () => [],
      () => ({}),
      () => JSON.parse(`${"[".repeat(2000)}${"]".repeat(2000)}`),
      (right) => ({ ...right, id: 42, rawId: [] }),
      (right) => ({ ...right, type: "password" }),
      (right) => ({ ...right, response: null }),
      (right) => ({ ...right, response: { ...right.response, clientDataJSON: "!!!" } }),
      (right) => ({
        ...right,
        response: { ...right.response, clientDataJSON: Buffer.from("pas du JSON").toString("base64url") },
      }),
      (right) => ({ ...right, response: { ...right.response, authenticatorData: "AAAA" } }),
      (right) => ({ ...right, response: { ...right.response, signature: 7 } }),
      (right) => ({ ...right, response: { ...right.response, userHandle: ["x"] } }),
      (right) => ({ ...right, id: "x".repeat(200_000), rawId: "x".repeat(200_000) }),
    ];
    for (const make of malformed) {
      const user = await addUser();
      const { authenticator } = await enrol(user);
      for (const ceremony of [{ purpose: "signIn" }, { purpose: "secondFactor", userId: user.id }] as const) {
        const binding = newBinding();
        const options = await authenticationOptions(handle.db, rp, ceremony, binding);
        const answer = make(authenticator.assert(options!));
        const result = await finishAuthentication(handle.db, rp, ceremony, binding, answer);
        expect(result, `${ceremony.purpose}: ${String(JSON.stringify(answer)).slice(0, 120)}`).toEqual({
          kind: "invalid",
        });
      }
    }
  });

  test("malformed registrations are invalid, never a crash, and store nothing", async () => {
    const user = await addUser();
    const malformed: ((right: RegistrationResponseJSON) => unknown)[] = [
      () => null,
      () => "",
      () => 42,
      () => [],
      () => ({}),
      (right) => JSON.stringify(right),
      (right) => ({ ...right, type: "password" }),
      (right) => ({ ...right, response: { ...right.response, attestationObject: "AAAA" } }),
      (right) => ({
        ...right,
        response: {
          ...right.response,
          attestationObject: Buffer.from(encodeCbor(new Map([["fmt", "none"]]))).toString("base64url"),
        },
      }),
      (right) => ({ ...right, response: { ...right.response, clientDataJSON: "!!!" } }),
      (right) => ({ ...right, response: { ...right.response, transports: "internal" } }),
      (right) => ({ ...right, id: "x".repeat(200_000), rawId: "x".repeat(200_000) }),
    ];
    for (const make of malformed) {
      const binding = newBinding();
      const options = await registrationOptions(handle.db, rp, user, binding);
      const answer = make(phone().register(options));
      const result = await finishRegistration(handle.db, rp, user.id, binding, answer, "X");
      expect(result, String(JSON.stringify(answer)).slice(0, 120)).toEqual({ kind: "invalid" });
    }
    expect(await hasPasskeys(handle.db, user.id)).toBe(false);
  });
});

describe("bad input: registrations", () => {
  test("the same authenticator again is a duplicate; the options exclude the user's own", async () => {
    const user = await addUser();
    const { authenticator, credential } = await enrol(user);
    const binding = newBinding();
    const options = await registrationOptions(handle.db, rp, user, binding);
    expect(options.excludeCredentials?.map((c) => c.id)).toEqual([credential.id]);
    const again = authenticator.register(options, { credential });
    expect(await finishRegistration(handle.db, rp, user.id, binding, again, "Encore")).toEqual({ kind: "duplicate" });
    // Another user registering the same credential id does not take it over.
    const other = await addUser();
    const theirBinding = newBinding();
    const theirOptions = await registrationOptions(handle.db, rp, other, theirBinding);
    const taken = await finishRegistration(
      handle.db,
      rp,
      other.id,
      theirBinding,
      authenticator.register(theirOptions, { credential }),
      "Volé",
    );
    expect(taken.kind).not.toBe("ok");
    expect(await listPasskeys(handle.db, other.id)).toEqual([]);
    expect(await attempt(authenticator, { purpose: "signIn" }, { credential })).toMatchObject({
      kind: "ok",
      userId: user.id,
    });
  });

  test(`no more than PASSKEY_LIMIT passkeys`, async () => {
    const user = await addUser();
    for (let i = 0; i < PASSKEY_LIMIT; i++) {
      await savePasskey(handle.db, user.id, passkeyRecord(newSoftCredential(), `Appareil ${i + 1}`));
    }
    const binding = newBinding();
    const options = await registrationOptions(handle.db, rp, user, binding);
    expect(await finishRegistration(handle.db, rp, user.id, binding, phone().register(options), "Onzième")).toEqual({
      kind: "tooMany",
    });
    expect(await listPasskeys(handle.db, user.id)).toHaveLength(PASSKEY_LIMIT);
  });
});

describe("failed assertions count with wrong codes (decision 0014)", () => {
  // The default "code" policy: 10 free wrong guesses, then a wait of a minute that doubles.
  const FREE = 10;

  test("after the free failures even a right assertion is locked, and so is a right code; once the wait is over a right one clears", async () => {
    const user = await addUser();
    const { authenticator } = await enrol(user);
    const now = new Date();
    const ceremony = { purpose: "secondFactor", userId: user.id } as const;
    for (let i = 0; i < FREE; i++) {
      expect(await attempt(authenticator, ceremony, { tamperSignature: true }, { now })).toEqual({ kind: "invalid" });
    }
    const locked = await attempt(authenticator, ceremony, {}, { now: later(now, 1000) });
    expect(locked.kind).toBe("locked");
    expect(locked.kind === "locked" && locked.retryAt.getTime()).toBeGreaterThan(now.getTime());
    const subject = { userId: user.id, purpose: "signIn", target: user.id } as const;
    await sendCode(subject, "482913", later(now, 2000));
    expect(await verifyCode(handle.db, subject, "482913", { now: later(now, 2000) })).toMatchObject({ kind: "locked" });

    const after = later(now, 61_000);
    expect(await attempt(authenticator, ceremony, {}, { now: after })).toMatchObject({ kind: "ok" });
    // Cleared: the next failure is one among the free ones again, and a right assertion works at once.
    expect(await attempt(authenticator, ceremony, { tamperSignature: true }, { now: after })).toEqual({
      kind: "invalid",
    });
    expect(await attempt(authenticator, ceremony, {}, { now: after })).toMatchObject({ kind: "ok" });
  });

  test("wrong codes and failed discoverable sign-ins add up on the same account", async () => {
    const user = await addUser();
    const { authenticator } = await enrol(user);
    const now = new Date();
    const subject = { userId: user.id, purpose: "signIn", target: user.id } as const;
    await sendCode(subject, "482913", now);
    for (let i = 0; i < 4; i++) {
      expect(await verifyCode(handle.db, subject, "105577", { now })).toEqual({ kind: "invalid" });
    }
    for (let i = 4; i < FREE; i++) {
      const result = await attempt(authenticator, { purpose: "signIn" }, { tamperSignature: true }, { now });
      expect(result).toEqual({ kind: "invalid" });
    }
    expect(await attempt(authenticator, { purpose: "signIn" }, {}, { now })).toMatchObject({ kind: "locked" });
    // Another user's account is not touched by these.
    const other = await enrol(await addUser());
    expect(await attempt(other.authenticator, { purpose: "signIn" }, {}, { now })).toMatchObject({ kind: "ok" });
  });
});

/** Sends a sign-in code of known digits (in memory: these tests read no mail). */
async function sendCode(subject: Parameters<typeof verifyCode>[1], code: string, now: Date) {
  const restore = setCodeGenerator(() => code);
  try {
    await issueCode(
      handle.db,
      { name: "memory", send: async () => undefined },
      { subject, channel: "email", destination: "a@example.com", message: { subject: "Code", text: (c) => c } },
      { now },
    );
  } finally {
    restore();
  }
}
