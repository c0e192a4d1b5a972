/**
 * The tag manager's events (spec 000 §7, issue 16 §7, decision 0031), shared by the server and the
 * browser. The server records each one through the analytics service (the source of truth, without
 * JavaScript too); with JavaScript, a tag-manager id and the person's consent, the browser pushes the
 * same name and properties to `window.dataLayer`.
 *
 * The three "click" events are plain links: the link carries `ping="/events?…"` (Chromium and Safari
 * post it without JavaScript while they follow the link; with JavaScript, the client sends the same
 * post as a beacon) and `data-tag-*` attributes that the browser copies to the dataLayer.
 */
export type TagEvent =
  | { name: "clickCreateCard"; properties: Record<string, never> }
  | { name: "clickShowWalletsPriority"; properties: Record<string, never> }
  | { name: "clickMenu"; properties: { target: string } }
  | { name: "clickPartner"; properties: { partner: string } }
  | { name: "submitCreateCard"; properties: Record<string, never> }
  | { name: "submitCreateExpenseRequest"; properties: { type: string } };

export type TagEventName = TagEvent["name"];

/** The six tag-manager events, once (the analytics service's list of events starts from it). */
export const TAG_EVENT_NAMES = [
  "submitCreateCard",
  "clickCreateCard",
  "clickShowWalletsPriority",
  "clickPartner",
  "clickMenu",
  "submitCreateExpenseRequest",
] as const satisfies readonly TagEventName[];

/** The events a link's ping records (the partner click and the two submissions are posts of their own). */
export const CLICK_EVENTS = ["clickCreateCard", "clickShowWalletsPriority", "clickMenu"] as const;
export type ClickEvent = Extract<TagEvent, { name: (typeof CLICK_EVENTS)[number] }>;

/** The resource route that takes the pings and beacons (app/routes/shell/events.ts). */
export const EVENTS_PATH = "/events";

/** Longest menu target accepted (the longest real one, `/cards/<id>`, is far shorter). */
const MAX_TARGET_LENGTH = 200;

/** The URL a link pings for this click: `/events?name=clickMenu&target=%2Fwallets%2Fw1`. */
export function clickEventUrl(event: ClickEvent): string {
  const query = new URLSearchParams({ name: event.name });
  if (event.name === "clickMenu") query.set("target", event.properties.target);
  return `${EVENTS_PATH}?${query.toString()}`;
}

/**
 * A click event as a ping's query states it, or null when the query is not one the portal's links
 * send (unknown name, missing or extra parameter). Says nothing of whether the target is this
 * person's own menu entry: the server checks that (services/tag-events.ts).
 */
export function parseClickEvent(query: URLSearchParams): ClickEvent | null {
  const keys = [...query.keys()];
  const name = query.get("name");
  if (query.getAll("name").length !== 1) return null;
  switch (name) {
    case "clickCreateCard":
    case "clickShowWalletsPriority":
      return keys.length === 1 ? { name, properties: {} } : null;
    case "clickMenu": {
      const target = query.get("target");
      if (keys.length !== 2 || query.getAll("target").length !== 1 || target === null) return null;
      if (target.length > MAX_TARGET_LENGTH || !target.startsWith("/") || target.startsWith("//")) return null;
      return { name, properties: { target } };
    }
    default:
      return null;
  }
}

/** What the browser copies to the dataLayer: the event's name and its properties, as the server records them. */
export function dataLayerEntry(event: { name: string; properties: Record<string, unknown> }) {
  return { event: event.name, ...event.properties };
}

/** The attributes of an element whose activation is a tag-manager event (read by the browser's listener). */
export function tagAttributes(event: TagEvent): { "data-tag-event": string; "data-tag-properties"?: string } {
  return Object.keys(event.properties).length > 0
    ? { "data-tag-event": event.name, "data-tag-properties": JSON.stringify(event.properties) }
    : { "data-tag-event": event.name };
}

/**
 * A link's attributes for a click event: the data attributes, and the ping only when the server would
 * record it (analytics configured and the person consented), so that nothing is sent for nothing.
 */
export function clickAttributes(event: ClickEvent, ping: boolean) {
  return { ...tagAttributes(event), ...(ping ? { ping: clickEventUrl(event) } : {}) };
}

/** Google Tag Manager's origin: its container script is loaded from here for a real container id. */
export const TAG_MANAGER_ORIGIN = "https://www.googletagmanager.com";
/** The TAG_MANAGER_ID that fills `window.dataLayer` and loads nothing from outside (sandbox, tests). */
export const SANDBOX_TAG_MANAGER_ID = "sandbox";

/** The container script of a TAG_MANAGER_ID, or null for the sandbox (dataLayer only). */
export function tagManagerScriptUrl(id: string): string | null {
  if (id === SANDBOX_TAG_MANAGER_ID) return null;
  return `${TAG_MANAGER_ORIGIN}/gtm.js?id=${encodeURIComponent(id)}`;
}
