import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { DatabaseHandle } from "../db";
import { createAccount } from "../db/factories";
import { openTestDatabase } from "../../../tests/support/test-database";
import { createLogger } from "../logger";
import { PostHogAnalytics } from "../providers/analytics/posthog";
import { listRecordedEvents, SandboxAnalytics } from "../providers/analytics/sandbox";
import { getConsent, identifyUser, recordEvent, REFUSED, saveConsent } from "./analytics";

let handle: DatabaseHandle;
const logger = createLogger("silent");

beforeAll(async () => {
  handle = await openTestDatabase();
}, 30_000);
afterAll(() => handle.close());

const newUser = async (email: string) => (await createAccount(handle.db, { email, passwordHash: "unused" })).userId;

test("nobody has consented until they choose: everything but the necessary is refused", async () => {
  const userId = await newUser("never-asked@example.com");
  expect(await getConsent(handle.db, userId)).toEqual(REFUSED);
});

test("the sandbox records an event only once analytics is accepted, and stops when it is refused again", async () => {
  const userId = await newUser("sandbox-analytics@example.com");
  const deps = { db: handle.db, analytics: new SandboxAnalytics(handle.db), logger };
  expect(await recordEvent(deps, userId, "survey shown", { surveyId: "s1" })).toEqual({ kind: "noConsent" });
  expect(await identifyUser(deps, userId)).toEqual({ kind: "noConsent" });
  expect(await listRecordedEvents(handle.db, userId)).toEqual([]);

  await saveConsent(handle.db, userId, { analytics: true, tagManager: false });
  expect(await recordEvent(deps, userId, "survey sent", { surveyId: "s1", response: "Bien" })).toEqual({
    kind: "recorded",
  });
  await saveConsent(handle.db, userId, { analytics: false, tagManager: false });
  expect(await recordEvent(deps, userId, "survey dismissed", { surveyId: "s1" })).toEqual({ kind: "noConsent" });

  const events = await listRecordedEvents(handle.db, userId);
  expect(events.map((e) => [e.name, e.properties])).toEqual([["survey sent", { surveyId: "s1", response: "Bien" }]]);
});

test("the tag manager alone lets its own events through, never the survey's", async () => {
  const userId = await newUser("tags-only@example.com");
  const deps = { db: handle.db, analytics: new SandboxAnalytics(handle.db), logger };
  await saveConsent(handle.db, userId, { analytics: false, tagManager: true });
  expect(await recordEvent(deps, userId, "clickPartner", { partner: "uggy" })).toEqual({ kind: "recorded" });
  expect(await recordEvent(deps, userId, "survey shown", { surveyId: "s1" })).toEqual({ kind: "noConsent" });
  expect((await listRecordedEvents(handle.db, userId)).map((e) => e.name)).toEqual(["clickPartner"]);
});

test("without a provider nothing is recorded, whatever the consent", async () => {
  const userId = await newUser("no-provider@example.com");
  await saveConsent(handle.db, userId, { analytics: true, tagManager: true });
  expect(
    await recordEvent({ db: handle.db, analytics: null, logger }, userId, "clickMenu", { target: "/cards" }),
  ).toEqual({ kind: "notConfigured" });
  expect(await listRecordedEvents(handle.db, userId)).toEqual([]);
});

/** A local stand-in for PostHog: keeps every event posted to it and answers the surveys endpoint. */
async function startPostHogStandIn(surveys: unknown) {
  const events: { event: string; distinct_id: string; properties: Record<string, unknown> }[] = [];
  let surveyRequests: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method === "GET" && req.url?.startsWith("/api/surveys/")) {
        surveyRequests = [...surveyRequests, req.url];
        res.setHeader("Content-Type", "application/json");
        res.end(JSON.stringify(surveys));
        return;
      }
      let body = Buffer.concat(chunks);
      if (body[0] === 0x1f && body[1] === 0x8b) body = gunzipSync(body);
      const parsed = JSON.parse(body.toString("utf8")) as { batch?: typeof events } & (typeof events)[number];
      for (const e of parsed.batch ?? [parsed]) events.push(e);
      res.setHeader("Content-Type", "application/json");
      res.end(JSON.stringify({ status: 1 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `http://127.0.0.1:${port}`,
    events,
    surveyRequests: () => surveyRequests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test("PostHog is called only after consent, with the user id and the event's properties", async () => {
  const standIn = await startPostHogStandIn({ surveys: [] });
  const analytics = new PostHogAnalytics({ apiKey: "phc_test", host: standIn.host });
  try {
    const userId = await newUser("posthog@example.com");
    const deps = { db: handle.db, analytics, logger };
    await recordEvent(deps, userId, "clickMenu", { target: "/wallets" });
    await identifyUser(deps, userId);
    expect(standIn.events).toEqual([]);

    await saveConsent(handle.db, userId, { analytics: true, tagManager: false });
    expect(await recordEvent(deps, userId, "survey sent", { surveyId: "s1", response: "Très bien" })).toEqual({
      kind: "recorded",
    });
    const sent = standIn.events.filter((e) => e.event === "survey sent");
    expect(sent).toHaveLength(1);
    expect(sent[0]!.distinct_id).toBe(userId);
    expect(sent[0]!.properties).toMatchObject({ surveyId: "s1", response: "Très bien" });
  } finally {
    await analytics.close();
    await standIn.close();
  }
});

test("PostHog's active survey: the first running open question; none → null; unreachable → a failure", async () => {
  const standIn = await startPostHogStandIn({
    surveys: [
      {
        id: "ended",
        start_date: "2026-01-01",
        end_date: "2026-02-01",
        questions: [{ type: "open", question: "Old?" }],
      },
      { id: "rating", start_date: "2026-01-01", end_date: null, questions: [{ type: "rating", question: "Note?" }] },
      { id: "s-open", start_date: "2026-01-01", end_date: null, questions: [{ type: "open", question: "Un avis ?" }] },
    ],
  });
  const analytics = new PostHogAnalytics({ apiKey: "phc_test", host: standIn.host });
  try {
    expect(await analytics.activeSurvey()).toEqual({ id: "s-open", question: "Un avis ?" });
    expect(standIn.surveyRequests()[0]).toContain("token=phc_test");
  } finally {
    await analytics.close();
    await standIn.close();
  }
  const empty = await startPostHogStandIn({ surveys: [] });
  const none = new PostHogAnalytics({ apiKey: "phc_test", host: empty.host });
  expect(await none.activeSurvey()).toBeNull();
  await none.close();
  await empty.close();
  const gone = new PostHogAnalytics({ apiKey: "phc_test", host: empty.host, timeoutMs: 500 });
  await expect(gone.activeSurvey()).rejects.toThrow();
  await gone.close();
});
