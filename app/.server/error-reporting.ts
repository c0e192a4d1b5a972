import * as Sentry from "@sentry/react-router";
import { beforeSend, isNetworkError, TRACES_SAMPLE_RATE } from "~/domain/error-reporting";
import type { Env } from "./env";

/**
 * Sentry on the server (issue 16 §9) when SENTRY_DSN is set, never in development: 5 % of traces,
 * no personal data (`sendDefaultPii` off and every event scrubbed by `beforeSend`).
 */
export function initServerErrorReporting(env: Pick<Env, "SENTRY_DSN" | "NODE_ENV" | "APP_MODE">): boolean {
  if (!env.SENTRY_DSN || env.NODE_ENV === "development") return false;
  Sentry.init({
    dsn: env.SENTRY_DSN,
    environment: env.APP_MODE,
    tracesSampleRate: TRACES_SAMPLE_RATE,
    sendDefaultPii: false,
    beforeSend: (event, hint) => beforeSend(event, hint),
  });
  return true;
}

/** What the browser needs to report its own errors (root loader), or null when it must not. */
export function browserErrorReporting(
  env: Pick<Env, "SENTRY_DSN" | "NODE_ENV" | "APP_MODE">,
): { dsn: string; environment: string; origin: string } | null {
  if (!env.SENTRY_DSN || env.NODE_ENV === "development") return null;
  try {
    return { dsn: env.SENTRY_DSN, environment: env.APP_MODE, origin: new URL(env.SENTRY_DSN).origin };
  } catch {
    return null;
  }
}

/** Reports an unexpected error (a no-op unless initialised); network errors are left out. */
export function reportError(error: unknown): void {
  if (isNetworkError(error)) return;
  Sentry.captureException(error);
}

export { Sentry };
