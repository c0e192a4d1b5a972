import { afterAll, beforeAll, expect, test } from "vitest";
import { testPort, startTestServer, stopTestServer, type TestServer } from "../support/test-server";
import { withForgedSignature } from "../support/forged-cookie";

/**
 * Limits that fit a company (issue 11, decision 0014), on the real server with two workers: signed-in
 * traffic is counted per session, anonymous traffic per address, and password guesses per account
 * whatever the address. Needs `npm run build` first (npm test builds).
 */
const port = testPort(4000, 500);
const PASSWORD = "Demo-Portail-2026!";
const CLAIRE = "claire.petit@example.com";
const MARIE = "marie.martin@example.com";
const USERS = 50;
const LOAD_MS = 60_000;
/** Low enough for the test to reach it: the 50 sign-ins of the office use 50 of these. */
const ANONYMOUS_CEILING = 150;
const SESSION_SENSITIVE_CEILING = 5;

let server: TestServer;
let base: string;

beforeAll(async () => {
  server = await startTestServer("test-limits", port, {
    TRUST_PROXY: "1",
    WEB_CONCURRENCY: "2",
    RATE_LIMIT_ANONYMOUS: String(ANONYMOUS_CEILING),
    RATE_LIMIT_SESSION_SENSITIVE: String(SESSION_SENSITIVE_CEILING),
  });
  base = server.base;
  const deadline = Date.now() + 30_000;
  while (!server.output().includes('"workers":2') && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 100));
}, 60_000);

afterAll(() => stopTestServer(server));

/** Posts a form the way a browser of the site does; `from` is the address a proxy would forward. */
function post(path: string, fields: Record<string, string>, options: { cookie?: string; from?: string } = {}) {
  const headers: Record<string, string> = { Origin: base };
  if (options.cookie) headers.Cookie = options.cookie;
  if (options.from) headers["X-Forwarded-For"] = options.from;
  return fetch(`${base}${path}`, { method: "POST", body: new URLSearchParams(fields), headers, redirect: "manual" });
}

const sessionCookieOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .find((c) => c.startsWith("session="))
    ?.split(";")[0];

async function signIn(email: string, from?: string): Promise<string> {
  const res = await post("/login", { email, password: PASSWORD }, { from });
  expect(res.status, `sign-in of ${email}`).toBe(302);
  const cookie = sessionCookieOf(res);
  if (!cookie) throw new Error("no session cookie");
  return cookie;
}

const get = (path: string, cookie?: string) =>
  fetch(`${base}${path}`, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" });

const office: string[] = [];
let cardPath = "";

test(
  `${USERS} signed-in users behind one address for ${LOAD_MS / 1000} s are never refused, while anonymous traffic from that address is, past its ceiling`,
  async () => {
    // The whole office signs in from its one address, four at a time.
    for (let i = 0; i < USERS; i += 4)
      office.push(...(await Promise.all(Array.from({ length: Math.min(4, USERS - i) }, () => signIn(CLAIRE)))));
    expect(new Set(office).size).toBe(USERS);
    const cards = await get("/cards", office[0]);
    expect(cards.status).toBe(302);
    cardPath = cards.headers.get("location")!;
    expect(cardPath).toMatch(/^\/cards\/card_/);

    const pages = [cardPath, `${cardPath}.data`, "/wallets", "/settings/notifications", "/cards"];
    const deadline = Date.now() + LOAD_MS;
    const signedIn = new Map<number, number>();
    const anonymous = new Map<number, number>();
    const count = (tally: Map<number, number>, status: number) => tally.set(status, (tally.get(status) ?? 0) + 1);
    const user = async (cookie: string, n: number) => {
      for (let i = n; Date.now() < deadline; i++) {
        const res = await get(pages[i % pages.length]!, cookie);
        await res.arrayBuffer();
        count(signedIn, res.status);
      }
    };
    // A visitor without a session on the same address, a few requests a second.
    const visitor = async () => {
      while (Date.now() < deadline) {
        const res = await get("/login");
        await res.arrayBuffer();
        count(anonymous, res.status);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    await Promise.all([...office.map((cookie, n) => user(cookie, n)), visitor()]);

    const total = [...signedIn.values()].reduce((a, b) => a + b, 0);
    console.log(
      `${total} signed-in requests in ${LOAD_MS / 1000} s:`,
      Object.fromEntries(signedIn),
      "anonymous:",
      Object.fromEntries(anonymous),
    );
    expect(total).toBeGreaterThan(USERS * 10);
    // Pages (200) and the card list's redirect (302), nothing else: no 429, no error.
    expect([...signedIn.keys()].filter((s) => s !== 200 && s !== 302)).toEqual([]);
    // The address's own ceiling: the 50 sign-ins plus the visitor's pages.
    expect(anonymous.get(200)).toBe(ANONYMOUS_CEILING - USERS);
    expect(anonymous.get(429)).toBeGreaterThan(0);
  },
  LOAD_MS + 40_000,
);

test("a forged session cookie, or a signed one without a signed-in session, counts as anonymous", async () => {
  expect(office.length).toBe(USERS);
  const name = office[0]!.split("=")[0]!;
  const tampered = withForgedSignature(office[0]!);
  // Signing out leaves a new, correctly signed session carrying only the goodbye message.
  const signOut = await post("/logout", {}, { cookie: office.pop() });
  expect(signOut.status).toBe(302);
  const signedOut = sessionCookieOf(signOut)!;
  expect(signedOut).toBeTruthy();
  for (const cookie of [
    tampered,
    `${name}=forged.value`,
    `${name}=${Buffer.from(JSON.stringify("made-up")).toString("base64")}`,
    signedOut,
  ]) {
    const res = await get(cardPath, cookie);
    expect(res.status, cookie).toBe(429);
    expect(await res.text()).toContain("Trop de tentatives");
  }
  // The genuine sessions of that address still go through.
  expect((await get(cardPath, office[0])).status).toBe(200);
});

test("sensitive posts of a signed-in session are counted per session, not per address", async () => {
  const reveal = `${cardPath}/reveal`;
  const statuses = [];
  for (let i = 0; i <= SESSION_SENSITIVE_CEILING; i++)
    statuses.push((await post(reveal, { intent: "send" }, { cookie: office[1] })).status);
  expect(statuses).toEqual([...Array(SESSION_SENSITIVE_CEILING).fill(302), 429]);
  // A colleague at the same address is not held back.
  expect((await post(reveal, { intent: "send" }, { cookie: office[2] })).status).toBe(302);
});

test("100 wrong passwords for one account from 100 addresses lock its guesses: even the right password is refused, in French; another account still signs in", async () => {
  const addresses = Array.from({ length: 100 }, (_, i) => `10.11.${Math.floor(i / 50)}.${(i % 50) + 1}`);
  const statuses: number[] = [];
  for (let i = 0; i < addresses.length; i += 10) {
    const batch = addresses
      .slice(i, i + 10)
      .map((from) => post("/login", { email: MARIE, password: `${PASSWORD}-${from}` }, { from }));
    for (const res of await Promise.all(batch)) {
      statuses.push(res.status);
      await res.arrayBuffer();
    }
  }
  // No address sent more than one: no address limit played a part.
  expect(statuses.every((s) => s === 400)).toBe(true);
  const right = await post("/login", { email: MARIE, password: PASSWORD }, { from: "10.99.0.1" });
  expect(right.status).toBe(400);
  expect(right.headers.get("set-cookie")).toBeNull();
  const page = await right.text();
  expect(page).toContain("Trop d’essais de mot de passe pour ce compte. Par sécurité, réessayez dans 1 minute");
  expect(page).toContain('lang="fr"');
  // Another account, from another address, signs in.
  expect(await signIn(CLAIRE, "10.99.0.2")).toMatch(/^session=/);
}, 30_000);

test("no request failed and the limits were set up without complaint", () => {
  expect(server.output()).not.toMatch(/ERR_ERL_|unhandled error|"status":5\d\d/);
});
