import { createECDH, randomBytes } from "node:crypto";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import type { DatabaseHandle } from "~/.server/db";
import type { Platform } from "~/.server/platform";
import { createAccount, type CreatedAccount } from "../../app/.server/db/factories";
import { openTestDatabase } from "../support/test-database";
import { browserSubscription } from "../support/push-service";
import { installTestPlatform } from "../support/test-platform";
import { getAccount } from "~/.server/services/accounts";
import { listPushSubscriptions, savePushSubscription } from "~/.server/services/push-subscriptions";
import { accountContext } from "~/routes/+shared/auth.server";
import { action, loader, PUSH_SUBSCRIPTION_MAX_BYTES } from "~/routes/settings/push";

/**
 * The browser's subscription route (issue 33 item 2, Contract B), as React Router calls it for a signed-in
 * person: a subscription is stored for that person only, every bad input is a 400 with a catalogue key and
 * nothing stored, and another person's subscription is never removed. (Without a session the signed-in
 * layout's middleware answers before this route runs: tests/e2e/push-settings.spec.ts posts without one.)
 * SQLite, or PostgreSQL with TEST_DATABASE_URL.
 */
let handle: DatabaseHandle;
let platform: Platform;
const ALLOWED = ["fcm.googleapis.com"];

beforeAll(async () => {
  handle = await openTestDatabase();
  platform = installTestPlatform(handle, "push-route-test-secret-0123456789abcdef");
});
afterAll(() => handle.close());

let me: CreatedAccount;
let other: CreatedAccount;

beforeEach(async () => {
  platform.webPush = {
    publicKey: createECDH("prime256v1").generateKeys().toString("base64url"),
    allowedHosts: ALLOWED,
  };
  const suffix = Math.random().toString(36).slice(2);
  me = await createAccount(handle.db, { email: `push-${suffix}@example.com`, passwordHash: "x" });
  other = await createAccount(handle.db, { email: `push-other-${suffix}@example.com`, passwordHash: "x" });
});

const ANDROID_CHROME =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";

async function post(account: CreatedAccount, form: Record<string, string>): Promise<Response> {
  const context = new RouterContextProvider();
  context.set(accountContext, (await getAccount(handle.db, account.userId))!);
  const request = new Request("http://localhost/settings/notifications/push", {
    method: "POST",
    headers: { "User-Agent": ANDROID_CHROME },
    body: new URLSearchParams(form),
  });
  return (await action({ request, context, params: {} } as never)) as Response;
}

const endpointsOf = async (account: CreatedAccount) =>
  (await listPushSubscriptions(handle.db, account.userId)).map((subscription) => subscription.endpoint);

describe("subscribe", () => {
  test("a browser's subscription is stored for the signed-in person: 200, not kept by any cache", async () => {
    const subscription = browserSubscription();
    const answer = await post(me, { intent: "subscribe", subscription: JSON.stringify(subscription) });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Cache-Control")).toBe("no-store");
    expect(await answer.json()).toEqual({ ok: true });
    expect(await endpointsOf(me)).toEqual([subscription.endpoint]);
    expect(await endpointsOf(other)).toEqual([]);
    // Named after the browser that posted it, as a passkey is.
    expect((await listPushSubscriptions(handle.db, me.userId))[0]?.deviceName).toBe("Chrome sur Android");
  });

  const valid = JSON.stringify(browserSubscription());
  test.each([
    ["no subscription", {}, "webPush.errors.invalid"],
    ["an empty one", { subscription: "" }, "webPush.errors.invalid"],
    ["text that is not JSON", { subscription: "{endpoint: https://fcm.googleapis.com" }, "webPush.errors.invalid"],
    ["JSON that is not a subscription", { subscription: JSON.stringify({ endpoint: 42 }) }, "webPush.errors.invalid"],
    [
      "keys of the wrong length",
      {
        subscription: JSON.stringify({
          ...browserSubscription(),
          keys: { p256dh: randomBytes(33).toString("base64url"), auth: randomBytes(8).toString("base64url") },
        }),
      },
      "webPush.errors.invalid",
    ],
    [
      "a subscription over 4 KB (a valid one padded)",
      { subscription: valid.replace("{", `{"padding":"${"x".repeat(PUSH_SUBSCRIPTION_MAX_BYTES)}",`) },
      "webPush.errors.invalid",
    ],
    [
      "a push service not allowed (the server never posts there)",
      { subscription: JSON.stringify(browserSubscription("https://push.example.net/send/abc")) },
      "webPush.errors.endpointNotAllowed",
    ],
    [
      "a loopback endpoint while 127.0.0.1 is not allowed",
      { subscription: JSON.stringify(browserSubscription("http://127.0.0.1:9/push/abc")) },
      "webPush.errors.endpointNotAllowed",
    ],
  ])("%s: 400 with its catalogue key, nothing stored", async (_, fields, error) => {
    const answer = await post(me, { intent: "subscribe", ...fields });
    expect(answer.status).toBe(400);
    expect(answer.headers.get("Cache-Control")).toBe("no-store");
    expect(await answer.json()).toEqual({ error });
    expect(await endpointsOf(me)).toEqual([]);
  });

  test("an unknown or missing intent: 400 as everywhere", async () => {
    for (const form of [{}, { intent: "subscribeAll", subscription: valid }] as Record<string, string>[]) {
      const answer = await post(me, form);
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({ error: "errors.unknownIntent" });
    }
    expect(await endpointsOf(me)).toEqual([]);
  });

  test("without VAPID keys the portal sends no Web Push: 404, nothing stored", async () => {
    platform.webPush = null;
    const answer = await post(me, { intent: "subscribe", subscription: valid });
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({ error: "webPush.errors.unavailable" });
    expect(await endpointsOf(me)).toEqual([]);
  });
});

describe("unsubscribe", () => {
  test("removes the person's own subscription of this endpoint", async () => {
    const mine = browserSubscription();
    await savePushSubscription(handle.db, me.userId, mine, { allowedHosts: ALLOWED });
    const answer = await post(me, { intent: "unsubscribe", endpoint: mine.endpoint });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Cache-Control")).toBe("no-store");
    expect(await answer.json()).toEqual({ ok: true });
    expect(await endpointsOf(me)).toEqual([]);
  });

  test("another person's subscription is never removed, even with its exact endpoint", async () => {
    const theirs = browserSubscription();
    await savePushSubscription(handle.db, other.userId, theirs, { allowedHosts: ALLOWED });
    const answer = await post(me, { intent: "unsubscribe", endpoint: theirs.endpoint });
    expect(answer.status).toBe(200);
    expect(await endpointsOf(other)).toEqual([theirs.endpoint]);
  });

  test.each([
    ["no endpoint", {}],
    ["an empty one", { endpoint: "" }],
    ["one over 1 KB", { endpoint: `https://fcm.googleapis.com/${"x".repeat(1024)}` }],
  ])("%s: 400, nothing removed", async (_, fields) => {
    const mine = browserSubscription();
    await savePushSubscription(handle.db, me.userId, mine, { allowedHosts: ALLOWED });
    const answer = await post(me, { intent: "unsubscribe", ...fields });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ error: "webPush.errors.invalid" });
    expect(await endpointsOf(me)).toEqual([mine.endpoint]);
  });
});

test("opened as a page, it leads to the notification settings", async () => {
  const answer = loader();
  expect(answer.status).toBe(302);
  expect(answer.headers.get("Location")).toBe("/settings/notifications");
});
