import type Database from "better-sqlite3";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startSmtpStandIn, type SmtpStandIn } from "../support/smtp-server";
import { openServerDatabase, TestBrowser } from "../support/test-browser";
import { testPort, startTestServer, stopTestServer, type TestServer } from "../support/test-server";

/**
 * The SMTP server down when a sign-in code is sent (issue 18 §5, decision 0042), on the real server: the code page
 * says in French that the e-mail could not leave yet; once SMTP listens again, the server's own sender loop sends
 * it from the outbox (nobody asks again), once, and that code signs in. SIGTERM stops the loop and the server.
 */
const NAME = "test-mail-outbox";
const port = testPort(4470, 10);
const MARIE = "marie.martin@example.com";
let smtp: SmtpStandIn;
let server: TestServer;
let db: Database.Database;

beforeAll(async () => {
  smtp = await startSmtpStandIn();
  await smtp.stop();
  server = await startTestServer(NAME, port, { SMTP_URL: smtp.url, RATE_LIMITS: "off" });
  db = openServerDatabase(NAME);
}, 60_000);

afterAll(async () => {
  db?.close();
  if (server?.process.exitCode === null) server.process.kill("SIGKILL");
  await smtp?.stop();
});

const visible = (html: string) => html.replace(/<script[\s\S]*?<\/script>/g, "").replace(/&#x27;|&#39;/g, "'");

test("SMTP down: the code page says so; SMTP back, the server sends the code by itself, once, and it signs in", async () => {
  const browser = new TestBrowser(server.base);
  const login = await browser.post("/login", { email: MARIE, password: "Demo-Portail-2026!" });
  expect(login.headers.get("location")).toBe("/login/code");
  const page = visible(await (await browser.get("/login/code")).text());
  expect(page).toContain("Nous n’arrivons pas à envoyer l’e-mail pour le moment.");
  expect(page).toContain("l’e-mail n’a pas encore pu partir");
  expect(page).not.toContain("nous avons envoyé un code");
  const waiting = db.prepare("select status, attempts, body from mail_outbox where recipient = ?").all(MARIE) as {
    status: string;
    attempts: number;
    body: string;
  }[];
  expect(waiting).toHaveLength(1);
  expect(waiting[0]).toMatchObject({ status: "pending", attempts: 1 });

  await smtp.start();
  // The first retry comes 10 s after the failure; the loop looks every 5 s.
  const deadline = Date.now() + 30_000;
  const forMarie = () => smtp.received.filter((m) => m.to.includes(MARIE));
  while (forMarie().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  expect(forMarie()).toHaveLength(1);
  const code = /\b(\d{6})\b/.exec(forMarie()[0]!.raw)?.[1];
  expect(code).toMatch(/^\d{6}$/);
  expect(db.prepare("select status, body from mail_outbox where recipient = ?").all(MARIE)).toEqual([
    { status: "sent", body: "" },
  ]);

  const signedIn = await browser.post("/login/code", { intent: "verify", code: code! });
  expect(signedIn.status).toBe(302);
  expect(signedIn.headers.get("location")).toBe("/cards");
  // Another pass of the loop later sends nothing again.
  await new Promise((r) => setTimeout(r, 5_500));
  expect(forMarie()).toHaveLength(1);
}, 60_000);

test("SIGTERM stops the sender loop and the server cleanly", async () => {
  expect(await stopTestServer(server)).toBe(0);
});
