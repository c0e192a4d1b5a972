import type { RouteConfigEntry } from "@react-router/dev/routes";
import type Database from "better-sqlite3";
import { afterAll, beforeAll, expect, test } from "vitest";
import routes from "../../app/routes";
import { openServerDatabase, signIn, TestBrowser, type RawAnswer } from "../support/test-browser";
import { testPort, startTestServer, stopTestServer, type TestServer } from "../support/test-server";

/**
 * Issue 11 on the real server: no route parameter reaches a `Location` header as it came (finding 2:
 * an open redirect, or a 500 "invalid header value"); `redirectTo` after sign-in stays on a page of
 * the portal (finding 7); refused inputs are said, in French (finding 10).
 */
const NAME = "test-redirects";
const port = testPort(4500, 400);
let server: TestServer;
let db: Database.Database;
let base: string;
const CLAIRE = "claire.petit@example.com";
const MARIE = "marie.martin@example.com";

beforeAll(async () => {
  server = await startTestServer(NAME, port, { RATE_LIMIT_SENSITIVE: "100000" });
  db = openServerDatabase(NAME);
  base = server.base;
}, 60_000);

afterAll(async () => {
  db?.close();
  await stopTestServer(server);
});

/** No Location, or one the browser reads as a path of this site: one leading slash, printable ASCII only. */
function sameSite(location: string | null | undefined): boolean {
  if (!location) return true;
  return /^\/(?![/\\])[\x21-\x7e]*$/.test(location) && new URL(location, base).origin === base;
}

/** Every path of routes.ts with parameters, as written there ("cards/:cardId/freeze"). */
function parameterisedPaths(entries: RouteConfigEntry[], parent = ""): string[] {
  return entries.flatMap((entry) => {
    const path = [parent, entry.path].filter(Boolean).join("/");
    return [...(entry.path?.includes(":") ? [path] : []), ...parameterisedPaths(entry.children ?? [], path)];
  });
}

/** What a probe found putting hostile ids in route parameters (issue 11, finding 2). */
const HOSTILE_IDS = [
  "../\t/evil.example",
  "../../../etc/passwd",
  "\r\nX",
  "\0",
  "..",
  ".",
  "//evil.example",
  "\\evil.example",
  "€ carte 日本",
  "%",
  "x".repeat(3000),
];
// Sent as the probe did: every byte of the id encoded, dots too (else they would be resolved before sending).
const inPath = (id: string) => encodeURIComponent(id).replace(/\./g, "%2E");

test("the retry route leads to the card list whatever the ids: no open redirect, no /etc/passwd, no 500", async () => {
  const claire = await signIn(base, db, CLAIRE);
  // `.` and `..` segments are resolved before routing: they never reach the route (the next test covers them).
  const ids = HOSTILE_IDS.filter((id) => id !== "." && id !== "..");
  const answers: string[] = [];
  for (const id of ids) {
    for (const method of ["GET", "POST"]) {
      const answer = await claire.raw(
        method,
        `/cards/${inPath(id)}/transactions/${inPath(id)}/retry`,
        method === "POST" ? "" : undefined,
      );
      answers.push(
        `${method} ${JSON.stringify(id.slice(0, 20))} → ${answer.status} ${(answer.headers.location ?? "").slice(0, 40)}`,
      );
    }
  }
  // Unknown cards, all of them: the list, with "Cette carte n’existe pas ou n’est pas la vôtre."
  expect(answers).toEqual(
    ids.flatMap((id) => ["GET", "POST"].map((method) => `${method} ${JSON.stringify(id.slice(0, 20))} → 302 /cards`)),
  );
});

test("every route with parameters, signed in or not, GET and POST: no 5xx and no Location leaving the site", async () => {
  const paths = parameterisedPaths(routes);
  expect(paths.length).toBeGreaterThanOrEqual(13);
  const anonymous = new TestBrowser(base);
  const claire = await signIn(base, db, CLAIRE);
  const answers: [string, RawAnswer][] = [];
  for (const pattern of paths) {
    for (const id of HOSTILE_IDS) {
      const url = "/" + pattern.replace(/:[\w-]+\??/g, inPath(id));
      for (const browser of [anonymous, claire]) {
        answers.push([`GET ${url.slice(0, 80)}`, await browser.raw("GET", url)]);
        answers.push([
          `POST ${url.slice(0, 80)}`,
          await browser.raw("POST", url, "intent=verify&code=123456&channel=SMS"),
        ]);
      }
    }
  }
  console.log(`${answers.length} hostile-id requests on ${paths.length} routes with parameters`);
  const wrong = answers
    .filter(([, a]) => a.status >= 500 || !sameSite(a.headers.location))
    .map(([what, a]) => `${what} → ${a.status} ${JSON.stringify(a.headers.location ?? "")}`);
  expect(wrong).toEqual([]);
});

const PASSWORD = "Demo-Portail-2026!";

test("finding 7: a sign-in posted with redirectTo /.//evil.example, /..//, /%2e// leads to the cards, never to //evil.example", async () => {
  const locations: Record<string, string | null> = {};
  for (const redirectTo of [
    "/.//evil.example",
    "/..//evil.example",
    "/%2e//evil.example",
    "/%2E%2E//evil.example",
    "/cards/..//evil.example",
    "/.%2F%2Fevil.example",
  ]) {
    const res = await new TestBrowser(base).post("/login", { email: CLAIRE, password: PASSWORD, redirectTo });
    locations[redirectTo] = `${res.status} ${res.headers.get("location")}`;
  }
  expect(
    Object.values(locations).every((l) => l === "302 /cards"),
    JSON.stringify(locations),
  ).toBe(true);
  // A page of the portal is still where a sign-in leads back to, once normalised.
  const back = await new TestBrowser(base).post("/login", {
    email: CLAIRE,
    password: PASSWORD,
    redirectTo: "/settings/./security",
  });
  expect(back.headers.get("location")).toBe("/settings/security");
});

test("finding 10: a duplicated redirectTo does not refuse the sign-in; the first one is used, checked like any other", async () => {
  const post = (first: string, second: string) =>
    new TestBrowser(base).post(
      "/login",
      new URLSearchParams([
        ["email", CLAIRE],
        ["password", PASSWORD],
        ["redirectTo", first],
        ["redirectTo", second],
      ]),
    );
  const kept = await post("/settings/profile", "//evil.example");
  expect([kept.status, kept.headers.get("location")]).toEqual([302, "/settings/profile"]);
  const checked = await post("//evil.example", "/settings/profile");
  expect([checked.status, checked.headers.get("location")]).toEqual([302, "/cards"]);
});

test("finding 10: a bad or foreign licence on wallet activation is said in French on the wallet page the form was on; nothing is created", async () => {
  const marie = await signIn(base, db, MARIE);
  const walletsOf = () =>
    (
      db
        .prepare("select id from wallets where user_id = (select id from users where email = ?) order by id")
        .all(MARIE) as { id: string }[]
    ).map((w) => w.id);
  const before = walletsOf();
  expect(before.length).toBeGreaterThanOrEqual(2);
  const foreign = db
    .prepare("select id from licences where user_id != (select id from users where email = ?) limit 1")
    .get(MARIE) as { id: string };
  for (const licence of ["lic_made_up", foreign.id, ""]) {
    for (const from of before.slice(0, 2)) {
      const { location, html } = await marie.follow(await marie.post("/wallets?index", { licence, from }));
      expect(location, licence).toBe(`/wallets/${from}`);
      expect(html, licence).toContain("Ce portefeuille ne peut pas être activé : l’offre n’est plus disponible.");
    }
  }
  // A `from` that is not one of hers: her first wallet, never that value.
  const strange = await marie.post("/wallets?index", { licence: "lic_made_up", from: "../../evil.example" });
  expect(strange.headers.get("location")).toMatch(/^\/wallets\/wal_[\w-]+$/);
  expect(walletsOf()).toEqual(before);
});
