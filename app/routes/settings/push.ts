import type { Route } from "./+types/push";
import { accountContext } from "~/routes/+shared/auth.server";
import { internalRedirect } from "~/routes/+shared/redirects.server";
import { deviceNameFromUserAgent } from "~/domain/device-name";
import { PUSH_ENDPOINT_MAX_LENGTH } from "~/domain/push";
import { getPlatform } from "~/.server/platform";
import { removePushSubscription, savePushSubscription } from "~/.server/services/push-subscriptions";

/** A browser's subscription is a few hundred bytes (its endpoint at most 1 KB): anything bigger is not one. */
export const PUSH_SUBSCRIPTION_MAX_BYTES = 4 * 1024;

const NO_STORE = { "Cache-Control": "no-store" };
const refused = (error: string, status = 400) => Response.json({ error }, { status, headers: NO_STORE });

/**
 * This browser's Web Push subscription (issue 33 item 2, Contract B), posted by the notification settings
 * once hydrated (./push-device.tsx), form-encoded as every post of the portal:
 * - `intent=subscribe` + `subscription` (the PushSubscription's JSON, at most 4 KB): stored for the signed-in
 *   person (an endpoint another person subscribed on this browser before moves to this one);
 * - `intent=unsubscribe` + `endpoint`: this person's subscription of that endpoint removed, if any (another
 *   person's never is: the service is scoped to the signed-in person).
 * Answers `{ ok: true }`, or `{ error }` with a catalogue key: 400 for bad input (too long, not JSON, not a
 * subscription, a push service outside the allowed list), 404 when the portal sends no Web Push.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const account = context.get(accountContext);
  const { db, webPush } = await getPlatform();
  const form = await request.formData();
  const intent = form.get("intent");

  if (intent === "unsubscribe") {
    const endpoint = form.get("endpoint");
    if (typeof endpoint !== "string" || endpoint.length === 0 || endpoint.length > PUSH_ENDPOINT_MAX_LENGTH)
      return refused("webPush.errors.invalid");
    await removePushSubscription(db, account.id, endpoint);
    return Response.json({ ok: true }, { headers: NO_STORE });
  }
  if (intent !== "subscribe") return refused("errors.unknownIntent");
  if (!webPush) return refused("webPush.errors.unavailable", 404);

  const input = subscriptionOf(form.get("subscription"));
  if (input === undefined) return refused("webPush.errors.invalid");
  // The device's name (« Chrome sur Android ») is kept with it, as for passkeys, to tell a person's browsers apart.
  const saved = await savePushSubscription(db, account.id, input, {
    allowedHosts: webPush.allowedHosts,
    deviceName: deviceNameFromUserAgent(request.headers.get("User-Agent")),
  });
  if (saved.kind === "endpointNotAllowed") return refused("webPush.errors.endpointNotAllowed");
  if (saved.kind !== "ok") return refused("webPush.errors.invalid");
  return Response.json({ ok: true }, { headers: NO_STORE });
}

/** Opened as a page: the notification settings. */
export function loader() {
  return internalRedirect("/settings/notifications");
}

/** The posted subscription, parsed: undefined when missing, over 4 KB or not JSON (its shape is the service's). */
function subscriptionOf(value: FormDataEntryValue | null): unknown {
  if (typeof value !== "string" || value.length === 0) return undefined;
  if (Buffer.byteLength(value, "utf8") > PUSH_SUBSCRIPTION_MAX_BYTES) return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}
