import { afterAll, beforeAll, expect, test } from "vitest";
import type { DatabaseHandle } from "../db";
import { DEMO_EMAILS, DEMO_PASSWORD, PAUL_PENDING_PHONE } from "../db/seed";
import { openDemoDatabase } from "../../../tests/support/test-database";
import { listOutbox } from "../providers/messaging/sandbox";
import { hashSecret } from "../tokens";
import { authenticateWithPassword, getAccount, type Account } from "./accounts";
import { removePasskey, savePasskey } from "./passkeys";
import { confirmPendingChange } from "./profile";
import {
  changePassword,
  enableMfa,
  mfaStatus,
  mustSetUpMfa,
  passkeySignInState,
  passwordChangeRequired,
  replaceTemporaryPassword,
} from "./security";

/** Second factor and passwords on a real database seeded with the demo world. */
let handle: DatabaseHandle;
let ids: Record<keyof typeof DEMO_EMAILS, string>;
const account = async (name: keyof typeof DEMO_EMAILS): Promise<Account> => (await getAccount(handle.db, ids[name]))!;

beforeAll(async () => {
  ({ handle, ids } = await openDemoDatabase());
}, 30_000);
afterAll(() => handle.close());

async function openSession(userId: string, id: string) {
  const now = new Date();
  await handle.db
    .insertInto("sessions")
    .values({
      id_hash: hashSecret(id),
      user_id: userId,
      data: "{}",
      expires_at: new Date(now.getTime() + 86_400_000).toISOString(),
      created_at: now.toISOString(),
    })
    .execute();
}
const sessionsOf = async (userId: string) =>
  (await handle.db.selectFrom("sessions").select("id_hash").where("user_id", "=", userId).execute()).map(
    (s) => s.id_hash,
  );

test("the bypassMFA rule: paul is held, claire (bypassMFA) and marie (MFA on) are not", async () => {
  expect(mustSetUpMfa(await account("paul"))).toBe(true);
  expect(mustSetUpMfa(await account("claire"))).toBe(false);
  expect(mustSetUpMfa(await account("marie"))).toBe(false);
});

test("a passkey is a second factor (decision 0061): paul with one is not held, and is again once it is removed", async () => {
  const passkey = await savePasskey(handle.db, ids.paul, {
    credentialId: "cGF1bC1zZWN1cml0eS10ZXN0",
    publicKey: new Uint8Array([1, 2, 3]),
    counter: 0,
    transports: ["internal"],
    multiDevice: true,
    backedUp: true,
    name: "Téléphone de Paul",
  });
  const withPasskey = await account("paul");
  expect(withPasskey.hasPasskeys).toBe(true);
  expect(mustSetUpMfa(withPasskey)).toBe(false);
  expect(await removePasskey(handle.db, ids.paul, passkey.id)).toBe(true);
  expect(mustSetUpMfa(await account("paul"))).toBe(true);
});

test("a sign-in by passkey goes on for an active account only; a disabled one is said so, an unknown id is unknown", async () => {
  expect(await passkeySignInState(handle.db, ids.marie)).toBe("active");
  await handle.db.updateTable("users").set({ status: "disabled" }).where("id", "=", ids.nina).execute();
  expect(await passkeySignInState(handle.db, ids.nina)).toBe("disabled");
  await handle.db.updateTable("users").set({ status: "active" }).where("id", "=", ids.nina).execute();
  expect(await passkeySignInState(handle.db, "no-such-user")).toBe("unknown");
});

test("each channel shows where codes would go; SMS cannot be chosen without a phone", async () => {
  const lucas = await account("lucas");
  expect(mfaStatus(lucas).destinations).toEqual({ EMAIL: DEMO_EMAILS.lucas, SMS: null });
  expect(await enableMfa(handle.db, lucas, "SMS")).toEqual({ kind: "noDestination" });
  expect((await account("lucas")).mfaEnabled).toBe(false);
});

test("no second factor while an e-mail or phone change waits for its code: paul settles his first", async () => {
  for (const channel of ["SMS", "EMAIL"] as const) {
    expect(await enableMfa(handle.db, await account("paul"), channel), channel).toEqual({
      kind: "pendingChange",
      field: "phone",
    });
  }
  expect((await account("paul")).mfaEnabled).toBe(false);
  const sms = (await listOutbox(handle.db)).find((m) => m.recipient === PAUL_PENDING_PHONE);
  const code = /\b(\d{6})\b/.exec(sms?.body ?? "")?.[1] ?? "";
  expect(await confirmPendingChange(handle.db, ids.paul, "phone", code)).toEqual({ kind: "ok" });
});

test("paul sets up MFA by SMS: it is on, preferred, and he is no longer held", async () => {
  expect(await enableMfa(handle.db, await account("paul"), "SMS")).toEqual({ kind: "ok" });
  const paul = await account("paul");
  expect(paul.mfaEnabled).toBe(true);
  expect(paul.mfaPreferred).toBe("SMS");
  expect(mustSetUpMfa(paul)).toBe(false);
});

test("a password change needs the right current password, and ends every other session", async () => {
  await openSession(ids.marie, "marie-here");
  await openSession(ids.marie, "marie-phone");
  await openSession(ids.claire, "claire-elsewhere");
  expect(await changePassword(handle.db, ids.marie, "pas-le-bon", "Nouveau-Mot2passe", "marie-here")).toEqual({
    kind: "wrongCurrent",
  });
  expect(await sessionsOf(ids.marie)).toHaveLength(2);
  expect(await authenticateWithPassword(handle.db, DEMO_EMAILS.marie, DEMO_PASSWORD)).toBe(ids.marie);

  expect(await changePassword(handle.db, ids.marie, DEMO_PASSWORD, "Nouveau-Mot2passe", "marie-here")).toEqual({
    kind: "ok",
  });
  expect(await sessionsOf(ids.marie)).toEqual([hashSecret("marie-here")]);
  expect(await sessionsOf(ids.claire)).toEqual([hashSecret("claire-elsewhere")]);
  expect(await authenticateWithPassword(handle.db, DEMO_EMAILS.marie, DEMO_PASSWORD)).toBeNull();
  expect(await authenticateWithPassword(handle.db, DEMO_EMAILS.marie, "Nouveau-Mot2passe")).toBe(ids.marie);
});

test("sophie's temporary password is replaced once; then the flag is gone", async () => {
  expect(await passwordChangeRequired(handle.db, ids.sophie)).toBe(true);
  expect(await passwordChangeRequired(handle.db, ids.marie)).toBe(false);
  expect(await replaceTemporaryPassword(handle.db, ids.sophie, "Mon-Propre2mdp")).toEqual({ kind: "ok" });
  expect(await passwordChangeRequired(handle.db, ids.sophie)).toBe(false);
  expect(await authenticateWithPassword(handle.db, DEMO_EMAILS.sophie, "Mon-Propre2mdp")).toBe(ids.sophie);
  // A second use (a replayed form) changes nothing.
  expect(await replaceTemporaryPassword(handle.db, ids.sophie, "Autre-Mot2passe")).toEqual({ kind: "notRequired" });
  expect(await authenticateWithPassword(handle.db, DEMO_EMAILS.sophie, "Mon-Propre2mdp")).toBe(ids.sophie);
  // Nobody else can be forced through this path.
  expect(await replaceTemporaryPassword(handle.db, ids.claire, "Autre-Mot2passe")).toEqual({ kind: "notRequired" });
});
