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

export function createLogger(minLevel: Level | "silent" = "info", write: (line: string) => void = (l) => process.stdout.write(l + "\n")): Logger {
  const log = (level: Level) => (msg: string, fields: Record<string, unknown> = {}) => {
    if (ORDER[level] < ORDER[minLevel]) return;
    const safe = redact(fields) as Record<string, unknown>;
    if (fields.err instanceof Error) safe.err = { name: fields.err.name, message: fields.err.message, stack: fields.err.stack };
    write(JSON.stringify({ time: new Date().toISOString(), level, msg, ...safe }));
  };
  return { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
}
