import { afterAll, beforeAll, expect, test, onTestFinished } from "vitest";
import type { DatabaseHandle } from "../db";
import { DEMO_EMAILS, PAUL_PENDING_PHONE } from "../db/seed";
import { openDemoDatabase } from "../../../tests/support/test-database";
import { listOutbox, type SandboxMessenger } from "../providers/messaging/sandbox";
import { CODE_TTL_MS, codeSequence, RESEND_WAIT_MS, setCodeGenerator } from "./codes";
import {
  cancelPendingChange,
  confirmEmailByLink,
  confirmPendingChange,
  getProfileSettings,
  resendPendingChangeCode,
  updateProfile,
  type PendingChangeMessages,
} from "./profile";

/** Profile changes and their codes on a real database; codes read from the sandbox outbox. */
let handle: DatabaseHandle;
let messenger: SandboxMessenger;
const messages: PendingChangeMessages = {
  email: (newEmail) => ({
    subject: "Confirmez votre adresse",
    text: (code) => `Code ${code} lien /user-confirmation?email=${encodeURIComponent(newEmail)}&code=${code}`,
  }),
  phone: () => ({ subject: "Confirmez votre numéro", text: (code) => `Code ${code}` }),
};
let ids: Record<keyof typeof DEMO_EMAILS, string>;

beforeAll(async () => {
  ({ handle, messenger, ids } = await openDemoDatabase());
}, 30_000);
afterAll(() => handle.close());

async function lastCodeTo(recipient: string): Promise<string> {
  const message = (await listOutbox(handle.db)).find((m) => m.recipient === recipient);
  const code = message && /\b(\d{6})\b/.exec(message.body)?.[1];
  if (!code) throw new Error(`no code sent to ${recipient}`);
  return code;
}
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

test("paul's seeded phone change is confirmed by the code sent to the new number, once", async () => {
  const before = await getProfileSettings(handle.db, ids.paul);
  expect(before?.pending.phone).toBe(PAUL_PENDING_PHONE);
  const code = await lastCodeTo(PAUL_PENDING_PHONE);

  expect(await confirmPendingChange(handle.db, ids.paul, "phone", wrong(code))).toEqual({ kind: "invalid" });
  expect(await confirmPendingChange(handle.db, ids.paul, "phone", code)).toEqual({ kind: "ok" });
  const after = await getProfileSettings(handle.db, ids.paul);
  expect(after?.phone).toBe(PAUL_PENDING_PHONE);
  expect(after?.pending).toEqual({});
  // Reused: nothing is pending any more.
  expect(await confirmPendingChange(handle.db, ids.paul, "phone", code)).toEqual({ kind: "none" });
});

test("a save that changes nothing is refused and writes nothing", async () => {
  const marie = (await getProfileSettings(handle.db, ids.marie))!;
  const outboxBefore = (await listOutbox(handle.db)).length;
  expect(
    await updateProfile(
      handle.db,
      messenger,
      ids.marie,
      { email: ` ${marie.email.toUpperCase()} `, phone: marie.phone!, acceptTerms: true },
      messages,
    ),
  ).toEqual({ kind: "unchanged" });
  expect((await listOutbox(handle.db)).length).toBe(outboxBefore);
  expect((await getProfileSettings(handle.db, ids.marie))?.pending).toEqual({});
});

test("an e-mail used by someone else is refused, and nothing is pending", async () => {
  const result = await updateProfile(
    handle.db,
    messenger,
    ids.marie,
    { email: DEMO_EMAILS.claire, acceptTerms: false },
    messages,
  );
  expect(result).toEqual({ kind: "emailTaken" });
  expect((await getProfileSettings(handle.db, ids.marie))?.pending).toEqual({});
});

test("a new e-mail waits for the code sent to the new address; the old one still signs in until then", async () => {
  const result = await updateProfile(
    handle.db,
    messenger,
    ids.claire,
    { email: "Claire.Nouvelle@example.com", acceptTerms: false },
    messages,
  );
  expect(result).toEqual({ kind: "saved", pendingFields: ["email"], delayed: false, refused: false });
  const profile = (await getProfileSettings(handle.db, ids.claire))!;
  expect(profile.email).toBe(DEMO_EMAILS.claire);
  expect(profile.pending.email).toBe("claire.nouvelle@example.com");
  // Nothing went to the old address: the code proves the new one.
  expect((await listOutbox(handle.db))[0]?.recipient).toBe("claire.nouvelle@example.com");

  // While pending, the e-mail in the form is left alone (a second change is not made).
  expect(
    await updateProfile(handle.db, messenger, ids.claire, { email: "autre@example.com", acceptTerms: false }, messages),
  ).toEqual({ kind: "unchanged" });

  const code = await lastCodeTo("claire.nouvelle@example.com");
  // The link's address must be the pending one; another address or code reads the same.
  expect(await confirmEmailByLink(handle.db, "personne@example.com", code)).toEqual({ kind: "invalid" });
  expect(await confirmEmailByLink(handle.db, "claire.nouvelle@example.com", wrong(code))).toEqual({ kind: "invalid" });
  expect(await confirmEmailByLink(handle.db, "claire.nouvelle@example.com", code)).toEqual({ kind: "ok" });
  expect((await getProfileSettings(handle.db, ids.claire))?.email).toBe("claire.nouvelle@example.com");
  expect(await confirmEmailByLink(handle.db, "claire.nouvelle@example.com", code)).toEqual({ kind: "invalid" });
});

test("a cancelled change is gone and its code confirms nothing", async () => {
  // Two codes known to differ: the earlier one must not confirm the new request.
  onTestFinished(setCodeGenerator(codeSequence("111111", "222222")));
  await updateProfile(handle.db, messenger, ids.marie, { phone: "+33611111111", acceptTerms: false }, messages);
  const code = await lastCodeTo("+33611111111");
  expect(await cancelPendingChange(handle.db, ids.marie, "phone")).toBe(true);
  expect(await confirmPendingChange(handle.db, ids.marie, "phone", code)).toEqual({ kind: "none" });
  // Asked again: the earlier code, though never used, does not confirm the new request.
  await updateProfile(
    handle.db,
    messenger,
    ids.marie,
    { phone: "+33611111111", acceptTerms: false },
    messages,
    new Date(Date.now() + RESEND_WAIT_MS),
  );
  const fresh = await lastCodeTo("+33611111111");
  expect([code, fresh]).toEqual(["111111", "222222"]);
  expect(await confirmPendingChange(handle.db, ids.marie, "phone", code)).toEqual({ kind: "invalid" });
  expect(await confirmPendingChange(handle.db, ids.marie, "phone", fresh)).toEqual({ kind: "ok" });
  expect((await getProfileSettings(handle.db, ids.marie))?.phone).toBe("+33611111111");
});

test("codes expire after an hour; a new one comes only 60 s after the last; attempts are limited", async () => {
  const start = new Date();
  await updateProfile(
    handle.db,
    messenger,
    ids.marie,
    { email: "marie.perso@example.com", acceptTerms: false },
    messages,
    start,
  );
  const code = await lastCodeTo("marie.perso@example.com");

  const tooSoon = await resendPendingChangeCode(
    handle.db,
    messenger,
    ids.marie,
    "email",
    messages,
    new Date(start.getTime() + 30_000),
  );
  expect(tooSoon).toMatchObject({ kind: "throttled" });
  expect(
    await confirmPendingChange(handle.db, ids.marie, "email", code, new Date(start.getTime() + CODE_TTL_MS + 1000)),
  ).toEqual({ kind: "expired" });

  const resent = await resendPendingChangeCode(
    handle.db,
    messenger,
    ids.marie,
    "email",
    messages,
    new Date(start.getTime() + RESEND_WAIT_MS),
  );
  expect(resent).toMatchObject({ kind: "sent" });
  const fresh = await lastCodeTo("marie.perso@example.com");
  const verdicts = [];
  for (let i = 0; i < 5; i++)
    verdicts.push((await confirmPendingChange(handle.db, ids.marie, "email", wrong(fresh))).kind);
  expect(verdicts.slice(0, 4)).toEqual(["invalid", "invalid", "invalid", "invalid"]);
  expect(verdicts[4]).toBe("exhausted");
  // Even the right code is refused once the attempts are spent.
  expect(await confirmPendingChange(handle.db, ids.marie, "email", fresh)).toEqual({ kind: "exhausted" });
  expect((await getProfileSettings(handle.db, ids.marie))?.email).toBe(DEMO_EMAILS.marie);
  await cancelPendingChange(handle.db, ids.marie, "email");
});

test("an address taken by someone else while pending is refused at confirmation and the change dropped", async () => {
  await updateProfile(handle.db, messenger, ids.marie, { email: "partagee@example.com", acceptTerms: false }, messages);
  const code = await lastCodeTo("partagee@example.com");
  await handle.db.updateTable("users").set({ email: "partagee@example.com" }).where("id", "=", ids.lucas).execute();
  expect(await confirmPendingChange(handle.db, ids.marie, "email", code)).toEqual({ kind: "taken" });
  const marie = (await getProfileSettings(handle.db, ids.marie))!;
  expect(marie.email).toBe(DEMO_EMAILS.marie);
  expect(marie.pending).toEqual({});
});

test("terms are accepted once, and one user's change never touches another's", async () => {
  const lucas = (await getProfileSettings(handle.db, ids.lucas))!;
  expect(lucas.termsConfirmed).toBe(false);
  expect(await updateProfile(handle.db, messenger, ids.lucas, { acceptTerms: true }, messages)).toEqual({
    kind: "saved",
    pendingFields: [],
    delayed: false,
    refused: false,
  });
  expect((await getProfileSettings(handle.db, ids.lucas))?.termsConfirmed).toBe(true);
  // Paul cannot cancel or confirm marie's change by naming the same field: everything is scoped by user.
  await updateProfile(handle.db, messenger, ids.marie, { phone: "+33622222222", acceptTerms: false }, messages);
  const code = await lastCodeTo("+33622222222");
  expect(await confirmPendingChange(handle.db, ids.paul, "phone", code)).toEqual({ kind: "none" });
  expect(await cancelPendingChange(handle.db, ids.paul, "phone")).toBe(false);
  expect((await getProfileSettings(handle.db, ids.marie))?.pending.phone).toBe("+33622222222");
});

test("a phone change whose SMS waits or is refused says so, naming the SMS (the page words it, decision 0062)", async () => {
  const answering = (delivery: "queued" | "refused") => ({ name: "gateway", send: async () => delivery });
  const queued = await updateProfile(
    handle.db,
    answering("queued"),
    ids.lucas,
    { phone: "+33633333333", acceptTerms: false },
    messages,
  );
  expect(queued).toEqual({ kind: "saved", pendingFields: ["phone"], delayed: true, refused: false, channel: "sms" });
  await cancelPendingChange(handle.db, ids.lucas, "phone");
  const refused = await updateProfile(
    handle.db,
    answering("refused"),
    ids.lucas,
    { phone: "+33644444444", acceptTerms: false },
    messages,
    new Date(Date.now() + RESEND_WAIT_MS + 1000),
  );
  expect(refused).toEqual({ kind: "saved", pendingFields: ["phone"], delayed: false, refused: true, channel: "sms" });
});
