/**
 * The soak of `npm run bench` (issue 18 item 6): many signed-in people at once, each on their own
 * account, each going round the same walk of pages and form posts for a while, and the server's
 * memory (resident set of the primary and its workers) followed meanwhile.
 *
 * One autocannon instance per person with one connection each: a person's requests go one after the
 * other, in the walk's order, so that a freeze is always followed by its unfreeze and every post is
 * one the person's own page offers. Every answer is checked against what the walk expects (a page:
 * 200; a form post: a redirect, as the portal answers a successful post): anything else — an error
 * status, a redirect to the sign-in page, a timeout, a broken connection — counts as an error.
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { createRequire } from "node:module";
import type { HeapFigures } from "./inspector";

export interface SoakStep {
  /** Shown when the step answers something unexpected. */
  name: string;
  method: "GET" | "POST";
  path: string;
  /** application/x-www-form-urlencoded, for a POST. */
  body?: string;
  /** The statuses this step must answer. */
  expect: number[];
  /** Text the answer must hold, as HTML (the confirmation a form post leaves for the next page). */
  expectText?: string;
  /** Headers of this step only (e.g. Accept-Encoding: identity, to read the text). */
  headers?: Record<string, string>;
}

export interface SoakPerson {
  email: string;
  cookie: string;
  steps: SoakStep[];
}

export interface MemorySample {
  /** Seconds since the soak began. */
  at: number;
  /** Resident set of every process of the server, kB: the primary first. */
  rssKb: number[];
}

export interface SoakResult {
  seconds: number;
  people: number;
  requests: number;
  requestsPerSecond: number;
  reads: number;
  writes: number;
  /** Answers other than the step's expected statuses, by step name and status. */
  unexpected: Map<string, number>;
  /** Connections that failed, not counting timeouts. */
  connectionErrors: number;
  /** Requests without an answer within the timeout, by step name. */
  timeouts: Map<string, number>;
  p50: number;
  p99: number;
  samples: MemorySample[];
}

interface CannonResult {
  errors: number;
  timeouts: number;
  requests: { total: number };
}
interface CannonRequest {
  method: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
  /** Called as the request is built, just before it is sent. */
  setupRequest?: (request: CannonRequest) => CannonRequest;
  onResponse?: (status: number | undefined, body: string, context: object, headers: Record<string, string>) => void;
}
type Autocannon = (
  options: {
    url: string;
    connections: number;
    duration?: number;
    amount?: number;
    timeout: number;
    headers: Record<string, string>;
    requests: CannonRequest[];
  },
  done: (err: unknown, result: CannonResult) => void,
) => {
  on(event: "response", listener: (client: object, status: number, bytes: number, ms: number) => void): void;
  on(event: "reqError", listener: (error: Error) => void): void;
};
/** How long a person waits for an answer before it counts as an error (autocannon's default). */
export const TIMEOUT_SECONDS = 10;

const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

const NO_STATUS = "no status (answer cut off)";

/** What is wrong with an answer, or null. */
function problemOf(step: SoakStep, status: number | undefined, body: string): string | null {
  if (status === undefined) return NO_STATUS;
  if (!step.expect.includes(status)) return String(status);
  if (step.expectText && !body.includes(step.expectText)) return `${status} without "${step.expectText.slice(0, 40)}…"`;
  return null;
}

interface WalkListeners {
  /** Each answer, with what is wrong with it (null: as expected). */
  answer(step: SoakStep, problem: string | null): void;
  /** A request without an answer within the timeout. */
  timeout(step: SoakStep | undefined): void;
  latency?(ms: number): void;
}

/**
 * One person's walk, on one connection: a browser's requests (form posts from the portal's own origin),
 * round and round, for `amount` requests or `duration` seconds.
 */
function walk(
  origin: string,
  person: SoakPerson,
  limit: { amount: number } | { duration: number },
  timeout: number,
  on: WalkListeners,
): Promise<CannonResult> {
  // autocannon builds (and names here) the next request before it reports a timeout: the step that
  // timed out is the one before. The answer it then reads first may be the rest of the lost one,
  // without a status: part of that timeout, not another error.
  let previous: SoakStep | undefined;
  let current: SoakStep | undefined;
  let justTimedOut = false;
  const requests = person.steps.map<CannonRequest>((step) => ({
    method: step.method,
    path: step.path,
    headers: {
      ...(step.method === "POST"
        ? { "Content-Type": "application/x-www-form-urlencoded", Origin: origin, "Sec-Fetch-Site": "same-origin" }
        : {}),
      ...step.headers,
    },
    ...(step.method === "POST" ? { body: step.body ?? "" } : {}),
    setupRequest: (request) => {
      previous = current;
      current = step;
      return request;
    },
    onResponse: (status, body) => {
      const problem = problemOf(step, status, body);
      const echo = justTimedOut && problem === NO_STATUS;
      justTimedOut = false;
      on.answer(step, echo ? null : problem);
    },
  }));
  const headers = {
    Cookie: person.cookie,
    Accept: "text/html",
    "Accept-Encoding": "gzip, deflate, br",
    "Accept-Language": "fr-FR,fr;q=0.9",
  };
  return new Promise<CannonResult>((resolve, reject) => {
    const instance = autocannon({ url: origin, connections: 1, timeout, headers, requests, ...limit }, (err, res) =>
      err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(res),
    );
    const { latency } = on;
    if (latency) instance.on("response", (_client, _status, _bytes, ms) => latency(ms));
    // autocannon's own wording for a timeout (it counts timeouts among its errors as well).
    instance.on("reqError", (error) => {
      if (error.message !== "request timed out") return;
      justTimedOut = true;
      on.timeout(previous);
    });
  });
}

/**
 * Every person goes round their walk once, all at the same time, before the measure: it checks that
 * every step answers as expected (else the walk is wrong, and the bench says which step) and warms the
 * server's code paths, so that the first 10 s of the soak do not count compilation as growth.
 */
export async function warmUp(origin: string, people: SoakPerson[]): Promise<string[]> {
  const problems: string[] = [];
  await Promise.all(
    people.map(async (person) => {
      const result = await walk(origin, person, { amount: person.steps.length }, 30, {
        answer: (step, problem) => {
          if (problem) problems.push(`${person.email}: ${step.name} (${step.method} ${step.path}) answered ${problem}`);
        },
        timeout: (step) => problems.push(`${person.email}: ${step?.name ?? "?"} got no answer within 30 s`),
      });
      if (result.errors > result.timeouts)
        problems.push(`${person.email}: ${result.errors - result.timeouts} connection error(s)`);
    }),
  );
  return problems;
}

export async function soak(
  origin: string,
  people: SoakPerson[],
  seconds: number,
  serverPid: number,
): Promise<SoakResult> {
  const unexpected = new Map<string, number>();
  const timeouts = new Map<string, number>();
  const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  let reads = 0;
  let writes = 0;
  const latencies: number[] = [];
  const samples: MemorySample[] = [];
  const started = performance.now();
  const sample = () => samples.push({ at: (performance.now() - started) / 1000, rssKb: serverRss(serverPid) });
  sample();
  const sampler = setInterval(sample, 1000);
  try {
    const results = await Promise.all(
      people.map((person) =>
        walk(origin, person, { duration: seconds }, TIMEOUT_SECONDS, {
          answer: (step, problem) => {
            if (step.method === "POST") writes++;
            else reads++;
            if (problem) count(unexpected, `${step.name} → ${problem}`);
          },
          timeout: (step) => count(timeouts, step?.name ?? "?"),
          latency: (ms) => latencies.push(ms),
        }),
      ),
    );
    const elapsed = (performance.now() - started) / 1000;
    sample();
    const requests = results.reduce((total, r) => total + r.requests.total, 0);
    const sorted = latencies.sort((a, b) => a - b);
    const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? NaN;
    return {
      seconds: elapsed,
      people: people.length,
      requests,
      requestsPerSecond: requests / elapsed,
      reads,
      writes,
      unexpected,
      connectionErrors: results.reduce((total, r) => total + r.errors - r.timeouts, 0),
      timeouts,
      p50: at(0.5),
      p99: at(0.99),
      samples,
    };
  } finally {
    clearInterval(sampler);
  }
}

// ---------------------------------------------------------------------------------------------
// Memory: the resident set (VmRSS) of the server's processes, from /proc (Linux)

function readProc(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

/** The program a process runs (/proc/<pid>/exe), or null. */
function executable(pid: number): string | null {
  try {
    return readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return null;
  }
}

/**
 * `pid` and its children that run the same program (the cluster's workers), from /proc/<pid>/stat's
 * parent field. Other children are left out: tsx's esbuild service (about 16 MB) is no worker.
 */
export function processTree(pid: number): number[] {
  const children: number[] = [];
  const program = executable(pid);
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readProc(`/proc/${entry}/stat`);
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after its last ")".
    const fields = stat?.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (fields && Number(fields[1]) === pid && executable(Number(entry)) === program) children.push(Number(entry));
  }
  return [pid, ...children.sort((a, b) => a - b)];
}

/** The resident set of one process, kB (0 when it is gone). */
const rssKbOf = (pid: number) => Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(readProc(`/proc/${pid}/status`) ?? "")?.[1] ?? 0);

export function serverRss(pid: number): number[] {
  return processTree(pid).map(rssKbOf);
}

export const memoryMeasurable = () => readProc("/proc/self/status")?.includes("VmRSS") ?? false;

/** Mean total resident set (kB) of the samples taken from `from` to `to` seconds. */
export function meanRss(samples: MemorySample[], from: number, to: number): number {
  const within = samples.filter((s) => s.at >= from && s.at <= to);
  if (within.length === 0) return NaN;
  return within.reduce((total, s) => total + s.rssKb.reduce((a, b) => a + b, 0), 0) / within.length;
}

/** One worker's memory at a point of the soak: its resident set and, when its inspector is open, its V8 heap. */
export interface WorkerMemory {
  pid: number;
  rssKb: number;
  heap: HeapFigures | null;
}

export interface MemoryPoint {
  label: string;
  /** The primary's resident set, kB (0 when the server runs a single process, which is then its only worker). */
  primaryRssKb: number;
  workers: WorkerMemory[];
}

/** The processes that serve: the cluster's workers, or the server itself when it runs alone. */
export function servingPids(serverPid: number): number[] {
  const tree = processTree(serverPid);
  return tree.length > 1 ? tree.slice(1) : tree;
}

/**
 * The server's memory now: each worker's resident set (/proc) and heap (`heapOf` through its inspector,
 * null without one). `heapOf` may act first (a full garbage collection): the resident set is read after it.
 */
export async function memoryPoint(
  label: string,
  serverPid: number,
  inspectorPorts: Map<number, number>,
  heapOf: (port: number) => Promise<HeapFigures>,
): Promise<MemoryPoint> {
  const pids = servingPids(serverPid);
  const heaps = await Promise.all(
    pids.map((pid) => {
      const port = inspectorPorts.get(pid);
      return port === undefined ? null : heapOf(port).catch(() => null);
    }),
  );
  return {
    label,
    primaryRssKb: pids[0] === serverPid ? 0 : rssKbOf(serverPid),
    workers: pids.map((pid, i) => ({ pid, rssKb: rssKbOf(pid), heap: heaps[i] ?? null })),
  };
}
