import type { DB } from "../db";
import { getAccount } from "./accounts";
import { listCards } from "./cards";
import { listWalletNames } from "./wallets";
import { getConsent, recordEvent, type AnalyticsDeps, type RecordResult } from "./analytics";
import { planFeaturesOf, planTabs } from "~/domain/plans";
import { tagManagerScriptUrl, type ClickEvent, type TagEvent } from "~/domain/tag-events";

/**
 * The tag manager's events on the server (issue 16 §7, decision 0031): recorded through the analytics
 * service, which looks at the person's consent first. A click reported by a link's ping names its
 * target: only a target of this person's own side menu is recorded, anything else is refused.
 */

/** The side menu's entries for this person (routes/shell/layout.tsx: SideNav, and SectionsNav's sections). */
export async function menuTargets(db: DB, userId: string): Promise<Set<string>> {
  const account = await getAccount(db, userId);
  if (!account) return new Set();
  const [cards, wallets] = await Promise.all([listCards(db, userId), listWalletNames(db, userId)]);
  return new Set([
    "/cards",
    "/wallets",
    ...cards.map((card) => `/cards/${card.id}`),
    ...wallets.map((wallet) => `/wallets/${wallet.id}`),
    ...planTabs(planFeaturesOf(account)).map((tab) => tab.path),
    "/store-locator",
  ]);
}

export type ClickResult = RecordResult | { kind: "refused" };

/** Records a link's click: a menu click only with one of this person's menu targets (else refused, nothing recorded). */
export async function recordClick(deps: AnalyticsDeps, userId: string, event: ClickEvent): Promise<ClickResult> {
  if (event.name === "clickMenu" && !(await menuTargets(deps.db, userId)).has(event.properties.target))
    return { kind: "refused" };
  return recordEvent(deps, userId, event.name, event.properties);
}

/**
 * Records an event without making the page wait for the provider (PostHog may take its whole timeout):
 * the answer goes on at once, and a failure is logged by recordEvent, which never throws. The promise is
 * returned for the tests; pages leave it (`void`).
 */
export function recordInBackground(deps: AnalyticsDeps, userId: string, event: TagEvent): Promise<RecordResult> {
  return recordEvent(deps, userId, event.name, event.properties);
}

/**
 * The tag manager in this person's browser: only with a TAG_MANAGER_ID and once they accepted the tag
 * manager on /cookies (CNIL: nothing before consent); null otherwise (no snippet, no dataLayer).
 */
export async function tagManagerFor(
  db: DB,
  tagManagerId: string | undefined,
  userId: string | null,
): Promise<{ scriptUrl: string | null } | null> {
  if (!tagManagerId || !userId) return null;
  if (!(await getConsent(db, userId)).tagManager) return null;
  return { scriptUrl: tagManagerScriptUrl(tagManagerId) };
}
