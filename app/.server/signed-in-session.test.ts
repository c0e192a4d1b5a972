import { afterAll, beforeAll, expect, test } from "vitest";
import type { DatabaseHandle } from "./db";
import { openTestDatabase } from "../../tests/support/test-database";
import { parseEnv } from "./env";
import { newId } from "./ids";
import { createDatabaseSessionStorage, sessionCookie, signedInSessionKey, type PortalSessionStorage } from "./session";
import { buildUser } from "./db/factories";
import { withForgedSignature } from "../../tests/support/forged-cookie";

/** What the rate limits see of a request's session (decision 0014): signed-in sessions only, correctly signed. */
let handle: DatabaseHandle;
let storage: PortalSessionStorage;
let userId: string;
const env = parseEnv({ SESSION_SECRET: "s".repeat(40) });

beforeAll(async () => {
  handle = await openTestDatabase();
  storage = createDatabaseSessionStorage(handle.db, env);
  userId = newId("usr");
  await handle.db
    .insertInto("users")
    .values(
      buildUser({
        id: userId,
        email: `${userId.toLowerCase()}@example.com`,
        features: "{}",
        created_at: new Date().toISOString(),
      }),
    )
    .execute();
});
afterAll(() => handle.close());

/** The Cookie header a browser would send back after this session was committed. */
async function cookieFor(
  fill: (session: Awaited<ReturnType<PortalSessionStorage["getSession"]>>) => void,
  store = storage,
) {
  const session = await store.getSession();
  fill(session);
  return (await store.commitSession(session)).split(";")[0]!;
}

test("a signed-in session is known by the hash of its id, whatever else the header holds", async () => {
  const cookie = await cookieFor((s) => s.set("userId", userId));
  const key = await signedInSessionKey(handle.db, sessionCookie(env), `theme=dark; ${cookie}; other=%E0%A4%A`);
  const row = await handle.db
    .selectFrom("sessions")
    .select("id_hash")
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  expect(key).toBe(row.id_hash);
  expect(key).not.toContain(cookie.split("=")[1]);
});

test("anonymous, waiting, forged, foreign-signed and expired sessions are not signed in", async () => {
  const cookie = sessionCookie(env);
  const flashOnly = await cookieFor((s) => s.flash("flash", { kind: "success", message: "auth.signedOut" }));
  const waiting = await cookieFor((s) =>
    s.set("pendingLogin", { userId, redirectTo: "/cards", expiresAt: new Date(Date.now() + 60_000).toISOString() }),
  );
  const signedIn = await cookieFor((s) => s.set("userId", userId));
  const tampered = withForgedSignature(signedIn);
  const otherSecret = createDatabaseSessionStorage(handle.db, parseEnv({ SESSION_SECRET: "o".repeat(40) }));
  const foreign = await cookieFor((s) => s.set("userId", userId), otherSecret);
  const unsignedId = `session=${Buffer.from(JSON.stringify("made-up-id")).toString("base64")}`;
  for (const header of [
    undefined,
    "",
    "theme=dark",
    flashOnly,
    waiting,
    tampered,
    foreign,
    unsignedId,
    `session=`,
    `session=%%%`,
  ]) {
    expect(await signedInSessionKey(handle.db, cookie, header), String(header)).toBeNull();
  }
  const expired = await cookieFor((s) => s.set("userId", userId));
  await handle.db
    .updateTable("sessions")
    .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
    .where("id_hash", "=", (await signedInSessionKey(handle.db, cookie, expired))!)
    .execute();
  expect(await signedInSessionKey(handle.db, cookie, expired)).toBeNull();
});

test("a cookie signed with an older secret still in SESSION_SECRET's list is accepted", async () => {
  const old = createDatabaseSessionStorage(handle.db, parseEnv({ SESSION_SECRET: "o".repeat(40) }));
  const cookie = await cookieFor((s) => s.set("userId", userId), old);
  const rotated = parseEnv({ SESSION_SECRET: `${"n".repeat(40)},${"o".repeat(40)}` });
  expect(await signedInSessionKey(handle.db, sessionCookie(rotated), cookie)).toMatch(/^[\w-]{43}$/);
});

test("a remembered signature never vouches for another header, and the cookie still signs and expires", async () => {
  const cookie = sessionCookie(env);
  const signedIn = await cookieFor((s) => s.set("userId", userId));
  const first = await signedInSessionKey(handle.db, cookie, signedIn);
  expect(first).toMatch(/^[\w-]{43}$/);
  // Checked again from memory: the same answer.
  expect(await signedInSessionKey(handle.db, cookie, signedIn)).toBe(first);
  // The signature changed, or the same value with a made-up signature: checked, and refused.
  for (const forged of [withForgedSignature(signedIn), `${signedIn}x`])
    expect(await signedInSessionKey(handle.db, cookie, forged), forged).toBeNull();
  expect(cookie.name).toBe("session");
  expect(cookie.isSigned).toBe(true);
  expect(cookie.expires!.getTime()).toBeGreaterThan(Date.now());
  expect(await cookie.parse(await cookie.serialize("an-id"))).toBe("an-id");
});
