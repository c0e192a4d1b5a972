import { existsSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import path from "node:path";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createLogger } from "../app/.server/logger";
import { createServerApp } from "./app";

/**
 * The Express layer in front of the built app, on a real port: headers, health, CSRF, limits.
 * Needs `npm run build` first (npm test builds before running these).
 */
const root = path.resolve(import.meta.dirname, "..");
const dbFile = path.join(root, "data/test-server.sqlite");
let server: Server;
let base: string;

beforeAll(async () => {
  const buildFile = path.join(root, "build/server/index.js");
  if (!existsSync(buildFile)) throw new Error("Run `npm run build` before the server tests");
  for (const suffix of ["", "-wal", "-shm"]) rmSync(dbFile + suffix, { force: true });
  process.env.DATABASE_URL = `file:${dbFile}`;
  process.env.LOG_LEVEL = "silent";
  const build = (await import(buildFile)) as ServerBuild;
  const app = createServerApp({
    loadBuild: async () => build,
    clientDir: path.join(root, "build/client"),
    development: false,
    trustProxy: false,
    rateLimits: { sensitivePerWindow: 3, generalPerWindow: 1000, windowMs: 60_000 },
    maxBodyBytes: 1024,
    log: createLogger("silent"),
  });
  await new Promise<void>((resolve) => {
    server = app.listen(0, "127.0.0.1", () => resolve());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

test("/healthz pings the database", async () => {
  const res = await fetch(`${base}/healthz`);
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ status: "ok", database: "sqlite" });
});

test("pages carry an enforced CSP whose nonce is fresh per response and used by the scripts", async () => {
  const first = await fetch(`${base}/login`);
  const second = await fetch(`${base}/login`);
  const csp = first.headers.get("content-security-policy") ?? "";
  expect(first.headers.get("content-security-policy-report-only")).toBeNull();
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  expect(nonce).toBeTruthy();
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(second.headers.get("content-security-policy")).not.toContain(nonce);
  const html = await first.text();
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  expect(scripts.length).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  expect(first.headers.get("x-content-type-options")).toBe("nosniff");
  expect(first.headers.get("x-powered-by")).toBeNull();
});

test("hashed assets are cached for a year, immutable", async () => {
  const html = await (await fetch(`${base}/login`)).text();
  const asset = /href="(\/assets\/[^"]+\.css)"/.exec(html)?.[1];
  expect(asset).toBeTruthy();
  const res = await fetch(`${base}${asset}`);
  expect(res.status).toBe(200);
  expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
});

test("a form post from another site is refused", async () => {
  const body = new URLSearchParams({ email: "marie.martin@example.com", password: "x" });
  const crossSite = await fetch(`${base}/logout`, { method: "POST", body, headers: { "Sec-Fetch-Site": "cross-site" }, redirect: "manual" });
  expect(crossSite.status).toBe(403);
  const otherOrigin = await fetch(`${base}/logout`, { method: "POST", body, headers: { Origin: "https://evil.example" }, redirect: "manual" });
  expect(otherOrigin.status).toBe(403);
  const sameOrigin = await fetch(`${base}/logout`, { method: "POST", body, headers: { Origin: base, "Sec-Fetch-Site": "same-origin" }, redirect: "manual" });
  expect(sameOrigin.status).toBe(302);
});

test("an oversized body is refused before it is read", async () => {
  const res = await fetch(`${base}/logout`, { method: "POST", body: "x".repeat(4096), headers: { Origin: base } });
  expect(res.status).toBe(413);
});

test("unknown paths answer 404; tampered cookies are ignored, not a 500", async () => {
  expect((await fetch(`${base}/nope`)).status).toBe(404);
  const res = await fetch(`${base}/cards`, { headers: { Cookie: "session=forged.value; other=%E0%A4%A" }, redirect: "manual" });
  expect(res.status).toBe(302);
  expect(res.headers.get("location")).toBe("/login?redirectTo=%2Fcards");
});

test("sign-in posts are rate limited per address, with a French page", async () => {
  const post = () =>
    fetch(`${base}/login`, {
      method: "POST",
      body: new URLSearchParams({ email: "marie.martin@example.com", password: "wrong" }),
      headers: { Origin: base },
      redirect: "manual",
    });
  const statuses = [];
  for (let i = 0; i < 4; i++) statuses.push((await post()).status);
  expect(statuses).toEqual([400, 400, 400, 429]);
  const limited = await post();
  expect(await limited.text()).toContain("Trop de tentatives");
  // Reading pages is not limited by the sign-in limit.
  expect((await fetch(`${base}/login`)).status).toBe(200);
});
