import type Database from "better-sqlite3";
import { afterAll, beforeAll, expect, test } from "vitest";
import { openServerDatabase, signIn } from "../support/test-browser";
import { testPort, startTestServer, stopTestServer, type TestServer } from "../support/test-server";

/**
 * Issue 11, finding 1: an onboarded account could post onboarding's profile step again (new names and
 * phone, no code), then move its second factor to that phone; a pending phone change could be
 * skipped the same way. Checked on the real server, with what the database holds before and after.
 */
const NAME = "test-takeover";
const port = testPort(4100, 400);
let server: TestServer;
let db: Database.Database;
const CLAIRE = "claire.petit@example.com";
const PAUL = "paul.durand@example.com";
const ATTACKER = { firstName: "Eve", lastName: "Attacker", phoneCountry: "FR", phone: "07 00 00 00 66", terms: "on" };

beforeAll(async () => {
  server = await startTestServer(NAME, port, { RATE_LIMIT_SENSITIVE: "1000" });
  db = openServerDatabase(NAME);
}, 60_000);

afterAll(async () => {
  db?.close();
  await stopTestServer(server);
});

const userRow = (email: string) =>
  db
    .prepare(
      "select id, first_name, last_name, phone, terms_confirmed_at, mfa_enabled, mfa_preferred from users where email = ?",
    )
    .get(email) as Record<string, unknown>;
const pendingOf = (email: string) =>
  db
    .prepare("select field_name, new_value from pending_changes where user_id = (select id from users where email = ?)")
    .all(email);

test("an onboarded account posting onboarding's steps is refused in French (403) and nothing changes", async () => {
  const claire = await signIn(server.base, db, CLAIRE);
  const before = userRow(CLAIRE);

  const profile = await claire.post("/onboarding?index", ATTACKER);
  expect(profile.status).toBe(403);
  const page = await profile.text();
  expect(page).toContain("Votre inscription est déjà terminée");
  expect(page).toContain('<html lang="fr"');
  // The card step too: an onboarded account creates cards from its card page, with its licences.
  const card = await claire.post("/onboarding/card", {
    step: "card",
    request: "creq_AAAAAAAAAAAAAAAA",
    group: "x",
    type: "virtual",
  });
  expect(card.status).toBe(403);

  expect(userRow(CLAIRE)).toEqual(before);
  expect(pendingOf(CLAIRE)).toEqual([]);
});

test("paul can neither rename himself through onboarding nor skip his pending phone change to set up SMS codes", async () => {
  const paul = await signIn(server.base, db, PAUL);
  const before = userRow(PAUL);

  expect((await paul.post("/onboarding?index", { firstName: "Eve", lastName: "Attacker", terms: "on" })).status).toBe(
    403,
  );
  expect((await paul.post("/onboarding?index", ATTACKER)).status).toBe(403);

  // The second-factor step posted directly, past the pending step: sent to that step, told why.
  const sms = await paul.post("/secure-account/second-factor", { channel: "SMS" });
  expect(sms.status).toBe(302);
  const { location, html } = await paul.follow(sms);
  expect(location).toBe("/secure-account/pending/phone");
  expect(html).toContain("Un changement de numéro de téléphone attend sa confirmation");
  expect(html).toContain("Confirmez votre nouveau numéro");

  expect(userRow(PAUL)).toEqual(before);
  expect(pendingOf(PAUL)).toEqual([{ field_name: "phone", new_value: "+33700000001" }]);
});

test("a second factor cannot be chosen in the settings while a phone change waits; the page says so and leads there", async () => {
  const claire = await signIn(server.base, db, CLAIRE);
  // Names are not part of the profile form: sent anyway, they are ignored (001 §6). The intent is the
  // save button's, as the page sends it (without one the post is refused, decision 0021).
  const saved = await claire.post("/settings/profile", {
    intent: "save",
    firstName: "Eve",
    lastName: "Attacker",
    phoneCountry: "FR",
    phone: "07 00 00 00 77",
  });
  expect((await claire.follow(saved)).location).toBe("/settings/profile/confirm/phone");
  expect(userRow(CLAIRE)).toMatchObject({ first_name: "Claire", last_name: "Petit" });
  const before = userRow(CLAIRE);

  const page = await (await claire.get("/settings/security/mfa/SMS")).text();
  expect(page).toContain("Un changement de numéro de téléphone attend sa confirmation");
  expect(page).toContain('href="/settings/profile/confirm/phone"');
  expect(page).not.toContain(">Confirmer</button>");

  for (const channel of ["SMS", "EMAIL"]) {
    const res = await claire.post(`/settings/security/mfa/${channel}`, {});
    const { location, html } = await claire.follow(res);
    expect(location, channel).toBe("/settings/profile/confirm/phone");
    expect(html, channel).toContain("Un changement de numéro de téléphone attend sa confirmation");
  }
  expect(userRow(CLAIRE)).toEqual(before);
});
