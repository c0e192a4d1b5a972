import type { AddressInfo } from "node:net";
import express from "express";
import { rateLimit } from "express-rate-limit";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { DatabaseHandle } from "./index";
import { DatabaseRateLimitStore } from "./rate-limit-store";
import { openTestDatabase } from "../../../tests/support/test-database";

/** The request counts kept in the database (PostgreSQL deployments), on SQLite and PostgreSQL. */
let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openTestDatabase();
});
afterAll(() => handle.close());

const WINDOW_MS = 60_000;
function storeFor(prefix: string) {
  const store = new DatabaseRateLimitStore(handle.db, { prefix });
  store.init({ windowMs: WINDOW_MS });
  return store;
}

test("counts per key within the window, then starts again at 1", async () => {
  const store = storeFor("count");
  const start = new Date("2026-03-02T09:00:00.000Z");
  expect(await store.increment("a", start)).toEqual({ totalHits: 1, resetTime: new Date(start.getTime() + WINDOW_MS) });
  expect((await store.increment("a", new Date(start.getTime() + 1000))).totalHits).toBe(2);
  expect((await store.increment("b", start)).totalHits).toBe(1);
  const justBefore = new Date(start.getTime() + WINDOW_MS - 1);
  expect(await store.increment("a", justBefore)).toEqual({
    totalHits: 3,
    resetTime: new Date(start.getTime() + WINDOW_MS),
  });
  const after = new Date(start.getTime() + WINDOW_MS);
  expect(await store.increment("a", after)).toEqual({ totalHits: 1, resetTime: new Date(after.getTime() + WINDOW_MS) });
  store.shutdown();
});

test("concurrent hits are all counted, each seeing its own total", async () => {
  const store = storeFor("concurrent");
  const totals = await Promise.all(Array.from({ length: 40 }, () => store.increment("office")));
  expect(totals.map((t) => t.totalHits).sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  expect((await store.get("office"))?.totalHits).toBe(40);
  store.shutdown();
});

test("two stores on the same database (two machines) share a count; another prefix does not", async () => {
  const one = storeFor("shared");
  const two = storeFor("shared");
  const other = storeFor("other");
  await one.increment("k");
  await two.increment("k");
  expect((await one.increment("k")).totalHits).toBe(3);
  expect((await other.increment("k")).totalHits).toBe(1);
  await two.decrement("k");
  expect((await one.get("k"))?.totalHits).toBe(2);
  await one.resetKey("k");
  expect(await two.get("k")).toBeUndefined();
  expect((await other.get("k"))?.totalHits).toBe(1);
  await other.resetAll();
  expect(await other.get("k")).toBeUndefined();
  for (const store of [one, two, other]) store.shutdown();
});

test("expired counts are swept away", async () => {
  const store = storeFor("sweep");
  const start = new Date("2026-03-02T09:00:00.000Z");
  await store.increment("old", start);
  await store.increment("new", new Date());
  await store.sweep(new Date(start.getTime() + WINDOW_MS));
  const keys = (
    await handle.db.selectFrom("rate_limit_hits").select("key").where("key", "like", "sweep:%").execute()
  ).map((r) => r.key);
  expect(keys).toEqual(["sweep:new"]);
  store.shutdown();
});

test("express-rate-limit on two servers sharing the database refuses the request past the limit, whichever server gets it", async () => {
  const servers = [0, 1].map(() => {
    const app = express();
    app.use(
      rateLimit({
        windowMs: WINDOW_MS,
        limit: 5,
        store: storeFor("express"),
        keyGenerator: () => "one-office",
        standardHeaders: "draft-7",
        legacyHeaders: false,
      }),
    );
    app.get("/", (_req, res) => void res.send("ok"));
    return app.listen(0, "127.0.0.1");
  });
  try {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.once("listening", resolve))));
    const urls = servers.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}/`);
    const statuses = [];
    for (let i = 0; i < 8; i++) statuses.push((await fetch(urls[i % 2]!)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
  } finally {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  }
});
