/** Product analytics (spec 000 §7): events, who they are about, and the survey shown by /feedback. */
export type EventProperties = Record<string, string | number | boolean | null>;

export interface AnalyticsEvent {
  /** The portal's user id (never an e-mail or a name). */
  userId: string;
  name: string;
  properties: EventProperties;
}

/** The survey the provider runs now: one open question (spec 000 §2 "feedback survey modal"). */
export interface Survey {
  id: string;
  question: string;
}

export interface AnalyticsProvider {
  readonly name: string;
  capture(event: AnalyticsEvent): Promise<void>;
  /** Ties the events of this user id together (PostHog `identify`); properties carry no personal data. */
  identify(userId: string, properties: EventProperties): Promise<void>;
  /** The active survey, or null when none runs; throws when the provider cannot be reached. */
  activeSurvey(): Promise<Survey | null>;
  close(): Promise<void>;
}
