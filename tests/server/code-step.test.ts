import type Database from "better-sqlite3";
import { afterAll, beforeAll, expect, test } from "vitest";
import { openServerDatabase, signIn, TestBrowser } from "../support/test-browser";
import { testPort, startTestServer, stopTestServer, type TestServer } from "../support/test-server";

/**
 * The one code step (decision 0022) on the real server: the sign-in, a card's reveal and a contact
 * change answer alike — a code is good only for its own purpose and target, the account's wrong codes
 * are counted across the three, a refusal is a 400 in French that never sends the code back.
 */
const NAME = "test-code-step";
const port = testPort(4500, 400);
let server: TestServer;
let db: Database.Database;
const MARIE = "marie.martin@example.com";
const SIGN_IN_SUBJECT = "Votre code de connexion";
const REVEAL_SUBJECT = "Votre code pour afficher votre carte";

beforeAll(async () => {
  server = await startTestServer(NAME, port, { RATE_LIMIT_SENSITIVE: "1000" });
  db = openServerDatabase(NAME);
}, 60_000);

afterAll(async () => {
  db?.close();
  await stopTestServer(server);
});

const userId = (email: string) => (db.prepare("select id from users where email = ?").get(email) as { id: string }).id;
const cardsOf = (email: string) =>
  db
    .prepare("select id, type from cards where user_id = ? and status = 'active' order by last_four")
    .all(userId(email)) as { id: string; type: string }[];
function latestCode(recipient: string, subject?: string): string {
  const row = db
    .prepare(
      `select body from outbox where recipient = ? ${subject ? "and subject = ?" : ""} order by created_at desc, rowid desc limit 1`,
    )
    .get(...(subject ? [recipient, subject] : [recipient])) as { body: string } | undefined;
  const code = /\b(\d{6})\b/.exec(row?.body ?? "")?.[1];
  if (!code) throw new Error(`no code for ${recipient}`);
  return code;
}
const wrongFor = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");
const visible = (html: string) => html.replace(/<script[\s\S]*?<\/script>/g, "");

/** Marie in another browser, stopped at her sign-in's code. */
async function pendingSignIn(): Promise<TestBrowser> {
  const browser = new TestBrowser(server.base);
  const res = await browser.post("/login", { email: MARIE, password: "Demo-Portail-2026!" });
  expect(res.headers.get("location")).toBe("/login/code");
  return browser;
}

test("a reveal code is for its own card: another card of the same person finds no code, its own card shows", async () => {
  const marie = await signIn(server.base, db, MARIE);
  const [first, second] = cardsOf(MARIE);
  expect(first && second).toBeTruthy();
  const asked = await marie.post(`/cards/${first!.id}/reveal`, { intent: "send" });
  expect(asked.status).toBe(302);
  expect(asked.headers.get("location")).toBe(`/cards/${first!.id}/reveal?step=code`);
  const code = latestCode(MARIE, REVEAL_SUBJECT);

  const elsewhere = await marie.post(`/cards/${second!.id}/reveal?step=code`, { intent: "verify", code });
  expect(elsewhere.status).toBe(400);
  const html = await elsewhere.text();
  expect(html).toContain("Aucun code n’est en cours. Demandez un nouveau code");
  expect(visible(html)).not.toContain(code);

  const own = await marie.post(`/cards/${first!.id}/reveal?step=code`, { intent: "verify", code });
  expect(own.status).toBe(302);
  expect(own.headers.get("location")).toBe(`/cards/${first!.id}/reveal?step=show`);
  // Used once: the same code again finds nothing.
  expect((await marie.post(`/cards/${first!.id}/reveal?step=code`, { intent: "verify", code })).status).toBe(400);
  // A used code holds nothing back: a new one at once, and the step says where it went.
  const resent = await marie.post(`/cards/${first!.id}/reveal?step=code`, { intent: "resend" });
  const { location, html: after } = await marie.follow(resent);
  expect(location).toBe(`/cards/${first!.id}/reveal?step=code`);
  expect(after).toContain("Un nouveau code a été envoyé par e-mail.");
  expect(latestCode(MARIE, REVEAL_SUBJECT)).toMatch(/^\d{6}$/);
});

test("a new code asked too soon is refused alike on every step: 429, the time said", async () => {
  const marie = await signIn(server.base, db, MARIE);
  const [card] = cardsOf(MARIE);
  await marie.post(`/cards/${card!.id}/reveal`, { intent: "send" });
  const reveal = await marie.post(`/cards/${card!.id}/reveal?step=code`, { intent: "resend" });
  expect(reveal.status).toBe(429);
  const html = await reveal.text();
  expect(html).toContain("Trop de tentatives. Réessayez dans 60 secondes");
  expect(html).toMatch(/Vous pourrez demander un nouveau code à partir de \d{2}:\d{2}:\d{2}\./);
  expect(html).toContain("<title>Erreur : ");

  const signInResend = await (await pendingSignIn()).post("/login/code", { intent: "resend" });
  expect(signInResend.status).toBe(429);
  expect(await signInResend.text()).toContain("Trop de tentatives. Réessayez dans 60 secondes");
});

test("an unknown intent is a 400 in French on every code step; a contact change cancelled there takes its code with it", async () => {
  const marie = await signIn(server.base, db, MARIE);
  const [card] = cardsOf(MARIE);
  const saved = await marie.post("/settings/profile", { intent: "save", phoneCountry: "FR", phone: "07 00 00 00 41" });
  expect((await marie.follow(saved)).location).toBe("/settings/profile/confirm/phone");
  for (const [browser, path] of [
    [marie, `/cards/${card!.id}/reveal?step=code`],
    [await pendingSignIn(), "/login/code"],
    [marie, "/settings/profile/confirm/phone"],
  ] as const) {
    const res = await browser.post(path, { intent: "no-such-intent", code: "123456" });
    expect(res.status, path).toBe(400);
    const html = await res.text();
    expect(html, path).toContain("Cette action n’est pas reconnue. Rechargez la page et réessayez");
    expect(visible(html), path).not.toContain("123456");
  }
  const cancelled = await marie.post("/settings/profile/confirm/phone", { intent: "cancel" });
  const { location, html } = await marie.follow(cancelled);
  expect(location).toBe("/settings/profile");
  expect(html).toContain("Le changement est annulé.");
  expect(db.prepare("select count(*) as n from pending_changes where user_id = ?").get(userId(MARIE))).toEqual({
    n: 0,
  });
  expect(
    db
      .prepare(
        "select count(*) as n from one_time_codes where user_id = ? and purpose = 'contactChange' and used_at is null",
      )
      .get(userId(MARIE)),
  ).toEqual({ n: 0 });
});

test("cancelling a sign-in at its code withdraws the code: it no longer opens a session", async () => {
  const browser = await pendingSignIn();
  const code = latestCode(MARIE, SIGN_IN_SUBJECT);
  const cancelled = await browser.post("/login/code", { intent: "cancel" });
  expect(cancelled.status).toBe(302);
  expect(cancelled.headers.get("location")).toBe("/login");
  const outstanding = db
    .prepare("select count(*) as n from one_time_codes where user_id = ? and purpose = 'signIn' and used_at is null")
    .get(userId(MARIE)) as { n: number };
  expect(outstanding.n).toBe(0);
  // The step itself is gone: a late submit of the code goes back to sign-in, without a session.
  const late = await browser.post("/login/code", { intent: "verify", code });
  expect(late.status).toBe(302);
  expect(late.headers.get("location")).toBe("/login");
  expect((await browser.get("/cards")).headers.get("location")).toMatch(/^\/login/);
});

test("wrong codes are counted for the account across steps: after 10, even the right code of a contact change waits", async () => {
  const marie = await signIn(server.base, db, MARIE);
  const [first, second] = cardsOf(MARIE);
  // Five wrong codes on each card's reveal: two codes spent.
  for (const card of [first!, second!]) {
    await marie.post(`/cards/${card.id}/reveal`, { intent: "send" });
    const code = latestCode(MARIE, REVEAL_SUBJECT);
    const statuses = [];
    for (let i = 0; i < 5; i++)
      statuses.push(
        (await marie.post(`/cards/${card.id}/reveal?step=code`, { intent: "verify", code: wrongFor(code) })).status,
      );
    expect(statuses).toEqual([400, 400, 400, 400, 400]);
  }
  // A phone change, confirmed with its right code: refused while the account's codes wait.
  const saved = await marie.post("/settings/profile", { intent: "save", phoneCountry: "FR", phone: "07 00 00 00 42" });
  expect((await marie.follow(saved)).location).toBe("/settings/profile/confirm/phone");
  const code = latestCode("+33700000042");
  const refused = await marie.post("/settings/profile/confirm/phone", { intent: "verify", code });
  expect(refused.status).toBe(400);
  expect(await refused.text()).toMatch(
    /Trop de codes incorrects pour ce compte\. Par sécurité, réessayez dans \d+ minutes?/,
  );
  expect(db.prepare("select phone from users where email = ?").get(MARIE)).not.toEqual({ phone: "+33700000042" });
  expect(db.prepare("select new_value from pending_changes where user_id = ?").all(userId(MARIE))).toEqual([
    { new_value: "+33700000042" },
  ]);
});
