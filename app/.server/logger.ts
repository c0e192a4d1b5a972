/**
 * Structured one-line JSON logs. Keys that could carry secrets (passwords, codes, card data,
 * cookies, tokens) are replaced before anything is written.
 */
type Level = "debug" | "info" | "warn" | "error";
const ORDER: Record<Level | "silent", number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };
const SECRET_KEY = /pass|code|pin|pan|cvc|cvv|number|token|secret|cookie|authorization|otp|iban/i;

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 5 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEY.test(k) ? "[redacted]" : redact(v, depth + 1);
  return out;
}

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export function createLogger(
  minLevel: Level | "silent" = "info",
  write: (line: string) => void = (l) => process.stdout.write(l + "\n"),
): Logger {
  const log =
    (level: Level) =>
    (msg: string, fields: Record<string, unknown> = {}) => {
      if (ORDER[level] < ORDER[minLevel]) return;
      const safe = redact(fields) as Record<string, unknown>;
      if (fields.err instanceof Error)
        safe.err = { name: fields.err.name, message: fields.err.message, stack: fields.err.stack };
      write(JSON.stringify({ time: new Date().toISOString(), level, msg, ...safe }));
    };
  return { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
}

/**
 * Route parameters that carry a secret — a link's token, a single-use key or code — by their name in
 * app/routes.ts. This is the one rule for logs: such a value is written as its name (`:token`), on
 * every route that has one now or later.
 */
export const SECRET_PARAM = /token|key|secret|code/i;

/** The path to log for a request whose route parameters are known (React Router's error handlers). */
export function pathForLog(pathname: string, params: Record<string, string | undefined> = {}): string {
  let path = pathname;
  for (const [name, value] of Object.entries(params)) {
    if (!value || !SECRET_PARAM.test(name)) continue;
    for (const form of new Set([encodeURIComponent(value), value, encodeURI(value)]))
      path = path.split(form).join(`:${name}`);
  }
  return path;
}

/**
 * The same rule where only the path is known (the request log, written before or without React
 * Router): the route patterns that have a secret parameter are matched against the path, and that
 * segment is replaced by the parameter's name. `.data` requests are the same routes.
 */
export function secretPathMasker(patterns: readonly string[]): (pathname: string) => string {
  const matchers = patterns
    .filter((pattern) => pattern.split("/").some((segment) => segment.startsWith(":") && SECRET_PARAM.test(segment)))
    .map((pattern) => {
      const segments = pattern.split("/").filter(Boolean);
      const source = segments
        .map((segment) => {
          if (!segment.startsWith(":")) return `/${segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`;
          return segment.endsWith("?") ? "(?:/([^/]*?))?" : "/([^/]*?)";
        })
        .join("");
      return { segments, regex: new RegExp(`^${source}/?(\\.data)?$`, "i") };
    });
  return (pathname) => {
    for (const { segments, regex } of matchers) {
      const match = regex.exec(pathname);
      if (!match) continue;
      let group = 0;
      const parts = segments.map((segment) => {
        if (!segment.startsWith(":")) return segment;
        const value = match[++group];
        const name = segment.replace(/^:|\?$/g, "");
        if (value === undefined) return null;
        return SECRET_PARAM.test(name) ? `:${name}` : value;
      });
      return "/" + parts.filter((p) => p !== null).join("/") + (match[group + 1] ?? "");
    }
    return pathname;
  };
}
