import Database from "better-sqlite3";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { TestBrowser } from "../support/test-browser";
import { testPort, startTestServer, stopTestServer, type TestServer } from "../support/test-server";

/**
 * Spec 001 §1: a disabled account is told at sign-in that the team is reviewing it (usually under 72
 * hours), not that its credentials are wrong — and only to whoever gives its right password.
 */
const NAME = "test-sign-in-notices";
const port = testPort(4900, 90);
let server: TestServer;
const LUCAS = "lucas.bernard@example.com";
const PASSWORD = "Demo-Portail-2026!";
const UNDER_REVIEW = "Votre compte est en cours d’examen par notre équipe. Cela prend généralement moins de 72 heures";
const WRONG = "L’adresse e-mail ou le mot de passe est incorrect";

beforeAll(async () => {
  server = await startTestServer(NAME, port, { RATE_LIMIT_SENSITIVE: "1000" });
  // The test disables the account itself, in the server's database (no page does it).
  const db = new Database(path.resolve(import.meta.dirname, `../../data/${NAME}.sqlite`), { fileMustExist: true });
  db.prepare("update users set status = 'disabled' where email = ?").run(LUCAS);
  db.close();
}, 60_000);

afterAll(() => stopTestServer(server));

const signIn = (password: string) => new TestBrowser(server.base).post("/login", { email: LUCAS, password });

test("the right password of a disabled account: 400, the account-under-review notice, no session", async () => {
  const res = await signIn(PASSWORD);
  expect(res.status).toBe(400);
  expect(
    res.headers.getSetCookie().some((c) => c.startsWith("session=") && !/Max-Age=0|Expires=Thu, 01 Jan 1970/.test(c)),
  ).toBe(false);
  const html = (await res.text()).replaceAll("&#x27;", "'");
  expect(html).toContain(UNDER_REVIEW);
  expect(html).not.toContain(WRONG);
  expect(html).not.toContain(PASSWORD);
});

test("a wrong password of a disabled account reads like any wrong password", async () => {
  const res = await signIn("Pas-le-bon-1!");
  expect(res.status).toBe(400);
  const html = await res.text();
  expect(html).toContain(WRONG);
  expect(html).not.toContain(UNDER_REVIEW);
});
