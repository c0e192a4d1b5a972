import { afterAll, beforeAll, expect, test } from "vitest";
import type { DatabaseHandle } from "../db";
import type { DEMO_EMAILS } from "../db/seed";
import { openDemoDatabase } from "../../../tests/support/test-database";
import {
  defaultNotificationPreferences,
  getNotificationPreferences,
  preferencesFromTicked,
  saveNotificationPreferences,
} from "./notification-preferences";

let handle: DatabaseHandle;
let ids: Record<keyof typeof DEMO_EMAILS, string>;

beforeAll(async () => {
  ({ handle, ids } = await openDemoDatabase());
}, 30_000);
afterAll(() => handle.close());

/** The boxes ticked in a submitted table (the route reads them from its form: each "on" is ticked). */
const form = (entries: Record<string, string>) => {
  const data = new Set<string>();
  for (const [k, v] of Object.entries(entries)) if (v === "on") data.add(k);
  return data;
};

test("defaults of spec 001 §3: approved payments off/off, the other three on/on", async () => {
  expect(await getNotificationPreferences(handle.db, ids.marie)).toEqual({
    cardAuthorizationApproved: { mail: false, push: false },
    cardAuthorizationDeclined: { mail: true, push: true },
    expenseRequests: { mail: true, push: true },
    wallets: { mail: true, push: true },
  });
});

test("the boxes are read one by one when the column switch was left as it was", () => {
  const prefs = preferencesFromTicked(
    form({
      "cardAuthorizationApproved.mail": "on",
      "wallets.push": "on",
      "all.mail": "",
      "all.mail.before": "",
      "all.push.before": "",
    }),
  );
  expect(prefs.cardAuthorizationApproved).toEqual({ mail: true, push: false });
  expect(prefs.cardAuthorizationDeclined).toEqual({ mail: false, push: false });
  expect(prefs.wallets).toEqual({ mail: false, push: true });
});

test("a column switch the person changed (without JS) sets the whole column", () => {
  const allPushOn = preferencesFromTicked(
    form({ "all.push": "on", "all.push.before": "", "expenseRequests.mail": "on" }),
  );
  expect(Object.values(allPushOn).map((p) => p.push)).toEqual([true, true, true, true]);
  expect(allPushOn.expenseRequests.mail).toBe(true);
  const allMailOff = preferencesFromTicked(
    form({ "all.mail.before": "on", "wallets.mail": "on", "wallets.push": "on" }),
  );
  expect(Object.values(allMailOff).map((p) => p.mail)).toEqual([false, false, false, false]);
  expect(allMailOff.wallets.push).toBe(true);
});

test("saved choices are the user's own and are read back", async () => {
  const choice = defaultNotificationPreferences();
  choice.cardAuthorizationApproved = { mail: true, push: false };
  choice.wallets = { mail: false, push: false };
  await saveNotificationPreferences(handle.db, ids.marie, choice);
  expect(await getNotificationPreferences(handle.db, ids.marie)).toEqual(choice);
  // Saving again replaces, never duplicates.
  await saveNotificationPreferences(handle.db, ids.marie, choice);
  expect(
    await handle.db.selectFrom("notification_preferences").select("type").where("user_id", "=", ids.marie).execute(),
  ).toHaveLength(4);
  expect(await getNotificationPreferences(handle.db, ids.claire)).toEqual(defaultNotificationPreferences());
});
