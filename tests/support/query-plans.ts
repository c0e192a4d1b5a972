import { CompiledQuery, sql } from "kysely";
import { RouterContextProvider } from "react-router";
import type { DatabaseHandle, QueryLogEntry } from "~/.server/db";
import { MAX_LISTED } from "~/domain/transactions";
import { createDatabaseSessionStorage } from "~/.server/session";
import * as root from "~/root";
import * as shell from "~/routes/shell/layout";
import * as cardPage from "~/routes/cards/card";
import * as walletsIndex from "~/routes/wallets/index";
import * as walletPage from "~/routes/wallets/wallet";
import * as notificationsPanel from "~/routes/notifications/panel";
import * as plansLayout from "~/routes/plans/layout";
import * as refundList from "~/routes/refunds/list";
import * as allowanceList from "~/routes/allowances/list";

/**
 * The query plans of the pages whose cost must not grow with a person's history (issue 35, decision 0070): the
 * signed-in layout with the card page, the wallet page, the notification centre, the refund list and the allowance
 * list, run in-process through their real route modules (middleware and loaders, as React Router calls them) for one
 * person, every SQL collected with the database's query log (`OpenOptions.log`), then each distinct query explained:
 * `EXPLAIN QUERY PLAN` on SQLite, `EXPLAIN (ANALYZE, BUFFERS)` with its real parameters on PostgreSQL (in a
 * transaction rolled back: a write explained is not applied).
 */

/**
 * Tables that grow with time: a person's payments, movements, notifications, requests… Never read whole, never sorted
 * without an index, and on PostgreSQL the rows a query reads from them are counted.
 */
export const HISTORY_TABLES = [
  "card_authorizations",
  "card_authorization_refunds",
  "payment_intents",
  "wallet_transactions",
  "wallet_reservations",
  "notifications",
  "expense_requests",
  "expense_request_payment_methods",
  "payouts",
  "allowances",
  "allowance_payouts",
  "sessions",
  "outbox",
  "mail_outbox",
  "analytics_events",
  "one_time_codes",
  "support_messages",
  "files",
] as const;

const HISTORY = new Set<string>(HISTORY_TABLES);

/**
 * The only tables a page may read whole: a handful of rows whatever the number of people (the funders, the expense
 * types). Every other table grows with people (cards, wallets, balances, credit limits, licences…) or with time: a full
 * scan of it is flagged.
 */
export const REFERENCE_TABLES = new Set(["groups", "expense_types"]);

/**
 * History tables only ever reached, on these pages, through the ids of the rows a page shows (`… in (?, ?, …)`): the
 * payment attempts of the listed card payments, the monthly payouts of the listed allowances. Sorting what they give
 * back sorts a page's worth of rows, never a history.
 */
const PAGE_BOUNDED = new Set(["payment_intents", "allowance_payouts"]);

/**
 * The most rows one query may read from one history table (on PostgreSQL: the rows its scans return plus those their
 * filters drop; on SQLite, whose plans do not count rows, the rows it returns): « Voir plus » lists at most MAX_LISTED
 * items, and each item reads a few rows (a payment, its hold, the movements paying it, a switch's credits back), so
 * five per item is a page's worth; anything more is the person's history.
 */
export const ROWS_READ_LIMIT = 5 * MAX_LISTED;

/** Every query one page ran, and the distinct queries of all pages. */
export class QueryRecorder {
  /** The page being visited; queries outside a visit (the session planted) are not kept. */
  page: string | null = null;
  readonly queries = new Map<string, RecordedQuery>();
  readonly pages = new Map<string, number[]>();
  /** What each page's route modules answered other than data: a redirect, a refusal, an error (none on a page shown). */
  readonly refusals = new Map<string, string[]>();

  readonly log = (entry: QueryLogEntry): void => {
    if (!this.page || !/^\s*(select|insert|update|delete|with)\b/i.test(entry.sql)) return;
    let query = this.queries.get(entry.sql);
    if (!query) {
      query = { number: this.queries.size + 1, sql: entry.sql, parameterSets: [], pages: [] };
      this.queries.set(entry.sql, query);
    }
    const key = JSON.stringify(entry.parameters);
    if (!query.parameterSets.some((set) => JSON.stringify(set) === key)) query.parameterSets.push(entry.parameters);
    if (!query.pages.includes(this.page)) query.pages.push(this.page);
    const list = this.pages.get(this.page) ?? [];
    if (!list.includes(query.number)) list.push(query.number);
    this.pages.set(this.page, list);
  };
}

export interface RecordedQuery {
  number: number;
  sql: string;
  /** Every distinct set of parameters the query ran with (a page of 20, a limit of ten million…). */
  parameterSets: (readonly unknown[])[];
  pages: string[];
}

export interface Person {
  userId: string;
  cardId: string;
}

type RouteModule = {
  middleware?: readonly unknown[];
  loader?: (args: never) => unknown;
};

/** A page as React Router runs it: its route modules' middleware from the root down, then their loaders at once. */
async function visit(path: string, modules: RouteModule[], params: Record<string, string>, cookie: string) {
  const request = new Request(`http://localhost${path}`, {
    headers: { Cookie: cookie, "Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "navigate" },
  });
  const args = { request, url: new URL(request.url), params, context: new RouterContextProvider(), pattern: path };
  type Middleware = (a: typeof args, next: () => Promise<Response>) => Promise<Response | undefined>;
  const middleware = modules.flatMap((m) => (m.middleware ?? []) as Middleware[]);
  let answers: unknown[] = [];
  const run = async (index: number): Promise<Response> => {
    const next = middleware[index];
    if (next) return (await next(args, () => run(index + 1))) ?? new Response(null);
    answers = await Promise.all(
      modules.map((m) => Promise.resolve(m.loader?.(args as never)).catch((thrown: unknown) => thrown)),
    );
    return new Response(null);
  };
  try {
    await run(0);
  } catch (thrown) {
    answers = [thrown];
  }
  return answers;
}

/** A route module's answer that is not its page's data, in words: where a redirect leads, a refusal's status. */
function refusalOf(answer: unknown): string | null {
  if (answer instanceof Response) {
    const location = answer.headers.get("Location");
    return location ? `redirect to ${location}` : `status ${answer.status}`;
  }
  if (answer instanceof Error) return `error: ${answer.message}`;
  const status = (answer as { init?: { status?: number } | null } | null)?.init?.status;
  return status && status >= 300 ? `status ${status}` : null;
}

/** Where a loader's redirect leads (the wallets' index sends to the first wallet), or null. */
function redirectedTo(answers: unknown[]): string | null {
  for (const answer of answers)
    if (answer instanceof Response && answer.headers.get("Location")) return answer.headers.get("Location");
  return null;
}

/** The pages visited, each with the addresses tried: page 1, and the bad inputs (a page of a million, huge limits). */
export async function visitPages(handle: DatabaseHandle, recorder: QueryRecorder, person: Person, secret: string) {
  const storage = createDatabaseSessionStorage(handle.db, { APP_MODE: "sandbox", sessionSecrets: [secret] });
  const session = await storage.getSession();
  session.set("userId", person.userId);
  const cookie = (await storage.commitSession(session)).split(";")[0]!;
  const shellOf = [root, shell] as RouteModule[];
  const at = async (page: string, path: string, modules: RouteModule[], params: Record<string, string> = {}) => {
    recorder.page = page;
    try {
      const answers = await visit(path, [...shellOf, ...modules], params, cookie);
      const refusals = answers.map(refusalOf).filter((r): r is string => r !== null);
      if (refusals.length > 0) recorder.refusals.set(page, refusals);
      return answers;
    } finally {
      recorder.page = null;
    }
  };
  const card = `/cards/${person.cardId}`;
  const cardParams = { cardId: person.cardId };
  await at("card", card, [cardPage], cardParams);
  await at("card (declined)", `${card}?tab=declined`, [cardPage], cardParams);
  await at("card (limit 10,000,000)", `${card}?limit=10000000&frozenLimit=10000000`, [cardPage], cardParams);
  const wallet = redirectedTo(await at("wallets", "/wallets", [walletsIndex]));
  if (wallet) {
    const walletParams = { walletId: wallet.split("/").pop()! };
    await at("wallet", wallet, [walletPage], walletParams);
    await at("wallet (limit 10,000,000)", `${wallet}?limit=10000000&frozenLimit=10000000`, [walletPage], walletParams);
  }
  await at("notifications", "/notifications?back=/cards", [notificationsPanel]);
  await at("notifications (unread)", "/notifications?back=/cards&unread=1", [notificationsPanel]);
  await at("notifications (page 9999)", "/notifications?back=/cards&page=9999", [notificationsPanel]);
  const plans = [plansLayout] as RouteModule[];
  await at("refunds", "/plans/expense-requests", [...plans, refundList]);
  await at("refunds (finished)", "/plans/expense-requests?tab=finished", [...plans, refundList]);
  await at("refunds (page 1,000,000)", "/plans/expense-requests?page=1000000", [...plans, refundList]);
  await at("allowances", "/plans/allowances", [...plans, allowanceList]);
  await at("allowances (page 1,000,000)", "/plans/allowances?page=1000000", [...plans, allowanceList]);
}

export interface Finding {
  /** `scan`: a history table read whole (or no index can serve it); `sort`: a sort no index serves; `rows`: too many rows read. */
  kind: "scan" | "sort" | "rows";
  table: string | null;
  text: string;
}

export interface ExplainedQuery extends RecordedQuery {
  /** The plan as the database prints it, one per parameter set explained. */
  plans: string[];
  findings: Finding[];
  /** PostgreSQL: the rows the scans read from history tables and the rows the query returned, per parameter set. */
  reads: { read: number; returned: number }[];
}

/** Each recorded query with its plan and what is wrong with it. */
export async function explainQueries(handle: DatabaseHandle, recorder: QueryRecorder): Promise<ExplainedQuery[]> {
  const explained: ExplainedQuery[] = [];
  for (const query of recorder.queries.values())
    explained.push(
      handle.kind === "sqlite" ? await explainSqlite(handle, query) : await explainPostgres(handle, query),
    );
  return explained;
}

interface SqlitePlanRow {
  id: number;
  parent: number;
  detail: string;
}

async function explainSqlite(handle: DatabaseHandle, query: RecordedQuery): Promise<ExplainedQuery> {
  const parameters = [...(query.parameterSets.at(-1) ?? [])];
  const { rows } = await handle.db.executeQuery<SqlitePlanRow>(
    CompiledQuery.raw(`explain query plan ${query.sql}`, parameters),
  );
  const depth = new Map<number, number>([[0, 0]]);
  const lines = rows.map((row) => {
    const level = (depth.get(row.parent) ?? 0) + 1;
    depth.set(row.id, level);
    return `${"  ".repeat(level - 1)}${row.detail}`;
  });
  const findings = sqliteFindings(
    rows.map((r) => r.detail),
    aliasesOf(query.sql),
  );
  // SQLite's plan does not say how many rows a search reads; a read-only query's rows returned are counted instead,
  // with the last parameters it ran with (the largest page asked for, when the bad inputs were visited last).
  const reads: { read: number; returned: number }[] = [];
  if (/^\s*(select|with)\b/i.test(query.sql)) {
    const returned = (await handle.db.executeQuery(CompiledQuery.raw(query.sql, parameters))).rows.length;
    reads.push({ read: Number.NaN, returned });
    const tables = historyTablesOf(
      rows.map((r) => r.detail),
      aliasesOf(query.sql),
    );
    if (returned > ROWS_READ_LIMIT && tables.length > 0)
      findings.push({ kind: "rows", table: tables[0]!, text: `${returned} rows returned from ${tables.join(", ")}` });
  }
  return { ...query, parameterSets: [parameters], plans: [lines.join("\n")], findings, reads };
}

/** The tables an SQL text names under another name (`"notifications" as "n"`): alias → table. */
export function aliasesOf(text: string): Map<string, string> {
  const aliases = new Map<string, string>();
  for (const [, table, alias] of text.matchAll(/"(\w+)" as "(\w+)"/g)) aliases.set(alias!, table!);
  return aliases;
}

/** The history tables a SQLite plan reads (its SCAN and SEARCH lines, aliases resolved). */
function historyTablesOf(details: string[], aliases: Map<string, string>): string[] {
  const tables = details
    .map((d) => /^(?:SCAN|SEARCH) (\w+)/.exec(d)?.[1])
    .filter((t): t is string => !!t)
    .map((t) => aliases.get(t) ?? t);
  return [...new Set(tables.filter((t) => HISTORY.has(t)))];
}

/**
 * SQLite's plan says SCAN for a table (or an index) read from end to end, SEARCH for one reached through an index's
 * leading columns, and "USE TEMP B-TREE" for a sort no index serves: flagged when the query reads a history table
 * other than through a page's ids.
 */
export function sqliteFindings(details: string[], aliases = new Map<string, string>()): Finding[] {
  const findings: Finding[] = [];
  const history = historyTablesOf(details, aliases);
  // A subquery's or a CTE's rows (CO-ROUTINE or MATERIALIZE name): reading them is bounded by the subquery, whose
  // own lines are checked.
  const subqueries = new Set(details.map((d) => /^(?:CO-ROUTINE|MATERIALIZE) (\w+)/.exec(d)?.[1]).filter(Boolean));
  for (const detail of details) {
    const scanned = /^SCAN (\w+)/.exec(detail)?.[1];
    const table = scanned && !subqueries.has(scanned) && (aliases.get(scanned) ?? scanned);
    if (table && !REFERENCE_TABLES.has(table)) findings.push({ kind: "scan", table, text: detail });
    if (/USE TEMP B-TREE FOR/.test(detail) && history.some((t) => !PAGE_BOUNDED.has(t)))
      findings.push({ kind: "sort", table: null, text: `${detail} (reading ${history.join(", ")})` });
  }
  return findings;
}

interface PgNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  "Index Cond"?: string;
  "Sort Key"?: string[];
  Plans?: PgNode[];
}

/** Runs `fn` on one connection inside a transaction that is always rolled back. */
async function rolledBack<T>(handle: DatabaseHandle, fn: (db: DatabaseHandle["db"]) => Promise<T>): Promise<T> {
  return handle.db.connection().execute(async (connection) => {
    await sql`begin`.execute(connection);
    try {
      return await fn(connection);
    } finally {
      await sql`rollback`.execute(connection);
    }
  });
}

async function explainPostgres(handle: DatabaseHandle, query: RecordedQuery): Promise<ExplainedQuery> {
  const plans: string[] = [];
  const findings: Finding[] = [];
  const reads: { read: number; returned: number }[] = [];
  for (const parameters of query.parameterSets.slice(0, 3)) {
    const [text, json] = await rolledBack(handle, async (db) => {
      const run = (options: string) =>
        db.executeQuery<Record<string, unknown>>(
          CompiledQuery.raw(`explain (${options}) ${query.sql}`, [...parameters]),
        );
      const printed = await run("analyze, buffers");
      const tree = await run("analyze, format json");
      return [printed.rows.map((r) => String(r["QUERY PLAN"])).join("\n"), tree.rows[0]!["QUERY PLAN"]];
    });
    plans.push(text);
    const plan = (json as { Plan: PgNode }[])[0]!.Plan;
    const read = postgresFindings(plan, findings);
    reads.push({ read, returned: plan["Actual Rows"] ?? 0 });
  }
  // Whether an index CAN serve the query, whatever the planner chose for these rows (a small table is read whole
  // faster than through an index): with sequential scans, sorts, hash and merge joins made as dear as possible, every
  // table is reached through an index condition when one exists (joins become nested loops looking up their inner
  // side). A table still read whole has no index for this query, and a history still sorted has none giving its order.
  // (An index read end to end is not judged here: for a table of a few rows, such as the demo's payouts, the planner
  // prefers it to a lookup per row even so; on a grown history it shows as rows read in the analysed plan.)
  const forced = await rolledBack(handle, async (db) => {
    await sql`set local enable_seqscan = off`.execute(db);
    await sql`set local enable_sort = off`.execute(db);
    await sql`set local enable_hashjoin = off`.execute(db);
    await sql`set local enable_mergejoin = off`.execute(db);
    const { rows } = await db.executeQuery<Record<string, unknown>>(
      CompiledQuery.raw(`explain (format json) ${query.sql}`, [...(query.parameterSets[0] ?? [])]),
    );
    return (rows[0]!["QUERY PLAN"] as { Plan: PgNode }[])[0]!.Plan;
  });
  for (const node of nodesOf(forced)) {
    const table = node["Relation Name"] ?? "";
    if (node["Node Type"] === "Seq Scan" && !REFERENCE_TABLES.has(table))
      findings.push({ kind: "scan", table, text: `no index serves it: Seq Scan on ${table} with enable_seqscan off` });
    const sorted = nodesOf(node).map((n) => n["Relation Name"] ?? "");
    if (node["Node Type"] === "Sort" && sorted.some((t) => HISTORY.has(t) && !PAGE_BOUNDED.has(t)))
      findings.push({
        kind: "sort",
        table: null,
        text: `no index gives the order: Sort (${node["Sort Key"]?.join(", ")}) with enable_sort off`,
      });
  }
  return { ...query, plans, findings: unique(findings), reads };
}

function nodesOf(node: PgNode): PgNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

/** The rows a node's scans read from history tables (returned plus filtered out, every loop). */
function historyRowsRead(node: PgNode): number {
  return nodesOf(node)
    .filter((n) => HISTORY.has(n["Relation Name"] ?? ""))
    .reduce(
      (sum, n) =>
        sum +
        ((n["Actual Rows"] ?? 0) + (n["Rows Removed by Filter"] ?? 0) + (n["Rows Removed by Index Recheck"] ?? 0)) *
          (n["Actual Loops"] ?? 1),
      0,
    );
}

/**
 * An analysed PostgreSQL plan's findings, what its indexes DO on the grown rows: a Sort of more than a page's rows from
 * history tables, more rows read from one history table than ROWS_READ_LIMIT (a Seq Scan of a grown history reads
 * them all). Answers the rows read from history tables.
 */
function postgresFindings(plan: PgNode, findings: Finding[]): number {
  const byTable = new Map<string, number>();
  for (const node of nodesOf(plan)) {
    const table = node["Relation Name"];
    if (table && HISTORY.has(table)) {
      const read = historyRowsRead({ ...node, Plans: [] });
      byTable.set(table, (byTable.get(table) ?? 0) + read);
    }
    if (node["Node Type"] === "Sort") {
      const sorted = historyRowsRead(node);
      if (sorted > ROWS_READ_LIMIT)
        findings.push({
          kind: "sort",
          table: null,
          text: `Sort (${node["Sort Key"]?.join(", ")}) over ${sorted} rows of history tables`,
        });
    }
  }
  for (const [table, read] of byTable)
    if (read > ROWS_READ_LIMIT)
      findings.push({ kind: "rows", table, text: `${read} rows read from ${table} (limit ${ROWS_READ_LIMIT})` });
  return [...byTable.values()].reduce((a, b) => a + b, 0);
}

function unique(findings: Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => !seen.has(f.text) && seen.add(f.text));
}

/** The report: the pages and their queries, then each query with its plans and findings, then the findings by page. */
export function formatReport(title: string, recorder: QueryRecorder, explained: ExplainedQuery[]): string {
  const out: string[] = [`# ${title}`, "", "## Pages and their queries", ""];
  for (const [page, numbers] of recorder.pages) {
    const refused = recorder.refusals.get(page);
    out.push(
      `- ${page}: ${numbers.map((n) => `q${n}`).join(" ")}${refused ? ` — answered ${refused.join(", ")}` : ""}`,
    );
  }
  out.push("", "## Queries", "");
  for (const query of explained) {
    const flag = query.findings.length ? `  ⚠ ${query.findings.map((f) => f.kind).join(", ")}` : "";
    out.push(`### q${query.number} — ${query.pages.join(", ")}${flag}`, "", query.sql, "");
    query.plans.forEach((plan, i) => {
      const parameters = JSON.stringify(query.parameterSets[i]);
      out.push(
        `parameters: ${parameters.length > 300 ? `${parameters.slice(0, 300)}… (${query.parameterSets[i]?.length})` : parameters}`,
      );
      const read = query.reads[i];
      if (read && Number.isNaN(read.read)) out.push(`rows returned: ${read.returned}`);
      else if (read) out.push(`rows read from history tables: ${read.read}; rows returned: ${read.returned}`);
      out.push("```", plan, "```", "");
    });
    for (const finding of query.findings) out.push(`⚠ ${finding.kind}: ${finding.text}`);
    out.push("");
  }
  out.push("## Findings by page", "");
  for (const [page, numbers] of recorder.pages) {
    const flagged = explained.filter((q) => numbers.includes(q.number) && q.findings.length);
    out.push(`- ${page}: ${flagged.length ? "" : "no scan, no sort without index"}`);
    for (const q of flagged) for (const f of q.findings) out.push(`  - q${q.number} ${f.kind}: ${f.text}`);
  }
  return out.join("\n");
}
