import { readFileSync } from "node:fs";
import path from "node:path";
import { runInNewContext } from "node:vm";
import { expect, test } from "vitest";

/**
 * The push service worker (public/sw.js, issue 33 item 2) run as a browser runs it, in a scope of its own with
 * the service-worker globals it uses: a push's payload becomes the notification, and a click opens the page it
 * names — always a page of the portal, never another site. (The journey tests/e2e/push-settings.spec.ts sees
 * Chromium show a real push; a notification's click cannot be made there.)
 */
const SOURCE = readFileSync(path.resolve(import.meta.dirname, "../../public/sw.js"), "utf8");
const ORIGIN = "https://portail.example.fr";

interface Tab {
  url: string;
  focused: boolean;
  /** Where it was sent; undefined: nowhere. A tab the worker does not control refuses (`controlled: false`). */
  navigatedTo?: string;
  controlled: boolean;
}

function serviceWorker(tabs: Tab[] = []) {
  const listeners = new Map<string, (event: unknown) => void>();
  const shown: { title: string; options: Record<string, unknown> }[] = [];
  const opened: string[] = [];
  const self = {
    location: { origin: ORIGIN },
    addEventListener: (type: string, listener: (event: unknown) => void) => listeners.set(type, listener),
    skipWaiting: async () => {},
    registration: {
      showNotification: async (title: string, options: Record<string, unknown>) => void shown.push({ title, options }),
    },
    clients: {
      claim: async () => {},
      matchAll: async () =>
        tabs.map((tab) => ({
          url: tab.url,
          focus: async () => void (tab.focused = true),
          navigate: async (url: string) => {
            if (!tab.controlled) throw new TypeError("not controlled");
            tab.navigatedTo = url;
            return {};
          },
        })),
      openWindow: async (url: string) => void opened.push(url),
    },
  };
  runInNewContext(SOURCE, { self, URL });

  /** Dispatches one event and resolves once the work it handed to waitUntil is done. */
  async function dispatch(type: string, event: object) {
    let work: Promise<unknown> = Promise.resolve();
    listeners.get(type)!({ ...event, waitUntil: (promise: Promise<unknown>) => (work = promise) });
    await work;
  }
  const push = (data: string | null) =>
    dispatch("push", {
      data: data === null ? null : { json: () => JSON.parse(data) as unknown },
    });
  const click = async (path: unknown) => {
    let closed = false;
    await dispatch("notificationclick", { notification: { data: { path }, close: () => (closed = true) } });
    expect(closed).toBe(true);
  };
  return { push, click, shown, opened, tabs };
}

test("a push's payload becomes the notification: its title, body, tag and page, the portal's icon", async () => {
  const worker = serviceWorker();
  const payload = { title: "Paiement accepté", body: "14,20 € chez Chez Paul", path: "/cards/card_1#tx-a", tag: "t1" };
  await worker.push(JSON.stringify(payload));
  expect(worker.shown).toEqual([
    {
      title: "Paiement accepté",
      options: {
        body: "14,20 € chez Chez Paul",
        tag: "t1",
        data: { path: "/cards/card_1#tx-a" },
        icon: "/favicon.svg",
        badge: "/favicon.svg",
        lang: "fr",
      },
    },
  ]);
});

test.each([
  ["no payload", null],
  ["a payload that is not JSON", "pas du JSON"],
  ["JSON without a title", JSON.stringify({ body: "x" })],
])("%s: a notification is still shown (the browser requires one), a generic one", async (_, data) => {
  const worker = serviceWorker();
  await worker.push(data);
  expect(worker.shown).toHaveLength(1);
  expect(worker.shown[0]).toMatchObject({
    title: "Nouvelle notification",
    options: { body: "", data: { path: null } },
  });
});

test("a click focuses an open tab of the portal and takes it to the notification's page", async () => {
  const tabs = [
    { url: "https://autre.example.com/", focused: false, controlled: true },
    { url: `${ORIGIN}/wallets`, focused: false, controlled: true },
  ];
  const worker = serviceWorker(tabs);
  await worker.click("/cards/card_1#tx-a");
  expect(tabs[1]).toMatchObject({ focused: true, navigatedTo: `${ORIGIN}/cards/card_1#tx-a` });
  expect(tabs[0]!.focused).toBe(false);
  expect(worker.opened).toEqual([]);
});

test("no tab of the portal open, or one the worker cannot move: the page opens in a new one", async () => {
  const none = serviceWorker();
  await none.click("/plans/expense-requests");
  expect(none.opened).toEqual([`${ORIGIN}/plans/expense-requests`]);

  const uncontrolled = serviceWorker([{ url: `${ORIGIN}/`, focused: false, controlled: false }]);
  await uncontrolled.click("/plans/expense-requests");
  expect(uncontrolled.opened).toEqual([`${ORIGIN}/plans/expense-requests`]);
});

test.each([
  ["another site's address", "https://evil.example/phish"],
  ["a protocol-relative one", "//evil.example/phish"],
  ["a backslash one", "/\\evil.example/phish"],
  ["a script", "javascript:alert(1)"],
  ["a relative path", "cards"],
  ["no path", null],
  ["not a string", 42],
])("%s: the click opens the portal's home, never anything else", async (_, path) => {
  const worker = serviceWorker();
  await worker.click(path);
  expect(worker.opened).toEqual([`${ORIGIN}/`]);
});
