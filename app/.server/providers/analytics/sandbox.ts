import type { DB } from "../../db";
import { newId, nowIso } from "../../ids";
import type { AnalyticsEvent, AnalyticsProvider, EventProperties, Survey } from "./port";

/** The sandbox survey: one question, always active. */
export const SANDBOX_SURVEY: Survey = {
  id: "sandbox-survey",
  question: "Que pourrions-nous améliorer dans le portail ?",
};

/** Keeps every event in the analytics_events table instead of sending it anywhere (offline). */
export class SandboxAnalytics implements AnalyticsProvider {
  readonly name = "sandbox";
  constructor(private readonly db: DB) {}

  async capture(event: AnalyticsEvent): Promise<void> {
    await this.db
      .insertInto("analytics_events")
      .values({
        id: newId("evt"),
        user_id: event.userId,
        name: event.name,
        properties: JSON.stringify(event.properties),
        created_at: nowIso(),
      })
      .execute();
  }

  async identify(userId: string, properties: EventProperties): Promise<void> {
    await this.capture({ userId, name: "$identify", properties });
  }

  async activeSurvey(): Promise<Survey | null> {
    return SANDBOX_SURVEY;
  }

  async close(): Promise<void> {}
}

export interface RecordedEvent {
  name: string;
  properties: EventProperties;
  createdAt: string;
}

/** The events recorded for one user, oldest first (tests and the sandbox pages). */
export async function listRecordedEvents(db: DB, userId: string): Promise<RecordedEvent[]> {
  const rows = await db
    .selectFrom("analytics_events")
    .select(["name", "properties", "created_at"])
    .where("user_id", "=", userId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map((r) => ({
    name: r.name,
    properties: JSON.parse(r.properties) as EventProperties,
    createdAt: r.created_at,
  }));
}
