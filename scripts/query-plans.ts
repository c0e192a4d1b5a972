/**
 * The query plans of the pages whose cost must not grow with a person's history (issue 35, decision 0070): runs the
 * signed-in layout with the card page, the wallet page (her first wallet), the notification centre, the refund list
 * and the allowance list for one person, in-process through their real route modules, and prints every distinct
 * query with its plan (SQLite: EXPLAIN QUERY PLAN; PostgreSQL: EXPLAIN (ANALYZE, BUFFERS) with its real parameters,
 * rolled back), flagging full scans of history tables, sorts no index serves and, on PostgreSQL, queries reading
 * more than a page's worth of a history table's rows.
 *
 *   npm run plans -- --database <url> [--email marie.martin@example.com] [--card 4242] [--prepare 20000x10]
 *
 * `--database`: a SQLite file (`file:path`) or a PostgreSQL URL (its `search_path` in `options`, as the tests'
 * schemas). `--prepare PAYMENTSxFACTOR`: the database (empty) is first migrated, seeded with the demo and grown: the
 * card gains PAYMENTS settled payments and every history table FACTOR times its rows. Exits 1 when a query is flagged.
 */
import { parseArgs } from "node:util";
import { openDatabase } from "../app/.server/db";
import { DEMO_EMAILS } from "../app/.server/db/seed";
import { personOf, prepareGrownDemo } from "../tests/support/grown-history";
import { explainQueries, formatReport, QueryRecorder, visitPages } from "../tests/support/query-plans";
import { installTestPlatform } from "../tests/support/test-platform";

const SESSION_SECRET = "query-plans-session-secret-0123456789abcdef";

async function main() {
  const { values } = parseArgs({
    options: {
      database: { type: "string" },
      email: { type: "string", default: DEMO_EMAILS.marie },
      card: { type: "string", default: "4242" },
      prepare: { type: "string" },
    },
  });
  if (!values.database) throw new Error("--database <url> is required (file:path or postgres://…)");
  const recorder = new QueryRecorder();
  const handle = openDatabase(values.database, { log: recorder.log });
  const platform = installTestPlatform(handle, SESSION_SECRET);
  try {
    if (values.prepare) {
      const [payments, factor] = values.prepare.split("x").map(Number);
      if (!payments || !factor) throw new Error("--prepare PAYMENTSxFACTOR, e.g. 20000x10");
      const started = Date.now();
      const added = await prepareGrownDemo(platform, { email: values.email, lastFour: values.card, payments, factor });
      console.error(
        `prepared in ${((Date.now() - started) / 1000).toFixed(1)} s, rows added: ${JSON.stringify(added)}`,
      );
    }
    const person = await personOf(handle.db, values.email, values.card);
    await visitPages(handle, recorder, person, SESSION_SECRET);
    const explained = await explainQueries(handle, recorder);
    const title = `Query plans (${handle.kind}) — ${values.email}, card ${values.card} — ${new Date().toISOString()}`;
    console.log(formatReport(title, recorder, explained));
    process.exitCode = explained.some((q) => q.findings.length > 0) ? 1 : 0;
  } finally {
    await platform.close();
  }
}

void main();
