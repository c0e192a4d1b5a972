import { readFileSync } from "node:fs";
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
  expect(() => parseEnv({ APP_MODE: "production", SESSION_SECRET: "short", SMTP_URL: "smtp://localhost:25" })).toThrow(
    /SESSION_SECRET/,
  );
  const env = parseEnv({
    APP_MODE: "production",
    SESSION_SECRET: "a".repeat(32) + ",old-secret",
    SMTP_URL: "smtp://localhost:25",
  });
  expect(env.sandbox).toBe(false);
  expect(env.sessionSecrets).toEqual(["a".repeat(32), "old-secret"]);
});

test("bad values are named in the error", () => {
  expect(() => parseEnv({ PORT: "eighty" })).toThrow(/PORT/);
  expect(() => parseEnv({ STATUS_BANNER_COLOR: "red;}body{display:none" })).toThrow(/STATUS_BANNER_COLOR/);
  expect(() => parseEnv({ APP_MODE: "live" })).toThrow(/APP_MODE/);
});

test("sandbox mode refuses a public address unless told so: it would publish the outbox and the demo accounts", () => {
  for (const host of ["0.0.0.0", "::", "192.168.1.10", "portail.example"]) {
    expect(() => parseEnv({ HOST: host })).toThrow(/HOST: sandbox mode .*ALLOW_PUBLIC_SANDBOX/);
  }
  for (const host of ["127.0.0.1", "127.0.0.2", "localhost", "::1", "[::1]"])
    expect(parseEnv({ HOST: host }).HOST).toBe(host);
  expect(parseEnv({ HOST: "0.0.0.0", ALLOW_PUBLIC_SANDBOX: "1" }).sandbox).toBe(true);
  expect(
    parseEnv({
      HOST: "0.0.0.0",
      APP_MODE: "production",
      SESSION_SECRET: "a".repeat(32),
      SMTP_URL: "smtp://localhost:25",
    }).sandbox,
  ).toBe(false);
});

test("the container image's own settings do not start a sandbox on the network", () => {
  const dockerfile = readFileSync(new URL("../../Dockerfile", import.meta.url), "utf8");
  const settings: Record<string, string> = {};
  for (const line of dockerfile.split("\n").filter((l) => /^ENV\s/.test(l))) {
    for (const [, key, value] of line.matchAll(/(\w+)=(\S+)/g)) settings[key!] = value!;
  }
  expect(settings.HOST).toBe("0.0.0.0");
  // Started with nothing else (as `docker run image` would), the configuration is refused.
  expect(() => parseEnv(settings)).toThrow(ConfigError);
  // The README's example runs production mode.
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  const run = /docker run [^\n`]+/.exec(readme)?.[0] ?? "";
  expect(run).toContain("APP_MODE=production");
});

test("guess limits: defaults, blank means default, and a cap below the first wait is refused", () => {
  const env = parseEnv({ GUESS_LIMIT_PASSWORD: "", GUESS_DELAY_SECONDS: " 30 " });
  expect([
    env.GUESS_LIMIT_PASSWORD,
    env.GUESS_LIMIT_CODE,
    env.GUESS_DELAY_SECONDS,
    env.GUESS_DELAY_MAX_SECONDS,
    env.GUESS_FORGET_SECONDS,
  ]).toEqual([5, 10, 30, 900, 86400]);
  expect(() => parseEnv({ GUESS_LIMIT_CODE: "0" })).toThrow(/GUESS_LIMIT_CODE/);
  expect(() => parseEnv({ GUESS_DELAY_SECONDS: "1.5" })).toThrow(/GUESS_DELAY_SECONDS/);
  expect(() => parseEnv({ GUESS_DELAY_SECONDS: "600", GUESS_DELAY_MAX_SECONDS: "60" })).toThrow(
    /GUESS_DELAY_MAX_SECONDS/,
  );
});

test("request limits: defaults an office can live with, every one configurable, off for load measurements", () => {
  const env = parseEnv({});
  expect([
    env.RATE_LIMITS,
    env.RATE_LIMIT_WINDOW_SECONDS,
    env.RATE_LIMIT_ANONYMOUS,
    env.RATE_LIMIT_SESSION,
    env.RATE_LIMIT_SENSITIVE,
    env.RATE_LIMIT_SESSION_SENSITIVE,
  ]).toEqual(["on", 300, 3000, 3000, 200, 60]);
  const set = parseEnv({
    RATE_LIMITS: "off",
    RATE_LIMIT_WINDOW_SECONDS: "60",
    RATE_LIMIT_ANONYMOUS: "10",
    RATE_LIMIT_SESSION: "20",
    RATE_LIMIT_SENSITIVE: "1000",
    RATE_LIMIT_SESSION_SENSITIVE: "5",
  });
  expect([
    set.RATE_LIMITS,
    set.RATE_LIMIT_WINDOW_SECONDS,
    set.RATE_LIMIT_ANONYMOUS,
    set.RATE_LIMIT_SESSION,
    set.RATE_LIMIT_SENSITIVE,
    set.RATE_LIMIT_SESSION_SENSITIVE,
  ]).toEqual(["off", 60, 10, 20, 1000, 5]);
  expect(() => parseEnv({ RATE_LIMITS: "false" })).toThrow(/RATE_LIMITS/);
  expect(() => parseEnv({ RATE_LIMIT_SESSION: "-1" })).toThrow(/RATE_LIMIT_SESSION/);
  expect(() => parseEnv({ RATE_LIMIT_WINDOW_SECONDS: "five" })).toThrow(/RATE_LIMIT_WINDOW_SECONDS/);
});

test("geodata settings: the road factor (default 1.3), the routing service and its timeout (default 2000 ms)", () => {
  const defaults = parseEnv({});
  expect([defaults.GEODATA_ROAD_FACTOR, defaults.ROUTING_URL, defaults.ROUTING_TIMEOUT_MS]).toEqual([
    1.3,
    undefined,
    2000,
  ]);
  const set = parseEnv({
    GEODATA_ROAD_FACTOR: " 1.25 ",
    ROUTING_URL: "http://127.0.0.1:5000",
    ROUTING_TIMEOUT_MS: "500",
  });
  expect([set.GEODATA_ROAD_FACTOR, set.ROUTING_URL, set.ROUTING_TIMEOUT_MS]).toEqual([
    1.25,
    "http://127.0.0.1:5000",
    500,
  ]);
  expect(parseEnv({ GEODATA_ROAD_FACTOR: "", ROUTING_URL: "" })).toMatchObject({ GEODATA_ROAD_FACTOR: 1.3 });
  expect(parseEnv({ ROUTING_URL: " " }).ROUTING_URL).toBeUndefined();
  for (const factor of ["0.9", "3.5", "vol d'oiseau"])
    expect(() => parseEnv({ GEODATA_ROAD_FACTOR: factor })).toThrow(/GEODATA_ROAD_FACTOR/);
  expect(() => parseEnv({ ROUTING_URL: "osrm.local" })).toThrow(/ROUTING_URL/);
  expect(() => parseEnv({ ROUTING_TIMEOUT_MS: "0" })).toThrow(/ROUTING_TIMEOUT_MS/);
});

test("TAG_MANAGER_ID: unset or blank, none; a GTM container id or `sandbox`; anything else named in the error", () => {
  expect(parseEnv({}).TAG_MANAGER_ID).toBeUndefined();
  expect(parseEnv({ TAG_MANAGER_ID: "" }).TAG_MANAGER_ID).toBeUndefined();
  expect(parseEnv({ TAG_MANAGER_ID: "sandbox" }).TAG_MANAGER_ID).toBe("sandbox");
  expect(parseEnv({ TAG_MANAGER_ID: " GTM-AB12CD " }).TAG_MANAGER_ID).toBe("GTM-AB12CD");
  expect(() => parseEnv({ TAG_MANAGER_ID: "GTM-x');alert(1)//" })).toThrow(/TAG_MANAGER_ID/);
  expect(() => parseEnv({ TAG_MANAGER_ID: "UA-12345-1" })).toThrow(/TAG_MANAGER_ID/);
});
