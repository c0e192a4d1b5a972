import { afterAll, beforeAll, expect, test } from "vitest";
import type { DatabaseHandle, DB } from "./index";
import { openDatabase } from "./index";
import { prepared, preparedList, type Argument } from "./prepared";
import { insertUsers } from "./factories";
import { openTestDatabase } from "../../../tests/support/test-database";

/** Queries compiled once per database (prepared.ts), on SQLite and, in the PostgreSQL list, on PostgreSQL. */
let handle: DatabaseHandle;
let ids: string[];
beforeAll(async () => {
  handle = await openTestDatabase();
  ids = await insertUsers(handle.db, ["ada@example.com", "bob@example.com", "cy@example.com"]);
});
afterAll(() => handle.close());

let builds = 0;
const usersFrom = prepared((db: DB, arg: Argument<{ email: string; limit: number }>) => {
  builds++;
  return db
    .selectFrom("users")
    .select(["id", "email"])
    .where("email", ">=", arg("email"))
    .where("status", "=", "active")
    .orderBy("email")
    .limit(arg("limit"));
});

test("each call binds its own arguments; the query is built once for the database", async () => {
  const before = builds;
  expect(await usersFrom.all(handle.db, { email: "b", limit: 10 })).toEqual([
    { id: ids[1], email: "bob@example.com" },
    { id: ids[2], email: "cy@example.com" },
  ]);
  expect(await usersFrom.all(handle.db, { email: "a", limit: 1 })).toEqual([{ id: ids[0], email: "ada@example.com" }]);
  expect(await usersFrom.first(handle.db, { email: "c", limit: 5 })).toEqual({ id: ids[2], email: "cy@example.com" });
  expect(await usersFrom.first(handle.db, { email: "z", limit: 5 })).toBeUndefined();
  expect(builds - before).toBe(1);
});

test("a value fixed in the builder stays fixed; an argument never reaches the SQL text", async () => {
  const seen: { sql: string; parameters: readonly unknown[] }[] = [];
  const logged = openDatabase(":memory:", { log: (q) => seen.push(q) });
  try {
    await logged.db.schema
      .createTable("users")
      .addColumn("id", "text")
      .addColumn("email", "text")
      .addColumn("status", "text")
      .execute();
    await logged.db
      .insertInto("users")
      .values([
        { id: "u1", email: "x' or '1'='1", status: "active" } as never,
        { id: "u2", email: "y@example.com", status: "disabled" } as never,
      ])
      .execute();
    seen.length = 0;
    expect(await usersFrom.all(logged.db, { email: "x' or '1'='1", limit: 3 })).toEqual([
      { id: "u1", email: "x' or '1'='1" },
    ]);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.sql).not.toContain("or '1'");
    expect(seen[0]!.parameters).toEqual(["x' or '1'='1", "active", 3]);
  } finally {
    await logged.close();
  }
});

test("transactions use the database's compiled query and see their own writes", async () => {
  const before = builds;
  const inside = await handle.db.transaction().execute(async (trx) => {
    await trx.updateTable("users").set({ status: "disabled" }).where("id", "=", ids[1]!).execute();
    return usersFrom.all(trx, { email: "a", limit: 10 });
  });
  expect(inside.map((u) => u.email)).toEqual(["ada@example.com", "cy@example.com"]);
  expect(builds - before).toBe(0);
  await handle.db.updateTable("users").set({ status: "active" }).where("id", "=", ids[1]!).execute();
});

let listBuilds: number[] = [];
const usersIn = preparedList((db: DB, arg: Argument<{ status: string }>, list) => {
  listBuilds.push(list.length);
  return db
    .selectFrom("users")
    .select(["id", "email"])
    .where("id", "in", list)
    .where("status", "=", arg("status"))
    .orderBy("email");
});

test("a list query: any length of list, each row once, compiled once per power-of-two length from 8", async () => {
  listBuilds = [];
  const active = { status: "active" };
  expect(await usersIn.all(handle.db, active, [ids[2]!])).toEqual([{ id: ids[2], email: "cy@example.com" }]);
  expect((await usersIn.all(handle.db, active, [ids[1]!, ids[0]!, "nobody"])).map((u) => u.email)).toEqual([
    "ada@example.com",
    "bob@example.com",
  ]);
  const nine = [...ids, ...Array.from({ length: 6 }, (_, i) => `none${i}`)];
  expect((await usersIn.all(handle.db, active, nine)).map((u) => u.email)).toEqual([
    "ada@example.com",
    "bob@example.com",
    "cy@example.com",
  ]);
  expect(await usersIn.all(handle.db, { status: "disabled" }, ids)).toEqual([]);
  expect(listBuilds).toEqual([8, 16]);
  await expect(usersIn.all(handle.db, active, [])).rejects.toThrow(/empty list/);
});
