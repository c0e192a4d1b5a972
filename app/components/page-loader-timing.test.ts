import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { loaderSchedule, PAGE_LOADER_DELAY_MS, PAGE_LOADER_MINIMUM_MS } from "./page-loader-timing";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function watched() {
  const changes: { shown: boolean; at: number }[] = [];
  const start = Date.now();
  const schedule = loaderSchedule((shown) => changes.push({ shown, at: Date.now() - start }));
  return { schedule, changes };
}

test("the spec's minimum is 300 ms", () => {
  expect(PAGE_LOADER_MINIMUM_MS).toBe(300);
});

test("a navigation answered within the wait shows nothing at all", () => {
  const { schedule, changes } = watched();
  schedule.update(true);
  vi.advanceTimersByTime(PAGE_LOADER_DELAY_MS - 1);
  schedule.update(false);
  vi.advanceTimersByTime(5_000);
  expect(changes).toEqual([]);
});

test("once shown, the bar stays 300 ms even when the page arrives just after it appeared (no flash)", () => {
  const { schedule, changes } = watched();
  schedule.update(true);
  vi.advanceTimersByTime(PAGE_LOADER_DELAY_MS);
  expect(changes).toEqual([{ shown: true, at: PAGE_LOADER_DELAY_MS }]);
  vi.advanceTimersByTime(10);
  schedule.update(false);
  vi.advanceTimersByTime(PAGE_LOADER_MINIMUM_MS - 11);
  expect(changes).toHaveLength(1);
  vi.advanceTimersByTime(1);
  expect(changes).toEqual([
    { shown: true, at: PAGE_LOADER_DELAY_MS },
    { shown: false, at: PAGE_LOADER_DELAY_MS + PAGE_LOADER_MINIMUM_MS },
  ]);
});

test("a slow navigation hides the bar as soon as it ends once the minimum has passed", () => {
  const { schedule, changes } = watched();
  schedule.update(true);
  vi.advanceTimersByTime(PAGE_LOADER_DELAY_MS + 2_000);
  schedule.update(false);
  expect(changes).toEqual([
    { shown: true, at: PAGE_LOADER_DELAY_MS },
    { shown: false, at: PAGE_LOADER_DELAY_MS + 2_000 },
  ]);
});

test("a new navigation during the minimum keeps the same bar, with no second appearance", () => {
  const { schedule, changes } = watched();
  schedule.update(true);
  vi.advanceTimersByTime(PAGE_LOADER_DELAY_MS + 50);
  schedule.update(false);
  vi.advanceTimersByTime(100);
  schedule.update(true);
  vi.advanceTimersByTime(1_000);
  expect(changes).toEqual([{ shown: true, at: PAGE_LOADER_DELAY_MS }]);
  schedule.update(false);
  expect(changes.at(-1)).toEqual({ shown: false, at: PAGE_LOADER_DELAY_MS + 1_150 });
});

test("disposed (the page gone), no timer fires any more", () => {
  const { schedule, changes } = watched();
  schedule.update(true);
  schedule.dispose();
  vi.advanceTimersByTime(5_000);
  expect(changes).toEqual([]);
});
