/**
 * Error reporting rules shared by the server and the browser (issue 16 §9): what is sent to Sentry and
 * what never is. No personal data leaves the portal: e-mail addresses, phone numbers, IBANs, card
 * numbers and one-time codes are replaced in every string of an event before it is sent.
 */
export const TRACES_SAMPLE_RATE = 0.05;

const PATTERNS: [RegExp, string][] = [
  [/[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,}/gi, "[email]"],
  // IBAN: two letters, two check digits, then 11 to 30 letters or digits, spaces allowed in groups of 4.
  [/\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]){11,30}\b/g, "[iban]"],
  // Card numbers: 13 to 19 digits, spaces or dashes between groups.
  [/\b\d(?:[ -]?\d){12,18}\b/g, "[card]"],
  // Phone numbers: +33 6 12 34 56 78, 06 12 34 56 78, 0612345678…
  [/(?:\+\d{1,3}[ .-]?)?\(?\d{1,4}\)?(?:[ .-]?\d{2,4}){3,5}\b/g, "[phone]"],
  // One-time codes, PINs and CVCs: a lone group of 3 to 8 digits.
  [/\b\d{3,8}\b/g, "[code]"],
];

export function scrubText(text: string): string {
  return PATTERNS.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
}

/** Every string of a value scrubbed (objects and arrays walked, at most 12 levels deep). */
export function scrubValue<T>(value: T, depth = 0): T {
  if (typeof value === "string") return scrubText(value) as T;
  if (depth > 12 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v: unknown) => scrubValue(v, depth + 1)) as T;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, scrubValue(v, depth + 1)]),
  ) as T;
}

/** Errors of the network between the browser and the portal: not the portal's fault, never reported. */
export function isNetworkError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === "string" ? error : "";
  return /failed to fetch|networkerror|network request failed|load failed|fetch failed|econnreset|socket hang up/i.test(
    message,
  );
}

/** A 401 (an expired session) is a warning, not an error. */
export function isUnauthorized(error: unknown): boolean {
  if (error === null || typeof error !== "object") return false;
  const status = (error as { status?: unknown }).status;
  return status === 401;
}

const UNSCRUBBED_KEYS = new Set([
  "event_id",
  "timestamp",
  "start_timestamp",
  "level",
  "platform",
  "type",
  "sdk",
  "release",
  "environment",
  "server_name",
  "modules",
  "sdkProcessingMetadata",
]);

interface ReportableEvent {
  level?: string;
  user?: { id?: string | number };
  request?: { cookies?: unknown; headers?: Record<string, string>; data?: unknown };
}

/**
 * Sentry's `beforeSend`: network errors dropped, a 401 lowered to a warning, the person reduced to
 * their id, cookies and form data removed, every remaining string scrubbed.
 */
export function beforeSend<E extends object>(event: E, hint: { originalException?: unknown }): E | null {
  const error = hint.originalException;
  if (isNetworkError(error)) return null;
  const out = { ...event } as ReportableEvent;
  if (isUnauthorized(error)) out.level = "warning";
  if (out.user) out.user = out.user.id === undefined ? {} : { id: out.user.id };
  if (out.request) {
    const { cookies: _cookies, data: _data, headers, ...request } = out.request;
    const kept = headers ? { "user-agent": headers["user-agent"] ?? "" } : undefined;
    out.request = { ...request, ...(kept ? { headers: kept } : {}) };
  }
  // Identifiers and SDK metadata are kept as they are (a trace id is hex, a release may hold digits).
  const kept = Object.fromEntries(Object.entries(out).filter(([key]) => UNSCRUBBED_KEYS.has(key)));
  return { ...scrubValue(out), ...kept } as E;
}
