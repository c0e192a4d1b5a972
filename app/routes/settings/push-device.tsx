import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "~/i18n";
import { NoScript } from "~/components/LightVersion";
import { useHydrated } from "~/components/useHydrated";
import {
  browserSupportsPush,
  currentSubscription,
  subscribeThisDevice,
  unsubscribeThisDevice,
  type SubscribeOutcome,
} from "./push-browser";

/** What the loader tells the page of Web Push: the VAPID public key and the person's devices; null when off. */
export interface PushSetup {
  publicKey: string;
  /** The endpoints of the signed-in person's subscriptions, to tell whether this browser is one of them. */
  endpoints: string[];
}

/** Where the page posts this device's subscription (Contract B; app/routes/settings/push.ts). */
export const PUSH_ROUTE = "/settings/notifications/push";

type Device =
  /** `unavailable`: the portal sends no Web Push (no VAPID keys); `unsupported`: this browser cannot receive it. */
  | { kind: "checking" | "unavailable" | "unsupported" | "working" }
  | { kind: "subscribed"; now: boolean }
  | { kind: "off"; removed: boolean }
  | Exclude<SubscribeOutcome, { kind: "subscribed" }>;

/**
 * This device's Web Push, once hydrated (issue 33 item 2): whether it is subscribed for the signed-in person,
 * `turnOn` (on a Push box's gesture: the permission, the worker, the subscription) and `turnOff` (on a save
 * with every Push box off).
 */
export function usePushDevice(push: PushSetup | null) {
  const hydrated = useHydrated();
  const [checked, setDevice] = useState<Device>({ kind: "checking" });
  // The devices as the page first had them: later saves revalidate the loader, never this device's state.
  const endpoints = useRef(push?.endpoints ?? []);
  const available = push !== null;
  const supported = hydrated && browserSupportsPush();
  const device: Device = !hydrated
    ? { kind: "checking" }
    : !available
      ? { kind: "unavailable" }
      : !supported
        ? { kind: "unsupported" }
        : checked;

  useEffect(() => {
    if (!available || !supported) return;
    let live = true;
    currentSubscription().then(
      (subscription) => {
        if (!live) return;
        if (subscription && endpoints.current.includes(subscription.endpoint))
          setDevice({ kind: "subscribed", now: false });
        else setDevice(Notification.permission === "denied" ? { kind: "denied" } : { kind: "off", removed: false });
      },
      () => live && setDevice({ kind: "off", removed: false }),
    );
    return () => {
      live = false;
    };
  }, [available, supported]);

  const turnOn = useCallback(() => {
    if (!push || !["off", "denied", "dismissed", "failed"].includes(device.kind)) return;
    setDevice({ kind: "working" });
    void subscribeThisDevice(PUSH_ROUTE, push.publicKey).then((outcome) =>
      setDevice(outcome.kind === "subscribed" ? { kind: "subscribed", now: true } : outcome),
    );
  }, [push, device.kind]);

  const turnOff = useCallback(() => {
    if (device.kind !== "subscribed") return;
    void unsubscribeThisDevice(PUSH_ROUTE).then((removed) => {
      if (removed) setDevice({ kind: "off", removed: true });
    });
  }, [device.kind]);

  return { device, turnOn, turnOff, hydrated };
}

/**
 * The line under the table about this device, tied to the Push column by its `id` (the column switch's
 * description). Without JavaScript (and on the light version) it says what push needs; with it, whether this
 * device receives the pushes, in a live region (read out when it changes, focus left where it is).
 */
export function PushDeviceLine({ id, state }: { id: string; state: ReturnType<typeof usePushDevice> }) {
  const { t } = useTranslation();
  const { device, turnOn, hydrated } = state;
  if (!hydrated)
    return (
      <NoScript>
        <p id={id} className="push-device hint">
          {t("webPush.noScript")}
        </p>
      </NoScript>
    );
  const offer = device.kind === "off" || device.kind === "dismissed" || device.kind === "failed";
  return (
    <div className="push-device">
      <p id={id} role="status" className={`push-device__line push-device__line--${device.kind}`}>
        {messageOf(device, t)}
      </p>
      {offer && (
        <button type="button" className="button button--secondary" onClick={turnOn}>
          {t("webPush.device.turnOn")}
        </button>
      )}
    </div>
  );
}

function messageOf(device: Device, t: ReturnType<typeof useTranslation>["t"]): string {
  switch (device.kind) {
    case "checking":
      return "";
    case "unavailable":
      return t("webPush.unavailable");
    case "unsupported":
      return t("webPush.device.unsupported");
    case "working":
      return t("webPush.device.working");
    case "subscribed":
      return t(device.now ? "webPush.device.subscribedNow" : "webPush.device.subscribed");
    case "off":
      return t(device.removed ? "webPush.device.removed" : "webPush.device.off");
    case "denied":
      return t("webPush.device.denied");
    case "dismissed":
      return t("webPush.device.dismissed");
    case "failed":
      return t(device.error);
  }
}
