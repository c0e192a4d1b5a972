import { expect, test } from "vitest";
import { ConfigError, parseEnv } from "./env";

test("no environment at all: sandbox on SQLite, with a random session secret", () => {
  const env = parseEnv({});
  expect(env.sandbox).toBe(true);
  expect(env.DATABASE_URL).toBe("file:data/portal.sqlite");
  expect(env.PORT).toBe(3000);
  expect(env.sessionSecrets[0]!.length).toBeGreaterThanOrEqual(32);
  expect(parseEnv({}).sessionSecrets[0]).not.toBe(env.sessionSecrets[0]);
});

test("production mode refuses to start without a long session secret and SMTP", () => {
  expect(() => parseEnv({ APP_MODE: "production" })).toThrow(ConfigError);
  expect(() => parseEnv({ APP_MODE: "production", SESSION_SECRET: "short", SMTP_URL: "smtp://localhost:25" })).toThrow(/SESSION_SECRET/);
  const env = parseEnv({ APP_MODE: "production", SESSION_SECRET: "a".repeat(32) + ",old-secret", SMTP_URL: "smtp://localhost:25" });
  expect(env.sandbox).toBe(false);
  expect(env.sessionSecrets).toEqual(["a".repeat(32), "old-secret"]);
});

test("bad values are named in the error", () => {
  expect(() => parseEnv({ PORT: "eighty" })).toThrow(/PORT/);
  expect(() => parseEnv({ STATUS_BANNER_COLOR: "red;}body{display:none" })).toThrow(/STATUS_BANNER_COLOR/);
  expect(() => parseEnv({ APP_MODE: "live" })).toThrow(/APP_MODE/);
});

test("guess limits: defaults, blank means default, and a cap below the first wait is refused", () => {
  const env = parseEnv({ GUESS_LIMIT_PASSWORD: "", GUESS_DELAY_SECONDS: " 30 " });
  expect([env.GUESS_LIMIT_PASSWORD, env.GUESS_LIMIT_CODE, env.GUESS_DELAY_SECONDS, env.GUESS_DELAY_MAX_SECONDS, env.GUESS_FORGET_SECONDS]).toEqual([5, 10, 30, 900, 86400]);
  expect(() => parseEnv({ GUESS_LIMIT_CODE: "0" })).toThrow(/GUESS_LIMIT_CODE/);
  expect(() => parseEnv({ GUESS_DELAY_SECONDS: "1.5" })).toThrow(/GUESS_DELAY_SECONDS/);
  expect(() => parseEnv({ GUESS_DELAY_SECONDS: "600", GUESS_DELAY_MAX_SECONDS: "60" })).toThrow(/GUESS_DELAY_MAX_SECONDS/);
});
