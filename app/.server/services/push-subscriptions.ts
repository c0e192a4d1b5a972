import { ECDH } from "node:crypto";
import { decodeBase64Url, isAllowedPushEndpoint, PUSH_SUBSCRIPTION_LIMIT } from "~/domain/push";
import { pushSubscriptionSchema } from "~/domain/push-schemas";
import { inTransaction, type DB } from "../db";
import { newId } from "../ids";

/**
 * The browsers that receive a person's pushes (issue 33 item 2, decision 0063). Knows nothing of HTTP; every call
 * is scoped to the person it names. The settings' resource route saves and removes them; the Web Push sender
 * (providers/push/web-push.ts) reads them and forgets those the push service says are gone.
 */

/** The longest device name kept (the settings show it on one line). */
const DEVICE_NAME_MAX_LENGTH = 80;

export type SavePushSubscriptionResult =
  { kind: "ok"; id: string } | { kind: "invalid" } | { kind: "endpointNotAllowed" };

export interface PushSubscriptionSummary {
  id: string;
  endpoint: string;
  deviceName: string | null;
  createdAt: string;
}

/** What sending to one subscription needs; `savedAt` tells a subscription saved again since it was read. */
export interface PushTarget {
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
  savedAt: string;
}

/**
 * Saves this browser's subscription for the person: refused when it is not a subscription (bad endpoint, keys of
 * the wrong length or not base64url, a public key that is not a point of P-256, an expiry already past) or when
 * its endpoint is not one of the allowed push services. An endpoint already saved, by this person or another, is
 * updated and moves to this person: the device now belongs to whoever subscribed on it last. Beyond
 * PUSH_SUBSCRIPTION_LIMIT the person's least recently saved subscriptions are dropped (never the one just saved).
 */
export async function savePushSubscription(
  db: DB,
  userId: string,
  input: unknown,
  options: { allowedHosts: readonly string[]; deviceName?: string },
  now = new Date(),
): Promise<SavePushSubscriptionResult> {
  const parsed = pushSubscriptionSchema.safeParse(input);
  if (!parsed.success || !isCurvePoint(parsed.data.keys.p256dh)) return { kind: "invalid" };
  const { endpoint, keys, expirationTime } = parsed.data;
  if (typeof expirationTime === "number" && expirationTime <= now.getTime()) return { kind: "invalid" };
  if (!isAllowedPushEndpoint(endpoint, options.allowedHosts)) return { kind: "endpointNotAllowed" };
  const deviceName = options.deviceName?.trim().slice(0, DEVICE_NAME_MAX_LENGTH) || null;
  const savedAt = now.toISOString();
  return inTransaction(db, async (trx) => {
    const row = await trx
      .insertInto("push_subscriptions")
      .values({
        id: newId("psub"),
        user_id: userId,
        endpoint,
        p256dh: keys.p256dh,
        auth: keys.auth,
        device_name: deviceName,
        created_at: savedAt,
        updated_at: savedAt,
      })
      .onConflict((conflict) =>
        conflict.column("endpoint").doUpdateSet({
          user_id: userId,
          p256dh: keys.p256dh,
          auth: keys.auth,
          device_name: deviceName,
          updated_at: savedAt,
        }),
      )
      .returning("id")
      .executeTakeFirstOrThrow();
    const beyond = await trx
      .selectFrom("push_subscriptions")
      .select("id")
      .where("user_id", "=", userId)
      .where("id", "<>", row.id)
      .orderBy("updated_at", "desc")
      .orderBy("id", "desc")
      .offset(PUSH_SUBSCRIPTION_LIMIT - 1)
      .limit(1000)
      .execute();
    if (beyond.length > 0)
      await trx
        .deleteFrom("push_subscriptions")
        .where("user_id", "=", userId)
        .where(
          "id",
          "in",
          beyond.map((old) => old.id),
        )
        .execute();
    return { kind: "ok" as const, id: row.id };
  });
}

/** Removes this person's subscription of that endpoint; false when they have none (another's stays as it is). */
export async function removePushSubscription(db: DB, userId: string, endpoint: string): Promise<boolean> {
  const result = await db
    .deleteFrom("push_subscriptions")
    .where("user_id", "=", userId)
    .where("endpoint", "=", endpoint)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** This person's subscriptions, the most recently saved first. */
export async function listPushSubscriptions(db: DB, userId: string): Promise<PushSubscriptionSummary[]> {
  const rows = await db
    .selectFrom("push_subscriptions")
    .select(["id", "endpoint", "device_name", "created_at"])
    .where("user_id", "=", userId)
    .orderBy("updated_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    endpoint: row.endpoint,
    deviceName: row.device_name,
    createdAt: row.created_at,
  }));
}

export async function countPushSubscriptions(db: DB, userId: string): Promise<number> {
  const row = await db
    .selectFrom("push_subscriptions")
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** Every subscription of this person, with its keys: what the Web Push sender sends to. */
export async function pushTargets(db: DB, userId: string): Promise<PushTarget[]> {
  const rows = await db
    .selectFrom("push_subscriptions")
    .select(["id", "endpoint", "p256dh", "auth", "updated_at"])
    .where("user_id", "=", userId)
    .orderBy("updated_at", "desc")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    endpoint: row.endpoint,
    keys: { p256dh: row.p256dh, auth: row.auth },
    savedAt: row.updated_at,
  }));
}

/**
 * Forgets a subscription its push service answered 404 or 410 for (expired or unsubscribed), unless it was saved
 * again since it was read: a browser that subscribed anew in the meantime keeps its fresh subscription.
 */
export async function forgetGonePushTarget(db: DB, target: PushTarget): Promise<boolean> {
  const result = await db
    .deleteFrom("push_subscriptions")
    .where("id", "=", target.id)
    .where("updated_at", "=", target.savedAt)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Whether a base64url public key is a point of P-256 (OpenSSL refuses to read one that is not). */
function isCurvePoint(p256dh: string): boolean {
  const bytes = decodeBase64Url(p256dh);
  if (!bytes) return false;
  try {
    ECDH.convertKey(Buffer.from(bytes), "prime256v1", undefined, undefined, "uncompressed");
    return true;
  } catch {
    return false;
  }
}
