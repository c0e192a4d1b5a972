import { afterAll, beforeAll, expect, test } from "vitest";
import { startSmtpStandIn, type SmtpStandIn } from "../support/smtp-server";
import type { DatabaseHandle } from "~/.server/db";
import { createAccount } from "../../app/.server/db/factories";
import { openTestDatabase } from "../support/test-database";
import { hashPassword } from "~/.server/passwords";
import { OutboxMessenger, RETRY_DELAYS_MS } from "~/.server/providers/messaging/outbox";
import { SmtpMessenger } from "~/.server/providers/messaging/smtp";
import { codeSequence, setCodeGenerator } from "~/.server/services/codes";
import { getSession } from "~/routes/+shared/request.server";
import { action as loginAction } from "~/routes/auth/login";
import { action as loginCodeAction } from "~/routes/auth/login-code";
import { action as lostPasswordAction } from "~/routes/auth/lost-password";
import { installTestPlatform } from "../support/test-platform";
import { loginCodePage, routePost } from "../support/route-calls";

/**
 * The SMTP server down when a code is sent (issue 18 §5, decision 0042), seen from the pages: the sign-in's code
 * step and the lost-password page say the e-mail could not leave yet and will by itself, never "sent"; the code
 * that leaves once SMTP is back signs in. The route modules' actions are called as React Router calls them, with
 * the platform's messenger the outbox over a real SMTP server on loopback.
 */
const PASSWORD = "Un-Mot-De-Passe-2026!";
let handle: DatabaseHandle;
let smtp: SmtpStandIn;
let outbox: OutboxMessenger;

beforeAll(async () => {
  handle = await openTestDatabase();
  const platform = installTestPlatform(handle, "mail-outbox-pages-secret-0123456789abcdef");
  smtp = await startSmtpStandIn();
  outbox = new OutboxMessenger(handle.db, {
    transport: new SmtpMessenger({ url: smtp.url, from: "Portail <no-reply@portail.example>" }),
  });
  platform.messenger = outbox;
  await createAccount(handle.db, { email: "lea.outbox@example.com", passwordHash: await hashPassword(PASSWORD) });
});
afterAll(async () => {
  await outbox.stop();
  await smtp.stop();
  await handle.close();
});

/** The session cookie a response sets (name=value), to send back as the browser does. */
const cookieOf = (response: Response) => response.headers.get("Set-Cookie")!.split(";")[0]!;

test("SMTP down at sign-in: the code page says the e-mail will leave by itself; SMTP back, that code signs in", async () => {
  await smtp.stop();
  const restore = setCodeGenerator(codeSequence("314159"));
  let response: Response;
  try {
    response = (await loginAction(
      routePost("/login", { email: "lea.outbox@example.com", password: PASSWORD, redirectTo: "/cards" }) as never,
    )) as Response;
  } finally {
    restore();
  }
  expect(response.status).toBe(302);
  expect(response.headers.get("Location")).toBe("/login/code");
  const cookie = cookieOf(response);
  const session = await getSession(new Request("http://localhost/login/code", { headers: { Cookie: cookie } }));
  expect(session.get("flash")).toEqual({ kind: "info", message: "auth.code.delayed" });
  // Shown again (a reload), the page still does not say the code was sent.
  expect(await loginCodePage(cookie)).toMatchObject({ delivery: "delayed" });
  const waiting = await handle.db.selectFrom("mail_outbox").selectAll().execute();
  expect(waiting).toMatchObject([{ recipient: "lea.outbox@example.com", status: "pending", attempts: 1 }]);

  // SMTP is back: the sender loop's next pass delivers the code, once.
  await smtp.start();
  expect(await outbox.deliverDue(new Date(Date.now() + RETRY_DELAYS_MS[0] + 1_000))).toBe(1);
  expect(smtp.received).toHaveLength(1);
  expect(smtp.received[0]!.raw).toContain("314159");
  expect(await handle.db.selectFrom("mail_outbox").select("body").execute()).toEqual([{ body: "" }]);
  expect(await loginCodePage(cookie)).toMatchObject({ delivery: null });

  const signedIn = (await loginCodeAction(
    routePost("/login/code", { intent: "verify", code: "314159" }, cookie) as never,
  )) as Response;
  expect(signedIn.status).toBe(302);
  expect(signedIn.headers.get("Location")).toBe("/cards");
});

test("SMTP down: the lost-password page says e-mails are not leaving, for any address alike", async () => {
  await smtp.stop();
  await handle.db.deleteFrom("mail_outbox").execute();
  const known = await lostPasswordAction(routePost("/lost-password", { email: "lea.outbox@example.com" }) as never);
  // The known address's e-mail is sent after the answer: wait until it has been tried.
  for (let i = 0; i < 100; i++) {
    const row = await handle.db.selectFrom("mail_outbox").select("attempts").executeTakeFirst();
    if (row && row.attempts > 0) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const unknown = await lostPasswordAction(routePost("/lost-password", { email: "personne@example.com" }) as never);
  const again = await lostPasswordAction(routePost("/lost-password", { email: "lea.outbox@example.com" }) as never);
  expect(unknown).toMatchObject({ initialValue: null, mailDelayed: true });
  expect(again).toMatchObject({ initialValue: null, mailDelayed: true });
  expect(known).toMatchObject({ initialValue: null });

  // SMTP back and the mail sent: the page says "sent" again.
  await smtp.start();
  await outbox.deliverDue(new Date(Date.now() + RETRY_DELAYS_MS[0] + 1_000));
  expect(
    await lostPasswordAction(routePost("/lost-password", { email: "personne@example.com" }) as never),
  ).toMatchObject({
    mailDelayed: false,
  });
});
