import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openServerDatabase, signIn, type TestBrowser } from "../support/test-browser";
import { testPort, startTestServer, stopTestServer, type TestServer } from "../support/test-server";

/**
 * Issue 28 §5, decision 0048, on the built server: a page that writes when shown (notifications marked
 * read, a draft made, a card setup started, a reveal opened, a survey counted as shown) writes nothing when
 * another site links to it — `Sec-Fetch-Site: cross-site` or `same-site`, or, from a browser without Fetch
 * Metadata, a foreign Referer or nothing at all —, and still does from the portal's own pages or a typed address.
 */
const NAME = "test-cross-site-get";
const port = testPort(5000, 400);
const MARIE = "marie.martin@example.com";
let server: TestServer;
let db: Database.Database;
let marie: TestBrowser;
let marieId: string;

beforeAll(async () => {
  server = await startTestServer(NAME, port, { RATE_LIMIT_SENSITIVE: "100000", ANALYTICS_KEY: "sandbox" });
  db = openServerDatabase(NAME);
  marie = await signIn(server.base, db, MARIE);
  marieId = (db.prepare("select id from users where email = ?").get(MARIE) as { id: string }).id;
}, 60_000);

afterAll(async () => {
  db?.close();
  await stopTestServer(server);
});

/** How the browser says where a navigation comes from, for each kind of link that must not write. */
const FROM_ELSEWHERE: Record<string, Record<string, string>> = {
  "another site": { "Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate" },
  "another subdomain": { "Sec-Fetch-Site": "same-site", "Sec-Fetch-Mode": "navigate" },
  "an old browser, from another site": { Referer: "https://elsewhere.example/page" },
  "an old browser, the referrer hidden": {},
};
const FROM_THE_PORTAL = () => ({
  "Sec-Fetch-Site": "same-origin",
  "Sec-Fetch-Mode": "navigate",
  Referer: `${server.base}/cards`,
});
const TYPED = { "Sec-Fetch-Site": "none", "Sec-Fetch-Mode": "navigate" };

const count = (sql: string, ...args: unknown[]) => (db.prepare(sql).get(...args) as { n: number }).n;
const unread = () => count("select count(*) as n from notifications where user_id = ? and read_at is null", marieId);
const get = (path: string, headers: Record<string, string>) => marie.request(path, { headers });

describe("the notification centre marks read only when opened from the portal", () => {
  test("from elsewhere: shown unread, nothing marked, a button to mark them (a post)", async () => {
    const before = unread();
    expect(before).toBeGreaterThan(0);
    for (const [from, headers] of Object.entries(FROM_ELSEWHERE)) {
      const res = await get("/notifications?back=%2Fcards", headers);
      expect(res.status, from).toBe(200);
      const html = await res.text();
      expect(html, from).toContain("Marquer ces notifications comme lues");
      expect(unread(), from).toBe(before);
    }
    // The button: the shown unread ones, posted from the page.
    const html = await (await get("/notifications?back=%2Fcards", FROM_ELSEWHERE["another site"]!)).text();
    const form = html.slice(html.indexOf('class="notification-centre__mark-read"'));
    const ids = [...form.slice(0, form.indexOf("</form>")).matchAll(/name="id" value="([^"]+)"/g)].map((m) => m[1]!);
    expect(ids.length).toBeGreaterThan(0);
    const posted = await marie.post(
      "/notifications?back=%2Fcards",
      new URLSearchParams([["intent", "read"], ...ids.map((id) => ["id", id])]),
    );
    expect(posted.status).toBe(200);
    expect(unread()).toBe(before - ids.length);
  });

  test("from the portal or a typed address: the shown ones are marked read, no button", async () => {
    // Unread again (the test before marked some), written beside the server as a second process would.
    const writable = new Database(db.name);
    writable.prepare("update notifications set read_at = null where user_id = ?").run(marieId);
    writable.close();
    const before = unread();
    const res = await get("/notifications?back=%2Fcards", FROM_THE_PORTAL());
    expect(res.status).toBe(200);
    expect(await res.text()).not.toContain("Marquer ces notifications comme lues");
    const afterLink = unread();
    expect(afterLink).toBeLessThan(before);
    // Typed or bookmarked: the person's own doing; the next page's are marked too.
    await get("/notifications?back=%2Fcards&page=2", TYPED);
    expect(unread()).toBeLessThan(afterLink);
  });
});

describe("a draft is made only from the portal", () => {
  const allowanceDrafts = () => count("select count(*) as n from allowance_drafts where user_id = ?", marieId);
  const refundDrafts = () => count("select count(*) as n from expense_request_drafts where user_id = ?", marieId);

  test("an allowance: from elsewhere, the choice of types (this site's links) and no draft", async () => {
    const before = allowanceDrafts();
    for (const [from, headers] of Object.entries(FROM_ELSEWHERE)) {
      const res = await get("/plans/allowances/new?type=carpooling", headers);
      expect(res.status, from).toBe(200);
      expect(await res.text(), from).toContain('href="/plans/allowances/new?type=carpooling"');
    }
    expect(allowanceDrafts()).toBe(before);
    const res = await get("/plans/allowances/new?type=carpooling", FROM_THE_PORTAL());
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(/^\/plans\/allowances\/new\?draft=ald_/);
    expect(allowanceDrafts()).toBe(before + 1);
  });

  test("a refund's correction: from elsewhere, its entry in the list and no draft", async () => {
    const { id } = db
      .prepare("select id from expense_requests where user_id = ? and status = 'to_correct' limit 1")
      .get(marieId) as { id: string };
    const before = refundDrafts();
    for (const [from, headers] of Object.entries(FROM_ELSEWHERE)) {
      const res = await get(`/plans/expense-requests/${id}`, headers);
      expect(res.status, from).toBe(302);
      expect(res.headers.get("location"), from).toBe(`/plans/expense-requests#exr-${id}`);
    }
    expect(refundDrafts()).toBe(before);
    const res = await get(`/plans/expense-requests/${id}`, FROM_THE_PORTAL());
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(new RegExp(`^/plans/expense-requests/${id}\\?draft=`));
    expect(refundDrafts()).toBe(before + 1);
  });
});

describe("nothing started at a provider, nothing counted, from elsewhere", () => {
  test("adding a credit card: from elsewhere, the overflow panel; from the portal, the processor's form", async () => {
    const { id: cardId } = db.prepare("select id from cards where user_id = ? limit 1").get(marieId) as { id: string };
    const setups = () => count("select count(*) as n from sandbox_processor_setups");
    const before = setups();
    for (const [from, headers] of Object.entries(FROM_ELSEWHERE)) {
      const res = await get(`/cards/${cardId}/overflow/new-card`, headers);
      expect(res.status, from).toBe(302);
      expect(res.headers.get("location"), from).toBe(`/cards/${cardId}/overflow`);
    }
    expect(setups()).toBe(before);
    const res = await get(`/cards/${cardId}/overflow/new-card`, FROM_THE_PORTAL());
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/\/sandbox-processor\/fields\/[\w-]+/);
    expect(setups()).toBe(before + 1);
  });

  test("a card's reveal: from elsewhere the grant is not spent, from the portal it shows", async () => {
    const { id: cardId } = db
      .prepare("select id from cards where user_id = ? and status = 'active' limit 1")
      .get(marieId) as { id: string };
    expect((await marie.post(`/cards/${cardId}/reveal`, { intent: "send" })).status).toBe(302);
    const message = db
      .prepare("select body from outbox where recipient = ? order by created_at desc limit 1")
      .get(MARIE) as { body: string };
    const code = /\b(\d{6})\b/.exec(message.body)![1]!;
    const verified = await marie.post(`/cards/${cardId}/reveal?step=code`, { intent: "verify", code });
    expect(verified.headers.get("location")).toBe(`/cards/${cardId}/reveal?step=show`);
    for (const [from, headers] of Object.entries(FROM_ELSEWHERE)) {
      const res = await get(`/cards/${cardId}/reveal?step=show`, headers);
      expect(res.status, from).toBe(302);
      expect(res.headers.get("location"), from).toBe(`/cards/${cardId}/reveal`);
    }
    const shown = await get(`/cards/${cardId}/reveal?step=show`, FROM_THE_PORTAL());
    expect(shown.status).toBe(200);
    expect(await shown.text()).toMatch(/\/sandbox-issuer\/reveal\/[\w-]+/);
  });

  test("the feedback survey: counted as shown only when opened from the portal", async () => {
    const accepted = await marie.post("/cookies", { intent: "save", analytics: "accept", tagManager: "refuse" });
    expect(accepted.status).toBe(302);
    const shown = () =>
      count("select count(*) as n from analytics_events where user_id = ? and name = 'survey shown'", marieId);
    const before = shown();
    for (const [from, headers] of Object.entries(FROM_ELSEWHERE)) {
      const res = await get("/feedback", headers);
      expect(res.status, from).toBe(200);
    }
    expect(shown()).toBe(before);
    expect((await get("/feedback", FROM_THE_PORTAL())).status).toBe(200);
    expect(shown()).toBe(before + 1);
  });
});
