import * as Sentry from "@sentry/react-router";
import { beforeSend, TRACES_SAMPLE_RATE } from "./domain/error-reporting";

let started = false;

/**
 * Sentry in the browser (issue 16 §9), loaded after hydration and only when SENTRY_DSN is set (its own
 * chunk: pages without it load nothing). The same rules as the server: 5 % of traces, network errors
 * dropped, a 401 as a warning, every event scrubbed of personal data.
 */
export function initBrowserErrorReporting({ dsn, environment }: { dsn: string; environment: string }): void {
  if (started) return;
  started = true;
  Sentry.init({
    dsn,
    environment,
    tracesSampleRate: TRACES_SAMPLE_RATE,
    sendDefaultPii: false,
    integrations: [Sentry.reactRouterTracingIntegration()],
    beforeSend: (event, hint) => beforeSend(event, hint),
  });
}
