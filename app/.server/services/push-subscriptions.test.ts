import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEFAULT_PUSH_SERVICE_HOSTS, PUSH_SUBSCRIPTION_LIMIT } from "~/domain/push";
import { browserSubscription } from "../../../tests/support/push-service";
import { openTestDatabase } from "../../../tests/support/test-database";
import type { DatabaseHandle } from "../db";
import { buildUser } from "../db/factories";
import {
  countPushSubscriptions,
  forgetGonePushTarget,
  listPushSubscriptions,
  pushTargets,
  removePushSubscription,
  savePushSubscription,
} from "./push-subscriptions";

/**
 * The browsers' subscriptions (issue 33 item 2, decision 0063) on SQLite and PostgreSQL: saved, moved, removed
 * only by their owner, bounded per account; every bad endpoint and key refused before anything is stored.
 */
let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openTestDatabase();
});
afterAll(() => handle.close());

const options = { allowedHosts: DEFAULT_PUSH_SERVICE_HOSTS };

async function addUser(): Promise<string> {
  const user = buildUser({ email: `${crypto.randomUUID()}@example.com`, created_at: new Date().toISOString() });
  await handle.db.insertInto("users").values(user).execute();
  return user.id;
}

const rowsOf = (endpoint: string) =>
  handle.db.selectFrom("push_subscriptions").selectAll().where("endpoint", "=", endpoint).execute();

describe("saving", () => {
  test("a browser's subscription is kept for the person, with its device's name", async () => {
    const marie = await addUser();
    const chrome = browserSubscription();
    const saved = await savePushSubscription(handle.db, marie, chrome, {
      ...options,
      deviceName: " Chrome sur Android ",
    });
    expect(saved).toEqual({ kind: "ok", id: expect.stringMatching(/^psub_/) as unknown });
    expect(await listPushSubscriptions(handle.db, marie)).toEqual([
      {
        id: (saved as { id: string }).id,
        endpoint: chrome.endpoint,
        deviceName: "Chrome sur Android",
        createdAt: expect.any(String) as unknown,
      },
    ]);
    expect(await countPushSubscriptions(handle.db, marie)).toBe(1);
    expect(await pushTargets(handle.db, marie)).toMatchObject([{ endpoint: chrome.endpoint, keys: chrome.keys }]);
  });

  test("every push service of the default list is accepted, subdomains included", async () => {
    const marie = await addUser();
    for (const endpoint of [
      "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk",
      "https://web.push.apple.com/QGm4Yv1xwM",
      "https://wns2-par02p.notify.windows.com/w/?token=BQYAAA",
    ])
      expect((await savePushSubscription(handle.db, marie, browserSubscription(endpoint), options)).kind).toBe("ok");
  });

  test("the same endpoint saved again is one subscription with the new keys, saved later", async () => {
    const marie = await addUser();
    const first = browserSubscription();
    const saved = await savePushSubscription(handle.db, marie, first, options, new Date("2026-11-01T10:00:00Z"));
    const renewed = { ...browserSubscription(first.endpoint) };
    const again = await savePushSubscription(handle.db, marie, renewed, options, new Date("2026-11-02T10:00:00Z"));
    expect(again).toEqual(saved);
    const rows = await rowsOf(first.endpoint);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      p256dh: renewed.keys.p256dh,
      auth: renewed.keys.auth,
      created_at: "2026-11-01T10:00:00.000Z",
      updated_at: "2026-11-02T10:00:00.000Z",
    });
  });

  test("an endpoint another person subscribed on moves to whoever subscribed last", async () => {
    const marie = await addUser();
    const paul = await addUser();
    const shared = browserSubscription();
    await savePushSubscription(handle.db, marie, shared, options);
    expect((await savePushSubscription(handle.db, paul, browserSubscription(shared.endpoint), options)).kind).toBe(
      "ok",
    );
    expect(await listPushSubscriptions(handle.db, marie)).toEqual([]);
    expect((await listPushSubscriptions(handle.db, paul)).map((row) => row.endpoint)).toEqual([shared.endpoint]);
  });

  test("a device name is cut to 80 characters, and a blank one is none", async () => {
    const marie = await addUser();
    await savePushSubscription(handle.db, marie, browserSubscription(), { ...options, deviceName: "x".repeat(300) });
    await savePushSubscription(handle.db, marie, browserSubscription(), { ...options, deviceName: "   " });
    const names = (await listPushSubscriptions(handle.db, marie)).map((row) => row.deviceName);
    expect(names.sort()).toEqual(["x".repeat(80), null].sort());
  });

  test("padded base64url keys are accepted and kept without their padding", async () => {
    const marie = await addUser();
    const chrome = browserSubscription();
    const padded = { ...chrome, keys: { p256dh: `${chrome.keys.p256dh}=`, auth: `${chrome.keys.auth}==` } };
    expect((await savePushSubscription(handle.db, marie, padded, options)).kind).toBe("ok");
    expect(await rowsOf(chrome.endpoint)).toMatchObject([{ p256dh: chrome.keys.p256dh, auth: chrome.keys.auth }]);
  });
});

describe("bad endpoints are refused and nothing is stored", () => {
  const cases: [string, string, "invalid" | "endpointNotAllowed"][] = [
    ["not a URL", "fcm.googleapis.com/fcm/send/abc", "invalid"],
    ["an empty endpoint", "", "invalid"],
    ["another scheme", "ftp://fcm.googleapis.com/fcm/send/abc", "invalid"],
    ["a javascript: URL", "javascript:alert(1)", "invalid"],
    ["longer than 1,024 characters", `https://fcm.googleapis.com/fcm/send/${"a".repeat(1000)}`, "invalid"],
    ["plain http to a push service", "http://fcm.googleapis.com/fcm/send/abc", "endpointNotAllowed"],
    ["a host outside the list", "https://push.example.com/abc", "endpointNotAllowed"],
    ["a look-alike ending in the same letters", "https://evilfcm.googleapis.com/abc", "endpointNotAllowed"],
    ["a listed host as a subdomain of another", "https://fcm.googleapis.com.evil.example/abc", "endpointNotAllowed"],
    ["a private address", "https://10.0.0.7/fcm/send/abc", "endpointNotAllowed"],
    ["a home router", "https://192.168.1.1/abc", "endpointNotAllowed"],
    ["the cloud metadata address", "https://169.254.169.254/latest/meta-data", "endpointNotAllowed"],
    ["IPv6 loopback", "https://[::1]/abc", "endpointNotAllowed"],
    ["loopback when the list does not name it", "http://127.0.0.1:8080/push/abc", "endpointNotAllowed"],
    ["localhost", "https://localhost/abc", "endpointNotAllowed"],
    ["a user name before the host", "https://user:pw@fcm.googleapis.com/fcm/send/abc", "endpointNotAllowed"],
    ["another port", "https://fcm.googleapis.com:8443/fcm/send/abc", "endpointNotAllowed"],
  ];
  for (const [what, endpoint, kind] of cases)
    test(what, async () => {
      const marie = await addUser();
      expect(await savePushSubscription(handle.db, marie, browserSubscription(endpoint), options)).toEqual({ kind });
      expect(await countPushSubscriptions(handle.db, marie)).toBe(0);
    });

  test("loopback is allowed only when the list names 127.0.0.1 (the tests' push service)", async () => {
    const marie = await addUser();
    const local = browserSubscription("http://127.0.0.1:8080/push/abc");
    expect((await savePushSubscription(handle.db, marie, local, { allowedHosts: ["127.0.0.1"] })).kind).toBe("ok");
  });
});

describe("bad keys are refused and nothing is stored", () => {
  const good = browserSubscription();
  const point = Buffer.from(good.keys.p256dh, "base64url");
  const offCurve = Buffer.from(point);
  offCurve.writeUInt8(offCurve.readUInt8(64) ^ 1, 64);
  const compressed = Buffer.concat([Buffer.from([2]), point.subarray(1, 33)]);
  const cases: [string, unknown][] = [
    ["a public key of 64 bytes", { ...good, keys: { ...good.keys, p256dh: point.subarray(1).toString("base64url") } }],
    [
      "a public key of 66 bytes",
      { ...good, keys: { ...good.keys, p256dh: Buffer.concat([point, Buffer.from([0])]).toString("base64url") } },
    ],
    ["a compressed public key", { ...good, keys: { ...good.keys, p256dh: compressed.toString("base64url") } }],
    ["a point that is not on the curve", { ...good, keys: { ...good.keys, p256dh: offCurve.toString("base64url") } }],
    [
      "a public key in standard base64",
      { ...good, keys: { ...good.keys, p256dh: point.toString("base64").replace(/=+$/, "").replace(/^(.)/, "+") } },
    ],
    ["a public key with spaces", { ...good, keys: { ...good.keys, p256dh: ` ${good.keys.p256dh}` } }],
    ["a secret of 15 bytes", { ...good, keys: { ...good.keys, auth: randomBytes(15).toString("base64url") } }],
    ["a secret of 32 bytes", { ...good, keys: { ...good.keys, auth: randomBytes(32).toString("base64url") } }],
    ["a secret that is not base64url", { ...good, keys: { ...good.keys, auth: "not*base64url!!!" } }],
    ["no keys", { endpoint: good.endpoint }],
    ["keys that are text", { endpoint: good.endpoint, keys: "p256dh" }],
    ["an expiry already past", { ...good, expirationTime: Date.now() - 1000 }],
    ["an expiry that is text", { ...good, expirationTime: "tomorrow" }],
    ["nothing", null],
    ["a string", JSON.stringify(good)],
    ["an array", [good]],
  ];
  for (const [what, input] of cases)
    test(what, async () => {
      const marie = await addUser();
      expect(await savePushSubscription(handle.db, marie, input, options)).toEqual({ kind: "invalid" });
      expect(await countPushSubscriptions(handle.db, marie)).toBe(0);
    });

  test("an expiry ahead is accepted (the push service tells when it is gone)", async () => {
    const marie = await addUser();
    const later = { ...browserSubscription(), expirationTime: Date.now() + 86_400_000 };
    expect((await savePushSubscription(handle.db, marie, later, options)).kind).toBe("ok");
  });
});

describe("removing and forgetting", () => {
  test("a person removes their own subscription; another person's cannot be removed by them", async () => {
    const marie = await addUser();
    const paul = await addUser();
    const paulsPhone = browserSubscription();
    await savePushSubscription(handle.db, paul, paulsPhone, options);
    expect(await removePushSubscription(handle.db, marie, paulsPhone.endpoint)).toBe(false);
    expect(await countPushSubscriptions(handle.db, paul)).toBe(1);
    expect(await removePushSubscription(handle.db, paul, paulsPhone.endpoint)).toBe(true);
    expect(await countPushSubscriptions(handle.db, paul)).toBe(0);
    expect(await removePushSubscription(handle.db, paul, paulsPhone.endpoint)).toBe(false);
  });

  test("a gone subscription is forgotten, unless the browser saved it again since it was read", async () => {
    const marie = await addUser();
    const chrome = browserSubscription();
    await savePushSubscription(handle.db, marie, chrome, options, new Date("2026-11-01T10:00:00Z"));
    const [stale] = await pushTargets(handle.db, marie);
    await savePushSubscription(
      handle.db,
      marie,
      browserSubscription(chrome.endpoint),
      options,
      new Date("2026-11-01T11:00:00Z"),
    );
    expect(await forgetGonePushTarget(handle.db, stale!)).toBe(false);
    const [fresh] = await pushTargets(handle.db, marie);
    expect(await forgetGonePushTarget(handle.db, fresh!)).toBe(true);
    expect(await countPushSubscriptions(handle.db, marie)).toBe(0);
  });

  test("an account removed takes its subscriptions with it, and nobody else's", async () => {
    const marie = await addUser();
    const paul = await addUser();
    await savePushSubscription(handle.db, marie, browserSubscription(), options);
    await savePushSubscription(handle.db, paul, browserSubscription(), options);
    await handle.db.deleteFrom("users").where("id", "=", marie).execute();
    expect(await countPushSubscriptions(handle.db, marie)).toBe(0);
    expect(await countPushSubscriptions(handle.db, paul)).toBe(1);
  });
});

describe("the limit per account", () => {
  test(`1,000 subscriptions from one account: ${PUSH_SUBSCRIPTION_LIMIT} kept, the most recently saved`, async () => {
    const marie = await addUser();
    const paul = await addUser();
    await savePushSubscription(handle.db, paul, browserSubscription(), options);
    const start = Date.parse("2026-11-01T10:00:00Z");
    const endpoints: string[] = [];
    const began = performance.now();
    for (let i = 0; i < 1000; i++) {
      const next = browserSubscription();
      endpoints.push(next.endpoint);
      // One millisecond apart, then ten at the very same instant: the one just saved is never the one dropped.
      const at = new Date(start + Math.min(i, 990));
      expect((await savePushSubscription(handle.db, marie, next, options, at)).kind).toBe("ok");
      expect(await countPushSubscriptions(handle.db, marie)).toBe(Math.min(i + 1, PUSH_SUBSCRIPTION_LIMIT));
    }
    const elapsed = performance.now() - began;
    const kept = (await listPushSubscriptions(handle.db, marie)).map((row) => row.endpoint);
    expect(kept).toHaveLength(PUSH_SUBSCRIPTION_LIMIT);
    expect(kept).toContain(endpoints.at(-1));
    // Those saved at distinct instants before the last ten go in order: none of the first 980 is kept.
    expect(kept.filter((endpoint) => endpoints.indexOf(endpoint) < 980)).toEqual([]);
    expect(await countPushSubscriptions(handle.db, paul)).toBe(1);
    // Measured: about 1 s on SQLite and 2 s on PostgreSQL for the 1,000 saves and counts on this machine.
    expect(elapsed).toBeLessThan(15_000);
  }, 30_000);

  test("saving again an old subscription makes it the most recent: it is not the one dropped", async () => {
    const marie = await addUser();
    const start = Date.parse("2026-11-01T10:00:00Z");
    const first = browserSubscription();
    await savePushSubscription(handle.db, marie, first, options, new Date(start));
    for (let i = 1; i < PUSH_SUBSCRIPTION_LIMIT; i++)
      await savePushSubscription(handle.db, marie, browserSubscription(), options, new Date(start + i * 1000));
    await savePushSubscription(handle.db, marie, first, options, new Date(start + 100_000));
    const newest = browserSubscription();
    await savePushSubscription(handle.db, marie, newest, options, new Date(start + 200_000));
    const kept = (await listPushSubscriptions(handle.db, marie)).map((row) => row.endpoint);
    expect(kept).toHaveLength(PUSH_SUBSCRIPTION_LIMIT);
    expect(kept.slice(0, 2)).toEqual([newest.endpoint, first.endpoint]);
  });
});
