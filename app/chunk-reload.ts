import type { ClientInstrumentation } from "react-router";

/**
 * A script file that fails to load (decision 0066, spec 000 §9 "chunk load time-out 120 s"): after a
 * deploy, the hashed files an open page knows may be gone. React Router then reloads the page it was on
 * (routeModules.ts: an import of a route module that fails reloads the document), so the person lands
 * where they clicked from, not where they were going. This module carries that one reload on to the
 * destination, and does the same for a navigation still waiting after 120 s and for a component's own
 * lazy file (Vite's `vite:preloadError`). A guard in sessionStorage (the target and the time) makes it
 * happen once per target in 120 s, so a file that stays missing never makes the page loop: the next
 * failure is left to the browser, and the server's own French pages (which need no script) still work.
 */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
/** A reload that follows a failed navigation comes within this time of it, or it is another one. */
export const RELOAD_FOLLOWS_WITHIN_MS = 10_000;

const PENDING_KEY = "portal.chunkReload.pending";
const GUARD_KEY = "portal.chunkReload.done";

/** What was under way when the page was left: the page it was left from, where it went, when. */
export interface PendingNavigation {
  from: string;
  to: string;
  at: number;
}

/** The last carried-on reload: toward which address, when. */
export interface ReloadGuard {
  to: string;
  at: number;
}

/** Whether a new try toward `to` is allowed: not if one was made toward it within the time-out. */
export function mayRetry(to: string, guard: ReloadGuard | null, now: number): boolean {
  return !guard || guard.to !== to || now - guard.at > CHUNK_LOAD_TIMEOUT_MS || now < guard.at;
}

/**
 * After a page load: the address to go on to, or null. Only when this load is a reload of the very page
 * a navigation was left from, just after, and no such try was made toward that address within 120 s.
 */
export function destinationAfterReload(
  pending: PendingNavigation | null,
  here: { href: string; reloaded: boolean },
  guard: ReloadGuard | null,
  now: number,
): string | null {
  if (!pending || !here.reloaded || pending.from !== here.href) return null;
  if (now < pending.at || now - pending.at > RELOAD_FOLLOWS_WITHIN_MS) return null;
  if (pending.to === pending.from) return null;
  return mayRetry(pending.to, guard, now) ? pending.to : null;
}

function read<T>(key: string): T | null {
  try {
    const text = sessionStorage.getItem(key);
    return text ? (JSON.parse(text) as T) : null;
  } catch {
    return null;
  }
}

function write(key: string, value: unknown) {
  try {
    if (value === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage refused (private mode, full): the reload is then React Router's own, to the page left.
  }
}

/** A document load toward `to`, once per target in 120 s; false when the guard says it was just tried. */
function goOnce(to: string): boolean {
  const now = Date.now();
  if (!mayRetry(to, read<ReloadGuard>(GUARD_KEY), now)) return false;
  write(GUARD_KEY, { to, at: now });
  window.location.assign(to);
  return true;
}

/**
 * Called first thing on a page load, before hydration. True when the page is being left for the
 * destination of the navigation a failed file interrupted (nothing is to be hydrated then).
 */
export function resumeInterruptedNavigation(): boolean {
  const pending = read<PendingNavigation>(PENDING_KEY);
  write(PENDING_KEY, null);
  const entry = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
  const now = Date.now();
  const to = destinationAfterReload(
    pending,
    { href: window.location.href, reloaded: entry?.type === "reload" },
    read<ReloadGuard>(GUARD_KEY),
    now,
  );
  if (!to) return false;
  write(GUARD_KEY, { to, at: now });
  window.location.replace(to);
  return true;
}

/**
 * Watches the router's navigations (a `ClientInstrumentation` for `HydratedRouter`): the one under way
 * is noted when the page is left during it, and one still waiting after 120 s is done as a document load.
 * Submissions are left alone: their destination is not a page to load again by itself.
 */
export function chunkReloadInstrumentation(): ClientInstrumentation {
  let pending: PendingNavigation | null = null;
  window.addEventListener("pagehide", () => {
    // The time is the leaving's: the reload that follows comes just after it.
    if (pending) write(PENDING_KEY, { ...pending, at: Date.now() });
  });
  // A component's own lazy file (sortablejs, the passkey ceremony…): the page is loaded again, once.
  window.addEventListener("vite:preloadError", (event) => {
    if (goOnce(window.location.href)) event.preventDefault();
  });
  return {
    router({ instrument }) {
      instrument({
        async navigate(run, info) {
          const method = info.formMethod?.toUpperCase();
          if (typeof info.to !== "string" || (method !== undefined && method !== "GET")) {
            await run();
            return;
          }
          const current: PendingNavigation = {
            from: window.location.href,
            to: new URL(info.to, window.location.href).href,
            at: Date.now(),
          };
          pending = current;
          const timer = setTimeout(() => {
            if (pending === current) goOnce(current.to);
          }, CHUNK_LOAD_TIMEOUT_MS);
          try {
            await run();
          } finally {
            clearTimeout(timer);
            if (pending === current) pending = null;
          }
        },
      });
    },
  };
}
