/*
 * The portal's service worker (issue 33 item 2, decision 0063): it shows the Web Push messages the server
 * sends to this device and, on a click, opens the page the message is about. Nothing else: it handles no
 * fetch and caches nothing, so the portal behaves exactly as without it. Plain JavaScript served as is
 * (/sw.js, revalidated on each load so that an update reaches browsers).
 *
 * Every message is JSON `{ "title", "body", "path", "tag" }` (Contract P): `path` is a page of the portal
 * or null, `tag` makes a newer message about the same thing replace the older one.
 */

// A new version takes over at once rather than after every tab of the portal is closed.
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

/** The message's fields, or a generic notice when the payload cannot be read (one must always be shown). */
function messageOf(data) {
  try {
    const message = data ? data.json() : null;
    if (message && typeof message.title === "string") return message;
  } catch {
    // Not JSON: shown as the generic notice below.
  }
  return { title: "Nouvelle notification", body: "", path: null, tag: "" };
}

/** A path of this portal (`/cards/…`), never another site: anything else opens the portal's home page. */
function samePortalUrl(path) {
  try {
    const url = new URL(typeof path === "string" && path.startsWith("/") ? path : "/", self.location.origin);
    return url.origin === self.location.origin ? url.href : self.location.origin + "/";
  } catch {
    return self.location.origin + "/";
  }
}

self.addEventListener("push", (event) => {
  const message = messageOf(event.data);
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: typeof message.body === "string" ? message.body : "",
      tag: typeof message.tag === "string" && message.tag ? message.tag : undefined,
      data: { path: typeof message.path === "string" ? message.path : null },
      icon: "/favicon.svg",
      badge: "/favicon.svg",
      lang: "fr",
    }),
  );
});

async function openPage(path) {
  const url = samePortalUrl(path);
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
  if (open) {
    await open.focus();
    // Only a tab this worker controls can be sent elsewhere; another one is left as it is and a new one opens.
    const moved = await open.navigate(url).catch(() => null);
    if (moved) return;
  }
  await self.clients.openWindow(url);
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(openPage(event.notification.data ? event.notification.data.path : null));
});
