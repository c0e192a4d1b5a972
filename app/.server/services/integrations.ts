import type { DB } from "../db";
import { newId, nowIso } from "../ids";
import type { PartnerLinks } from "../providers/partner-links";
import type { AnalyticsProvider } from "../providers/analytics";
import type { Logger } from "../logger";
import { recordInBackground } from "./tag-events";
import { getAccount } from "./accounts";
import { failureOf, isPartnerId, visiblePartners, type PartnerFailure, type PartnerId } from "~/domain/integrations";

/**
 * The integrations page (issue 16, spec 000 §2, §6, §7): the services and partners a user sees, and the
 * opening of a partner through the partner-link provider. Each opening is recorded with its outcome
 * (`partner_openings`) and is the tag manager's clickPartner event (issue 16 item 7, decision 0031),
 * recorded through the analytics service with the person's consent, for a partner of their own only.
 */

export interface IntegrationsView {
  services: { expenseRequests: boolean; allowances: boolean };
  partners: PartnerId[];
}

/** What this user's integrations page shows (null: no such active account). */
export async function getIntegrations(db: DB, userId: string): Promise<IntegrationsView | null> {
  const account = await getAccount(db, userId);
  if (!account) return null;
  return {
    services: {
      expenseRequests: account.features.expenseRequests.any === true,
      allowances: account.features.allowances.any === true,
    },
    partners: visiblePartners(account.features.integrations),
  };
}

export type OpenPartnerResult =
  | { kind: "opened"; url: string }
  /** A forged partner name, or one this user's flags do not show: 404, nothing asked, nothing recorded. */
  | { kind: "unknownPartner" }
  | { kind: "refused"; message: PartnerFailure };

export interface OpenPartnerDeps {
  db: DB;
  partnerLinks: PartnerLinks;
  /** The platform's analytics and logger: the clickPartner event (left out: not recorded). */
  analytics?: AnalyticsProvider | null;
  logger?: Logger;
}

/** Asks the partner for this user's link; records the opening (opened, no_access, failed). */
export async function openPartner(
  deps: OpenPartnerDeps,
  userId: string,
  partner: unknown,
  now = new Date(),
): Promise<OpenPartnerResult> {
  const account = await getAccount(deps.db, userId);
  if (!account || !isPartnerId(partner) || !visiblePartners(account.features.integrations).includes(partner))
    return { kind: "unknownPartner" };
  // The click counts whatever the partner answers; the page does not wait for the analytics provider.
  if (deps.analytics && deps.logger)
    void recordInBackground({ db: deps.db, analytics: deps.analytics, logger: deps.logger }, userId, {
      name: "clickPartner",
      properties: { partner },
    });
  const answer = await deps.partnerLinks.link({ partner, userId, email: account.email });
  const outcome = answer.kind === "url" ? "opened" : answer.kind;
  await deps.db
    .insertInto("partner_openings")
    .values({
      id: newId("pop"),
      user_id: userId,
      partner,
      outcome,
      provider: deps.partnerLinks.name,
      created_at: nowIso(now),
    })
    .execute();
  switch (answer.kind) {
    case "url":
      return { kind: "opened", url: answer.url };
    case "noAccess":
      return { kind: "refused", message: "noAccess" };
    case "failed":
      return { kind: "refused", message: failureOf(partner) };
  }
}

/** A user's recorded openings, newest first (their own only). */
export async function listPartnerOpenings(db: DB, userId: string) {
  return db
    .selectFrom("partner_openings")
    .select(["partner", "outcome", "created_at"])
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
}
