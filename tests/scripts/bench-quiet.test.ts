import { describe, expect, it } from "vitest";
import { busyShare, cpuTimes, waitForQuiet } from "../../scripts/bench/quiet";

const stat = (user: number, idle: number) =>
  `cpu  ${user} 0 0 ${idle} 0 0 0 0 0 0\ncpu0 ${user} 0 0 ${idle} 0 0 0 0 0 0\nintr 1 2 3\n`;

describe("the bench's wait for a quiet machine", () => {
  it("reads the machine's busy and total time from /proc/stat's first line, idle and iowait not busy", () => {
    expect(cpuTimes("cpu  10 2 3 100 5 1 1 0 0 0\n")).toEqual({ busy: 17, total: 122 });
    expect(() => cpuTimes("intr 1 2\n")).toThrow(/no cpu line/);
  });

  it("gives the busy share between two readings", () => {
    expect(busyShare(cpuTimes(stat(100, 100)), cpuTimes(stat(150, 250)))).toBeCloseTo(0.25);
    expect(busyShare(cpuTimes(stat(100, 100)), cpuTimes(stat(100, 100)))).toBe(0);
  });

  it("resolves at the first quiet window", async () => {
    const readings = [stat(0, 0), stat(90, 10), stat(90, 10), stat(95, 110)];
    const result = await waitForQuiet({ windowSeconds: 0.01, maxSeconds: 5 }, () => cpuTimes(readings.shift()!));
    expect(result.quiet).toBe(true);
    expect(result.busy).toBeCloseTo(0.05);
    expect(readings).toHaveLength(0);
  });

  it("gives up after its longest wait and says the machine was not quiet", async () => {
    let user = 0;
    const busy = () => cpuTimes(stat((user += 80), user / 4));
    const result = await waitForQuiet({ windowSeconds: 0.01, maxSeconds: 0.05 }, busy);
    expect(result.quiet).toBe(false);
    expect(result.busy).toBeGreaterThan(0.5);
    expect(result.seconds).toBeGreaterThanOrEqual(0.05);
  });
});
