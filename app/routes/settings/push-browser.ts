import { decodeBase64Url } from "~/domain/push";

/**
 * The browser's side of Web Push (issue 33 item 2, Contract B): this device's subscription, made with the
 * server's VAPID public key and told to the resource route /settings/notifications/push. Called only after
 * hydration and on a person's gesture (the permission is never asked on page load).
 */

/** How turning push on for this device ended, for the page's live line. */
export type SubscribeOutcome =
  | { kind: "subscribed" }
  /** The browser blocks the site's notifications: only its settings can allow them again. */
  | { kind: "denied" }
  /** The permission prompt closed without an answer: asking again is possible. */
  | { kind: "dismissed" }
  /** `error`: a catalogue key saying why. */
  | { kind: "failed"; error: string };

/** Whether this browser can receive Web Push at all (service workers, the Push API and notifications). */
export function browserSupportsPush(): boolean {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

/** The browser's subscription of this site, if any: no permission asked, no worker registered. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration("/");
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/**
 * Asks the permission (on the gesture that calls this), registers /sw.js, subscribes with the VAPID key
 * and stores the subscription for the signed-in person. A subscription of the same browser made for
 * another key (the keys were changed) is replaced.
 */
export async function subscribeThisDevice(action: string, publicKey: string): Promise<SubscribeOutcome> {
  const permission = await Notification.requestPermission();
  if (permission === "denied") return { kind: "denied" };
  if (permission !== "granted") return { kind: "dismissed" };
  try {
    await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    // Subscribing needs an active worker: `ready` waits for it.
    const registration = await navigator.serviceWorker.ready;
    // The key's bytes rather than its text: what every browser takes (Safari takes no text).
    const options = { userVisibleOnly: true, applicationServerKey: new Uint8Array(decodeBase64Url(publicKey) ?? []) };
    const subscription = await registration.pushManager.subscribe(options).catch(async (error: unknown) => {
      if (!(error instanceof DOMException && error.name === "InvalidStateError")) throw error;
      await (await registration.pushManager.getSubscription())?.unsubscribe();
      return registration.pushManager.subscribe(options);
    });
    const answer = await post(action, { intent: "subscribe", subscription: JSON.stringify(subscription) });
    return answer.ok ? { kind: "subscribed" } : { kind: "failed", error: answer.error ?? "webPush.device.failed" };
  } catch {
    return { kind: "failed", error: "webPush.device.failed" };
  }
}

/** Forgets this device's subscription, on the server first (so nothing more is sent), then in the browser. */
export async function unsubscribeThisDevice(action: string): Promise<boolean> {
  const subscription = await currentSubscription().catch(() => null);
  if (!subscription) return false;
  const answer = await post(action, { intent: "unsubscribe", endpoint: subscription.endpoint });
  if (!answer.ok) return false;
  await subscription.unsubscribe().catch(() => false);
  return true;
}

/** One form-encoded post to the resource route (as every post of the portal), read as JSON. */
async function post(action: string, fields: Record<string, string>): Promise<{ ok?: boolean; error?: string }> {
  const response = await fetch(action, {
    method: "POST",
    credentials: "same-origin",
    headers: { Accept: "application/json" },
    body: new URLSearchParams(fields),
  }).catch(() => null);
  const answer = (await response?.json().catch(() => null)) as { ok?: boolean; error?: string } | null;
  return response?.ok && answer?.ok ? { ok: true } : { error: answer?.error };
}
