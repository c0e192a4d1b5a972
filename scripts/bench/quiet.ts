/**
 * Waiting for the machine to be quiet before a measured phase (decision 0082). The bench prepares its
 * PostgreSQL schemas in the background and they end just before the load runs: PostgreSQL then still
 * writes the bulk inserts' pages and vacuums the new tables, and a run measured in that time is slower for a
 * reason that is not the page. The ratios' alternating order cancels a drift that is linear over a phase,
 * not one that dies away within its first runs.
 */
import { readFileSync } from "node:fs";

interface CpuTimes {
  busy: number;
  total: number;
}

/** The machine's CPU time (all cores) from /proc/stat, in clock ticks; busy is all but idle and iowait. */
export function cpuTimes(stat = readFileSync("/proc/stat", "utf8")): CpuTimes {
  const line = stat.split("\n").find((l) => l.startsWith("cpu "));
  if (!line) throw new Error("/proc/stat has no cpu line");
  // user nice system idle iowait irq softirq steal (guest time is already counted in user).
  const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = ticks.reduce((sum, t) => sum + t, 0);
  return { busy: total - (ticks[3] ?? 0) - (ticks[4] ?? 0), total };
}

/** The busy share of the machine between two readings (0 to 1, over all cores). */
export function busyShare(before: CpuTimes, after: CpuTimes): number {
  const total = after.total - before.total;
  return total > 0 ? (after.busy - before.busy) / total : 0;
}

export interface QuietResult {
  /** Seconds waited. */
  seconds: number;
  /** The busy share of the last window. */
  busy: number;
  quiet: boolean;
}

/**
 * Resolves when a window of `windowSeconds` had at most `threshold` of the machine busy, or after
 * `maxSeconds` (then `quiet` is false: the phase is measured anyway and the bench says so).
 */
export async function waitForQuiet(
  { threshold = 0.15, windowSeconds = 2, maxSeconds = 180 } = {},
  read: () => CpuTimes = cpuTimes,
): Promise<QuietResult> {
  const started = performance.now();
  for (;;) {
    const before = read();
    await new Promise((resolve) => setTimeout(resolve, windowSeconds * 1000));
    const busy = busyShare(before, read());
    const seconds = (performance.now() - started) / 1000;
    if (busy <= threshold || seconds >= maxSeconds) return { seconds, busy, quiet: busy <= threshold };
  }
}
