import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import type { DatabaseHandle } from "~/.server/db";
import { createAccount, type CreatedAccount } from "../../app/.server/db/factories";
import { openTestDatabase } from "../support/test-database";
import { getAccount } from "~/.server/services/accounts";
import { recordNotification } from "~/.server/services/notifications";
import { accountContext } from "~/routes/+shared/auth.server";
import { action, loader } from "~/routes/notifications/panel";
import { installTestPlatform } from "../support/test-platform";

/**
 * The notification centre's route (routes/notifications/panel.tsx, decision 0030) as React Router calls it: real
 * `Request`s, the signed-in account in the context, a test database (SQLite, or PostgreSQL with
 * TEST_DATABASE_URL). Read marking without JS (the rendered ones), with JS (`observe=1`: the posted ids only),
 * another person's ids, a page beyond the last.
 */
let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await openTestDatabase();
  installTestPlatform(handle, "notification-centre-test-secret-0123456789");
});
afterAll(() => handle.close());

let me: CreatedAccount;
let other: CreatedAccount;
/** My 20 notifications' ids, newest first (all unread); the other person's one. */
let mine: string[];
let theirs: string;

beforeEach(async () => {
  const suffix = Math.random().toString(36).slice(2);
  me = await createAccount(handle.db, { email: `centre-${suffix}@example.com`, passwordHash: "x" });
  other = await createAccount(handle.db, { email: `centre-other-${suffix}@example.com`, passwordHash: "x" });
  const base = Date.parse("2026-11-20T12:00:00Z");
  mine = [];
  for (let i = 0; i < 20; i++)
    mine.push(
      await recordNotification(
        handle.db,
        me.userId,
        "wallet_reload_notification",
        null,
        new Date(base - i * 3_600_000),
      ),
    );
  theirs = await recordNotification(handle.db, other.userId, "wallet_reload_notification", null, new Date(base));
});

async function contextOf(account: CreatedAccount) {
  const context = new RouterContextProvider();
  context.set(accountContext, (await getAccount(handle.db, account.userId))!);
  return context;
}

type Args = Parameters<typeof loader>[0];

/** A page of the portal's own (a link of its own or a typed address), unless told otherwise (decision 0048). */
const FROM_THIS_SITE = { Host: "localhost", "Sec-Fetch-Site": "same-origin" };

async function load(account: CreatedAccount, search: string, headers: Record<string, string> = FROM_THIS_SITE) {
  const request = new Request(`http://localhost/notifications?${search}`, { headers });
  const args = {
    request,
    url: new URL(request.url),
    params: {},
    pattern: "/notifications",
    context: await contextOf(account),
  };
  return loader(args as unknown as Args);
}

async function post(account: CreatedAccount, search: string, form: [string, string][]) {
  const request = new Request(`http://localhost/notifications?${search}`, {
    method: "POST",
    body: new URLSearchParams(form),
  });
  const args = {
    request,
    url: new URL(request.url),
    params: {},
    pattern: "/notifications",
    context: await contextOf(account),
  };
  try {
    return await action(args as unknown as Args);
  } catch (thrown) {
    return thrown;
  }
}

/** The status of what a loader or action threw or answered (a refusal is `data(…, { status })`). */
function statusOf(result: unknown): number {
  if (result instanceof Response) return result.status;
  return (result as { init?: { status?: number } | null }).init?.status ?? 200;
}

const readIds = async (userId: string) =>
  (
    await handle.db
      .selectFrom("notifications")
      .select("id")
      .where("user_id", "=", userId)
      .where("read_at", "is not", null)
      .execute()
  )
    .map((r) => r.id)
    .sort();

describe("read marking", () => {
  test("without JS, the 15 rendered are marked read once shown (still shown unread this once), the 5 others stay unread", async () => {
    const page = await load(me, "back=%2Fcards");
    expect(page.markedOnDisplay).toBe(true);
    expect(page.items.map((n) => n.id)).toEqual(mine.slice(0, 15));
    expect(page.items.every((n) => !n.read)).toBe(true);
    expect(page.unread).toBe(5);
    expect(await readIds(me.userId)).toEqual(mine.slice(0, 15).sort());
    // "Voir plus": the next 5 are rendered, hence read.
    const more = await load(me, "back=%2Fcards&page=2");
    expect(more.items).toHaveLength(20);
    expect(more.unread).toBe(0);
    expect(await readIds(other.userId)).toEqual([]);
  });

  test("opened from another site (or with nothing saying where from), nothing is marked; the button posts them", async () => {
    const elsewhere: Record<string, string>[] = [
      { Host: "localhost", "Sec-Fetch-Site": "cross-site" },
      { Host: "localhost", "Sec-Fetch-Site": "same-site" },
      { Host: "localhost", Referer: "https://elsewhere.example/" },
      { Host: "localhost" },
    ];
    for (const headers of elsewhere) {
      const page = await load(me, "back=%2Fcards", headers);
      expect(page.items).toHaveLength(15);
      expect(page.markedOnDisplay).toBe(false);
      expect(page.unread).toBe(20);
    }
    expect(await readIds(me.userId)).toEqual([]);
    // The page's "mark these read" button: the rendered ones, posted.
    const shown = mine.slice(0, 15);
    expect(
      await post(me, "back=%2Fcards", [["intent", "read"], ...shown.map((id): [string, string] => ["id", id])]),
    ).toEqual({ marked: 15 });
    expect(await readIds(me.userId)).toEqual([...shown].sort());
    // Typed or bookmarked (Sec-Fetch-Site: none) is the person's own doing: marked on display.
    expect((await load(me, "back=%2Fcards&page=2", { Host: "localhost", "Sec-Fetch-Site": "none" })).unread).toBe(0);
  });

  test("unread only: what is rendered is what gets marked", async () => {
    await handle.db
      .updateTable("notifications")
      .set({ read_at: "2026-11-21T00:00:00.000Z" })
      .where("id", "in", mine.slice(0, 3))
      .execute();
    const page = await load(me, "back=%2Fcards&unread=1");
    expect(page.items.map((n) => n.id)).toEqual(mine.slice(3, 18));
    expect(page.unread).toBe(2);
  });

  test("with JS (observe=1), rendering marks nothing; posting one seen id marks that one only", async () => {
    const page = await load(me, "back=%2Fcards&observe=1");
    expect(page.items).toHaveLength(15);
    expect(page.unread).toBe(20);
    expect(await readIds(me.userId)).toEqual([]);
    const seen = mine[4]!;
    expect(
      await post(me, "back=%2Fcards&observe=1", [
        ["intent", "read"],
        ["id", seen],
      ]),
    ).toEqual({ marked: 1 });
    expect(await readIds(me.userId)).toEqual([seen]);
    // Posted again: already read, nothing more.
    expect(
      await post(me, "back=%2Fcards&observe=1", [
        ["intent", "read"],
        ["id", seen],
      ]),
    ).toEqual({ marked: 0 });
  });

  test("a notification just marked unread without JS is not marked read again by the rendering that shows it", async () => {
    await load(me, "back=%2Fcards");
    const target = mine[2]!;
    const answer = await post(me, "back=%2Fcards", [
      ["intent", "markUnread"],
      ["id", target],
    ]);
    expect(statusOf(answer)).toBe(302);
    const location = (answer as Response).headers.get("Location")!;
    expect(location).toContain(`kept=${target}`);
    const again = await load(me, location.slice(location.indexOf("?") + 1));
    expect(again.items.find((n) => n.id === target)?.read).toBe(false);
    expect(again.unread).toBe(6);
    expect(await readIds(me.userId)).not.toContain(target);
  });
});

describe("another person's ids, unknown ids, pages beyond the last", () => {
  test("read, mark unread and delete of another person's id: 404, nothing changed", async () => {
    const before = await handle.db.selectFrom("notifications").selectAll().where("id", "=", theirs).executeTakeFirst();
    for (const intent of ["read", "markUnread", "delete"])
      expect(
        statusOf(
          await post(me, "back=%2Fcards&observe=1", [
            ["intent", intent],
            ["id", theirs],
          ]),
        ),
      ).toBe(404);
    expect(
      statusOf(
        await post(me, "back=%2Fcards", [
          ["intent", "delete"],
          ["id", "ntf_unknown"],
        ]),
      ),
    ).toBe(404);
    expect(await handle.db.selectFrom("notifications").selectAll().where("id", "=", theirs).executeTakeFirst()).toEqual(
      before,
    );
    expect(await readIds(me.userId)).toEqual([]);
  });

  test("a batch mixing one's own and another's ids marks one's own only", async () => {
    const answer = await post(me, "back=%2Fcards&observe=1", [
      ["intent", "read"],
      ["id", mine[0]!],
      ["id", theirs],
    ]);
    expect(answer).toEqual({ marked: 1 });
    expect(await readIds(me.userId)).toEqual([mine[0]]);
    expect(await readIds(other.userId)).toEqual([]);
  });

  test("deleting one's own: gone, a second time 404", async () => {
    expect(
      statusOf(
        await post(me, "back=%2Fcards", [
          ["intent", "delete"],
          ["id", mine[0]!],
        ]),
      ),
    ).toBe(302);
    expect(
      statusOf(
        await post(me, "back=%2Fcards", [
          ["intent", "delete"],
          ["id", mine[0]!],
        ]),
      ),
    ).toBe(404);
    expect((await load(me, "back=%2Fcards&observe=1")).unread).toBe(19);
  });

  test("a page beyond the last, or not a page number, is a 404 and marks nothing; page 1 of nothing exists", async () => {
    for (const search of ["page=3", "page=0", "page=abc", "page=10000", "unread=1&page=3"]) {
      let thrown: unknown = null;
      try {
        await load(me, `back=%2Fcards&${search}`);
      } catch (err) {
        thrown = err;
      }
      expect(statusOf(thrown), search).toBe(404);
    }
    expect(await readIds(me.userId)).toEqual([]);
    await handle.db.deleteFrom("notifications").where("user_id", "=", me.userId).execute();
    expect(await load(me, "back=%2Fcards&unread=1")).toMatchObject({ items: [], nextId: null, unread: 0 });
  });
});
