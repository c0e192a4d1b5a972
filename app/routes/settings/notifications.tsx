import { useRef, type ChangeEvent } from "react";
import { Form } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/notifications";
import { PageHeader } from "~/components/PageHeader";
import { accountContext } from "~/routes/+shared/auth.server";
import { getPlatform } from "~/.server/platform";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import {
  allOn,
  getNotificationPreferences,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_TYPES,
  preferencesFromTicked,
  saveNotificationPreferences,
  type NotificationChannel,
} from "~/.server/services/notification-preferences";
import { listPushSubscriptions } from "~/.server/services/push-subscriptions";
import { PushDeviceLine, usePushDevice, type PushSetup } from "./push-device";

/**
 * Notification settings (spec 001 §2.4, §3): four types × e-mail and push, a switch per column for
 * all of them, one save button. Without JavaScript the column switch is applied by the server. Under
 * 576 px the table stacks (app.css): one group per type, its two boxes named, never a sideways scroll.
 * The preferences govern the mobile app's pushes and, once a browser is subscribed (issue 33 item 2,
 * ./push-device.tsx), this browser's: the loader gives the VAPID public key and the person's devices.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const account = context.get(accountContext);
  const { db, webPush } = await getPlatform();
  const preferences = await getNotificationPreferences(db, account.id);
  const push: PushSetup | null = webPush && {
    publicKey: webPush.publicKey,
    endpoints: (await listPushSubscriptions(db, account.id)).map((subscription) => subscription.endpoint),
  };
  return {
    preferences,
    push,
    all: { mail: allOn(preferences, "mail"), push: allOn(preferences, "push") },
    types: NOTIFICATION_TYPES,
    channels: NOTIFICATION_CHANNELS,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const account = context.get(accountContext);
  const { db } = await getPlatform();
  // Nothing here can be refused: an unknown or missing box is simply not ticked.
  const ticked = new Set<string>();
  for (const [name, value] of await request.formData()) if (value === "on") ticked.add(name);
  await saveNotificationPreferences(db, account.id, preferencesFromTicked(ticked));
  return redirectWithFlash(request, "/settings/notifications", {
    kind: "success",
    message: "settings.notifications.saved",
  });
}

/** The line about this device's pushes, describing the Push column's switch. */
const PUSH_LINE = "push-device";

export default function NotificationSettings({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { preferences, types, channels } = loaderData;
  const form = useRef<HTMLFormElement>(null);
  const pushDevice = usePushDevice(loaderData.push);

  // With JS the column switch ticks its boxes at once, and its "before" copy follows it, so that the
  // server then reads the boxes one by one (without JS, it applies the switch itself).
  const boxes = (channel: NotificationChannel) =>
    Array.from(form.current?.querySelectorAll<HTMLInputElement>(`input[data-channel="${channel}"]`) ?? []);
  const syncSwitch = (channel: NotificationChannel, checked: boolean) => {
    const all = form.current?.elements.namedItem(`all.${channel}`);
    const before = form.current?.elements.namedItem(`all.${channel}.before`);
    if (all instanceof HTMLInputElement) all.checked = checked;
    if (before instanceof HTMLInputElement) before.value = checked ? "on" : "";
  };
  // A Push box turned on is the gesture on which this browser asks the permission and subscribes; every
  // Push box off at the save, this device's subscription goes.
  const onSwitch = (channel: NotificationChannel) => (event: ChangeEvent<HTMLInputElement>) => {
    for (const box of boxes(channel)) box.checked = event.target.checked;
    syncSwitch(channel, event.target.checked);
    if (channel === "push" && event.target.checked) pushDevice.turnOn();
  };
  const onBox = (channel: NotificationChannel) => (event: ChangeEvent<HTMLInputElement>) => {
    syncSwitch(
      channel,
      boxes(channel).every((box) => box.checked),
    );
    if (channel === "push" && event.target.checked) pushDevice.turnOn();
  };
  const onSubmit = () => {
    if (!boxes("push").some((box) => box.checked)) pushDevice.turnOff();
  };

  return (
    <div>
      <PageHeader title={t("settings.notifications.title")} />
      <p>{t("settings.notifications.intro")}</p>
      <Form method="post" ref={form} className="settings-card" onSubmit={onSubmit}>
        <div className="table-scroll">
          <table className="preferences">
            <caption className="visually-hidden">{t("settings.notifications.caption")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("settings.notifications.type")}</th>
                {channels.map((channel) => (
                  <th scope="col" key={channel}>
                    <label className="checkbox">
                      <input
                        type="checkbox"
                        name={`all.${channel}`}
                        defaultChecked={loaderData.all[channel]}
                        onChange={onSwitch(channel)}
                        aria-describedby={channel === "push" ? PUSH_LINE : undefined}
                      />
                      {t(`settings.notifications.all.${channel}`)}
                    </label>
                    <input
                      type="hidden"
                      name={`all.${channel}.before`}
                      defaultValue={loaderData.all[channel] ? "on" : ""}
                    />
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {types.map((type) => (
                <tr key={type}>
                  <th scope="row">{t(`settings.notifications.types.${type}`)}</th>
                  {channels.map((channel) => (
                    <td key={channel}>
                      <label className="checkbox">
                        <input
                          type="checkbox"
                          name={`${type}.${channel}`}
                          data-channel={channel}
                          defaultChecked={preferences[type][channel]}
                          onChange={onBox(channel)}
                        />
                        {/* Shown only when the table stacks (under 576 px): the column's name beside its box. */}
                        <span className="preferences__channel" aria-hidden="true">
                          {t(`settings.notifications.channel.${channel}`)}
                        </span>
                        <span className="visually-hidden">
                          {t(`settings.notifications.cell.${channel}`, {
                            type: t(`settings.notifications.types.${type}`),
                          })}
                        </span>
                      </label>
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <PushDeviceLine id={PUSH_LINE} state={pushDevice} />
        <div className="actions">
          <button type="submit" className="button">
            {t("settings.notifications.save")}
          </button>
        </div>
      </Form>
    </div>
  );
}
