/**
 * When the page loader shows and hides (spec 000 §9 "loading-state minimum 300 ms"): once shown, the bar
 * stays at least PAGE_LOADER_MINIMUM_MS, so that it never flashes on and off. The specification names no
 * wait before showing; the portal keeps the wait issue 16 chose, PAGE_LOADER_DELAY_MS (decision 0066), so
 * that a navigation answered quickly shows no bar at all and announces nothing.
 */
export const PAGE_LOADER_DELAY_MS = 300;
export const PAGE_LOADER_MINIMUM_MS = 300;

export interface LoaderSchedule {
  /** Whether a navigation (or a submission) is under way; called on every change. */
  update(pending: boolean): void;
  dispose(): void;
}

/** A small timer machine, free of React so that its timing is tested with fake timers (PageLoader.test.ts). */
export function loaderSchedule(
  onShown: (shown: boolean) => void,
  { delay = PAGE_LOADER_DELAY_MS, minimum = PAGE_LOADER_MINIMUM_MS } = {},
): LoaderSchedule {
  let pending = false;
  let shownAt: number | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const clear = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  const hide = () => {
    timer = undefined;
    shownAt = null;
    onShown(false);
  };
  return {
    update(next) {
      if (next === pending) return;
      pending = next;
      clear();
      if (pending) {
        // Already shown (a new navigation within the minimum): the bar simply stays.
        if (shownAt === null)
          timer = setTimeout(() => {
            timer = undefined;
            shownAt = Date.now();
            onShown(true);
          }, delay);
        return;
      }
      if (shownAt === null) return;
      const left = minimum - (Date.now() - shownAt);
      if (left <= 0) hide();
      else timer = setTimeout(hide, left);
    },
    dispose: clear,
  };
}
