import { generateKeyPairSync, privateDecrypt, constants } from "node:crypto";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { DatabaseHandle } from "../db";
import { seedDemo } from "../db/seed";
import { openTestDatabase } from "../../../tests/support/test-database";
import { IssuerError, type CardIssuer } from "../providers/issuer/port";
import { SandboxMessenger } from "../providers/messaging/sandbox";
import { blockCard, chooseNewPin, openRevealSession, setCardFrozen } from "./card-actions";

/** A recording issuer: these tests are about the portal's rules, the adapters have their own tests. */
const keys = generateKeyPairSync("rsa", { modulusLength: 2048 });
const calls: string[] = [];
let failNext = false;
const issuer: CardIssuer = {
  name: "recording",
  async freeze(ref) {
    record(`freeze ${ref}`);
  },
  async unfreeze(ref) {
    record(`unfreeze ${ref}`);
  },
  async cancel(ref, reason) {
    record(`cancel ${ref} ${reason}`);
  },
  async pinEncryptionKey() {
    return { keyId: "k1", publicKeyPem: keys.publicKey.export({ type: "spki", format: "pem" }).toString() };
  },
  async updatePin(ref, encryptedPin) {
    const pin = privateDecrypt(
      { key: keys.privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" },
      Buffer.from(encryptedPin, "base64"),
    ).toString();
    record(`pin ${ref} ${pin}`);
  },
  async createRevealSession(ref, kind) {
    record(`reveal ${ref} ${kind}`);
    return { kind: "document", url: `/reveal/${ref}`, expiresAt: new Date().toISOString() };
  },
  async issueCard() {
    throw new IssuerError("unavailable", "not used by these tests");
  },
  async issuedCard() {
    throw new IssuerError("unavailable", "not used by these tests");
  },
};
function record(call: string) {
  if (failNext) {
    failNext = false;
    throw new IssuerError("unavailable");
  }
  calls.push(call);
}

let handle: DatabaseHandle;
let marie: string;
let paul: string;
const card = async (userId: string, lastFour: string) =>
  handle.db
    .selectFrom("cards")
    .selectAll()
    .where("user_id", "=", userId)
    .where("last_four", "=", lastFour)
    .executeTakeFirstOrThrow();

beforeAll(async () => {
  handle = await openTestDatabase();
  await seedDemo(handle.db, new SandboxMessenger(handle.db), { now: new Date(), baseUrl: "http://localhost" });
  const id = (email: string) =>
    handle.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
  marie = (await id("marie.martin@example.com")).id;
  paul = (await id("paul.durand@example.com")).id;
}, 30_000);
afterAll(() => handle.close());

test("the frozen flag changes only after the issuer confirms", async () => {
  const c = await card(marie, "4242");
  failNext = true;
  expect(await setCardFrozen(handle.db, issuer, marie, c.id, true)).toEqual({ kind: "issuerFailed" });
  expect((await card(marie, "4242")).frozen).toBe(0);
  expect(await setCardFrozen(handle.db, issuer, marie, c.id, true)).toEqual({ kind: "ok" });
  expect((await card(marie, "4242")).frozen).toBe(1);
  expect(calls).toContain(`freeze ${c.issuer_ref}`);
  expect(await setCardFrozen(handle.db, issuer, marie, c.id, true)).toEqual({ kind: "already" });
  expect(await setCardFrozen(handle.db, issuer, marie, c.id, false)).toEqual({ kind: "ok" });
  expect((await card(marie, "4242")).frozen).toBe(0);
});

test("nobody acts on another user's card", async () => {
  const c = await card(marie, "4242");
  const before = calls.length;
  expect(await setCardFrozen(handle.db, issuer, paul, c.id, true)).toEqual({ kind: "notFound" });
  expect(await blockCard(handle.db, issuer, paul, c.id, "lost")).toEqual({ kind: "notFound" });
  expect(await chooseNewPin(handle.db, issuer, paul, c.id, "1234")).toEqual({ kind: "notFound" });
  expect(await openRevealSession(handle.db, issuer, paul, c.id, "pin", "n")).toEqual({ kind: "notFound" });
  expect(calls.length).toBe(before);
});

test("a new PIN is 4 digits, only where the PIN can be updated, and reaches the issuer encrypted", async () => {
  const physical = await card(marie, "4242");
  const virtual = await card(marie, "5556");
  expect(await chooseNewPin(handle.db, issuer, marie, physical.id, "12345")).toEqual({ kind: "notAllowed" });
  expect(await chooseNewPin(handle.db, issuer, marie, virtual.id, "1234")).toEqual({ kind: "notAllowed" });
  expect(await chooseNewPin(handle.db, issuer, marie, physical.id, "4321")).toEqual({ kind: "ok" });
  expect(calls).toContain(`pin ${physical.issuer_ref} 4321`);
});

test("choosing a new PIN unlocks a PIN locked by three wrong tries", async () => {
  const physical = await card(marie, "4242");
  await handle.db
    .insertInto("card_pin_attempts")
    .values({ card_id: physical.id, wrong_count: 3, locked: 1, updated_at: new Date().toISOString() })
    .execute();
  expect(await chooseNewPin(handle.db, issuer, marie, physical.id, "2468")).toEqual({ kind: "ok" });
  const left = await handle.db.selectFrom("card_pin_attempts").selectAll().where("card_id", "=", physical.id).execute();
  expect(left).toEqual([]);
});

test("a virtual card reveals its details, a physical one its PIN, never the other way", async () => {
  const physical = await card(marie, "4242");
  const virtual = await card(marie, "5556");
  expect(await openRevealSession(handle.db, issuer, marie, physical.id, "details", "n")).toEqual({ kind: "notFound" });
  expect(await openRevealSession(handle.db, issuer, marie, physical.id, "pin", "n")).toMatchObject({
    kind: "document",
  });
  expect(await openRevealSession(handle.db, issuer, marie, virtual.id, "details", "n")).toMatchObject({
    kind: "document",
  });
});

test("blocking is permanent: no freeze, PIN or reveal afterwards", async () => {
  const c = await card(paul, "3005");
  expect(await blockCard(handle.db, issuer, paul, c.id, "stolen")).toEqual({ kind: "ok" });
  const blocked = await card(paul, "3005");
  expect(blocked.status).toBe("blocked");
  expect(blocked.block_reason).toBe("stolen");
  expect(calls).toContain(`cancel ${c.issuer_ref} stolen`);
  expect(await blockCard(handle.db, issuer, paul, c.id, "lost")).toEqual({ kind: "blocked" });
  expect(await setCardFrozen(handle.db, issuer, paul, c.id, true)).toEqual({ kind: "blocked" });
  expect(await setCardFrozen(handle.db, issuer, paul, c.id, false)).toEqual({ kind: "blocked" });
  expect(await openRevealSession(handle.db, issuer, paul, c.id, "pin", "n")).toEqual({ kind: "blocked" });
});
