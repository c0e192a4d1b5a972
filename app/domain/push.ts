/**
 * Web Push (issue 33 item 2, decision 0063): what a browser's subscription is, how many one account keeps and
 * which push services the server ever contacts. Browser-safe: no Node API, and no zod (the subscription's schema is
 * in push-schemas.ts, decision 0044: the settings page imports this module).
 */

/** Subscriptions one account keeps: saving one more drops the account's least recently saved one. */
export const PUSH_SUBSCRIPTION_LIMIT = 20;

/** The longest endpoint accepted (real ones are 150 to 500 characters). */
export const PUSH_ENDPOINT_MAX_LENGTH = 1024;

/**
 * The browsers' push services, as host suffixes: Chrome, Edge on Android, Opera and Samsung Internet (Firebase
 * Cloud Messaging), Firefox (Mozilla's autopush), Safari on macOS and iOS (Apple's web push) and Edge on Windows
 * (Windows Push Notification Services, one host per region: wns2-par02p.notify.windows.com).
 */
export const DEFAULT_PUSH_SERVICE_HOSTS: readonly string[] = [
  "fcm.googleapis.com",
  "updates.push.services.mozilla.com",
  "push.apple.com",
  "notify.windows.com",
];

/** The host the tests' local push service listens on: allowed only when listed (never by default). */
const LOOPBACK_HOST = "127.0.0.1";

/** base64url without padding (the browsers' `toJSON()`); a trailing "=" padding is tolerated. */
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** The bytes of a base64url text, or null when it is not one. */
export function decodeBase64Url(text: string): Uint8Array | null {
  if (!BASE64URL.test(text)) return null;
  const plain = text.replace(/=+$/, "").replace(/-/g, "+").replace(/_/g, "/");
  if (plain.length % 4 === 1) return null;
  try {
    const binary = atob(plain + "=".repeat((4 - (plain.length % 4)) % 4));
    return Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

/**
 * Whether the server may POST to this endpoint (no SSRF): https on the default port, no user name or password,
 * a host name equal to an allowed suffix or ending in "." + one, never an IP address. The one exception is the
 * tests' stand-in, `http://127.0.0.1:<port>`, allowed only when "127.0.0.1" is itself in the list.
 */
export function isAllowedPushEndpoint(endpoint: string, allowedHosts: readonly string[]): boolean {
  if (endpoint.length > PUSH_ENDPOINT_MAX_LENGTH) return false;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  const host = url.hostname.toLowerCase();
  if (host === LOOPBACK_HOST) {
    return allowedHosts.includes(LOOPBACK_HOST) && (url.protocol === "http:" || url.protocol === "https:");
  }
  if (url.protocol !== "https:" || url.port !== "") return false;
  // An IP address is never a push service's name (IPv6 literals come bracketed, IPv4 ones end in a digit).
  if (host.startsWith("[") || /^[\d.]+$/.test(host)) return false;
  return allowedHosts.some((allowed) => {
    const suffix = allowed.trim().toLowerCase().replace(/^\.+/, "");
    return suffix !== "" && suffix !== LOOPBACK_HOST && (host === suffix || host.endsWith(`.${suffix}`));
  });
}
