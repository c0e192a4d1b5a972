import type Database from "better-sqlite3";
import { afterAll, beforeAll, expect, test } from "vitest";
import { openServerDatabase, signIn } from "../support/test-browser";
import { testPort, startTestServer, stopTestServer, type TestServer } from "../support/test-server";

/**
 * Spec 001 §2.1: `/onboarding/:token` is public. The invitation's token alone leads to its activation
 * (where the onboarding starts); a signed-in person goes to their onboarding; any other link reads as
 * spent (410, in French), and nothing is written.
 */
const NAME = "test-onboarding-link";
const port = testPort(4500, 400);
let server: TestServer;
let db: Database.Database;
const NINA = "nina.roux@example.com";

beforeAll(async () => {
  server = await startTestServer(NAME, port, { RATE_LIMIT_SENSITIVE: "1000" });
  db = openServerDatabase(NAME);
}, 60_000);

afterAll(async () => {
  db?.close();
  await stopTestServer(server);
});

const get = (path: string, cookie?: string) =>
  fetch(`${server.base}${path}`, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" });

/** Nina's invitation token, from the sandbox outbox. */
function ninaToken(): string {
  const row = db
    .prepare(
      "select body from outbox where recipient = ? and body like '%/activate/%' order by created_at desc limit 1",
    )
    .get(NINA) as { body: string };
  return /\/activate\/([\w-]+)\?/.exec(row.body)![1]!;
}

test("a live invitation's token goes on to its activation, with its address; nothing changes", async () => {
  const token = ninaToken();
  const before = db.prepare("select status, password_hash from users where email = ?").get(NINA);
  const res = await get(`/onboarding/${token}`);
  expect(res.status).toBe(302);
  expect(res.headers.get("location")).toBe(`/activate/${token}?email=${encodeURIComponent(NINA)}`);
  // The last policy named wins (the server sends its default first), as on the activation page.
  expect(res.headers.get("referrer-policy")).toMatch(/(^|, )no-referrer$/);
  expect(res.headers.get("cache-control")).toBe("no-store");
  const activation = await get(res.headers.get("location")!);
  expect(activation.status).toBe(200);
  expect(db.prepare("select status, password_hash from users where email = ?").get(NINA)).toEqual(before);
});

test("any other token reads as a spent link, in French, signed in or not", async () => {
  for (const token of ["not-a-token", "x".repeat(300), "%E2%80%A8"]) {
    const res = await get(`/onboarding/${token}`);
    expect(res.status, token).toBe(410);
    const html = await res.text();
    expect(html).toContain('<html lang="fr"');
    expect(html).toContain("Ce lien");
  }
  const claire = await signIn(server.base, db, "claire.petit@example.com");
  const signedIn = await claire.get("/onboarding/not-a-token");
  expect(signedIn.status).toBe(302);
  expect(signedIn.headers.get("location")).toBe("/onboarding");
});

test("the onboarding steps keep their own pages", async () => {
  const claire = await signIn(server.base, db, "claire.petit@example.com");
  // An onboarded account is sent on from the steps themselves, not treated as a link.
  for (const step of ["card", "wait"]) expect((await claire.get(`/onboarding/${step}`)).status, step).not.toBe(410);
});
