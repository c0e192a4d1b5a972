import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openDatabase, type DatabaseHandle } from "~/.server/db";
import { DEMO_EMAILS } from "~/.server/db/seed";
import { personOf, prepareGrownDemo } from "../support/grown-history";
import {
  explainQueries,
  QueryRecorder,
  ROWS_READ_LIMIT,
  visitPages,
  type ExplainedQuery,
} from "../support/query-plans";
import { createTestSchema } from "../support/test-database";
import { installTestPlatform } from "../support/test-platform";

/**
 * Issue 35, decision 0070: the card, wallet, notification, refund and allowance pages (with the signed-in layout and
 * the root on every one) read what they show through indexes, never a person's history. A demo database is grown —
 * Marie's card 4242 gains 3,000 payments and she 3,000 notifications, every history table three times its rows — then
 * each page is run through its real route modules (page 1 and the bad inputs: a limit of ten million, page 9999 or a
 * million) and every query it ran is explained.
 *
 * SQLite (in memory): no query may SCAN a table other than the funders or expense types, nor sort through a temporary
 * B-tree what it reads from a history table (except the few rows reached through a page's own ids), nor return more than
 * ROWS_READ_LIMIT rows of history. SQLite's plan does not depend on the table's size (no ANALYZE statistics), so the
 * small figures are enough.
 *
 * PostgreSQL (TEST_DATABASE_URL, a private schema): the planner reads small tables whole by choice, so both are checked:
 * with sequential scans and sorts disabled (`enable_seqscan`, `enable_sort` off) no query may still read a table whole
 * or sort a history — an index CAN serve each query; and with EXPLAIN ANALYZE on the grown, analysed tables no query
 * may read more than ROWS_READ_LIMIT rows of one history table nor sort more than that — the index DOES serve it.
 */
const GROWTH = { email: DEMO_EMAILS.marie, lastFour: "4242", payments: 3000, factor: 3 };
const SECRET = "query-plans-test-secret-0123456789abcdef";

let handle: DatabaseHandle;
let dropSchema: () => Promise<void> = async () => {};
let recorder: QueryRecorder;
let explained: ExplainedQuery[];

beforeAll(async () => {
  let url = ":memory:";
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (pgUrl) {
    const schema = await createTestSchema(pgUrl);
    url = schema.url;
    dropSchema = schema.drop;
  }
  recorder = new QueryRecorder();
  handle = openDatabase(url, { log: recorder.log });
  const platform = installTestPlatform(handle, SECRET);
  await prepareGrownDemo(platform, GROWTH);
  await visitPages(handle, recorder, await personOf(handle.db, GROWTH.email, GROWTH.lastFour), SECRET);
  explained = await explainQueries(handle, recorder);
}, 120_000);

afterAll(async () => {
  await handle?.close();
  await dropSchema();
});

describe(`query plans of the pages on a grown database (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "SQLite"})`, () => {
  test("every page was run and its queries recorded", () => {
    const pages = [...recorder.pages.keys()];
    for (const page of ["card", "wallet", "notifications", "refunds", "allowances"]) {
      expect(pages).toContain(page);
      // Shown, not redirected or refused (the bad inputs may be refused: a page past the last is a 404).
      expect(recorder.refusals.get(page), page).toBeUndefined();
    }
    // Each page ran the signed-in layout's queries (session, the account with its groups and consent, cards, the
    // shell's state, wallet names: 5 since decision 0081's addendum) and at least one of its own: a page refused or
    // redirected before its loader read anything would show the session's read or the layout's only. A bad input
    // refused on purpose (a page past the last is a 404) reads the layout's only.
    for (const [page, numbers] of recorder.pages)
      if (!recorder.refusals.has(page)) expect(numbers.length, page).toBeGreaterThan(5);
  });

  test("no query scans a table, sorts a history without an index or reads a history", () => {
    const flagged = explained.flatMap((query) =>
      query.findings.map((f) => `q${query.number} [${query.pages.join(", ")}] ${f.kind}: ${f.text}\n    ${query.sql}`),
    );
    expect(flagged).toEqual([]);
  });

  test("the check sees a scan, a sort and a history read when there is one", async () => {
    // A query no index serves, run on the same grown database: the notification table read whole and sorted.
    const probe = new QueryRecorder();
    probe.page = "probe";
    const logged = await handle.db
      .selectFrom("notifications")
      .select(["id", "type"])
      .where("type", "like", "%")
      .orderBy("facts")
      .compile();
    probe.log({ sql: logged.sql, parameters: logged.parameters, ms: 0 });
    const [query] = await explainQueries(handle, probe);
    const kinds = new Set(query!.findings.map((f) => f.kind));
    expect([...kinds].sort()).toEqual(["rows", "scan", "sort"]);
    if (handle.kind === "postgres") expect(query!.reads[0]!.read).toBeGreaterThan(ROWS_READ_LIMIT);
  });
});
