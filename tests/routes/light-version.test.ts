import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import type { DatabaseHandle } from "~/.server/db";
import { createAccount, type CreatedAccount } from "../../app/.server/db/factories";
import { openTestDatabase } from "../support/test-database";
import { getAccount } from "~/.server/services/accounts";
import { loader as rootLoader } from "~/root";
import { accountContext, requireAccount } from "~/routes/+shared/auth.server";
import { lightVersionChosenContext } from "~/routes/+shared/light-version.server";
import { sessionStorage } from "~/routes/+shared/request.server";
import { action, loader } from "~/routes/settings/profile";
import { installTestPlatform } from "../support/test-platform";

/**
 * The light version (decision 0040) as React Router calls its pieces: the profile's display form (its action, with
 * and without a valid choice, only ever on the signed-in person's row), the signed-in middleware that hands the
 * choice on from the account row it reads anyway, and the root loader that tells the document whether to be light.
 * SQLite, or PostgreSQL with TEST_DATABASE_URL.
 */
let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await openTestDatabase();
  installTestPlatform(handle, "light-version-test-secret-0123456789abcdef");
});
afterAll(() => handle.close());

let me: CreatedAccount;
let other: CreatedAccount;

beforeEach(async () => {
  const suffix = Math.random().toString(36).slice(2);
  const card = { type: "virtual" as const, lastFour: "4242" };
  me = await createAccount(handle.db, { email: `light-${suffix}@example.com`, passwordHash: "x", cards: [card] });
  other = await createAccount(handle.db, {
    email: `light-other-${suffix}@example.com`,
    passwordHash: "x",
    cards: [card],
  });
});

async function contextOf(account: CreatedAccount) {
  const context = new RouterContextProvider();
  context.set(accountContext, (await getAccount(handle.db, account.userId))!);
  return context;
}

type ActionArgs = Parameters<typeof action>[0];

async function post(account: CreatedAccount, form: [string, string][]) {
  const request = new Request("http://localhost/settings/profile", {
    method: "POST",
    body: new URLSearchParams(form),
  });
  const args = { request, params: {}, context: await contextOf(account) };
  try {
    return await action(args as unknown as ActionArgs);
  } catch (thrown) {
    return thrown;
  }
}

/** The status of what an action threw or answered (a refusal is `data(…, { status })`). */
function statusOf(result: unknown): number {
  if (result instanceof Response) return result.status;
  return (result as { init?: { status?: number } | null }).init?.status ?? 200;
}

const chosen = async (account: CreatedAccount) =>
  (
    await handle.db
      .selectFrom("users")
      .select("light_version")
      .where("id", "=", account.userId)
      .executeTakeFirstOrThrow()
  ).light_version;

describe("the display form (/settings/profile, intent display)", () => {
  test("turning it on writes the signed-in person's row only, and reloads the whole document with a message", async () => {
    const answer = await post(me, [
      ["intent", "display"],
      ["lightVersion", "on"],
    ]);
    expect(answer).toBeInstanceOf(Response);
    const response = answer as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/settings/profile");
    // With JavaScript too, a new document: its scripts must go (React Router's reload-document redirect).
    expect(response.headers.get("X-Remix-Reload-Document")).toBe("true");
    expect(response.headers.get("Set-Cookie")).toBeTruthy();
    expect(await chosen(me)).toBe(1);
    expect(await chosen(other)).toBe(0);
    expect((await getAccount(handle.db, me.userId))!.lightVersion).toBe(true);

    const off = await post(me, [
      ["intent", "display"],
      ["lightVersion", "off"],
    ]);
    expect(statusOf(off)).toBe(302);
    expect(await chosen(me)).toBe(0);
  });

  test.each([
    ["missing", [["intent", "display"]]],
    [
      "not a choice",
      [
        ["intent", "display"],
        ["lightVersion", "maybe"],
      ],
    ],
    [
      "empty",
      [
        ["intent", "display"],
        ["lightVersion", ""],
      ],
    ],
  ] as [string, [string, string][]][])(
    "a %s choice is the form's French error (400), nothing written",
    async (_, form) => {
      const answer = await post(me, form);
      expect(statusOf(answer)).toBe(400);
      const reply = (answer as { data: { status: string; error: Record<string, string[]> } }).data;
      expect(reply.status).toBe("error");
      expect(reply.error.lightVersion).toEqual(["errors.lightVersionRequired"]);
      expect(await chosen(me)).toBe(0);
    },
  );

  test("another person's choice is not what the page shows: the loader reads the signed-in account", async () => {
    await handle.db.updateTable("users").set({ light_version: 1 }).where("id", "=", other.userId).execute();
    const request = new Request("http://localhost/settings/profile", { headers: { "Save-Data": "on" } });
    const page = await loader({ request, params: {}, context: await contextOf(me) } as unknown as Parameters<
      typeof loader
    >[0]);
    expect(page.lightVersion).toEqual({ chosen: false, saveData: true });
  });
});

/** A request carrying a signed-in session of `account`'s, as a full sign-in leaves it. */
async function signedInRequest(
  account: CreatedAccount,
  headers: Record<string, string> = {},
  path = "/cards",
  method = "GET",
) {
  const storage = await sessionStorage();
  const session = await storage.getSession();
  session.set("userId", account.userId);
  const cookie = (await storage.commitSession(session)).split(";")[0]!;
  return new Request(`http://localhost${path}`, { method, headers: { Cookie: cookie, ...headers } });
}

describe("where the choice is read", () => {
  test("the signed-in layout's middleware hands on the account's choice", async () => {
    await handle.db.updateTable("users").set({ light_version: 1 }).where("id", "=", me.userId).execute();
    for (const [account, expected] of [
      [me, true],
      [other, false],
    ] as const) {
      const context = new RouterContextProvider();
      let seen: boolean | null = null;
      await requireAccount(
        { request: await signedInRequest(account), context, params: {}, pattern: "/cards" } as unknown as Parameters<
          typeof requireAccount
        >[0],
        async () => {
          seen = context.get(lightVersionChosenContext);
          return new Response(null);
        },
      );
      expect(seen).toBe(expected);
    }
  });

  test("an app already running that asks for a light page's data is sent to load it as a whole document", async () => {
    await handle.db.updateTable("users").set({ light_version: 1 }).where("id", "=", me.userId).execute();
    const run = async (account: CreatedAccount, path: string, method = "GET") => {
      const request = await signedInRequest(account, {}, path, method);
      const url = new URL(request.url);
      url.pathname = url.pathname.replace(/\.data$/, "");
      url.searchParams.delete("_routes");
      const args = { request, url, context: new RouterContextProvider(), params: {}, pattern: "/cards/:cardId" };
      try {
        return (await requireAccount(
          args as unknown as Parameters<typeof requireAccount>[0],
          async () => new Response("page"),
        )) as Response;
      } catch (thrown) {
        return thrown as Response;
      }
    };
    const data = await run(me, "/cards/card_x.data?tab=declined&_routes=root");
    expect(data.status).toBe(302);
    expect(data.headers.get("Location")).toBe("/cards/card_x?tab=declined");
    expect(data.headers.get("X-Remix-Reload-Document")).toBe("true");
    // The document itself, a form sent by the running app, and someone without the choice: served as asked.
    expect(await (await run(me, "/cards/card_x")).text()).toBe("page");
    expect(await (await run(me, "/cards/card_x.data", "POST")).text()).toBe("page");
    expect(await (await run(other, "/cards/card_x.data")).text()).toBe("page");
  });

  test("the root loader: the Save-Data header, then the account's choice; never the tag manager on a light page", async () => {
    type Args = Parameters<typeof rootLoader>[0];
    const light = async (headers: Record<string, string>, chosenHere: boolean | undefined) => {
      const context = new RouterContextProvider();
      if (chosenHere !== undefined) context.set(lightVersionChosenContext, chosenHere);
      const request = new Request("http://localhost/cards", { headers });
      const answer = (await rootLoader({ request, params: {}, context } as unknown as Args)) as unknown as {
        data: { light: string | null; tagManager: unknown; errorReporting: unknown };
      };
      return answer.data;
    };
    expect((await light({}, undefined)).light).toBeNull();
    expect((await light({ "Save-Data": "on" }, undefined)).light).toBe("saveData");
    expect((await light({ "Save-Data": "ON; x" }, false)).light).toBe("saveData");
    expect((await light({ "Save-Data": "off" }, false)).light).toBeNull();
    expect((await light({ "Save-Data": "off" }, true)).light).toBe("account");
    const page = await light({}, true);
    expect(page.light).toBe("account");
    expect(page.tagManager).toBeNull();
    expect(page.errorReporting).toBeNull();
  });
});
