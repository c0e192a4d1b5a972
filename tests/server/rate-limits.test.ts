import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  ANONYMOUS_FLOW_PATH,
  createRateLimits,
  DEFAULT_RATE_LIMITS,
  routePath,
  SENSITIVE_PATH,
} from "../../server/rate-limits";

test.each([
  ["/login", true],
  ["/login/code", true],
  ["/cards/card_1/reveal", true],
  ["/cards/card_1/unlock-pin", true],
  ["/lost-password", true],
  ["/activate/abc", true],
  ["/reset-password/abc", true],
  ["/onboarding/card", true],
  ["/sandbox-processor/fields/abc", true],
  ["/user-confirmation", true],
  ["/force-change-password", true],
  ["/secure-account/pending/phone", true],
  ["/settings/profile/confirm/email", true],
  ["/settings/security", true],
  ["/settings/notifications", false],
  ["/cards/card_1/freeze", false],
  ["/cards/card_1", false],
  ["/loginx", false],
  // As the router reads them: JavaScript-enabled posts, other cases, escapes, doubled slashes.
  ["/login.data", true],
  ["/login/code.data", true],
  ["/cards/card_1/reveal.data", true],
  ["/LOGIN", true],
  ["/%6Cogin", true],
  ["//login", true],
  ["/cards/card_1//unlock-pin", true],
  ["/cards/card_1/freeze.data", false],
  ["/%E0%A4%A", false],
])("%s is a sensitive path: %s", (path, sensitive) => {
  expect(SENSITIVE_PATH.test(routePath(path))).toBe(sensitive);
});

test.each([
  ["/login", true],
  ["/login/code.data", true],
  ["/lost-password", true],
  ["/reset-password/abc", true],
  ["/activate/abc", true],
  ["/user-confirmation", true],
  ["/force-change-password", true],
  ["/cards/card_1/reveal", false],
  ["/settings/security", false],
  ["/onboarding", false],
  ["/secure-account", false],
])("%s belongs to a flow without a session (counted per address): %s", (path, anonymous) => {
  expect(ANONYMOUS_FLOW_PATH.test(routePath(path))).toBe(anonymous);
});

describe("who is counted", () => {
  const options = {
    ...DEFAULT_RATE_LIMITS,
    anonymousPerWindow: 2,
    sessionPerWindow: 3,
    sensitivePerWindow: 2,
    sessionSensitivePerWindow: 1,
  };
  let server: Server;
  let base: string;
  beforeAll(async () => {
    const app = express();
    // The test's stand-in for a signed cookie checked against the database.
    const limits = createRateLimits(options, async (req) => (req.get("x-test-session") ?? null) || null);
    for (const limit of limits) app.use(limit);
    app.all("/{*splat}", (_req, res) => void res.send("ok"));
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const hit = async (path: string, init: { session?: string; method?: string } = {}) =>
    (
      await fetch(`${base}${path}`, {
        method: init.method ?? "GET",
        headers: init.session ? { "x-test-session": init.session } : {},
      })
    ).status;
  const times = async (n: number, f: () => Promise<number>) => {
    const statuses = [];
    for (let i = 0; i < n; i++) statuses.push(await f());
    return statuses;
  };

  test("each signed-in session has its own count, whatever the address; anonymous requests share the address's", async () => {
    expect(await times(3, () => hit("/page"))).toEqual([200, 200, 429]);
    expect(await times(4, () => hit("/page", { session: "a" }))).toEqual([200, 200, 200, 429]);
    expect(await times(4, () => hit("/page", { session: "b" }))).toEqual([200, 200, 200, 429]);
    // Hashed assets and health checks are not counted.
    expect(await times(3, () => hit("/assets/app-1234.js"))).toEqual([200, 200, 200]);
    expect(await hit("/healthz")).toBe(200);
  });

  test("sign-in flows are counted per address even with a session; other sensitive posts per session; PUT, PATCH and DELETE are posts too", async () => {
    expect(await hit("/login", { method: "POST", session: "c" })).toBe(200);
    expect(await hit("/login.data", { method: "PUT", session: "d" })).toBe(200);
    expect(await hit("/LOGIN/code", { method: "POST", session: "e" })).toBe(429);
    expect(await times(2, () => hit("/cards/card_1/reveal.data", { method: "POST", session: "f" }))).toEqual([
      200, 429,
    ]);
    expect(await times(2, () => hit("/settings/security", { method: "DELETE", session: "g" }))).toEqual([200, 429]);
    // Reading a sensitive page is not a guess.
    expect(await times(2, () => hit("/cards/card_1/reveal", { session: "h" }))).toEqual([200, 200]);
  });

  test("RATE_LIMITS=off: no limit at all", () => {
    expect(createRateLimits({ ...options, enabled: false }, async () => null)).toEqual([]);
  });
});
