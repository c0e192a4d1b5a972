import { PostHog } from "posthog-node";
import type { AnalyticsEvent, AnalyticsProvider, EventProperties, Survey } from "./port";

export interface PostHogOptions {
  /** The project's API key (ANALYTICS_KEY). */
  apiKey: string;
  /** https://eu.i.posthog.com, or a local stand-in in tests. */
  host: string;
  timeoutMs?: number;
}

interface PostHogSurveyAnswer {
  surveys?: {
    id?: unknown;
    type?: unknown;
    start_date?: unknown;
    end_date?: unknown;
    questions?: { type?: unknown; question?: unknown }[];
  }[];
}

/**
 * PostHog through posthog-node, called by the server so that events count without JavaScript. Each
 * call is sent at once (captureImmediate): the portal records few events and must not lose them.
 */
export class PostHogAnalytics implements AnalyticsProvider {
  readonly name = "posthog";
  private readonly client: PostHog;

  constructor(private readonly options: PostHogOptions) {
    this.client = new PostHog(options.apiKey, {
      host: options.host,
      flushAt: 1,
      flushInterval: 0,
      requestTimeout: options.timeoutMs ?? 3000,
      disableGeoip: true,
    });
  }

  async capture(event: AnalyticsEvent): Promise<void> {
    await this.client.captureImmediate({
      distinctId: event.userId,
      event: event.name,
      properties: event.properties,
    });
  }

  async identify(userId: string, properties: EventProperties): Promise<void> {
    await this.client.identifyImmediate({ distinctId: userId, properties });
  }

  /** PostHog's public surveys endpoint: the first running survey whose first question is open text. */
  async activeSurvey(): Promise<Survey | null> {
    const url = new URL("/api/surveys/", this.options.host);
    url.searchParams.set("token", this.options.apiKey);
    const response = await fetch(url, { signal: AbortSignal.timeout(this.options.timeoutMs ?? 3000) });
    if (!response.ok) throw new Error(`PostHog surveys: HTTP ${response.status}`);
    const answer = (await response.json()) as PostHogSurveyAnswer;
    for (const survey of answer.surveys ?? []) {
      const question = survey.questions?.[0];
      const running = typeof survey.start_date === "string" && !survey.end_date;
      if (
        running &&
        typeof survey.id === "string" &&
        question?.type === "open" &&
        typeof question.question === "string"
      )
        return { id: survey.id, question: question.question };
    }
    return null;
  }

  async close(): Promise<void> {
    await this.client.shutdown();
  }
}
