import type { DB } from "../db";

/**
 * Notification preferences (spec 001 §2.4, §3): four types, each by e-mail and push. Defaults:
 * approved payments off/off, the others on/on. Only saved choices are stored.
 */
export const NOTIFICATION_TYPES = [
  "cardAuthorizationApproved",
  "cardAuthorizationDeclined",
  "expenseRequests",
  "wallets",
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
export const NOTIFICATION_CHANNELS = ["mail", "push"] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

export type NotificationPreferences = Record<NotificationType, Record<NotificationChannel, boolean>>;

export function defaultNotificationPreferences(): NotificationPreferences {
  return {
    cardAuthorizationApproved: { mail: false, push: false },
    cardAuthorizationDeclined: { mail: true, push: true },
    expenseRequests: { mail: true, push: true },
    wallets: { mail: true, push: true },
  };
}

const isType = (value: string): value is NotificationType => (NOTIFICATION_TYPES as readonly string[]).includes(value);

export async function getNotificationPreferences(db: DB, userId: string): Promise<NotificationPreferences> {
  const preferences = defaultNotificationPreferences();
  const rows = await db
    .selectFrom("notification_preferences")
    .select(["type", "mail", "push"])
    .where("user_id", "=", userId)
    .execute();
  for (const row of rows) if (isType(row.type)) preferences[row.type] = { mail: row.mail === 1, push: row.push === 1 };
  return preferences;
}

/** Saves all four types at once (the page has one save button). */
export async function saveNotificationPreferences(
  db: DB,
  userId: string,
  preferences: NotificationPreferences,
  now = new Date(),
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("notification_preferences").where("user_id", "=", userId).execute();
    await trx
      .insertInto("notification_preferences")
      .values(
        NOTIFICATION_TYPES.map((type) => ({
          user_id: userId,
          type,
          mail: preferences[type].mail ? 1 : 0,
          push: preferences[type].push ? 1 : 0,
          updated_at: now.toISOString(),
        })),
      )
      .execute();
  });
}

/**
 * The table's choices, from the names of the ticked boxes (a type and a channel, e.g. wallets+push; "all." and
 * a channel for a column switch, with ".before" when it was on as the page was shown). A column's "all" switch
 * wins only when the person changed it: without JavaScript it cannot tick the boxes below it, so the
 * server applies it.
 */
export function preferencesFromTicked(ticked: ReadonlySet<string>): NotificationPreferences {
  const preferences = defaultNotificationPreferences();
  for (const type of NOTIFICATION_TYPES)
    for (const channel of NOTIFICATION_CHANNELS) preferences[type][channel] = ticked.has(`${type}.${channel}`);
  for (const channel of NOTIFICATION_CHANNELS) {
    const all = ticked.has(`all.${channel}`);
    const before = ticked.has(`all.${channel}.before`);
    if (all !== before) for (const type of NOTIFICATION_TYPES) preferences[type][channel] = all;
  }
  return preferences;
}

export function allOn(preferences: NotificationPreferences, channel: NotificationChannel): boolean {
  return NOTIFICATION_TYPES.every((type) => preferences[type][channel]);
}
