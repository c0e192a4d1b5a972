import { expect, test } from "vitest";
import { RestartBackoff } from "../../server/worker-restarts";

test("a worker that had been serving a while is replaced at once", () => {
  const backoff = new RestartBackoff();
  expect(backoff.delayAfter(60_000)).toBe(0);
  expect(backoff.delayAfter(3_600_000)).toBe(0);
});

test("workers dying young are replaced after waits that double, up to the longest", () => {
  const backoff = new RestartBackoff();
  const delays = Array.from({ length: 9 }, () => backoff.delayAfter(2_000));
  expect(delays).toEqual([500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
});

test("a worker that lives long enough ends the series", () => {
  const backoff = new RestartBackoff({ firstDelayMs: 100, maxDelayMs: 1_000, stableAfterMs: 10_000 });
  expect([backoff.delayAfter(50), backoff.delayAfter(50), backoff.delayAfter(50)]).toEqual([100, 200, 400]);
  expect(backoff.delayAfter(10_000)).toBe(0);
  expect(backoff.delayAfter(50)).toBe(100);
});
