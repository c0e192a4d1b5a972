import { afterAll, beforeAll, expect, test } from "vitest";
import { newSoftCredential, softAuthenticator } from "../../../tests/support/soft-authenticator";
import { openTestDatabase } from "../../../tests/support/test-database";
import type { DatabaseHandle } from "../db";
import { buildUser } from "../db/factories";
import { relyingPartyOf } from "../webauthn";
import { getAccount } from "./accounts";
import { authenticationOptions, CHALLENGE_TTL_MS, finishAuthentication, savePasskey } from "./passkeys";

/**
 * What the passkey service keeps around its ceremonies (decision 0060), on SQLite and PostgreSQL: the account's
 * `hasPasskeys`, the rows that go with a removed account, the clean-up of old challenges, one live challenge a
 * binding, the user handle a sign-in's answer may carry. The ceremonies' other bad inputs are tested in
 * passkeys.test.ts.
 */
let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openTestDatabase();
});
afterAll(() => handle.close());

const rp = relyingPartyOf("https://portail.example.fr");
const DAY_MS = 24 * 60 * 60 * 1000;

async function addUser(): Promise<string> {
  const user = buildUser({ email: `${crypto.randomUUID()}@example.com`, created_at: new Date().toISOString() });
  await handle.db.insertInto("users").values(user).execute();
  return user.id;
}

async function savedPasskey(userId: string) {
  const credential = newSoftCredential();
  await savePasskey(handle.db, userId, {
    credentialId: credential.id,
    publicKey: credential.publicKey,
    counter: 0,
    transports: ["internal"],
    multiDevice: true,
    backedUp: true,
    name: "Pixel de Marie",
  });
  return credential;
}

const challengesOf = (userId: string) =>
  handle.db.selectFrom("passkey_challenges").select("id").where("user_id", "=", userId).execute();

test("the account says whether it has a passkey, and another person's do not count", async () => {
  const marie = await addUser();
  const paul = await addUser();
  expect((await getAccount(handle.db, marie))?.hasPasskeys).toBe(false);
  await savedPasskey(paul);
  expect((await getAccount(handle.db, marie))?.hasPasskeys).toBe(false);
  expect((await getAccount(handle.db, paul))?.hasPasskeys).toBe(true);
});

test("an account removed takes its passkeys and its challenges with it, and nobody else's", async () => {
  const marie = await addUser();
  const paul = await addUser();
  await savedPasskey(marie);
  await savedPasskey(paul);
  await authenticationOptions(handle.db, rp, { purpose: "confirm", userId: marie }, "marie-binding");
  await authenticationOptions(handle.db, rp, { purpose: "confirm", userId: paul }, "paul-binding");
  await handle.db.deleteFrom("users").where("id", "=", marie).execute();
  const left = await handle.db.selectFrom("passkeys").select("user_id").where("user_id", "in", [marie, paul]).execute();
  expect(left.map((row) => row.user_id)).toEqual([paul]);
  expect(await challengesOf(marie)).toHaveLength(0);
  expect(await challengesOf(paul)).toHaveLength(1);
});

test("challenges expired more than a day ago are deleted when new ones are written; younger ones stay", async () => {
  const marie = await addUser();
  await savedPasskey(marie);
  const start = new Date("2026-03-02T08:00:00.000Z");
  await authenticationOptions(handle.db, rp, { purpose: "secondFactor", userId: marie }, "old", start);
  const yesterday = new Date(start.getTime() + DAY_MS);
  await authenticationOptions(handle.db, rp, { purpose: "secondFactor", userId: marie }, "recent", yesterday);
  expect(await challengesOf(marie)).toHaveLength(2);
  // One minute after the old one's expiry plus a day: it goes, the recent one (expired 1 day ago less 1 minute) stays.
  const next = new Date(start.getTime() + CHALLENGE_TTL_MS + DAY_MS + 60_000);
  await authenticationOptions(handle.db, rp, { purpose: "signIn" }, "new", next);
  const kept = await handle.db
    .selectFrom("passkey_challenges")
    .select("created_at")
    .where((eb) => eb.or([eb("user_id", "=", marie), eb("created_at", "=", next.toISOString())]))
    .orderBy("created_at")
    .execute();
  expect(kept.map((row) => row.created_at)).toEqual([yesterday.toISOString(), next.toISOString()]);
});

test("of two options asked with one binding only the newer one's answer is taken", async () => {
  const marie = await addUser();
  const phone = softAuthenticator({ origin: rp.origin, rpId: rp.id });
  phone.credentials.push(await savedPasskey(marie));
  const ceremony = { purpose: "secondFactor", userId: marie } as const;
  await authenticationOptions(handle.db, rp, ceremony, "binding-a");
  const newer = await authenticationOptions(handle.db, rp, ceremony, "binding-a");
  expect(await finishAuthentication(handle.db, rp, ceremony, "binding-a", phone.assert(newer!))).toMatchObject({
    kind: "ok",
    userId: marie,
  });
  const older = await authenticationOptions(handle.db, rp, ceremony, "binding-b");
  await authenticationOptions(handle.db, rp, ceremony, "binding-b");
  expect(await finishAuthentication(handle.db, rp, ceremony, "binding-b", phone.assert(older!))).toEqual({
    kind: "challenge",
  });
});

test("a sign-in answer carrying another account's user handle is refused; none, or an empty one, is not", async () => {
  const marie = await addUser();
  const paul = await addUser();
  const phone = softAuthenticator({ origin: rp.origin, rpId: rp.id });
  const credential = await savedPasskey(marie);
  phone.credentials.push(credential);
  const signIn = { purpose: "signIn" } as const;
  const answerWith = async (userHandle: string | null | undefined) => {
    const options = await authenticationOptions(handle.db, rp, signIn, "handle-binding");
    const answer = phone.assert(options!);
    const response = { ...answer.response, userHandle };
    return finishAuthentication(handle.db, rp, signIn, "handle-binding", { ...answer, response });
  };
  expect(await answerWith(Buffer.from(paul).toString("base64url"))).toEqual({ kind: "invalid" });
  expect(await answerWith(Buffer.from(marie).toString("base64url"))).toMatchObject({ kind: "ok", userId: marie });
  expect(await answerWith(undefined)).toMatchObject({ kind: "ok", userId: marie });
  expect(await answerWith(null)).toMatchObject({ kind: "ok", userId: marie });
  expect(await answerWith("")).toMatchObject({ kind: "ok", userId: marie });
});
