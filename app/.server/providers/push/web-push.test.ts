import { createECDH } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import webpush from "web-push";
import { formatCents } from "~/domain/money";
import { cardRequest, SUNDAY, TUESDAY } from "../../../../tests/support/payment-test-kit";
import { decryptAes128gcm, startPushService, type PushServiceStandIn } from "../../../../tests/support/push-service";
import { openTestDatabase } from "../../../../tests/support/test-database";
import type { DatabaseHandle } from "../../db";
import { createAccount, createAllowanceRow, type CreatedAccount } from "../../db/factories";
import { parseEnv } from "../../env";
import { newId } from "../../ids";
import type { Logger } from "../../logger";
import { reviewAllowance } from "../../services/allowances/review";
import { payWithCard } from "../../services/card-payments";
import {
  defaultNotificationPreferences,
  saveNotificationPreferences,
  type NotificationType,
} from "../../services/notification-preferences";
import { countPushSubscriptions, savePushSubscription } from "../../services/push-subscriptions";
import { reloadWallet } from "../../services/wallets";
import { SandboxMessenger } from "../messaging/sandbox";
import { SandboxPaymentProcessor } from "../payments/sandbox";
import { createPushSender, type PushSender } from "./index";
import { WEB_PUSH_TIMEOUT_MS, WebPushSender } from "./web-push";

/**
 * Web Push end to end (issue 33 item 2, decision 0063): the notifications of the four preference types, made by
 * their real services, reach every browser the person subscribed — as the local push service stand-in receives
 * and DECRYPTS them with each subscription's own keys (RFC 8291), not by trusting the library — and nothing when
 * the person turned push off for that type. A gone subscription (404, 410) is forgotten; a failing or silent push
 * service never fails the producer. SQLite, and PostgreSQL with TEST_DATABASE_URL.
 */
let handle: DatabaseHandle;
let service: PushServiceStandIn;
const vapid = webpush.generateVAPIDKeys();
const SUBJECT = "mailto:exploitation@portail.example";
const logs: { level: string; msg: string; fields: string }[] = [];
const logger: Logger = Object.fromEntries(
  (["debug", "info", "warn", "error"] as const).map((level) => [
    level,
    (msg: string, fields: Record<string, unknown> = {}) => logs.push({ level, msg, fields: JSON.stringify(fields) }),
  ]),
) as unknown as Logger;

/** The settings of a portal whose browsers subscribe with `vapid`, the stand-in being its one push service. */
const envWith = (extra: Record<string, string> = {}) =>
  parseEnv({
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    VAPID_SUBJECT: SUBJECT,
    PUSH_SERVICE_HOSTS: "127.0.0.1",
    LOG_LEVEL: "silent",
    ...extra,
  });
const allowed = { allowedHosts: ["127.0.0.1"] };

let push: PushSender;
beforeAll(async () => {
  handle = await openTestDatabase();
  service = await startPushService({ vapidPublicKey: vapid.publicKey });
  push = createPushSender(envWith(), handle.db, logger);
});
afterAll(async () => {
  await service.close();
  await handle.close();
});
afterEach(() => {
  service.received.length = 0;
  service.refused.length = 0;
  logs.length = 0;
});

/** A person with a card •••• 4242 on Titres-restaurant, a Cadeaux wallet, and push `on` for every type but `off`. */
async function person(off: NotificationType[] = []): Promise<CreatedAccount> {
  const account = await createAccount(
    handle.db,
    {
      email: `push-${newId("e")}@example.com`,
      passwordHash: "x",
      wallets: [
        { name: "Titres-restaurant", type: "meal", balance: 10000 },
        { name: "Cadeaux", type: "gift", balance: 1000 },
      ],
      cards: [{ type: "physical", lastFour: "4242", wallets: ["Titres-restaurant"] }],
    },
    TUESDAY,
  );
  const preferences = defaultNotificationPreferences();
  for (const type of Object.keys(preferences) as NotificationType[])
    preferences[type] = { mail: true, push: !off.includes(type) };
  await saveNotificationPreferences(handle.db, account.userId, preferences);
  return account;
}

/** `count` browsers of the person subscribed on the stand-in; their endpoints. */
async function devices(account: CreatedAccount, count: number): Promise<string[]> {
  const endpoints: string[] = [];
  for (let i = 0; i < count; i++) {
    const subscription = service.newSubscription();
    expect((await savePushSubscription(handle.db, account.userId, subscription, allowed)).kind).toBe("ok");
    endpoints.push(subscription.endpoint);
  }
  return endpoints;
}

const deps = () => ({
  db: handle.db,
  messenger: new SandboxMessenger(handle.db),
  push,
  payments: new SandboxPaymentProcessor(handle.db),
  logger,
});

interface Produced {
  /** What the notification says (French, no-break spaces as plain ones) and the page it opens. */
  says: string | RegExp;
  path: string;
}

/** The four preferences of /settings/notifications, each through the service that makes its notification. */
const producers: { preference: NotificationType; run: (account: CreatedAccount) => Promise<Produced> }[] = [
  {
    preference: "cardAuthorizationApproved",
    run: async (account) => {
      const { result, settled } = await payWithCard(deps(), cardRequest(account.cards["4242"]!));
      await settled;
      expect(result.kind).toBe("approved");
      const id = (result as { authorizationId: string }).authorizationId;
      return {
        says: `Paiement de ${plain(formatCents(1250))} chez Le Petit Café accepté.`,
        path: `/cards/${account.cards["4242"]}#tx-${id}`,
      };
    },
  },
  {
    preference: "cardAuthorizationDeclined",
    run: async (account) => {
      const { result, settled } = await payWithCard(deps(), cardRequest(account.cards["4242"]!, { at: SUNDAY }));
      await settled;
      expect(result).toMatchObject({ kind: "declined", code: "meal_sunday" });
      const id = (result as { authorizationId: string }).authorizationId;
      return {
        says: `Paiement de ${plain(formatCents(1250))} chez Le Petit Café refusé : les titres-restaurant ne s'utilisent pas le dimanche.`,
        path: `/cards/${account.cards["4242"]}?tab=declined#tx-${id}`,
      };
    },
  },
  {
    preference: "expenseRequests",
    run: async (account) => {
      const { id } = await createAllowanceRow(handle.db, { user_id: account.userId, group_id: account.groupId });
      const { messenger } = deps();
      expect((await reviewAllowance(handle.db, id, { kind: "approve" }, { messenger, push })).kind).toBe("approved");
      return {
        says: /^Demande d’indemnité de 24,00 € \(Covoiturage, du \d\d\/\d\d\/\d{4} au \d\d\/\d\d\/\d{4}\) acceptée : elle sera versée chaque mois\.$/,
        path: `/plans/allowances#alw-${id}`,
      };
    },
  },
  {
    preference: "wallets",
    run: async (account) => {
      const walletId = account.wallets.Cadeaux!;
      const deposit = { amount: 4000, startDate: "2026-11-24", endDate: "2027-12-31" };
      const reloaded = await reloadWallet(deps(), walletId, deposit, new Date("2026-11-24T10:00:00Z"));
      expect(reloaded.kind).toBe("reloaded");
      return {
        says: "Portefeuille Cadeaux rechargé de 40,00 € (solde 50,00 €), à utiliser jusqu’au 31/12/2027.",
        path: `/wallets/${walletId}`,
      };
    },
  },
];

/** French money puts a no-break space before "€": compared here as a plain space. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

const sandboxPushesOf = (account: CreatedAccount) =>
  handle.db
    .selectFrom("outbox")
    .select("body")
    .where("channel", "=", "push")
    .where("recipient", "=", account.userId)
    .execute();

describe("the four notification types reach every subscribed browser, decrypted by the push service", () => {
  for (const producer of producers)
    test(`${producer.preference}: each of three devices gets the French notification and its page`, async () => {
      const account = await person();
      const endpoints = await devices(account, 3);
      const bystander = await person();
      const [elsewhere] = await devices(bystander, 1);
      const { says, path } = await producer.run(account);
      expect(service.refused).toEqual([]);
      expect(service.received.map((push) => push.endpoint).sort()).toEqual([...endpoints].sort());
      expect(service.received.map((push) => push.endpoint)).not.toContain(elsewhere);
      for (const received of service.received) {
        const payload = received.json as { title: string; body: string; path: string | null; tag: string };
        expect(Object.keys(payload).sort()).toEqual(["body", "path", "tag", "title"]);
        expect(payload.title).toBe("Nouvelle notification");
        expect(plain(payload.body)).toMatch(says);
        expect(payload.path).toBe(path);
        expect(payload.tag).toBe(path);
        // Encrypted, signed for this push service by this server, kept a day at most; well under 3 KB.
        expect(received.vapid).toMatchObject({ sub: SUBJECT, aud: service.origin, publicKey: vapid.publicKey });
        expect(received.ttl).toBe("86400");
        expect(received.bodyBytes).toBeLessThan(3072);
      }
      // Sandbox mode keeps its outbox row (/dev/outbox) beside the browsers' pushes.
      expect(await sandboxPushesOf(account)).toHaveLength(1);
    });

  for (const producer of producers)
    test(`${producer.preference} with push off for it: no device receives anything`, async () => {
      const account = await person([producer.preference]);
      await devices(account, 2);
      await producer.run(account);
      expect(service.received).toEqual([]);
      expect(service.refused).toEqual([]);
      expect(await sandboxPushesOf(account)).toEqual([]);
    });

  test("push off for one type leaves the others on", async () => {
    const account = await person(["cardAuthorizationDeclined"]);
    const [phone] = await devices(account, 1);
    await producers[0]!.run(account);
    await producers[1]!.run(account);
    expect(service.received.map((push) => [push.endpoint, (push.json as { path: string }).path])).toEqual([
      [phone, expect.stringMatching(/^\/cards\/[^?]+#tx-/) as unknown],
    ]);
  });
});

describe("devices that are gone or whose push service fails", () => {
  for (const status of [404, 410] as const)
    test(`${status}: that subscription is removed, the others still receive the push`, async () => {
      const account = await person();
      const [gone, kept] = await devices(account, 2);
      service.behave(gone!, status);
      await producers[3]!.run(account);
      expect(service.received.map((push) => push.endpoint)).toEqual([kept]);
      expect(await countPushSubscriptions(handle.db, account.userId)).toBe(1);
      const rows = await handle.db
        .selectFrom("push_subscriptions")
        .select("endpoint")
        .where("endpoint", "=", gone!)
        .execute();
      expect(rows).toEqual([]);
      expect(logs).toContainEqual(expect.objectContaining({ msg: "push subscription gone: removed" }));
    });

  test("500: the producer succeeds, the subscription is kept, the failure is logged", async () => {
    const account = await person();
    const [failing, fine] = await devices(account, 2);
    service.behave(failing!, 500);
    await producers[0]!.run(account);
    expect(service.received.map((push) => push.endpoint)).toEqual([fine]);
    expect(await countPushSubscriptions(handle.db, account.userId)).toBe(2);
    expect(logs).toContainEqual(expect.objectContaining({ level: "warn", msg: "push refused by its push service" }));
  });

  test("a push service that never answers: the producer goes on after the timeout, the others received it", async () => {
    const account = await person();
    const [silent, fine] = await devices(account, 2);
    service.behave(silent!, "hang");
    const began = performance.now();
    await producers[3]!.run(account);
    const waited = performance.now() - began;
    expect(waited).toBeGreaterThanOrEqual(WEB_PUSH_TIMEOUT_MS - 50);
    expect(waited).toBeLessThan(WEB_PUSH_TIMEOUT_MS + 2000);
    expect(service.received.map((push) => push.endpoint)).toEqual([fine]);
    expect(await countPushSubscriptions(handle.db, account.userId)).toBe(2);
    expect(logs).toContainEqual(expect.objectContaining({ msg: "push not delivered" }));
  }, 15_000);

  test("the logs name the push service and the status, never the endpoint's path nor the person", async () => {
    const account = await person();
    const endpoints = await devices(account, 3);
    service.behave(endpoints[0]!, 410);
    service.behave(endpoints[1]!, 500);
    await producers[1]!.run(account);
    expect(logs.length).toBeGreaterThan(0);
    const written = JSON.stringify(logs);
    for (const endpoint of endpoints) expect(written).not.toContain(new URL(endpoint).pathname.split("/").at(-1));
    expect(written).not.toContain(account.userId);
    expect(written).not.toContain(account.email);
    expect(written).not.toContain("Petit Café");
  });

  test("twenty devices, every one silent: the producer waits at most three timeouts (eight at a time)", async () => {
    const account = await person();
    const endpoints = await devices(account, 20);
    for (const endpoint of endpoints) service.behave(endpoint, "hang");
    const quick = new WebPushSender(handle.db, {
      vapid: { ...vapid, subject: SUBJECT },
      ...allowed,
      logger,
      timeoutMs: 200,
    });
    const began = performance.now();
    await quick.send({ userId: account.userId, title: "Titre", body: "Texte", path: null });
    const waited = performance.now() - began;
    expect(waited).toBeGreaterThanOrEqual(3 * 200 - 50);
    expect(waited).toBeLessThan(3 * 200 + 1500);
    expect(await countPushSubscriptions(handle.db, account.userId)).toBe(20);
  });
});

describe("only the allowed push services are ever contacted", () => {
  test("a subscription saved when its host was allowed is not contacted once the list no longer names it", async () => {
    const account = await person();
    await devices(account, 2);
    const narrowed = createPushSender(envWith({ PUSH_SERVICE_HOSTS: "fcm.googleapis.com" }), handle.db, logger);
    await narrowed.send({ userId: account.userId, title: "Titre", body: "Texte", path: "/cards" });
    expect(service.received).toEqual([]);
    expect(service.refused).toEqual([]);
    expect(logs).toContainEqual(
      expect.objectContaining({ msg: "push not sent: the endpoint is not one of the allowed push services" }),
    );
    // Not forgotten: the list may be widened again.
    expect(await countPushSubscriptions(handle.db, account.userId)).toBe(2);
  });
});

describe("the payload", () => {
  test("a long text is cut so that the encrypted body stays under 3 KB; a pathless push gets a tag of its own", async () => {
    const account = await person();
    await devices(account, 1);
    const message = { userId: account.userId, title: "É".repeat(500), body: "Ceci est long. ".repeat(500), path: null };
    await push.send(message);
    await push.send(message);
    const payloads = service.received.map((received) => received.json as { title: string; body: string; tag: string });
    expect(payloads).toHaveLength(2);
    expect(Array.from(payloads[0]!.title)).toHaveLength(120);
    expect(payloads[0]!.body.endsWith("…")).toBe(true);
    expect(service.received[0]!.bodyBytes).toBeLessThan(3072);
    expect(payloads[0]!.tag).not.toBe(payloads[1]!.tag);
  });
});

describe("which senders the settings make", () => {
  test("sandbox mode with VAPID keys: the outbox and the browsers; without: the outbox alone", () => {
    expect(createPushSender(envWith(), handle.db, logger).name).toBe("sandbox+web-push");
    expect(createPushSender(parseEnv({ LOG_LEVEL: "silent" }), handle.db, logger).name).toBe("sandbox");
  });

  test("production mode: the browsers with VAPID keys, no push at all without (nobody reads an outbox there)", async () => {
    const production = {
      APP_MODE: "production",
      SESSION_SECRET: "s".repeat(40),
      SMTP_URL: "smtp://127.0.0.1:2525",
      BREVO_API_KEY: "xkeysib-test",
    };
    expect(createPushSender(envWith(production), handle.db, logger).name).toBe("web-push");
    const none = createPushSender(parseEnv({ ...production, LOG_LEVEL: "silent" }), handle.db, logger);
    expect(none.name).toBe("none");
    const account = await person();
    await devices(account, 1);
    await none.send({ userId: account.userId, title: "Titre", body: "Texte", path: null });
    expect(service.received).toEqual([]);
    expect(await sandboxPushesOf(account)).toEqual([]);
  });
});

describe("the push service stand-in checks what it is sent (so that the tests above can fail)", () => {
  test("its decryption is RFC 8291's own: the example of the RFC's appendix A gives the RFC's plaintext", () => {
    const ecdh = createECDH("prime256v1");
    ecdh.setPrivateKey(Buffer.from("q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94", "base64url"));
    const body = Buffer.from(
      "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3" +
        "jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN",
      "base64url",
    );
    const auth = Buffer.from("BTBZMqHH6r4Tts7J_aSIgg", "base64url");
    expect(decryptAes128gcm(body, { ecdh, publicKey: ecdh.getPublicKey(), auth })).toBe(
      "When I grow up, I want to be a watermelon",
    );
    // One bit changed in the record: AES-GCM's tag no longer holds.
    body.writeUInt8(body.readUInt8(body.length - 20) ^ 1, body.length - 20);
    expect(() => decryptAes128gcm(body, { ecdh, publicKey: ecdh.getPublicKey(), auth })).toThrow();
  });

  test("a token signed by another key than the one announced, or for another push service, is refused", async () => {
    const account = await person();
    const [endpoint] = await devices(account, 1);
    const subscription = await handle.db
      .selectFrom("push_subscriptions")
      .select(["p256dh", "auth"])
      .where("endpoint", "=", endpoint!)
      .executeTakeFirstOrThrow();
    const target = { endpoint: endpoint!, keys: { p256dh: subscription.p256dh, auth: subscription.auth } };
    const request = webpush.generateRequestDetails(target, "{}", {
      vapidDetails: { ...vapid, subject: SUBJECT },
      contentEncoding: "aes128gcm",
    });
    const other = webpush.generateVAPIDKeys();
    const forged = String(request.headers.Authorization).replace(/k=.*$/, `k=${other.publicKey}`);
    const post = (authorization: string) =>
      fetch(endpoint!, {
        method: "POST",
        headers: { ...stringHeaders(request.headers), Authorization: authorization },
        body: new Uint8Array(request.body),
      });
    expect((await post(forged)).status).toBe(401);
    const elsewhere = webpush.generateRequestDetails({ ...target, endpoint: "https://fcm.googleapis.com/x" }, "{}", {
      vapidDetails: { ...vapid, subject: SUBJECT },
      contentEncoding: "aes128gcm",
    });
    expect((await post(String(elsewhere.headers.Authorization))).status).toBe(401);
    expect(service.refused.map((refusal) => refusal.reason)).toEqual([
      "another application server key",
      "aud is not this push service",
    ]);
    // The genuine request, once, is accepted and decrypted.
    expect((await post(String(request.headers.Authorization))).status).toBe(201);
    expect(service.received.map((received) => received.text)).toEqual(["{}"]);
  });

  test("a body encrypted for another subscription cannot be decrypted", async () => {
    const account = await person();
    const [mine] = await devices(account, 1);
    const stranger = service.newSubscription();
    const request = webpush.generateRequestDetails(stranger, "secret", {
      vapidDetails: { ...vapid, subject: SUBJECT },
      contentEncoding: "aes128gcm",
    });
    const mineRequest = webpush.generateRequestDetails({ ...stranger, endpoint: mine! }, "secret", {
      vapidDetails: { ...vapid, subject: SUBJECT },
      contentEncoding: "aes128gcm",
    });
    const answer = await fetch(mine!, {
      method: "POST",
      headers: stringHeaders(mineRequest.headers),
      body: new Uint8Array(request.body),
    });
    expect(answer.status).toBe(400);
    expect(service.refused[0]!.reason).toMatch(/^cannot decrypt/);
  });
});

function stringHeaders(headers: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, String(value)]));
}
