import type { DB } from "../../db";
import { nowIso } from "../../ids";
import { hashSecret, newSecretToken } from "../../tokens";
import type { PartnerLinkRequest, PartnerLinkResult, PartnerLinks } from "./port";
import { isPartnerId, requiresAccess, type PartnerId } from "~/domain/integrations";

/** A sandbox partner link is valid this long, and once. */
export const SANDBOX_LINK_TTL_MS = 2 * 60 * 1000;

/**
 * The sandbox partners: each link is a random token (only its hash stored) to the portal's own
 * /sandbox-partner/<token> page, valid two minutes and once. Klaro answers `has_access` from
 * `sandbox_partner_access` (no row: access), which /dev/partners turns off and on.
 */
export class SandboxPartnerLinks implements PartnerLinks {
  readonly name = "sandbox" as const;

  constructor(
    private readonly db: DB,
    private readonly baseUrl: string,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async link({ partner, userId }: PartnerLinkRequest): Promise<PartnerLinkResult> {
    if (requiresAccess(partner) && !(await hasSandboxAccess(this.db, userId, partner))) return { kind: "noAccess" };
    const token = newSecretToken();
    const now = this.clock();
    await this.db
      .insertInto("sandbox_partner_links")
      .values({
        token_hash: hashSecret(token),
        user_id: userId,
        partner,
        expires_at: nowIso(new Date(now.getTime() + SANDBOX_LINK_TTL_MS)),
        used_at: null,
        created_at: nowIso(now),
      })
      .execute();
    return { kind: "url", url: `${this.baseUrl}/sandbox-partner/${token}` };
  }
}

export function isSandboxPartnerLinks(links: PartnerLinks): links is SandboxPartnerLinks {
  return links instanceof SandboxPartnerLinks;
}

export async function hasSandboxAccess(db: DB, userId: string, partner: PartnerId): Promise<boolean> {
  const row = await db
    .selectFrom("sandbox_partner_access")
    .select("has_access")
    .where("user_id", "=", userId)
    .where("partner", "=", partner)
    .executeTakeFirst();
  return row === undefined || row.has_access === 1;
}

/** The sandbox's switch (the /dev/partners page): this user's access to this partner. */
export async function setSandboxAccess(
  db: DB,
  userId: string,
  partner: PartnerId,
  hasAccess: boolean,
  now = new Date(),
): Promise<void> {
  await db
    .insertInto("sandbox_partner_access")
    .values({ user_id: userId, partner, has_access: hasAccess ? 1 : 0, updated_at: nowIso(now) })
    .onConflict((oc) =>
      oc.columns(["user_id", "partner"]).doUpdateSet({ has_access: hasAccess ? 1 : 0, updated_at: nowIso(now) }),
    )
    .execute();
}

export type RedeemResult = { kind: "valid"; partner: PartnerId; userId: string } | { kind: "invalid" };

/**
 * The sandbox partner page's check of its link: a known token, not expired, not used; it is used by
 * this call (a second visit, or a concurrent one, finds it used). Unknown, expired and used links are
 * told apart from nothing: all are "invalid".
 */
export async function redeemSandboxPartnerLink(db: DB, token: string, now = new Date()): Promise<RedeemResult> {
  if (token.length === 0 || token.length > 100) return { kind: "invalid" };
  const hash = hashSecret(token);
  const used = await db
    .updateTable("sandbox_partner_links")
    .set({ used_at: nowIso(now) })
    .where("token_hash", "=", hash)
    .where("used_at", "is", null)
    .where("expires_at", ">", nowIso(now))
    .returning(["partner", "user_id"])
    .executeTakeFirst();
  if (!used || !isPartnerId(used.partner)) return { kind: "invalid" };
  return { kind: "valid", partner: used.partner, userId: used.user_id };
}

/** The sandbox switch by e-mail (the /dev/partners page): false when no account has this e-mail. */
export async function setSandboxAccessByEmail(
  db: DB,
  email: string,
  partner: PartnerId,
  hasAccess: boolean,
  now = new Date(),
): Promise<boolean> {
  const user = await db
    .selectFrom("users")
    .select("id")
    .where("email", "=", email.trim().toLowerCase())
    .executeTakeFirst();
  if (!user) return false;
  await setSandboxAccess(db, user.id, partner, hasAccess, now);
  return true;
}
