/**
 * The load runs of `npm run bench`: autocannon on one page of one server, each run after the same load not
 * counted, and the interleaved series that the bench's ratios compare (decision 0071).
 */
import { createRequire } from "node:module";
import { BenchError, HOST, request } from "./http";

/** autocannon ships no types: what the bench uses of it (as scripts/bench-webhook.ts). */
interface CannonResult {
  latency: { p50: number; p97_5: number; p99: number; max: number };
  requests: { average: number; total: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (
  options: { url: string; connections: number; duration: number; headers: Record<string, string> },
  done: (err: unknown, result: CannonResult) => void,
) => { on(event: "response", listener: (client: object, status: number, bytes: number, ms: number) => void): void };
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

/** A page of a server, as a browser signed in (or not) asks for it. */
export interface Target {
  port: number;
  path: string;
  /** The session cookie, for a signed-in page. */
  cookie?: string;
}

export interface LoadSettings {
  /** Seconds measured. */
  durationSeconds: number;
  /** Seconds of the same load before, not counted. */
  warmSeconds: number;
  connections: number;
}

export interface LoadResult {
  rps: number;
  total: number;
  p50: number;
  p95: number;
  p97_5: number;
  p99: number;
  max: number;
  failures: number;
  /** The Content-Encoding the server chose for a browser's Accept-Encoding (brotli costs CPU). */
  encoding: string;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/**
 * One autocannon run of `settings.durationSeconds`, after `settings.warmSeconds` of the same load not
 * counted: a worker's JIT compiles the hot paths over its first thousands of requests, and a page measured
 * cold answered up to 40 % slower than the same page a minute later. autocannon reports p50/p97.5/p99 but
 * not p95: p95 comes from the latency of every response, which autocannon's `response` events carry.
 */
export async function load(target: Target, settings: LoadSettings): Promise<LoadResult> {
  const headers: Record<string, string> = {
    "Accept-Encoding": "gzip, deflate, br",
    "Accept-Language": "fr-FR,fr;q=0.9",
    Accept: "text/html",
    ...(target.cookie ? { Cookie: target.cookie } : {}),
  };
  const reply = await request(target.port, target.path, { headers });
  if (reply.status !== 200)
    throw new BenchError(`warm-up: GET ${target.path} on port ${target.port} answered ${reply.status}`);
  const encoding = String(reply.headers["content-encoding"] ?? "identity");
  const cannon = (duration: number, latencies?: number[]) =>
    new Promise<CannonResult>((resolve, reject) => {
      const instance = autocannon(
        { url: `http://${HOST}:${target.port}${target.path}`, connections: settings.connections, duration, headers },
        (err, res) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(res)),
      );
      if (latencies)
        instance.on("response", (_client, status, _bytes, ms) => {
          if (status === 200) latencies.push(ms);
        });
    });
  if (settings.warmSeconds > 0) {
    const warm = await cannon(settings.warmSeconds);
    if (warm.non2xx + warm.errors > 0)
      throw new BenchError(`warm-up: GET ${target.path} had ${warm.non2xx + warm.errors} failed answer(s)`);
  }
  const latencies: number[] = [];
  const result = await cannon(settings.durationSeconds, latencies);
  return {
    rps: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p95: percentile(
      latencies.sort((a, b) => a - b),
      95,
    ),
    p97_5: result.latency.p97_5,
    p99: result.latency.p99,
    max: result.latency.max,
    // autocannon counts timeouts among its errors.
    failures: result.non2xx + result.errors,
    encoding,
  };
}

/** One figure of a comparison: a page on one server, measured once per round. */
export interface Series {
  key: string;
  /** The page, e.g. "card •••• 4242". */
  page: string;
  /** The database behind the server, e.g. "SQLite demo". */
  database: string;
  target: Target;
}

export interface SeriesResult extends Series {
  runs: LoadResult[];
  /** The mean of the runs' throughput. */
  rps: number;
  /** Means of the runs' latencies (max: the largest). */
  p50: number;
  p95: number;
  p97_5: number;
  p99: number;
  max: number;
  total: number;
  failures: number;
  encoding: string;
}

/** The mean of the known values (a run without a single 200 has no percentile). */
const mean = (values: number[]) => {
  const known = values.filter((v) => Number.isFinite(v));
  return known.reduce((a, b) => a + b, 0) / known.length;
};

/**
 * Measures every series `rounds` times, the rounds in alternating order (A B C, then C B A, …): with two
 * rounds each series' two runs sit symmetrically around the same middle time, so a drift of the machine
 * that is linear over the phase adds the same to every series' mean and cancels in their ratios. Every
 * server of the phase is up throughout (each its own workers, port and database), so the pairs differ by
 * their data only. `onRun` hears of each run as it ends.
 */
export async function interleaved(
  series: Series[],
  rounds: number,
  settings: LoadSettings,
  onRun: (s: Series, run: LoadResult, round: number) => void,
): Promise<Map<string, SeriesResult>> {
  const runs = new Map<string, LoadResult[]>(series.map((s) => [s.key, []]));
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 === 1 ? series : [...series].reverse();
    for (const s of order) {
      const run = await load(s.target, settings);
      runs.get(s.key)!.push(run);
      onRun(s, run, round);
    }
  }
  return new Map(
    series.map((s) => {
      const done = runs.get(s.key)!;
      return [
        s.key,
        {
          ...s,
          runs: done,
          rps: mean(done.map((r) => r.rps)),
          p50: mean(done.map((r) => r.p50)),
          p95: mean(done.map((r) => r.p95)),
          p97_5: mean(done.map((r) => r.p97_5)),
          p99: mean(done.map((r) => r.p99)),
          max: Math.max(...done.map((r) => r.max)),
          total: done.reduce((n, r) => n + r.total, 0),
          failures: done.reduce((n, r) => n + r.failures, 0),
          encoding: [...new Set(done.map((r) => r.encoding))].join(", "),
        },
      ];
    }),
  );
}
