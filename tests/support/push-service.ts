import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify, type ECDH } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A stand-in for a browser's push service (issue 33 item 2, decision 0063) on loopback, for tests. Like FCM or
 * Mozilla's autopush it takes a POST on a subscription's endpoint, refuses one whose VAPID `Authorization` does not
 * hold (RFC 8292: an ES256 token signed by the key of its `k=`, for this origin, not expired nor more than a day
 * ahead, with a mailto: or https: subject), and answers 201. It then does what the browser would: it DECRYPTS the
 * body with the subscription's private key and authentication secret (RFC 8291 over RFC 8188's aes128gcm), written
 * here with node:crypto alone — never the `web-push` library under test — and keeps the plaintext.
 */

/** A push the stand-in accepted, as the browser would have decrypted it. */
export interface ReceivedPush {
  endpoint: string;
  /** The decrypted payload, as text and parsed (null when it is not JSON). */
  text: string;
  json: unknown;
  /** How many bytes went over the wire (the encrypted body). */
  bodyBytes: number;
  ttl: string | undefined;
  urgency: string | undefined;
  /** The VAPID token's claims and the key it was checked with. */
  vapid: { sub: string; aud: string; exp: number; publicKey: string };
}

/** A request the stand-in refused, and why (a 4xx of the push service, or the stand-in's own 404/410/500). */
export interface RefusedPush {
  endpoint: string;
  status: number;
  reason: string;
}

/** What an endpoint does with the next posts: accept (the default), one of these statuses, or never answer. */
export type EndpointBehaviour = "accept" | 404 | 410 | 500 | "hang";

export interface BrowserSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/**
 * A subscription as a browser's `PushSubscription.toJSON()` gives it, with fresh keys (a real P-256 point and a
 * 16-byte secret), at `endpoint` — by default a new one on Chrome's push service (FCM). For tests that store
 * subscriptions without a push service to answer them; `newSubscription()` below is one this stand-in decrypts.
 */
export function browserSubscription(
  endpoint = `https://fcm.googleapis.com/fcm/send/${randomBytes(12).toString("base64url")}`,
): BrowserSubscription & { expirationTime: null } {
  return {
    endpoint,
    expirationTime: null,
    keys: {
      p256dh: createECDH("prime256v1").generateKeys().toString("base64url"),
      auth: randomBytes(16).toString("base64url"),
    },
  };
}

export interface PushServiceStandIn {
  /** http://127.0.0.1:<port>: the `aud` a VAPID token must name. */
  origin: string;
  /** A fresh subscription as a browser's `PushSubscription.toJSON()` gives it; the stand-in keeps its private key. */
  newSubscription(): BrowserSubscription;
  /** From now on, what `endpoint` does with a push. */
  behave(endpoint: string, behaviour: EndpointBehaviour): void;
  received: ReceivedPush[];
  refused: RefusedPush[];
  /** Posts that are being held without an answer ("hang"). */
  hanging(): number;
  close(): Promise<void>;
}

interface Subscriber {
  ecdh: ECDH;
  publicKey: Buffer;
  auth: Buffer;
  behaviour: EndpointBehaviour;
}

/** The longest a VAPID token may still be valid for (RFC 8292 §2: no more than 24 hours). */
const MAX_TOKEN_LIFETIME_S = 24 * 60 * 60;

/** Starts the stand-in. `vapidPublicKey`, when given, is the only application server key it accepts. */
export async function startPushService(options: { vapidPublicKey?: string } = {}): Promise<PushServiceStandIn> {
  const subscribers = new Map<string, Subscriber>();
  const received: ReceivedPush[] = [];
  const refused: RefusedPush[] = [];
  const held = new Set<ServerResponse>();
  let origin = "";

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const endpoint = `${origin}${req.url ?? ""}`;
      const refuse = (status: number, reason: string) => {
        refused.push({ endpoint, status, reason });
        res.writeHead(status, { "content-type": "text/plain" }).end(reason);
      };
      const subscriber = subscribers.get(endpoint);
      if (req.method !== "POST") return refuse(405, "method");
      if (!subscriber) return refuse(404, "no such subscription");
      if (subscriber.behaviour === "hang") {
        held.add(res);
        res.on("close", () => held.delete(res));
        return;
      }
      if (subscriber.behaviour !== "accept") return refuse(subscriber.behaviour, "told to");
      const vapid = checkVapid(req.headers, origin, options.vapidPublicKey);
      if (typeof vapid === "string") return refuse(401, vapid);
      if (req.headers["content-encoding"] !== "aes128gcm") return refuse(415, "not aes128gcm");
      if (req.headers.ttl === undefined) return refuse(400, "no TTL");
      const body = Buffer.concat(chunks);
      let text: string;
      try {
        text = decryptAes128gcm(body, subscriber);
      } catch (err) {
        return refuse(400, `cannot decrypt: ${(err as Error).message}`);
      }
      received.push({
        endpoint,
        text,
        json: parseJson(text),
        bodyBytes: body.length,
        ttl: header(req.headers, "ttl"),
        urgency: header(req.headers, "urgency"),
        vapid,
      });
      res.writeHead(201, { location: `${endpoint}/messages/${received.length}` }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    newSubscription() {
      const ecdh = createECDH("prime256v1");
      const publicKey = ecdh.generateKeys();
      const auth = randomBytes(16);
      const endpoint = `${origin}/push/${randomBytes(16).toString("base64url")}`;
      subscribers.set(endpoint, { ecdh, publicKey, auth, behaviour: "accept" });
      return { endpoint, keys: { p256dh: publicKey.toString("base64url"), auth: auth.toString("base64url") } };
    },
    behave(endpoint, behaviour) {
      const subscriber = subscribers.get(endpoint);
      if (!subscriber) throw new Error("behave: not one of this stand-in's endpoints");
      subscriber.behaviour = behaviour;
    },
    received,
    refused,
    hanging: () => held.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The VAPID `Authorization: vapid t=<JWT>, k=<key>` of a push (RFC 8292 §3): its claims when the token is an ES256
 * JWT signed by that key for `origin`, unexpired and valid for at most a day, with a mailto: or https: subject;
 * otherwise why not.
 */
function checkVapid(
  headers: IncomingHttpHeaders,
  origin: string,
  expectedKey: string | undefined,
): ReceivedPush["vapid"] | string {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), ?k=([\w-]+)$/.exec(headers.authorization ?? "");
  if (!match) return "no vapid authorization";
  const [, token, key] = match as unknown as [string, string, string];
  if (expectedKey !== undefined && key !== expectedKey) return "another application server key";
  const point = Buffer.from(key, "base64url");
  if (point.length !== 65 || point[0] !== 4) return "k is not a P-256 point";
  const [head, claims, signature] = token.split(".") as [string, string, string];
  let publicKey;
  try {
    publicKey = createPublicKey({
      key: {
        kty: "EC",
        crv: "P-256",
        x: point.subarray(1, 33).toString("base64url"),
        y: point.subarray(33).toString("base64url"),
      },
      format: "jwk",
    });
  } catch {
    return "k is not on the curve";
  }
  const signed = verify(
    "sha256",
    Buffer.from(`${head}.${claims}`),
    { key: publicKey, dsaEncoding: "ieee-p1363" },
    Buffer.from(signature, "base64url"),
  );
  if (!signed) return "bad signature";
  const header = parseJson(Buffer.from(head, "base64url").toString()) as { alg?: unknown } | null;
  if (header?.alg !== "ES256") return "not ES256";
  const body = parseJson(Buffer.from(claims, "base64url").toString()) as {
    aud?: unknown;
    exp?: unknown;
    sub?: unknown;
  };
  if (body?.aud !== origin) return "aud is not this push service";
  const now = Math.floor(Date.now() / 1000);
  if (typeof body.exp !== "number" || body.exp <= now) return "expired";
  if (body.exp > now + MAX_TOKEN_LIFETIME_S) return "exp more than 24 hours ahead";
  if (typeof body.sub !== "string" || !/^(mailto:|https:)/.test(body.sub)) return "sub is not mailto: or https:";
  return { sub: body.sub, aud: body.aud, exp: body.exp, publicKey: key };
}

/**
 * The plaintext of an aes128gcm body (RFC 8188 §2) for this subscriber (RFC 8291 §3.3–3.4): the header's salt,
 * record size and key id (the sender's ephemeral public key); the ECDH secret with the subscription's private key,
 * mixed with the authentication secret into the IKM; the content key and nonce from the salt; AES-128-GCM over the
 * one record, whose padding ends at the 0x02 delimiter of a last record.
 */
export function decryptAes128gcm(body: Buffer, subscriber: Pick<Subscriber, "ecdh" | "publicKey" | "auth">): string {
  if (body.length < 21) throw new Error("too short");
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20]!;
  const senderKey = body.subarray(21, 21 + idLength);
  if (idLength !== 65 || senderKey[0] !== 4) throw new Error("key id is not a P-256 point");
  const record = body.subarray(21 + idLength);
  if (record.length > recordSize || record.length < 17) throw new Error("not one record");
  const secret = subscriber.ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), subscriber.publicKey, senderKey]);
  const ikm = Buffer.from(hkdfSync("sha256", secret, subscriber.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
  const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (end < 0 || padded[end] !== 2) throw new Error("no last-record delimiter");
  return padded.subarray(0, end).toString("utf8");
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
