import type { DB } from "../../db";
import type { Env } from "../../env";
import type { AnalyticsProvider } from "./port";
import { PostHogAnalytics } from "./posthog";
import { SandboxAnalytics } from "./sandbox";

/** The ANALYTICS_KEY that selects the sandbox adapter (sandbox mode only). */
export const SANDBOX_ANALYTICS_KEY = "sandbox";

/**
 * Product analytics is configured by ANALYTICS_KEY: unset, none (the feedback entry is hidden and
 * nothing is recorded); `sandbox` in sandbox mode, the events kept in the database; any other key,
 * PostHog at ANALYTICS_HOST.
 */
export function createAnalytics(env: Env, db: DB): AnalyticsProvider | null {
  if (!env.ANALYTICS_KEY) return null;
  if (env.ANALYTICS_KEY === SANDBOX_ANALYTICS_KEY && env.sandbox) return new SandboxAnalytics(db);
  return new PostHogAnalytics({ apiKey: env.ANALYTICS_KEY, host: env.ANALYTICS_HOST });
}

export type { AnalyticsProvider, AnalyticsEvent, EventProperties, Survey } from "./port";
