import type { DB } from "../db";
import { nowIso } from "../ids";
import type { Logger } from "../logger";
import type { AnalyticsProvider, EventProperties } from "../providers/analytics";
import { TAG_EVENT_NAMES } from "~/domain/tag-events";
import { prepared, type Argument } from "../db/prepared";

/**
 * Consent and product analytics (spec 000 §7, §8, issue 16). CNIL rules: before a person accepts,
 * nothing but the strictly necessary cookies and no analytics call at all — so every event goes
 * through `recordEvent`, which looks at the person's recorded choice first.
 */
export interface Consent {
  analytics: boolean;
  tagManager: boolean;
  /** When the choice was made; null: never asked (everything refused). */
  decidedAt: string | null;
}

export const REFUSED: Consent = { analytics: false, tagManager: false, decidedAt: null };

const consentOf = prepared((db, arg: Argument<{ userId: string }>) =>
  db.selectFrom("consents").select(["analytics", "tag_manager", "decided_at"]).where("user_id", "=", arg("userId")),
);

export async function getConsent(db: DB, userId: string): Promise<Consent> {
  const row = await consentOf.first(db, { userId });
  if (!row) return REFUSED;
  return { analytics: row.analytics === 1, tagManager: row.tag_manager === 1, decidedAt: row.decided_at };
}

export async function saveConsent(
  db: DB,
  userId: string,
  choice: { analytics: boolean; tagManager: boolean },
  now: Date = new Date(),
): Promise<Consent> {
  const values = {
    analytics: choice.analytics ? 1 : 0,
    tag_manager: choice.tagManager ? 1 : 0,
    decided_at: nowIso(now),
  };
  await db
    .insertInto("consents")
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column("user_id").doUpdateSet(values))
    .execute();
  return { ...choice, decidedAt: values.decided_at };
}

export interface AnalyticsDeps {
  db: DB;
  analytics: AnalyticsProvider | null;
  logger: Logger;
}

/** The events of spec 000 §7 (analytics: the survey's) and issue 16 §7 (the tag manager's). */
export const EVENT_NAMES = ["survey shown", "survey dismissed", "survey sent", ...TAG_EVENT_NAMES] as const;
export type EventName = (typeof EVENT_NAMES)[number];

/** The tag-manager events (the rest are the survey's, analytics only). */
const TAG_MANAGER_EVENTS: ReadonlySet<EventName> = new Set(TAG_EVENT_NAMES);

/** Whether this choice lets this event be recorded: analytics covers all, the tag manager its own events. */
function allows(consent: Consent, name: EventName): boolean {
  return consent.analytics || (TAG_MANAGER_EVENTS.has(name) && consent.tagManager);
}

/**
 * Whether the server would record this person's tag-manager events (analytics configured and either
 * choice accepted): the links carry their `ping` only then (decision 0031), so nothing is sent for nothing.
 */
export async function recordsTagEvents(deps: Pick<AnalyticsDeps, "db" | "analytics">, userId: string) {
  if (!deps.analytics) return false;
  const consent = await getConsent(deps.db, userId);
  return consent.analytics || consent.tagManager;
}

export type RecordResult =
  { kind: "recorded" } | { kind: "notConfigured" } | { kind: "noConsent" } | { kind: "failed" };

/**
 * Records one event of this user through the analytics provider, only when analytics is configured
 * and the user accepted analytics (or, for a tag-manager event, the tag manager). Never throws: an
 * unreachable provider is logged and the page goes on (`failed` lets the survey say so).
 */
export async function recordEvent(
  deps: AnalyticsDeps,
  userId: string,
  name: EventName,
  properties: EventProperties = {},
): Promise<RecordResult> {
  if (!deps.analytics) return { kind: "notConfigured" };
  try {
    if (!allows(await getConsent(deps.db, userId), name)) return { kind: "noConsent" };
    await deps.analytics.capture({ userId, name, properties });
    return { kind: "recorded" };
  } catch (err) {
    deps.logger.warn("analytics event not recorded", { name, error: String(err) });
    return { kind: "failed" };
  }
}

/** Ties this user's events together (PostHog `identify`), only with analytics accepted. */
export async function identifyUser(deps: AnalyticsDeps, userId: string, properties: EventProperties = {}) {
  if (!deps.analytics) return { kind: "notConfigured" } as const;
  if (!(await getConsent(deps.db, userId)).analytics) return { kind: "noConsent" } as const;
  try {
    await deps.analytics.identify(userId, properties);
    return { kind: "recorded" } as const;
  } catch (err) {
    deps.logger.warn("analytics identify failed", { error: String(err) });
    return { kind: "failed" } as const;
  }
}
