import type Database from "better-sqlite3";
import { afterAll, beforeAll, expect, test } from "vitest";
import { openServerDatabase, signIn, TestBrowser } from "../support/test-browser";
import { startTestServer, stopTestServer, type TestServer } from "../support/test-server";

/**
 * The consent action on the real server (issue 31 §6, decision 0059): the banner's two answers, signed in
 * or not, set the browser's consent cookie and lead back to the page they were given on this site only;
 * anything forged (an unknown button, a value neither accepted nor refused) is a 400 that records nothing.
 */
const NAME = "test-consent";
// The port of this slice's runs (3921 is the journeys' first server, never run at the same time).
const port = 3922;
let server: TestServer;
let db: Database.Database;
const CLAIRE = "claire.petit@example.com";

beforeAll(async () => {
  server = await startTestServer(NAME, port, { RATE_LIMIT_SENSITIVE: "1000" });
  db = openServerDatabase(NAME);
}, 60_000);

afterAll(async () => {
  db?.close();
  await stopTestServer(server);
});

const consentCookieOf = (res: Response) => res.headers.getSetCookie().find((c) => c.startsWith("consent="));
const consentRowOf = (email: string) =>
  db
    .prepare("select analytics, tag_manager from consents where user_id = (select id from users where email = ?)")
    .get(email) as { analytics: number; tag_manager: number } | undefined;

test("a visitor's « Tout refuser »: the cookie, back to the page it was on, and no banner there", async () => {
  const visitor = new TestBrowser(server.base);
  expect(await (await visitor.get("/login")).text()).toContain("Cookies du portail");
  const res = await visitor.post("/cookies", { intent: "refuseAll", returnTo: "/lost-password?email=a%40b.fr" });
  expect(res.status).toBe(302);
  expect(res.headers.get("location")).toBe("/lost-password?email=a%40b.fr");
  const cookie = consentCookieOf(res);
  expect(cookie).toMatch(/^consent=refuse\.refuse; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
  // A browser with only that cookie: the session the flash made is not what hides the banner.
  const again = await new TestBrowser(server.base).request("/lost-password", {
    headers: { Cookie: cookie!.split(";")[0]! },
  });
  expect(await again.text()).not.toContain("Cookies du portail");
});

test("another site, //host, a backslash or an unknown page as the return: the home page instead", async () => {
  for (const returnTo of ["https://evil.example/login", "//evil.example/login", "/\\evil.example", "/nowhere", ""]) {
    const res = await new TestBrowser(server.base).post("/cookies", { intent: "acceptAll", returnTo });
    expect(res.status, returnTo).toBe(302);
    expect(res.headers.get("location"), returnTo).toBe("/");
  }
});

test("forged answers are a 400 that records nothing", async () => {
  const claire = await signIn(server.base, db, CLAIRE);
  const forged: Record<string, string>[] = [
    { intent: "acceptEverything", returnTo: "/cards" },
    { returnTo: "/cards" },
    { intent: "save", analytics: "yes-please", tagManager: "accept" },
    { intent: "save", analytics: "accept" },
  ];
  for (const fields of forged) {
    const res = await claire.post("/cookies", fields);
    expect(res.status, JSON.stringify(fields)).toBe(400);
    expect(consentCookieOf(res), JSON.stringify(fields)).toBeUndefined();
  }
  expect(consentRowOf(CLAIRE)).toBeUndefined();
  // The page's detailed choice is the signed-in's: a visitor's is refused.
  const visitor = await new TestBrowser(server.base).post("/cookies", {
    intent: "save",
    analytics: "accept",
    tagManager: "accept",
  });
  expect(visitor.status).toBe(403);
});

test("signed in, « Tout accepter » is recorded for the account as well as in the browser", async () => {
  const claire = await signIn(server.base, db, CLAIRE);
  const res = await claire.post("/cookies", { intent: "acceptAll", returnTo: "/wallets" });
  expect(res.status).toBe(302);
  expect(res.headers.get("location")).toBe("/wallets");
  expect(consentCookieOf(res)).toMatch(/^consent=accept\.accept;/);
  expect(consentRowOf(CLAIRE)).toEqual({ analytics: 1, tag_manager: 1 });
});

test("a forged consent cookie is no choice: the banner still asks", async () => {
  const res = await new TestBrowser(server.base).request("/login", { headers: { Cookie: "consent=accept.maybe" } });
  expect(await res.text()).toContain("Cookies du portail");
});

test("no banner on a page whose address carries a link's token: its form would copy the token", async () => {
  const visitor = new TestBrowser(server.base);
  const token = "tok".repeat(10);
  for (const path of [`/reset-password/${token}`, `/activate/${token}`]) {
    const body = await (await visitor.get(path)).text();
    expect(body, path).not.toContain("Cookies du portail");
    expect(body, path).not.toContain(`value="${path}"`);
  }
  // The same visitor is asked on the next page.
  expect(await (await visitor.get("/lost-password")).text()).toContain("Cookies du portail");
});
